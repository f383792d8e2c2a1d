// SPDX-License-Identifier: GPL-2.0
/*
 * tpf: the perf_event_open fallback of systrace (see tpf.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/base/hashmap.h"
#include "lib/base/vec.h"
#include "lib/event/open.h"
#include "lib/event/ring.h"
#include "lib/event/target.h"
#include "lib/systrace/tpf.h"
#include "lib/trace/tp.h"

struct tpf {
	struct st_config cfg;
	bool replay; /* fed from a file: no tracefs, no /proc */
	size_t ring_pages;
	struct st_sysconf sc[ST_MAX_SYSCALLS];
	struct target tg;
	struct idlist skip;
	bool wait_exec;
	struct evfds enter, exit;
	struct ring *rings;
	size_t nr_rings;
	int epfd;
	uint64_t enter_tp, exit_tp; /* tracepoint ids: common_type of each sample */
	struct hashmap inflight;    /* tid -> struct st_inflight * */
	struct hashmap stats;	    /* tid << 32 | id -> struct st_stat * */
	struct hashmap errs;	    /* tid << 32 | id << 12 | errno -> uint64_t * */
	struct hashmap comms;	    /* tid -> char[16] */
	struct hashmap uids;	    /* pid -> uid + 1 (0: not looked up yet) */
	uint64_t *hist;		    /* [ST_MAX_SYSCALLS * ST_HIST_BUCKETS] */
	uint64_t lost;
	VEC(struct st_sample) batch;
	struct st_rec *rec;
	systrace_rec_fn fn;
	void *fn_ctx;
};

int tpf_open(const struct st_config *cfg, size_t ring_bytes, bool replay, struct tpf **ret)
{
	struct tpf *f = calloc(1, sizeof(*f));
	int err;

	if (!f)
		return -ENOMEM;
	f->cfg = *cfg;
	f->replay = replay;
	f->epfd = -1;
	for (f->ring_pages = 1; f->ring_pages * 4096 < ring_bytes / 4 && f->ring_pages < 4096;)
		f->ring_pages <<= 1;
	f->hist = calloc(ST_MAX_SYSCALLS * ST_HIST_BUCKETS, sizeof(*f->hist));
	f->rec = calloc(1, sizeof(*f->rec));
	err = !f->hist || !f->rec ? -ENOMEM : 0;
	if (!err && !replay)
		err = tp_id("raw_syscalls", "sys_enter", &f->enter_tp);
	if (!err && !replay)
		err = tp_id("raw_syscalls", "sys_exit", &f->exit_tp);
	if (err) {
		tpf_free(f);
		return err;
	}
	*ret = f;
	return 0;
}

int tpf_set_syscall(struct tpf *f, int nr, const struct st_sysconf *sc)
{
	if (nr < 0 || nr >= ST_MAX_SYSCALLS)
		return -EINVAL;
	f->sc[nr] = *sc;
	return 0;
}

int tpf_add_task(struct tpf *f, int tid, enum st_task_state state)
{
	if (state == ST_TASK_WAIT_EXEC)
		f->wait_exec = true;
	return idlist_add(&f->tg.tasks, tid);
}

int tpf_skip_pid(struct tpf *f, int pid)
{
	return idlist_add(&f->skip, pid);
}

static void tp_attr(struct tpf *f, struct perf_event_attr *a, uint64_t tp)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = tp;
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC; /* the BPF side's bpf_ktime_get_ns() */
	a->inherit = f->cfg.mode == ST_MODE_TASKS && f->cfg.follow;
	a->disabled = f->wait_exec;
	a->enable_on_exec = f->wait_exec; /* a command is traced from its exec, as perf */
	a->wakeup_events = 1;
}

/* One ring per CPU: the first fd opened on it, the others' output sent there. */
static int rings_setup(struct tpf *f)
{
	size_t nt = f->enter.nr_tasks, nc = f->enter.nr_cpus, c, k;
	struct epoll_event ev = { .events = EPOLLIN };
	int err;

	f->rings = calloc(nc, sizeof(*f->rings));
	f->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!f->rings || f->epfd < 0)
		return -ENOMEM;
	for (c = 0; c < nc; c++) {
		int lead = -1;

		for (k = 0; k < 2 * nt; k++) {
			const struct evfds *e = k < nt ? &f->enter : &f->exit;
			int fd = e->fd[(k % nt) * nc + c];

			if (fd < 0)
				continue;
			if (lead < 0) {
				lead = fd;
				err = ring_mmap(&f->rings[f->nr_rings], fd, target_cpu(&f->tg, c),
						f->ring_pages);
				if (err)
					return err;
				f->nr_rings++;
				ev.data.fd = fd;
				if (epoll_ctl(f->epfd, EPOLL_CTL_ADD, fd, &ev))
					return -errno;
			} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, lead)) {
				return -errno;
			}
		}
	}
	return 0;
}

/* -a: flare's own calls (and --filter-pids') are dropped in the kernel, or reading the rings
 * would feed them forever. */
static int skip_filter(struct tpf *f)
{
	char *filter = NULL, *next;
	size_t i;
	int err;

	for (i = 0; i < f->skip.nr; i++) {
		if (asprintf(&next, "%s%scommon_pid != %d", filter ? filter : "",
			     filter ? " && " : "", f->skip.ids[i]) < 0)
			next = NULL;
		free(filter);
		filter = next;
		if (!filter)
			return -ENOMEM;
	}
	err = evfds_set_filter(&f->enter, filter);
	if (!err)
		err = evfds_set_filter(&f->exit, filter);
	free(filter);
	return err;
}

int tpf_attach(struct tpf *f)
{
	struct perf_event_attr a;
	size_t i;
	int err;

	if (f->cfg.mode == ST_MODE_TASKS ||
	    !(f->cfg.cpu_mask[0] | f->cfg.cpu_mask[1] | f->cfg.cpu_mask[2] | f->cfg.cpu_mask[3])) {
		err = cpus_online(&f->tg.cpus);
	} else {
		for (i = 0, err = 0; i < 256 && !err; i++)
			if (f->cfg.cpu_mask[i >> 6] & (1ULL << (i & 63)))
				err = idlist_add(&f->tg.cpus, (int)i);
	}
	if (err)
		return err;
	tp_attr(f, &a, f->enter_tp);
	err = evfds_open(&f->enter, &a, &f->tg, NULL);
	if (err)
		return err;
	tp_attr(f, &a, f->exit_tp);
	err = evfds_open(&f->exit, &a, &f->tg, NULL);
	if (!err && f->cfg.mode == ST_MODE_ALL && f->skip.nr)
		err = skip_filter(f);
	return err ? err : rings_setup(f);
}

static const char *comm_of(struct tpf *f, uint32_t pid, uint32_t tid, bool reread)
{
	void **slot = hashmap_slot(&f->comms, tid);
	char path[64];
	ssize_t n;
	int fd;

	if (!slot)
		return ":?";
	if (*slot && (!reread || f->replay))
		return *slot;
	if (!*slot && !(*slot = calloc(1, 16)))
		return ":?";
	if (f->replay) {
		snprintf(*slot, 16, ":%u", tid);
		return *slot;
	}
	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, *slot, 15) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0) {
		((char *)*slot)[n] = 0;
		((char *)*slot)[strcspn(*slot, "\n")] = 0;
	} else {
		snprintf(*slot, 16, ":%u", tid);
	}
	return *slot;
}

static struct st_stat *stat_get(struct tpf *f, const struct st_sample *s)
{
	void **slot = hashmap_slot(&f->stats, (uint64_t)s->tid << 32 | (uint64_t)s->id);
	struct st_stat *st;

	if (!slot)
		return NULL;
	if (!*slot) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return NULL;
		st->min = ~0ULL;
		memcpy(st->comm, comm_of(f, s->pid, s->tid, false), 15);
		*slot = st;
	}
	return *slot;
}

static void account(struct tpf *f, const struct st_sample *s, int64_t ret, uint64_t dur, bool timed)
{
	struct st_stat *st = stat_get(f, s);
	unsigned __int128 sq;
	size_t b;

	if (!st)
		return;
	st->calls++;
	if (ret < 0 && ret > -4096) {
		void **e = hashmap_slot(&f->errs, (uint64_t)s->tid << 32 | (uint64_t)s->id << 12 |
							  (uint64_t)-ret);

		st->errors++;
		if (e && !*e)
			*e = calloc(1, sizeof(uint64_t));
		if (e && *e)
			(*(uint64_t *)*e)++;
	}
	if (!timed) {
		st->untimed++;
		st->min = 0;
		return;
	}
	st->total += dur;
	st->min = dur < st->min ? dur : st->min;
	st->max = dur > st->max ? dur : st->max;
	sq = ((unsigned __int128)st->sq_hi << 64 | st->sq_lo) + (unsigned __int128)dur * dur;
	st->sq_hi = (uint64_t)(sq >> 64);
	st->sq_lo = (uint64_t)sq;
	for (b = 0, dur >>= 10; dur && b < ST_HIST_BUCKETS - 1; b++)
		dur >>= 1;
	f->hist[s->id * ST_HIST_BUCKETS + b]++;
}

static int emit(struct tpf *f, const struct st_sample *s, uint32_t type, const uint64_t *args,
		int64_t ret, uint64_t dur)
{
	struct st_rec *r = f->rec;

	r->type = type;
	r->tid = s->tid;
	r->pid = s->pid;
	r->id = (uint32_t)s->id;
	r->cpu = s->cpu;
	r->ts = s->time;
	r->ret = ret;
	r->dur = dur;
	memcpy(r->args, args, sizeof(r->args));
	memcpy(r->comm, comm_of(f, s->pid, s->tid, false), 16);
	return f->fn(f->fn_ctx, r, offsetof(struct st_rec, data));
}

static int on_enter(struct tpf *f, const struct st_sample *s, const struct st_sysconf *sc)
{
	struct st_inflight *in;
	void **slot;

	if (sc->flags & ST_SC_NORETURN) {
		struct st_stat *st = f->cfg.stats ? stat_get(f, s) : NULL;

		if (st)
			st->noreturn++;
	} else {
		slot = hashmap_slot(&f->inflight, s->tid);
		if (!slot || (!*slot && !(*slot = malloc(sizeof(*in)))))
			return -ENOMEM;
		in = *slot;
		in->ts = s->time;
		in->id = s->id;
		memcpy(in->args, s->a, sizeof(in->args));
	}
	if (f->cfg.lines && f->cfg.enter_recs)
		return emit(f, s, ST_REC_ENTER, s->a, 0, 0);
	return 0;
}

static int on_exit_sample(struct tpf *f, const struct st_sample *s)
{
	uint64_t args[6] = { 0 }, dur = 0;
	int64_t ret = (int64_t)s->a[0];
	bool timed = false;
	void *v;

	if (hashmap_get(&f->inflight, s->tid, &v)) {
		struct st_inflight *in = v;

		if (in->id == s->id) {
			timed = true;
			dur = s->time - in->ts;
			memcpy(args, in->args, sizeof(args));
		}
		in->id = -1;
	}
	if (s->id == f->cfg.execve_nr && !ret)
		comm_of(f, s->pid, s->tid, true);
	if (f->cfg.stats)
		account(f, s, ret, dur, timed);
	if (!f->cfg.lines || (f->cfg.failure_only && !(ret < 0 && ret > -4096)) ||
	    (f->cfg.min_dur_ns && (!timed || dur < f->cfg.min_dur_ns)))
		return 0;
	return emit(f, s, ST_REC_EXIT, args, ret, timed ? dur : ~0ULL);
}

static bool skipped(const struct tpf *f, uint32_t pid)
{
	size_t i;

	for (i = 0; i < f->skip.nr; i++)
		if ((uint32_t)f->skip.ids[i] == pid)
			return true;
	return false;
}

/* -u: the owner of /proc/PID, the process's effective uid, as the BPF side's check */
static bool uid_ok(struct tpf *f, uint32_t pid)
{
	void **slot = hashmap_slot(&f->uids, pid);
	char path[32];
	struct stat st;

	if (!slot)
		return false;
	if (!*slot) {
		snprintf(path, sizeof(path), "/proc/%u", pid);
		*slot = (void *)(uintptr_t)(stat(path, &st) ? 0 : (uintptr_t)st.st_uid + 1);
	}
	return (uintptr_t)*slot == (uintptr_t)f->cfg.uid + 1;
}

static int process(struct tpf *f, const struct st_sample *s)
{
	const struct st_sysconf *sc;

	if (s->id < 0 || s->id >= ST_MAX_SYSCALLS)
		return 0;
	sc = &f->sc[s->id];
	if (!(sc->flags & ST_SC_TRACE) || (f->cfg.mode == ST_MODE_ALL && skipped(f, s->pid)))
		return 0;
	if (f->cfg.comm[0] && strncmp(comm_of(f, s->pid, s->tid, false), f->cfg.comm, 16))
		return 0;
	if (f->cfg.uid != (uint32_t)-1 && !uid_ok(f, s->pid))
		return 0;
	return s->enter ? on_enter(f, s, sc) : on_exit_sample(f, s);
}

int tpf_feed(struct tpf *f, const struct st_sample *s, const char *comm, systrace_rec_fn fn,
	     void *ctx)
{
	void **slot = comm ? hashmap_slot(&f->comms, s->tid) : NULL;

	if (slot && !*slot)
		*slot = calloc(1, 16);
	if (slot && *slot)
		strncpy(*slot, comm, 15);
	f->fn = fn;
	f->fn_ctx = ctx;
	return process(f, s);
}

/* A sample: pid, tid, time, cpu, then the raw tracepoint record. */
static int on_record(void *ctx, struct ring *r, const struct perf_event_header *ev)
{
	struct tpf *f = ctx;
	const unsigned char *p = (const unsigned char *)(ev + 1);
	struct st_sample s = { 0 };
	uint32_t raw_size;
	uint16_t type;

	if (ev->type == PERF_RECORD_LOST && ev->size >= sizeof(*ev) + 16) {
		uint64_t n;

		memcpy(&n, p + 8, 8);
		f->lost += n;
		return 0;
	}
	if (ev->type != PERF_RECORD_SAMPLE || ev->size < sizeof(*ev) + 28)
		return 0;
	memcpy(&s.pid, p, 4);
	memcpy(&s.tid, p + 4, 4);
	memcpy(&s.time, p + 8, 8);
	memcpy(&s.cpu, p + 16, 4);
	memcpy(&raw_size, p + 24, 4);
	if (raw_size < 24 || sizeof(*ev) + 28 + raw_size > ev->size)
		return 0;
	p += 28;
	memcpy(&type, p, 2);
	memcpy(&s.id, p + 8, 8);
	s.enter = type == f->enter_tp;
	if (s.enter && raw_size >= 16 + 48)
		memcpy(s.a, p + 16, 48);
	else if (!s.enter)
		memcpy(s.a, p + 16, 8);
	return vec_push(&f->batch, s);
}

static int by_time(const void *a, const void *b)
{
	const struct st_sample *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/* Everything in the rings, in time order across CPUs. */
static int drain(struct tpf *f)
{
	const struct ring_ops ops = { .record = on_record };
	size_t i;
	int err = 0;

	f->batch.nr = 0;
	for (i = 0; i < f->nr_rings; i++)
		if (ring_drain(&f->rings[i], &ops, f) < 0)
			err = -EINVAL;
	if (f->batch.nr)
		qsort(f->batch.items, f->batch.nr, sizeof(f->batch.items[0]), by_time);
	for (i = 0; i < f->batch.nr && !err; i++)
		err = process(f, &f->batch.items[i]);
	return err ? err : (int)f->batch.nr;
}

int tpf_poll(struct tpf *f, int timeout_ms, const sigset_t *mask, systrace_rec_fn fn, void *ctx)
{
	struct epoll_event ev[8];
	int n = 0, i;

	f->fn = fn;
	f->fn_ctx = ctx;
	if (timeout_ms != 0 && (n = epoll_pwait(f->epfd, ev, 8, timeout_ms, mask)) < 0)
		return -errno;
	/* the ring of a task that exited stays readable (EPOLLHUP): read it once more, below,
	 * then stop waiting on it, or the wait would never sleep (nor let signals in) again */
	for (i = 0; i < n; i++)
		if (ev[i].events & EPOLLHUP)
			epoll_ctl(f->epfd, EPOLL_CTL_DEL, ev[i].data.fd, NULL);
	return drain(f);
}

int tpf_for_each_stat(struct tpf *f, systrace_stat_fn fn, void *ctx)
{
	size_t it = 0;
	uint64_t key;
	void *v;
	int err;

	while (hashmap_next(&f->stats, &it, &key, &v)) {
		struct st_stat_key k = { .tid = (uint32_t)(key >> 32), .id = (uint32_t)key };

		err = fn(ctx, &k, v);
		if (err)
			return err;
	}
	return 0;
}

int tpf_for_each_err(struct tpf *f, systrace_err_fn fn, void *ctx)
{
	size_t it = 0;
	uint64_t key;
	void *v;
	int err;

	while (hashmap_next(&f->errs, &it, &key, &v)) {
		struct st_err_key k = { .tid = (uint32_t)(key >> 32),
					.id = (uint32_t)(key >> 12) & 0xfffff,
					.err = (uint32_t)key & 0xfff };

		err = fn(ctx, &k, *(uint64_t *)v);
		if (err)
			return err;
	}
	return 0;
}

int tpf_hist(struct tpf *f, int nr, uint64_t *b)
{
	if (nr < 0 || nr >= ST_MAX_SYSCALLS)
		return -EINVAL;
	memcpy(b, &f->hist[nr * ST_HIST_BUCKETS], ST_HIST_BUCKETS * sizeof(*b));
	return 0;
}

uint64_t tpf_lost(struct tpf *f, int which)
{
	return which == 0 ? f->lost : 0;
}

static void free_values(struct hashmap *m)
{
	size_t it = 0;
	uint64_t key;
	void *v;

	while (hashmap_next(m, &it, &key, &v))
		free(v);
	hashmap_release(m);
}

void tpf_free(struct tpf *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_rings; i++)
		ring_unmap(&f->rings[i]);
	free(f->rings);
	if (f->epfd >= 0)
		close(f->epfd);
	evfds_close(&f->enter);
	evfds_close(&f->exit);
	target_release(&f->tg);
	idlist_release(&f->skip);
	free_values(&f->inflight);
	free_values(&f->stats);
	free_values(&f->errs);
	free_values(&f->comms);
	hashmap_release(&f->uids);
	vec_free(&f->batch);
	free(f->hist);
	free(f->rec);
	free(f);
}
