// SPDX-License-Identifier: GPL-2.0
/*
 * drain-sched: SCHED_FIFO or a short slice for the draining thread (see drain-sched.h).
 * glibc has no sched_{get,set}attr wrappers before 2.41: the raw system calls are used.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/record/drain-sched.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#define SCHED_FLAG_RESET_ON_FORK 0x01ULL

static int attr_get(struct drain_sched_attr *a)
{
	memset(a, 0, sizeof(*a));
	return syscall(SYS_sched_getattr, 0, a, sizeof(*a), 0) ? -errno : 0;
}

static int attr_set(const struct drain_sched_attr *a)
{
	return syscall(SYS_sched_setattr, 0, a, 0) ? -errno : 0;
}

static bool is_rt(uint32_t policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR || policy == SCHED_DEADLINE;
}

static int set_fifo(int rt_prio)
{
	struct drain_sched_attr a = { 0 };

	a.size = sizeof(a);
	a.sched_policy = SCHED_FIFO;
	a.sched_priority = (uint32_t)rt_prio;
	/* nothing started later inherits the policy */
	a.sched_flags = SCHED_FLAG_RESET_ON_FORK;
	return attr_set(&a);
}

static int set_short_slice(struct drain_sched *s)
{
	struct drain_sched_attr a = s->old;

	a.size = sizeof(a);
	a.sched_runtime = DRAIN_SLICE_NS;
	/* the same flags: an unprivileged thread may not clear RESET_ON_FORK later */
	a.sched_flags &= SCHED_FLAG_RESET_ON_FORK;
	return attr_set(&a);
}

int drain_sched_raise(struct drain_sched *s, int rt_prio, bool required)
{
	int err;

	memset(s, 0, sizeof(*s));
	err = attr_get(&s->old);
	if (err)
		return required ? err : 0;
	if (is_rt(s->old.sched_policy) && !required) {
		s->rt_prio = (int)s->old.sched_priority; /* kept as it is */
		return 0;
	}
	if (rt_prio > 0) {
		err = set_fifo(rt_prio);
		if (!err) {
			s->changed = true;
			s->rt_prio = rt_prio;
			return 0;
		}
		if (required)
			return err;
	}
	if (s->old.sched_policy != SCHED_OTHER && s->old.sched_policy != SCHED_BATCH)
		return 0;
	if (!set_short_slice(s)) {
		s->changed = true;
		s->short_slice = true;
	}
	return 0;
}

void drain_sched_restore(struct drain_sched *s)
{
	struct drain_sched_attr a = s->old;

	if (!s->changed)
		return;
	a.size = sizeof(a);
	a.sched_flags &= SCHED_FLAG_RESET_ON_FORK;
	/* a thread that had RESET_ON_FORK set by us may not clear it without privilege */
	if (s->rt_prio)
		a.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	attr_set(&a);
	s->changed = false;
}
