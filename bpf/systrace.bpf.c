// SPDX-License-Identifier: GPL-2.0
/*
 * systrace.bpf.c: flare trace's in-kernel half. Attached to raw_syscalls:sys_enter and
 * sys_exit (classic tracepoint context, so no vmlinux.h is needed) and to
 * sched:sched_process_fork, it decides which threads are traced, times every syscall, counts
 * per (thread, syscall) statistics and per (thread, syscall, errno) errors in maps, and, when
 * user space wants lines, sends enter and exit records with the strings and buffer bytes
 * the call passed, read here while the pointers are valid. The record layouts are shared
 * with user space through lib/systrace/systrace-abi.h.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "lib/systrace/systrace-abi.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load (rodata is frozen at load). */
const volatile struct st_config cfg = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ST_MAX_TASKS);
	__type(key, __u32);	/* tid */
	__type(value, __u32);	/* ST_TASK_* */
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);	/* tgid */
	__type(value, __u32);
} skip_pids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ST_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, struct st_sysconf);
} sysconf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ST_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct st_inflight);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ST_MAX_STATS);
	__type(key, struct st_stat_key);
	__type(value, struct st_stat);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ST_MAX_STATS);
	__type(key, struct st_err_key);
	__type(value, __u64);
} errs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ST_MAX_SYSCALLS * ST_HIST_BUCKETS);
	__type(key, __u32);
	__type(value, __u64);
} hist SEC(".maps");

/* [0]: records the ring had no room for; [1]: stats or inflight entries that did not fit */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct st_rec);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);	/* resized by user space */
} ring SEC(".maps");

struct enter_ctx {
	__u64 pad;
	long id;
	unsigned long args[6];
};

struct exit_ctx {
	__u64 pad;
	long id;
	long ret;
};

static __always_inline void count_lost(__u32 which)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &which);

	if (n)
		(*n)++;
}

static __always_inline int comm_ok(void)
{
	char comm[16];
	int i;

	if (!cfg.comm[0])
		return 1;
	bpf_get_current_comm(comm, sizeof(comm));
	for (i = 0; i < 16; i++) {
		if (comm[i] != cfg.comm[i])
			return 0;
		if (!comm[i])
			break;
	}
	return 1;
}

/* Whether the current thread is traced; *state gets its ST_TASK_* state. */
static __always_inline int task_traced(__u32 tid, __u32 tgid, __u32 *state)
{
	*state = ST_TASK_ACTIVE;
	if (cfg.mode == ST_MODE_TASKS) {
		__u32 *s = bpf_map_lookup_elem(&tasks, &tid);

		if (!s)
			return 0;
		*state = *s;
	} else {
		if (cfg.cpu_mask[0] | cfg.cpu_mask[1] | cfg.cpu_mask[2] | cfg.cpu_mask[3]) {
			__u32 cpu = bpf_get_smp_processor_id() & 255;

			if (!(cfg.cpu_mask[cpu >> 6] & (1ULL << (cpu & 63))))
				return 0;
		}
		if (bpf_map_lookup_elem(&skip_pids, &tgid))
			return 0;
	}
	if (cfg.uid != (__u32)-1 && (__u32)bpf_get_current_uid_gid() != cfg.uid)
		return 0;
	return comm_ok();
}

static __always_inline struct st_sysconf *syscall_conf(long id)
{
	__u32 k = (__u32)id;

	if (id < 0 || id >= ST_MAX_SYSCALLS)
		return NULL;
	return bpf_map_lookup_elem(&sysconf, &k);
}

static __always_inline struct st_rec *rec_start(__u32 type, __u32 tid, __u32 tgid, long id,
						__u64 now)
{
	__u32 zero = 0;
	struct st_rec *r = bpf_map_lookup_elem(&scratch, &zero);

	if (!r)
		return NULL;
	r->type = type;
	r->tid = tid;
	r->pid = tgid;
	r->id = (__u32)id;
	r->ts = now;
	r->cpu = bpf_get_smp_processor_id();
	r->nstr = 0;
	r->len = 0;
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	return r;
}

/* Appends a string (is_str) or the first n bytes at ptr as piece arg of r. */
static __always_inline int rec_add(struct st_rec *r, __u32 arg, const void *ptr, long n,
				   int is_str)
{
	__u32 off = r->len, k = r->nstr;
	long got;

	if (k >= ST_MAX_PIECES || off > ST_DATA_MAX - ST_PIECE_MAX)
		return 0;
	if (n > ST_PIECE_MAX - 1)
		n = ST_PIECE_MAX - 1;
	if (n <= 0 && !is_str)
		return 0;
	if (is_str)
		got = bpf_probe_read_user_str(&r->data[off], ST_PIECE_MAX, ptr);
	else
		got = bpf_probe_read_user(&r->data[off], n & (ST_PIECE_MAX - 1), ptr) ? -1 : n;
	r->piece[k].arg = arg;
	r->piece[k].off = off;
	if (got < 0) {
		r->piece[k].len = 0;
		r->piece[k].flags = ST_PIECE_FAULT;
	} else {
		r->piece[k].len = got;
		r->piece[k].flags = is_str ? ST_PIECE_STR : 0;
	}
	r->nstr = k + 1;
	if (got > 0)
		r->len = off + ((got + 7) & ~7);
	return got < 0;
}

static __always_inline void rec_send(struct st_rec *r)
{
	__u64 size = offsetof(struct st_rec, data) + r->len;

	if (size > sizeof(*r))
		size = sizeof(*r);
	/* wake the reader only when a batch is waiting: a wakeup per record costs more than
	 * the record (the reader also polls on a short timeout) */
	__u64 flags = bpf_ringbuf_query(&ring, BPF_RB_AVAIL_DATA) >= cfg.wakeup_bytes ?
			      BPF_RB_FORCE_WAKEUP :
			      BPF_RB_NO_WAKEUP;

	if (bpf_ringbuf_output(&ring, r, size, flags))
		count_lost(0);
}

static __always_inline struct st_stat *stat_get(__u32 tid, long id)
{
	struct st_stat_key k = { .tid = tid, .id = (__u32)id };
	struct st_stat *s = bpf_map_lookup_elem(&stats, &k);

	if (!s) {
		struct st_stat z = { .min = ~0ULL };

		bpf_get_current_comm(z.comm, sizeof(z.comm));
		bpf_map_update_elem(&stats, &k, &z, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&stats, &k);
		if (!s)
			count_lost(1);
	}
	return s;
}

SEC("tracepoint/raw_syscalls/sys_enter")
int st_enter(struct enter_ctx *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), now;
	__u32 tid = (__u32)pid_tgid, tgid = pid_tgid >> 32, state;
	struct st_sysconf *sc;
	struct st_inflight in = {};
	__u64 a[8] = {};
	long id = ctx->id;
	int i;

	if (!task_traced(tid, tgid, &state) || state != ST_TASK_ACTIVE)
		return 0;
	sc = syscall_conf(id);
	if (!sc || !(sc->flags & ST_SC_TRACE))
		return 0;
	now = bpf_ktime_get_ns();
	in.ts = now;
	in.id = id;
	/* one load each: the verifier refuses a ctx pointer a loop has moved */
	in.args[0] = ctx->args[0];
	in.args[1] = ctx->args[1];
	in.args[2] = ctx->args[2];
	in.args[3] = ctx->args[3];
	in.args[4] = ctx->args[4];
	in.args[5] = ctx->args[5];
	for (i = 0; i < 6; i++)
		a[i] = in.args[i];
	if (cfg.lines && cfg.enter_recs) {
		struct st_rec *r = rec_start(ST_REC_ENTER, tid, tgid, id, now);

		if (r) {
			for (i = 0; i < 6; i++)
				r->args[i] = in.args[i];
			/* a string not yet paged in is read again at the exit */
			for (i = 0; i < 6; i++)
				if (sc->str_mask & (1 << i) &&
				    rec_add(r, i, (const void *)in.args[i], 0, 1))
					in.refetch |= 1 << i;
			if (sc->flags & ST_SC_BUF_IN && sc->buf_arg < 6 && sc->len_arg < 6)
				rec_add(r, sc->buf_arg, (const void *)a[sc->buf_arg & 7],
					(long)a[sc->len_arg & 7] < cfg.strsize ?
						(long)a[sc->len_arg & 7] : cfg.strsize,
					0);
			rec_send(r);
		}
	}
	if (sc->flags & ST_SC_NORETURN) {
		struct st_stat *s = cfg.stats ? stat_get(tid, id) : NULL;

		if (s)
			s->noreturn++;
		return 0;
	}
	if (bpf_map_update_elem(&inflight, &tid, &in, BPF_ANY))
		count_lost(1);
	return 0;
}

static __always_inline void add128(__u64 *hi, __u64 *lo, __u64 v)
{
	__u64 n = *lo + v;

	if (n < *lo)
		(*hi)++;
	*lo = n;
}

static __always_inline void account(__u32 tid, long id, long ret, __u64 dur, int timed)
{
	struct st_stat *s = stat_get(tid, id);

	if (!s)
		return;
	s->calls++;
	if (id == cfg.execve_nr && ret == 0)
		bpf_get_current_comm(s->comm, sizeof(s->comm));
	if (ret < 0 && ret > -4096) {
		struct st_err_key ek = { .tid = tid, .id = (__u32)id, .err = (__u32)-ret };
		__u64 one = 1, *e;

		s->errors++;
		if (cfg.errno_summary) {
			e = bpf_map_lookup_elem(&errs, &ek);
			if (e)
				(*e)++;
			else if (bpf_map_update_elem(&errs, &ek, &one, BPF_NOEXIST))
				count_lost(1);
		}
	}
	if (!timed) {
		s->untimed++;
		if (s->min > 0)
			s->min = 0;
		return;
	}
	s->total += dur;
	if (dur < s->min)
		s->min = dur;
	if (dur > s->max)
		s->max = dur;
	{
		/* sum of squares in 128 bits: dur = a * 2^32 + b */
		__u64 a = dur >> 32, b = dur & 0xffffffffULL, t = 2 * a * b;

		add128(&s->sq_hi, &s->sq_lo, b * b);
		add128(&s->sq_hi, &s->sq_lo, t << 32);
		s->sq_hi += (t >> 32) + a * a;
	}
	if (cfg.hist) {
		__u32 bucket = 0, key;
		__u64 v = dur >> 10, *h;

		while (v && bucket < ST_HIST_BUCKETS - 1) {
			v >>= 1;
			bucket++;
		}
		key = (__u32)id * ST_HIST_BUCKETS + bucket;
		h = bpf_map_lookup_elem(&hist, &key);
		if (h)
			(*h)++;
	}
}

SEC("tracepoint/raw_syscalls/sys_exit")
int st_exit(struct exit_ctx *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), now, dur = 0;
	__u32 tid = (__u32)pid_tgid, tgid = pid_tgid >> 32, state;
	struct st_inflight *in;
	struct st_sysconf *sc;
	long id = ctx->id, ret = ctx->ret;
	__u64 args[8] = {};
	__u32 refetch = 0;
	int timed = 0, i;

	if (!task_traced(tid, tgid, &state))
		return 0;
	if (state == ST_TASK_WAIT_EXEC) {
		/* a workload starts being traced at its exec, as perf's enable_on_exec */
		if (id != cfg.execve_nr || ret != 0)
			return 0;
		state = ST_TASK_ACTIVE;
		bpf_map_update_elem(&tasks, &tid, &state, BPF_ANY);
	}
	sc = syscall_conf(id);
	if (!sc || !(sc->flags & ST_SC_TRACE))
		return 0;
	now = bpf_ktime_get_ns();
	in = bpf_map_lookup_elem(&inflight, &tid);
	if (in && in->id == id) {
		dur = now - in->ts;
		timed = 1;
		for (i = 0; i < 6; i++)
			args[i] = in->args[i];
		refetch = in->refetch;
	}
	if (in)
		bpf_map_delete_elem(&inflight, &tid);
	if (cfg.stats)
		account(tid, id, ret, dur, timed);
	if (cfg.lines) {
		struct st_rec *r;

		if (cfg.failure_only && !(ret < 0 && ret > -4096))
			return 0;
		if (cfg.min_dur_ns && (!timed || dur < cfg.min_dur_ns))
			return 0;
		r = rec_start(ST_REC_EXIT, tid, tgid, id, now);
		if (!r)
			return 0;
		r->ret = ret;
		r->dur = timed ? dur : ~0ULL;
		for (i = 0; i < 6; i++)
			r->args[i] = args[i];
		if (timed && cfg.enter_recs) {
			for (i = 0; i < 6; i++)
				if (refetch & (1 << i))
					rec_add(r, i, (const void *)args[i], 0, 1);
		}
		if (timed && !cfg.enter_recs) {
			/* no enter record carried them: read what the call was given now */
			for (i = 0; i < 6; i++)
				if (sc->str_mask & (1 << i))
					rec_add(r, i, (const void *)args[i], 0, 1);
			if (sc->flags & ST_SC_BUF_IN && sc->buf_arg < 6 && sc->len_arg < 6)
				rec_add(r, sc->buf_arg, (const void *)args[sc->buf_arg & 7],
					(long)args[sc->len_arg & 7] < cfg.strsize ?
						(long)args[sc->len_arg & 7] : cfg.strsize,
					0);
		}
		if (timed && sc->flags & ST_SC_BUF_OUT && sc->buf_arg < 6 && ret > 0)
			rec_add(r, sc->buf_arg, (const void *)args[sc->buf_arg & 7],
				ret < cfg.strsize ? ret : cfg.strsize, 0);
		rec_send(r);
	}
	return 0;
}

SEC("tracepoint/sched/sched_process_fork")
int st_fork(void *ctx)
{
	__u32 parent = (__u32)bpf_get_current_pid_tgid(), child = 0, *s;

	if (cfg.mode != ST_MODE_TASKS || !cfg.follow)
		return 0;
	s = bpf_map_lookup_elem(&tasks, &parent);
	if (!s)
		return 0;
	/* the field moves between kernels: user space found it in the format */
	if (bpf_probe_read_kernel(&child, sizeof(child), (char *)ctx + (cfg.fork_child_off & 0xff)))
		return 0;
	bpf_map_update_elem(&tasks, &child, s, BPF_ANY);
	return 0;
}
