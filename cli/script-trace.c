// SPDX-License-Identifier: GPL-2.0
/*
 * script-trace: tracepoint RAW data through the event's print fmt (libtraceevent).
 */
#include <string.h>
#include <event-parse.h>
#include <trace-seq.h>
#include "cli/script-trace.h"
#include "lib/data/tracing_data.h"

/* The text built so far: "" when nothing was (a file whose tracing data cannot be read
 * decodes no event), never NULL. */
static const char *text_of(const struct script_trace *t)
{
	return t->text.buf ? t->text.buf : "";
}

const char *script_trace_text(struct script_trace *t, struct perf_data *pd,
			      const struct perf_sample *s)
{
	struct tep_handle *tep;
	struct tep_record rec;
	struct trace_seq seq;

	strbuf_reset(&t->text);
	if (!s->raw || !s->raw_size)
		return text_of(t);
	tep = perf_data_tep(pd);
	if (!tep)
		return text_of(t);
	memset(&rec, 0, sizeof(rec));
	rec.ts = s->time;
	rec.cpu = (int)s->cpu;
	rec.size = (int)s->raw_size;
	rec.data = (void *)s->raw;
	if (!tep_find_event_by_record(tep, &rec))
		return text_of(t);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	strbuf_add(&t->text, seq.buffer, seq.len);
	trace_seq_destroy(&seq);
	return text_of(t);
}

void script_trace_release(struct script_trace *t)
{
	strbuf_release(&t->text);
}
