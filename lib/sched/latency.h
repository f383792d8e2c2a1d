/* SPDX-License-Identifier: GPL-2.0 */
/*
 * latency: perf sched latency's accounting. Per task (tid): the runtime sched_stat_runtime
 * reports, and for each time it was switched in after being made runnable (a wakeup, or a
 * preemption) the delay from runnable to running: count, total, maximum and when. Fed one
 * decoded sched event at a time in time order; tasks merge by comm unless per_pid, then sort
 * by perf's keys. Beyond perf, every delay is kept so percentiles and a log2 histogram can
 * be given. The engine owns its tasks and their delay arrays (sched_lat_free()).
 */
#ifndef FLARE_SCHED_LATENCY_H
#define FLARE_SCHED_LATENCY_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/base/hashmap.h"
#include "lib/sched/sched.h"

enum lat_key { LK_PID, LK_AVG, LK_MAX, LK_SWITCH, LK_RUNTIME };

struct lat_task {
	uint32_t tid;
	const char *comm;  /* set by sched_lat_finish(): the caller's name, or comm_buf */
	char comm_buf[16]; /* ":tid" for a task the caller cannot name */
	int num_merged;
	uint64_t total_runtime, total_lat, max_lat, max_start, max_end, nb_atoms;
	/* the last work atom, the only one perf's handlers ever touch */
	int state;
	uint64_t sched_out, wake_up;
	uint64_t *delays; /* every delay, in the order they ended */
	size_t nr_delays, alloc_delays;
	bool delays_sorted;
};

struct sched_lat {
	int profile_cpu; /* -1: all (perf's -C) */
	bool keep_delays;
	struct lat_task **tasks; /* by first appearance */
	size_t nr, alloc;
	struct hashmap index; /* tid -> task */
	uint64_t *cpu_last;   /* last switch time per cpu */
	uint32_t *cpu_curr;   /* pid perf believes current per cpu ((u32)-1: unknown) */
	size_t nr_cpus;
	uint64_t nr_timestamps, nr_unordered, nr_switch_bugs;
	uint64_t hist[64]; /* log2(usec) buckets of every delay (runqlat's) */
};

int sched_lat_init(struct sched_lat *l, int profile_cpu, bool keep_delays);
void sched_lat_free(struct sched_lat *l);
/* One event at time t on cpu. 0 or -ENOMEM. */
int sched_lat_event(struct sched_lat *l, const struct sched_rec *r, uint64_t t, uint32_t cpu);

/* The name of tid at the end of the replay, or NULL for perf's ":tid". */
typedef const char *(*lat_comm_fn)(void *ctx, uint32_t tid);
/* Names the tasks, merges them by name unless per_pid, and sorts them by keys (nr_keys,
 * perf's default: avg, max, switch, runtime). The result, in printing order, is in *out
 * (an array the caller frees; the tasks stay the engine's). Returns the count or -ENOMEM. */
int sched_lat_finish(struct sched_lat *l, bool per_pid, const enum lat_key *keys, int nr_keys,
		     lat_comm_fn comm, void *ctx, struct lat_task ***out);

/* The p-th percentile (0..100) of a task's delays, merged ones included (nearest rank). */
uint64_t sched_lat_percentile(struct lat_task *t, double p);

#endif
