/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systrace: the syscall tracer's kernel side, seen from user space. systrace_open() loads the
 * BPF program embedded in flare (bpf/systrace.bpf.c, built into a skeleton) with a fixed
 * configuration; the caller then says which syscalls to trace and how (systrace_set_syscall),
 * which threads (systrace_add_task, systrace_skip_pid), and attaches. Records come back through
 * systrace_poll(); the in-kernel statistics are read with systrace_for_each_stat() and
 * friends. systrace_free() detaches and closes everything: programs and maps live only as
 * long as their file descriptors, nothing is pinned, so a killed flare leaves nothing behind.
 * Nothing here prints; libbpf's messages go to the log sink at debug level.
 */
#ifndef FLARE_SYSTRACE_H
#define FLARE_SYSTRACE_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/systrace/systrace-abi.h"

struct systrace;

#define SYSTRACE_NO_BPF 1 /* use the perf_event_open fallback even where BPF works */
#define SYSTRACE_REPLAY 2 /* no kernel side: samples come from systrace_feed() */

/* One raw_syscalls:sys_enter or sys_exit sample, as a recording holds it. */
struct st_sample {
	uint64_t time;
	uint32_t pid, tid, cpu;
	int enter;
	int64_t id;
	uint64_t a[6]; /* enter: the args; exit: a[0] is the return value */
};

/* Opens and loads the program with cfg; ring_bytes is the ring buffer's size (rounded up to a
 * power of two of pages). When the kernel refuses the program, the same records and
 * statistics come from raw_syscalls tracepoints read through perf_event_open rings, without
 * strings or buffers (systrace_bpf_refused says why). 0 and *ret (free with systrace_free),
 * or -errno when neither works. */
int systrace_open(const struct st_config *cfg, size_t ring_bytes, int flags, struct systrace **ret);
/* 0 when the BPF program runs; else the -errno it was refused with (-ENOTSUP: NO_BPF). */
int systrace_bpf_refused(const struct systrace *st);
int systrace_set_syscall(struct systrace *st, int nr, const struct st_sysconf *sc);
/* Traces thread tid (ST_MODE_TASKS) from now (ST_TASK_ACTIVE) or from its next exec. */
int systrace_add_task(struct systrace *st, int tid, enum st_task_state state);
/* ST_MODE_ALL: ignores the threads of process pid (flare itself, --filter-pids). */
int systrace_skip_pid(struct systrace *st, int pid);
int systrace_attach(struct systrace *st);

/* Called with each record; a non-zero return stops the poll and is returned by it. */
typedef int (*systrace_rec_fn)(void *ctx, const struct st_rec *r, size_t size);
/* Waits up to timeout_ms for records, with the signal mask mask while waiting (as
 * epoll_pwait: signals blocked otherwise cannot slip in before the wait), and hands each to fn.
 * The number handled, or -errno (-EINTR when a signal came). */
int systrace_poll(struct systrace *st, int timeout_ms, const sigset_t *mask, systrace_rec_fn fn,
		  void *ctx);
/* SYSTRACE_REPLAY: one sample of thread comm (NULL: the last one given) in, its records
 * (as live: enter, exit with the duration) to fn, its statistics counted. 0 or fn's error. */
int systrace_feed(struct systrace *st, const struct st_sample *s, const char *comm,
		  systrace_rec_fn fn, void *ctx);
/* Hands every record already in the ring to fn without waiting. */
int systrace_drain(struct systrace *st, systrace_rec_fn fn, void *ctx);

typedef int (*systrace_stat_fn)(void *ctx, const struct st_stat_key *k, const struct st_stat *s);
typedef int (*systrace_err_fn)(void *ctx, const struct st_err_key *k, uint64_t count);
int systrace_for_each_stat(struct systrace *st, systrace_stat_fn fn, void *ctx);
int systrace_for_each_err(struct systrace *st, systrace_err_fn fn, void *ctx);
/* The latency histogram of syscall nr summed over CPUs into b[ST_HIST_BUCKETS]. */
int systrace_hist(struct systrace *st, int nr, uint64_t *b);
/* Records the ring had no room for (which 0), entries the maps had no room for (which 1). */
uint64_t systrace_lost(struct systrace *st, int which);

void systrace_free(struct systrace *st);

#endif
