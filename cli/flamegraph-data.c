// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph from perf.data: replays the file through the session and feeds each sample to
 * the collapse as the lines `perf script` prints for it: the header (comm, pid/tid, time,
 * period, event, and a tracepoint's formatted fields) and one line per call-chain entry
 * (address, symbol or [unknown], dso path). So the folded stacks are those of
 * `perf script | stackcollapse-perf.pl` on the same file. A sample without a call chain
 * (a recording without -g) keeps its own frame, where perf script's one-line form would
 * give the Perl script nothing to fold.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/flamegraph.h"
#include "cli/out.h"
#include "cli/script-trace.h"
#include "lib/base/err.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"

struct data_ctx {
	struct collapse *c;
	struct session *sess;
	struct script_trace trace;
	struct strbuf line;
};

static int header(struct data_ctx *x, const struct resolved_sample *rs)
{
	const struct perf_sample *s = rs->s;
	const struct perf_event_attr *a = &rs->attr->attr;
	const char *comm = rs->thread && rs->thread->comm ? rs->thread->comm : ":-1";
	int err;

	strbuf_reset(&x->line);
	err = strbuf_addf(&x->line, "%s %5" PRIu32 "/%-5" PRIu32 " [%03" PRIu32 "] %5" PRIu64
			  ".%06" PRIu64 ": ", comm, s->pid, s->tid, s->cpu, s->time / 1000000000,
			  s->time % 1000000000 / 1000);
	if (!err && a->type != PERF_TYPE_TRACEPOINT)
		err = strbuf_addf(&x->line, "%10" PRIu64 " ", s->period);
	err = err ? err : strbuf_addf(&x->line, "%s: ", rs->attr->name ? rs->attr->name : "");
	if (!err && a->type == PERF_TYPE_TRACEPOINT)
		err = strbuf_adds(&x->line, script_trace_text(&x->trace, x->sess->pd, s));
	return err ? err : collapse_header(x->c, x->line.buf, x->line.len, (double)s->time / 1e9);
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct data_ctx *x = ctx;
	char pc[24];
	size_t i;
	int err = header(x, rs);

	for (i = 0; i < rs->nr_frames && !err; i++) {
		const struct frame *f = &rs->frames[i];

		snprintf(pc, sizeof(pc), "%" PRIx64, f->addr);
		err = collapse_frame(x->c, pc, frame_sym_name(f), frame_dso_long(f));
	}
	return err ? err : collapse_end(x->c);
}

int fg_collapse_data(const char *path, const struct fg_cli *cli, struct collapse *c)
{
	struct session_opts so = { .open_flags = cli->force ? PD_FORCE : 0, .ordered = true };
	struct data_ctx x = { .c = c, .line = STRBUF_INIT };
	char errbuf[256] = "";
	int err;

	x.trace.text = (struct strbuf)STRBUF_INIT;
	err = session_open(path, &so, &x.sess, errbuf, sizeof(errbuf));
	if (err) {
		pr_err("cannot read '%s': %s", path, *errbuf ? errbuf : err_str(err));
		return err;
	}
	err = session_process(x.sess, on_sample, NULL, &x);
	if (err)
		pr_err("cannot read '%s': %s", path,
		       x.sess->pd->err_msg[0] ? x.sess->pd->err_msg : err_str(err));
	session_free(x.sess);
	script_trace_release(&x.trace);
	strbuf_release(&x.line);
	return err;
}
