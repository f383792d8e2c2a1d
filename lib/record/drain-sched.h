/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drain-sched: the scheduling of the thread that drains the rings while recording.
 *
 * A ring of a few hundred KiB fills in milliseconds under a busy tracepoint; a woken drain at
 * the normal policy can wait for the scheduler's next tick behind the workload or other tasks,
 * and the kernel drops what no longer fits. So while draining, the calling thread runs at
 * SCHED_FIFO (when asked and permitted), or else keeps its policy and weight but asks for the
 * shortest time slice (sched_attr.sched_runtime on Linux 6.12+; older kernels ignore it), so
 * that its wakeups preempt sooner without giving it a larger share of the CPU.
 *
 * Only the calling thread changes (never a process it started before); drain_sched_restore()
 * puts back what drain_sched_raise() saved. Nothing is allocated.
 */
#ifndef FLARE_RECORD_DRAIN_SCHED_H
#define FLARE_RECORD_DRAIN_SCHED_H
#include <stdbool.h>
#include <stdint.h>

#define DRAIN_SLICE_NS 100000ULL /* the shortest slice the kernel accepts */

/* The kernel's struct sched_attr (SCHED_ATTR_SIZE_VER1); <linux/sched/types.h> clashes with
 * glibc's <sched.h>. */
struct drain_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime; /* the slice, for the normal policies (6.12+) */
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

struct drain_sched {
	struct drain_sched_attr old; /* the thread's attributes before the change */
	bool changed;
	int rt_prio;	  /* the real-time priority set or kept, or 0 */
	bool short_slice; /* the normal policy with DRAIN_SLICE_NS */
};

/* rt_prio > 0: SCHED_FIFO rt_prio, or when that is refused, -EPERM if required and else the
 * short slice. rt_prio 0: the short slice. A thread already at a real-time policy is left as
 * it is unless required. 0 or -errno (only when required). */
int drain_sched_raise(struct drain_sched *s, int rt_prio, bool required);

/* Back to the saved attributes; nothing when drain_sched_raise() changed nothing. */
void drain_sched_restore(struct drain_sched *s);

#endif
