/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay: perf sched replay's engine. A recording's sched events become, per task, a list of
 * atoms (run for a duration, sleep until woken, wake another task), as perf builds them:
 * a switch gives the task leaving the CPU a run atom (the time since the CPU's previous
 * switch, merged into a run atom just before) and a sleep atom; a wakeup gives the waker a
 * wakeup atom that posts the sleep the wakee last recorded. Then one thread per task plays
 * its atoms, all started together, as many times as asked; each play is timed (wall) and its
 * threads' CPU time summed. The struct owns its tasks, atoms, semaphores and threads
 * (replay_free() stops and joins the threads). Nothing here prints.
 */
#ifndef FLARE_SCHED_REPLAY_H
#define FLARE_SCHED_REPLAY_H
#include <stddef.h>
#include <stdint.h>

struct replay;

struct replay_counts {
	long run, sleep, wakeup, targetless, multitarget, optimized;
};

int replay_new(struct replay **ret);
void replay_free(struct replay *r);

/* The events, in time order. 0 or -ENOMEM. */
int replay_switch(struct replay *r, uint64_t t, uint32_t cpu, uint32_t prev_pid,
		  const char *prev_comm, uint32_t next_pid, const char *next_comm);
int replay_wakeup(struct replay *r, uint64_t t, uint32_t waker_tid, uint32_t pid, const char *comm);
/* A fork: both tasks registered (names as the recording knows them then). */
int replay_fork(struct replay *r, uint32_t parent_tid, const char *parent_comm, uint32_t tid,
		const char *comm);

void replay_get_counts(const struct replay *r, struct replay_counts *c);
size_t replay_nr_tasks(const struct replay *r);
/* The i-th task registered: its pid, name and number of atoms. */
void replay_task(const struct replay *r, size_t i, uint32_t *pid, const char **comm,
		 long *nr_events);
/* perf's last step before playing: each task wakes the next one (the last the first). */
int replay_cross_wakeups(struct replay *r);

/* Starts one thread per task (named ":comm"), waiting to play. run_overhead: the cost of one
 * clock read, taken off each busy loop. 0 or -errno. */
int replay_start(struct replay *r, uint64_t run_overhead);
/* Plays every task's atoms once, all together; *wall_ns the time until the last is done,
 * *cpu_ns the CPU time the task threads used. 0 or -errno. */
int replay_play(struct replay *r, uint64_t *wall_ns, uint64_t *cpu_ns);

/* perf's clock (CLOCK_MONOTONIC, ns), busy loop and sleep, for the calibrations. */
uint64_t replay_now(void);
void replay_burn(uint64_t ns, uint64_t overhead);
void replay_sleep(uint64_t ns);

#endif
