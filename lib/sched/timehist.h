/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timehist: perf sched timehist's accounting. At each sched_switch on a CPU the task leaving
 * it (or the CPU's idle task) gets the time it ran since the CPU's previous switch, the time
 * it waited before that (split by the state it left in: preempted, iowait, sleep) and its
 * scheduling delay (runnable to running); wakeups and migrations mark tasks on the way. Tasks
 * are keyed by tid; a task whose tid a fork names again starts afresh, as in perf. The
 * engine owns its tasks (sched_th_free()).
 */
#ifndef FLARE_SCHED_TIMEHIST_H
#define FLARE_SCHED_TIMEHIST_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/base/hashmap.h"

/* perf's running mean and variance (Welford) with min and max */
struct th_stats {
	uint64_t n, min, max;
	double mean, m2;
};

struct th_task {
	uint32_t tid, pid;
	bool idle; /* a CPU's idle task ("<idle>") */
	int prio;  /* -1 until a switch names it */
	uint64_t dt_delay, dt_sleep, dt_iowait, dt_preempt, dt_run;
	uint64_t last_time, ready_to_run, migrated;
	int64_t last_state;
	uint64_t total_run, total_delay, total_sleep, total_iowait, total_preempt;
	uint64_t migrations;
	struct th_stats run;
	uint64_t order; /* creation order */
};

struct sched_th {
	struct hashmap tasks;  /* tid -> task */
	struct th_task **idle; /* per cpu */
	uint64_t *cpu_last;    /* the previous switch's time per cpu */
	size_t nr_cpus;
	uint64_t next_order;
	uint64_t win_start; /* perf's --time start: a CPU's previous switch counts from here */
};

void sched_th_init(struct sched_th *th);
void sched_th_free(struct sched_th *th);

/* The task of tid (created when new), or the idle task of cpu; NULL on -ENOMEM. */
struct th_task *sched_th_task(struct sched_th *th, uint32_t tid, uint32_t pid);
struct th_task *sched_th_idle(struct sched_th *th, uint32_t cpu);
/* A fork names tid again: a later event makes a new task, as in perf. */
void sched_th_exit(struct sched_th *th, uint32_t tid);

/* The time of cpu's previous switch (0: none yet), moved up to win_start when before it. */
uint64_t sched_th_cpu_prev(const struct sched_th *th, uint32_t cpu);
/* A sched_switch at t on cpu leaving t: fills its dt_* (when account) and totals. 0 or
 * -ENOMEM. Call sched_th_switch_done() after using the dt_* values (with task NULL for a
 * switch that is skipped: only the CPU's time moves on). t is the switch's time, or the end
 * of a --time window it lies past. */
int sched_th_switch(struct sched_th *th, struct th_task *task, uint64_t t, uint32_t cpu,
		    bool account);
void sched_th_switch_done(struct sched_th *th, struct th_task *task, uint64_t t, uint32_t cpu,
			  int64_t prev_state);

void sched_th_wakeup(struct th_task *task, uint64_t t);
void sched_th_migrate(struct th_task *task, uint64_t t);

/* perf's stddev of the mean and relative stddev (percent of the mean) */
double th_stats_rel_stddev(const struct th_stats *s);

#endif
