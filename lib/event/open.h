/* SPDX-License-Identifier: GPL-2.0 */
/*
 * open: perf_event_open for an evsel over a target, and why it failed in words a user can act
 * on. An evfds holds one fd per (task, cpu) pair of the target, fd[task * nr_cpus + cpu];
 * it owns them and evfds_close() closes them.
 */
#ifndef FLARE_EVENT_OPEN_H
#define FLARE_EVENT_OPEN_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include "lib/event/target.h"

struct evfds {
	int *fd;
	size_t nr_tasks, nr_cpus;
};

/* perf_event_open(2). The fd (>= 0) or -errno. flags defaults to PERF_FLAG_FD_CLOEXEC. */
int event_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
	       unsigned long flags);

/* Opens attr on every (task, cpu) pair of t. leader, when given, holds the group leader's
 * fds for the same pairs. 0, or the first -errno (every fd opened so far is closed again).
 * A task that exited between listing and opening (-ESRCH on a -p thread) is skipped with
 * its fd set to -1, as long as one pair opened. */
int evfds_open(struct evfds *f, const struct perf_event_attr *attr, const struct target *t,
	       const struct evfds *leader);
void evfds_close(struct evfds *f);

/* One counter reading, with read_format PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING. */
struct counts {
	uint64_t val, ena, run;
};

/* Reads fd k of f into c (zeros for a skipped pair). 0 or -errno. */
int evfds_read(const struct evfds *f, size_t k, struct counts *c);
/* ioctl(PERF_EVENT_IOC_ENABLE / _DISABLE) on every fd of f. 0 or the first -errno. */
int evfds_enable(const struct evfds *f, int enable);

/* ioctl(PERF_EVENT_IOC_SET_FILTER) with filter (a tracepoint filter such as "common_pid != 1")
 * on every fd of f. 0 or the first -errno (-EINVAL: the filter does not parse). */
int evfds_set_filter(const struct evfds *f, const char *filter);

/* Why opening attr failed with err (negative errno), and what to do, in one phrase without
 * a trailing period: "no hardware PMU: this is a VM guest". Static or written to buf. */
const char *event_open_reason(const struct perf_event_attr *attr, int err, char *buf, size_t len);

/* True when the kernel exposes a core hardware PMU (/sys/bus/event_source/devices/cpu*). */
int have_hw_pmu(void);

/* Whether this kernel can open attr at all, for listing: tries a disabled counter on the
 * calling thread (then on CPU 0 for CPU-only events). 0, or the -errno of the attempt. */
int event_probe(const struct perf_event_attr *attr);

#endif
