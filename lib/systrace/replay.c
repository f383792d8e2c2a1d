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

enum { EV_NONE, EV_ENTER, EV_EXIT, EV_MAJFAULT, EV_MINFAULT };

/* Where a raw_syscalls event keeps its fields in a RAW record */
struct rs_event {
	int kind;
	int id_off, id_size;
	int args_off; /* sys_enter: 6 unsigned longs */
	int ret_off;  /* sys_exit */
};

struct replay {
	struct session *sess;
	struct systrace *st;
	struct rs_event *ev; /* by attr index */
	size_t nr_ev;
	systrace_rec_fn fn;
	systrace_fault_fn fault_fn;
	void *ctx;
	uint64_t samples;
};

/* perf trace's page fault events: major-faults, and minor-faults or page-faults as minor */
static int fault_kind(const struct perf_event_attr *a)
{
	if (a->type != PERF_TYPE_SOFTWARE)
		return EV_NONE;
	if (a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ)
		return EV_MAJFAULT;
	if (a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN || a->config == PERF_COUNT_SW_PAGE_FAULTS)
		return EV_MINFAULT;
	return EV_NONE;
}

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
	for (i = 0; i < pd->nr_attrs; i++) {
		struct rs_event *ev = &rp->ev[i];
		struct tep_event *e;

		ev->kind = fault_kind(&pd->attrs[i].attr);
		if (ev->kind != EV_NONE) {
			found++;
			continue;
		}
		if (pd->attrs[i].attr.type != PERF_TYPE_TRACEPOINT ||
		    !(pd->attrs[i].attr.sample_type & PERF_SAMPLE_RAW))
			continue;
		e = tep ? tep_find_event(tep, (int)pd->attrs[i].attr.config) : NULL;
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

static bool has_faults(const struct perf_data *pd)
{
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++)
		if (fault_kind(&pd->attrs[i].attr) != EV_NONE)
			return true;
	return false;
}

static char cpumode_level(uint16_t cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_USER:
		return '.';
	case PERF_RECORD_MISC_HYPERVISOR:
		return 'H';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	}
	return '?';
}

/* The fault's ip (the sample's resolved frame) and address (looked up as perf does: in the
 * maps of the ip's cpumode, so a kernel fault on a user address finds none). */
static int on_fault(struct replay *rp, const struct resolved_sample *rs, bool major)
{
	const struct perf_sample *s = rs->s;
	struct st_fault f = { .time = s->time,
			      .pid = s->pid,
			      .tid = s->tid,
			      .cpu = s->cpu,
			      .major = major,
			      .addr = s->addr };
	struct frame at = { 0 };

	f.comm = rs->thread ? rs->thread->comm : NULL;
	f.level = cpumode_level(s->cpumode);
	if (rs->nr_frames) {
		const struct frame *ip = &rs->frames[0];

		f.ip_mapped = ip->dso != NULL;
		f.ip_addr = ip->addr;
		if (ip->sym) {
			f.ip_sym = ip->sym->name;
			f.ip_off = ip->dso_ip - ip->sym->start;
		}
	}
	if (rs->thread)
		session_resolve_ip(rp->sess, rs->thread, (uint8_t)s->cpumode, s->addr, &at);
	if (at.dso) {
		f.dso = at.dso->long_name;
		f.addr = at.addr;
	} else if (rs->thread) {
		/* a data mapping: named, the address itself (perf's identity map) */
		f.dso = session_data_map(rp->sess, rs->thread, (uint8_t)s->cpumode, s->addr);
	}
	rp->samples++;
	return rp->fault_fn ? rp->fault_fn(rp->ctx, &f) : 0;
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct replay *rp = ctx;
	const struct perf_sample *s = rs->s;
	const unsigned char *raw = s->raw;
	size_t idx = rs->attr ? (size_t)rs->attr->idx : rp->nr_ev;
	const struct rs_event *ev;
	struct st_sample ss = { 0 };

	if (idx >= rp->nr_ev || rp->ev[idx].kind == EV_NONE)
		return 0;
	ev = &rp->ev[idx];
	if (ev->kind == EV_MAJFAULT || ev->kind == EV_MINFAULT)
		return on_fault(rp, rs, ev->kind == EV_MAJFAULT);
	if ((uint64_t)ev->id_off + 8 > s->raw_size ||
	    (ev->kind == EV_ENTER && (uint64_t)ev->args_off + 48 > s->raw_size) ||
	    (ev->kind == EV_EXIT && (uint64_t)ev->ret_off + 8 > s->raw_size))
		return 0;
	if (!raw)
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
		    systrace_rec_fn fn, systrace_fault_fn fault_fn, void *ctx,
		    struct st_replay_stats *stats, char *errbuf, size_t errlen)
{
	/* syscalls need no symbols; fault lines resolve the sample's ip (no call chains) */
	struct session_opts so = { .open_flags = open_flags, .no_resolve = true };
	struct replay rp = { .st = st, .fn = fn, .fault_fn = fault_fn, .ctx = ctx };
	struct session *sess;
	int err;

	err = session_open(path, &so, &sess, errbuf, errlen);
	if (!err && has_faults(sess->pd)) {
		session_free(sess);
		so.no_resolve = false;
		so.no_callchain = true;
		err = session_open(path, &so, &sess, errbuf, errlen);
	}
	if (err)
		return err;
	rp.sess = sess;
	err = classify(&rp, sess->pd);
	if (err == -ENOENT) {
		snprintf(errbuf, errlen,
			 "it has no raw_syscalls:sys_enter or sys_exit events "
			 "nor page faults (record them with flare trace record)");
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
