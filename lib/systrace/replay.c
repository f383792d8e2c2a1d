// SPDX-License-Identifier: GPL-2.0
/*
 * replay: raw_syscalls samples of a recording into a systrace (see replay.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "lib/base/err.h"
#include "lib/data/tracing_data.h"
#include "lib/session/session.h"
#include "lib/systrace/replay.h"

enum { EV_NONE, EV_ENTER, EV_EXIT };

/* Where a raw_syscalls event keeps its fields in a RAW record */
struct rs_event {
	int kind;
	int id_off, id_size;
	int args_off;		/* sys_enter: 6 unsigned longs */
	int ret_off;		/* sys_exit */
};

struct replay {
	struct systrace *st;
	struct rs_event *ev;	/* by attr index */
	size_t nr_ev;
	systrace_rec_fn fn;
	void *ctx;
	uint64_t samples;
};

static int field_off(struct tep_event *e, const char *name, int size)
{
	struct tep_format_field *f = tep_find_field(e, name);

	return f && f->offset >= 0 && f->size == size ? f->offset : -1;
}

/* The attrs that are raw_syscalls:sys_enter / sys_exit, with their fields' offsets. */
static int classify(struct replay *rp, struct perf_data *pd)
{
	struct tep_handle *tep = perf_data_tep(pd);
	size_t i, found = 0;

	rp->ev = calloc(pd->nr_attrs ? pd->nr_attrs : 1, sizeof(*rp->ev));
	if (!rp->ev)
		return -ENOMEM;
	rp->nr_ev = pd->nr_attrs;
	for (i = 0; i < pd->nr_attrs && tep; i++) {
		struct rs_event *ev = &rp->ev[i];
		struct tep_event *e;

		if (pd->attrs[i].attr.type != PERF_TYPE_TRACEPOINT ||
		    !(pd->attrs[i].attr.sample_type & PERF_SAMPLE_RAW))
			continue;
		e = tep_find_event(tep, (int)pd->attrs[i].attr.config);
		if (!e || !e->system || strcmp(e->system, "raw_syscalls") || !e->name)
			continue;
		ev->id_off = field_off(e, "id", 8);
		ev->args_off = field_off(e, "args", 48);
		ev->ret_off = field_off(e, "ret", 8);
		if (!strcmp(e->name, "sys_enter") && ev->id_off >= 0 && ev->args_off >= 0)
			ev->kind = EV_ENTER;
		else if (!strcmp(e->name, "sys_exit") && ev->id_off >= 0 && ev->ret_off >= 0)
			ev->kind = EV_EXIT;
		found += ev->kind != EV_NONE;
	}
	return found ? 0 : -ENOENT;
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct replay *rp = ctx;
	const struct perf_sample *s = rs->s;
	const unsigned char *raw = s->raw;
	size_t idx = rs->attr ? (size_t)rs->attr->idx : rp->nr_ev;
	const struct rs_event *ev;
	struct st_sample ss = { 0 };

	if (idx >= rp->nr_ev || rp->ev[idx].kind == EV_NONE || !raw)
		return 0;
	ev = &rp->ev[idx];
	if ((uint64_t)ev->id_off + 8 > s->raw_size ||
	    (ev->kind == EV_ENTER && (uint64_t)ev->args_off + 48 > s->raw_size) ||
	    (ev->kind == EV_EXIT && (uint64_t)ev->ret_off + 8 > s->raw_size))
		return 0;
	ss.time = s->time;
	ss.pid = s->pid;
	ss.tid = s->tid;
	ss.cpu = s->cpu;
	ss.enter = ev->kind == EV_ENTER;
	memcpy(&ss.id, raw + ev->id_off, 8);
	if (ss.enter)
		memcpy(ss.a, raw + ev->args_off, 48);
	else
		memcpy(&ss.a[0], raw + ev->ret_off, 8);
	rp->samples++;
	return systrace_feed(rp->st, &ss, rs->thread ? rs->thread->comm : NULL, rp->fn, rp->ctx);
}

int systrace_replay(struct systrace *st, const char *path, unsigned int open_flags,
		    systrace_rec_fn fn, void *ctx, struct st_replay_stats *stats, char *errbuf,
		    size_t errlen)
{
	struct session_opts so = { .open_flags = open_flags, .no_resolve = true };
	struct replay rp = { .st = st, .fn = fn, .ctx = ctx };
	struct session *sess;
	int err;

	err = session_open(path, &so, &sess, errbuf, errlen);
	if (err)
		return err;
	err = classify(&rp, sess->pd);
	if (err == -ENOENT) {
		snprintf(errbuf, errlen, "it has no raw_syscalls:sys_enter or sys_exit events "
			 "(record them with flare trace record)");
		err = -ERR_FORMAT;
	} else if (!err) {
		err = session_process(sess, on_sample, NULL, &rp);
		if (err == -ERR_FORMAT || err == -EINVAL)
			snprintf(errbuf, errlen, "%s", sess->pd->err_msg);
	}
	if (stats) {
		stats->samples = rp.samples;
		stats->lost = sess->nr_lost;
	}
	free(rp.ev);
	session_free(sess);
	return err;
}
