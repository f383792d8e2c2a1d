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
#include "lib/base/arena.h"
#include "lib/base/err.h"
#include "lib/base/hashmap.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"

/* A frame already folded: the names collapse_frame() made for it. */
struct cached {
	const void *sym, *dso;
	uint64_t addr;
	bool java;
	uint32_t len;
	const char *block;
	struct cached *next;
};

struct data_ctx {
	struct collapse *c;
	struct session *sess;
	struct script_trace trace;
	struct strbuf line;
	struct hashmap cache;	/* key hash -> chain of struct cached */
	struct arena arena;
	bool addrs;
};

/* Decimal digits of v at p (no NUL); returns the length. */
static size_t put_u64(char *p, uint64_t v, int width, char pad)
{
	char tmp[24];
	size_t n = 0, i = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	for (; (int)(n + i) < width; i++)
		p[i] = pad;
	while (n)
		p[i++] = tmp[--n];
	return i;
}

/* The header line perf script prints (comm pid/tid [cpu] sec.usec: period event: fields);
 * formatted by hand, it is made once per sample. */
static int header(struct data_ctx *x, const struct resolved_sample *rs)
{
	const struct perf_sample *s = rs->s;
	const struct perf_event_attr *a = &rs->attr->attr;
	const char *comm = rs->thread && rs->thread->comm ? rs->thread->comm : ":-1";
	const char *ev = rs->attr->name ? rs->attr->name : "";
	char *p;
	int err;

	strbuf_reset(&x->line);
	if (strbuf_grow(&x->line, strlen(comm) + strlen(ev) + 128))
		return -ENOMEM;
	p = x->line.buf;
	p = stpcpy(p, comm);
	*p++ = ' ';
	p += put_u64(p, s->pid, 5, ' ');
	*p++ = '/';
	p += put_u64(p, s->tid, 0, ' ');
	p = stpcpy(p, " [");
	p += put_u64(p, s->cpu, 3, '0');
	p = stpcpy(p, "] ");
	p += put_u64(p, s->time / 1000000000, 5, ' ');
	*p++ = '.';
	p += put_u64(p, s->time % 1000000000 / 1000, 6, '0');
	p = stpcpy(p, ": ");
	if (a->type != PERF_TYPE_TRACEPOINT) {
		p += put_u64(p, s->period, 10, ' ');
		*p++ = ' ';
	}
	p = stpcpy(p, ev);
	p = stpcpy(p, ": ");
	strbuf_setlen(&x->line, (size_t)(p - x->line.buf));
	err = 0;
	if (a->type == PERF_TYPE_TRACEPOINT)
		err = strbuf_adds(&x->line, script_trace_text(&x->trace, x->sess->pd, s));
	return err ? err : collapse_header(x->c, x->line.buf, x->line.len, (double)s->time / 1e9);
}

/* Folds frame f, or replays the names folded for an identical frame before. */
static int fold_frame(struct data_ctx *x, const struct frame *f)
{
	bool java = collapse_java(x->c);
	uint64_t addr = !f->sym && x->addrs ? f->addr : 0;
	uint64_t key = hash_u64((uintptr_t)f->sym ^ hash_u64((uintptr_t)f->dso ^ addr) ^ java);
	void **slot = hashmap_slot(&x->cache, key);
	struct cached *e;
	const char *block;
	char pc[24];
	size_t len;
	int err;

	if (!slot)
		return -ENOMEM;
	for (e = *slot; e; e = e->next)
		if (e->sym == f->sym && e->dso == f->dso && e->addr == addr && e->java == java)
			return collapse_push_block(x->c, e->block, e->len);
	snprintf(pc, sizeof(pc), "%" PRIx64, f->addr);
	err = collapse_frame_block(x->c, pc, frame_sym_name(f), frame_dso_long(f), &block, &len);
	if (err)
		return err;
	e = arena_alloc(&x->arena, sizeof(*e));
	if (!e || !(e->block = arena_strndup(&x->arena, block ? block : "", len)))
		return -ENOMEM;
	e->sym = f->sym;
	e->dso = f->dso;
	e->addr = addr;
	e->java = java;
	e->len = (uint32_t)len;
	e->next = *slot;
	*slot = e;
	return 0;
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct data_ctx *x = ctx;
	size_t i;
	int err = header(x, rs);

	for (i = 0; i < rs->nr_frames && !err && collapse_active(x->c); i++)
		err = fold_frame(x, &rs->frames[i]);
	return err ? err : collapse_end(x->c);
}

int fg_collapse_data(const char *path, const struct fg_cli *cli, struct collapse *c)
{
	struct session_opts so = { .open_flags = cli->force ? PD_FORCE : 0, .ordered = true };
	struct data_ctx x = { .c = c, .line = STRBUF_INIT, .addrs = cli->co.addrs };
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
	hashmap_release(&x.cache);
	arena_release(&x.arena);
	strbuf_release(&x.line);
	return err;
}
