/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpf: systrace's fallback when the kernel refuses BPF: raw_syscalls:sys_enter and sys_exit
 * sampled through perf_event_open rings (one per CPU), turned into the same records and
 * statistics the BPF program produces, computed here instead of in the kernel. Arguments are
 * the raw values: no strings or buffers (nothing can read user memory at the event). Used only
 * by systrace.c, with the same contracts as its functions; tpf_free() closes everything.
 */
#ifndef FLARE_SYSTRACE_TPF_H
#define FLARE_SYSTRACE_TPF_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/systrace/systrace.h"

struct tpf;

/* replay: fed samples by tpf_feed() instead of rings; nothing from tracefs or /proc. */
int tpf_open(const struct st_config *cfg, size_t ring_bytes, bool replay, struct tpf **ret);
int tpf_feed(struct tpf *f, const struct st_sample *s, const char *comm, systrace_rec_fn fn,
	     void *ctx);
int tpf_set_syscall(struct tpf *f, int nr, const struct st_sysconf *sc);
int tpf_add_task(struct tpf *f, int tid, enum st_task_state state);
int tpf_skip_pid(struct tpf *f, int pid);
int tpf_attach(struct tpf *f);
int tpf_poll(struct tpf *f, int timeout_ms, const sigset_t *mask, systrace_rec_fn fn, void *ctx);
int tpf_for_each_stat(struct tpf *f, systrace_stat_fn fn, void *ctx);
int tpf_for_each_err(struct tpf *f, systrace_err_fn fn, void *ctx);
int tpf_hist(struct tpf *f, int nr, uint64_t *b);
uint64_t tpf_lost(struct tpf *f, int which);
void tpf_free(struct tpf *f);

#endif
