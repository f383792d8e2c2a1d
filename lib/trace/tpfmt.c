// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <event-parse.h>
#include <trace-seq.h>
#include "lib/data/tracing_data.h"
#include "lib/session/session.h"
#include "lib/trace/tpfmt.h"

const char *tpfmt_format(
	struct tpfmt *f, struct tep_handle *tep, const void *raw, size_t size, uint64_t ts, int cpu)
{
	struct tep_record rec;
	struct trace_seq seq;

	strbuf_reset(&f->text);
	if (!tep || !raw || !size)
		return f->text.buf;
	memset(&rec, 0, sizeof(rec));
	rec.ts = ts;
	rec.cpu = cpu;
	rec.size = (int)size;
	rec.data = (void *)raw;
	if (!tep_find_event_by_record(tep, &rec))
		return f->text.buf;
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	strbuf_add(&f->text, seq.buffer, seq.len);
	trace_seq_destroy(&seq);
	return f->text.buf;
}

/* libtraceevent's resolver: the name of the kernel symbol holding *addrp, *addrp moved to its
 * start (the offset printed after '+' is taken from it). Names live as long as the session. */
static char *resolve_kernel(void *priv, unsigned long long *addrp, char **modp)
{
	struct frame fr;

	if (!session_kernel_addr(priv, *addrp, &fr) || !fr.sym)
		return NULL;
	*modp = fr.dso && fr.dso->kind == DSO_KMODULE ? (char *)fr.dso->short_name : NULL;
	*addrp -= fr.dso_ip - fr.sym->start;
	return (char *)fr.sym->name;
}

void tpfmt_name_kernel(struct tep_handle *tep, struct session *sess)
{
	if (tep && sess)
		tep_set_function_resolver(tep, resolve_kernel, sess);
}

const char *tpfmt_sample(struct tpfmt *f, struct session *sess, const struct perf_sample *s)
{
	struct tep_handle *tep;

	if (!s->raw || !s->raw_size) {
		strbuf_reset(&f->text);
		return f->text.buf;
	}
	tep = perf_data_tep(sess->pd);
	if (tep && f->named != tep) {
		tpfmt_name_kernel(tep, sess);
		f->named = tep;
	}
	return tpfmt_format(f, tep, s->raw, s->raw_size, s->time, (int)s->cpu);
}

void tpfmt_release(struct tpfmt *f)
{
	strbuf_release(&f->text);
	f->named = NULL;
}
