// SPDX-License-Identifier: GPL-2.0
/*
 * flare sched replay: perf sched replay. Measures the cost of the clock and of a short sleep,
 * builds each recorded task's run/sleep/wakeup atoms (lib/sched/replay.h), prints perf's
 * counts and task list, then plays the workload with one thread per task -r times (10 by
 * default), one line per play: its time, the running average, and the tasks' CPU time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/sched.h"
#include "lib/sched/replay.h"

static const char *const replay_usage[] = {
	"flare sched replay [<options>]",
	NULL,
};

struct rp_run {
	struct replay *rp;
	struct session *sess;
};

static int on_event(void *ctx, const struct sched_rec *sr, const struct resolved_sample *rs)
{
	struct rp_run *r = ctx;

	switch (sr->kind) {
	case SEV_SWITCH:
		return replay_switch(r->rp, rs->s->time, rs->s->cpu, sr->prev_pid, sr->prev_comm,
				     sr->next_pid, sr->next_comm);
	case SEV_WAKEUP:
	case SEV_WAKEUP_NEW:
		return replay_wakeup(r->rp, rs->s->time, rs->s->tid, sr->pid, sr->comm);
	default: /* perf's replay ignores sched_waking, runtime and migrations */
		return 0;
	}
}

static int on_other(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	struct rp_run *r = ctx;
	const uint32_t *p = (const uint32_t *)(ev + 1); /* pid, ppid, tid, ptid */

	if (ev->type != PERF_RECORD_FORK || !r->sess)
		return 0;
	return replay_fork(r->rp, p[3], sched_comm(r->sess, p[3]), p[2], sched_comm(r->sess, p[2]));
}

/* perf's calibrations: the cheapest of 10 clock reads around an empty busy loop, and of 10
 * sleeps of 10 us (less the 10 us); then a 1 ms busy loop and a 1 ms sleep, timed. */
static uint64_t calibrate(void)
{
	uint64_t run = 1000000000ULL, sleep = 1000000000ULL, t0, d;
	int i;

	for (i = 0; i < 10; i++) {
		t0 = replay_now();
		replay_burn(0, 0);
		d = replay_now() - t0;
		run = d < run ? d : run;
	}
	printf("run measurement overhead: %" PRIu64 " nsecs\n", run);
	for (i = 0; i < 10; i++) {
		t0 = replay_now();
		replay_sleep(10000);
		d = replay_now() - t0;
		sleep = d < sleep ? d : sleep;
	}
	printf("sleep measurement overhead: %" PRIu64 " nsecs\n", sleep - 10000);
	t0 = replay_now();
	replay_burn(1000000, run);
	printf("the run test took %" PRIu64 " nsecs\n", replay_now() - t0);
	t0 = replay_now();
	replay_sleep(1000000);
	printf("the sleep test took %" PRIu64 " nsecs\n", replay_now() - t0);
	return run;
}

static void print_tasks(struct replay *rp)
{
	struct replay_counts c;
	size_t i;

	replay_get_counts(rp, &c);
	printf("nr_run_events:        %ld\n", c.run);
	printf("nr_sleep_events:      %ld\n", c.sleep);
	printf("nr_wakeup_events:     %ld\n", c.wakeup);
	if (c.targetless)
		printf("target-less wakeups:  %ld\n", c.targetless);
	if (c.multitarget)
		printf("multi-target wakeups: %ld\n", c.multitarget);
	if (c.optimized)
		printf("run atoms optimized: %ld\n", c.optimized);
	for (i = 0; i < replay_nr_tasks(rp); i++) {
		const char *comm;
		uint32_t pid;
		long n;

		replay_task(rp, i, &pid, &comm, &n);
		printf("task %6zu (%20s:%10u), nr_events: %ld\n", i, comm, pid, n);
	}
}

/* The plays, with perf's running averages (weighted by the repeat count). */
static int play(struct replay *rp, unsigned int repeat)
{
	uint64_t ravg = 0, cpu_avg = 0, wall, cpu;
	unsigned int i;

	printf("------------------------------------------------------------\n");
	for (i = 0; i < repeat; i++) {
		if (replay_play(rp, &wall, &cpu))
			return 1;
		if (!cpu_avg)
			cpu_avg = cpu;
		cpu_avg = (cpu_avg * (repeat - 1) + cpu) / repeat;
		if (!ravg)
			ravg = wall;
		ravg = (ravg * (repeat - 1) + wall) / repeat;
		printf("#%-3u: %0.3f, ravg: %0.2f, cpu: %0.2f / %0.2f\n", i + 1, (double)wall / 1e6,
		       (double)ravg / 1e6, (double)cpu / 1e6, (double)cpu_avg / 1e6);
		fflush(stdout);
	}
	return 0;
}

int sched_replay_cmd(int argc, char **argv, struct sched_common *c)
{
	int repeat = 10;
	const char *input = NULL;
	int force = 0, rc = 1, err;
	const struct opt opts[] = {
		OPT_INT('r', "repeat", &repeat, "n", "repeat the workload replay N times"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOL('f', "force", &force, "don't complain, do it"),
		OPT_END(),
	};
	struct rp_run r = { 0 };
	uint64_t overhead;

	argc = opt_parse(argc, argv, opts, replay_usage, 0);
	if (argc > 0)
		opt_usage_error(opts, replay_usage, "unexpected argument '%s'", argv[0]);
	if (repeat < 1)
		opt_usage_error(opts, replay_usage, "-r %d: give 1 or more repeats", repeat);
	if (input)
		c->input = input;
	c->force |= force;
	if (replay_new(&r.rp)) {
		pr_err("out of memory");
		return 1;
	}
	overhead = calibrate();
	rc = sched_replay(c, &r.sess, on_event, on_other, &r);
	if (!rc) {
		print_tasks(r.rp);
		if (replay_cross_wakeups(r.rp)) {
			pr_err("out of memory");
			rc = 1;
		}
	}
	if (!rc && (err = replay_start(r.rp, overhead))) {
		pr_err("cannot start the replay's %zu threads: %s", replay_nr_tasks(r.rp),
		       strerror(-err));
		rc = 1;
	}
	if (!rc)
		rc = play(r.rp, (unsigned int)repeat);
	replay_free(r.rp);
	session_free(r.sess);
	return rc;
}
