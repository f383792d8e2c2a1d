/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth: the records perf writes itself before the kernel's stream: the kernel map, COMM,
 * FORK and MMAP2 of tasks that already run (from /proc), THREAD_MAP and CPU_MAP. Each
 * non-sample record gets an all-zero sample_id trailer of trailer_size bytes, as perf's own.
 * Every record also goes through the hook (for the build-id bookkeeping) before it is written.
 */
#ifndef FLARE_RECORD_SYNTH_H
#define FLARE_RECORD_SYNTH_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include "lib/data/writer.h"
#include "lib/event/target.h"

struct synth {
	struct perf_writer *w;
	size_t trailer_size;
	bool mmap_data; /* data mappings too (dwarf call graphs) */
	bool comm_only; /* the workload before its exec: its COMM, no maps (perf) */
	void (*hook)(void *ctx, const struct perf_event_header *ev);
	void *hook_ctx;
};

/* Appends the zero trailer to rec (body_len bytes, header included), sets its size, writes
 * it. rec must have room for the trailer. */
int synth_emit(struct synth *s, void *rec, size_t body_len);

/* MMAP [kernel.kallsyms]_text: pid -1, _text .. _etext, pgoff = _text. */
int synth_kernel_mmap(struct synth *s);
/* One process: full (-a): FORK, COMM per thread and MMAP2 of its maps; else COMM of the
 * given thread and, for the leader, MMAP2. A task that vanished is skipped (returns 0). */
int synth_task(struct synth *s, pid_t tid, bool full);
/* Every process in /proc, full. */
int synth_all_tasks(struct synth *s);
int synth_thread_map(struct synth *s, const struct target *t);
int synth_cpu_map(struct synth *s, const struct idlist *cpus);

#endif
