/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live: the loop every live command runs (record, stat; later top, trace, sched): the
 * workload's start, the wait on the rings and the signals, the -D delay, the -I ticks, the
 * stop conditions, and draining the rings into the command's sink.
 *
 * Signals. live_signals_block() blocks SIGINT, SIGTERM and SIGCHLD in the calling thread and
 * opens a signalfd for them: no handler and no global state anywhere. Call it before the
 * command creates anything that must be cleaned up (an output file), so that a Ctrl-C at any
 * moment (a terminal sends it to the whole process group, workload included) ends in the
 * command's normal finish. The signals stay blocked until live_signals_release(), which
 * consumes what is pending (a second Ctrl-C while the file is being finished does not kill
 * flare) and restores the mask. A workload forked meanwhile gets them unblocked (workload.c).
 *
 * The loop. live_run() takes the start time, starts the workload when given one, then
 * sleeps in ppoll() on the rings and the signalfd, and each time it wakes it drains every
 * ring into the sink and asks the stop conditions, until one holds:
 *   LIVE_END_SIGNAL    SIGINT or SIGTERM came (sig->signo says which);
 *   LIVE_END_WORKLOAD  the workload exited (also when it was killed before it could exec:
 *                      then res->workload_err is -ECANCELED and nothing ran);
 *   LIVE_END_HUNGUP    every ring hung up (the tasks they followed are gone);
 *   LIVE_END_SINK      the sink's tick() or over() asked;
 *   LIVE_END_TIMEOUT   timeout_ms passed (the workload is still running: the caller decides).
 * It never disables events nor reaps the workload: after it returns, the caller disables
 * what it enabled and calls live_drain() once more for what the kernel wrote meanwhile.
 *
 * The sink: every callback carries the ctx given to live_run() first; any may be NULL.
 * A callback returning < 0 ends the run with that error.
 */
#ifndef FLARE_EVENT_LIVE_H
#define FLARE_EVENT_LIVE_H
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/event/ring.h"
#include "lib/event/workload.h"

struct live_signals {
	int fd;	      /* the signalfd, -1 when not blocked */
	sigset_t old; /* the mask before live_signals_block() */
	int signo;    /* the first SIGINT or SIGTERM read, else 0 */
	bool child;   /* a SIGCHLD was read and not yet looked into */
};

#define LIVE_SIGNALS_INIT                                                                          \
	{                                                                                          \
		.fd = -1, .signo = 0, .child = false                                               \
	}

/* Blocks SIGINT, SIGTERM and SIGCHLD and opens their signalfd. 0 or -errno. */
int live_signals_block(struct live_signals *s);
/* Reads what is pending without waiting (sets signo); true once a SIGINT/SIGTERM came. */
bool live_signals_poll(struct live_signals *s);
/* Consumes what is pending, closes the signalfd and restores the mask. Accepts an s never
 * blocked if it was set to LIVE_SIGNALS_INIT. */
void live_signals_release(struct live_signals *s);

enum live_end {
	LIVE_END_SIGNAL = 1,
	LIVE_END_WORKLOAD,
	LIVE_END_HUNGUP,
	LIVE_END_SINK,
	LIVE_END_TIMEOUT,
};

struct live_sink {
	/* Each record of a ring as it is drained, then the raw bytes of the batch (see
	 * ring.h's ring_ops). */
	int (*record)(void *ctx, struct ring *rg, const struct perf_event_header *ev);
	int (*bytes)(void *ctx, const void *p, size_t len);
	/* After a pass over the rings that read something (record: FINISHED_ROUND). */
	int (*round)(void *ctx);
	/* The -D delay is over: enable the events. */
	int (*enable)(void *ctx);
	/* Every interval_ms after the start (now and the start, CLOCK_MONOTONIC ns):
	 * > 0 ends the run. */
	int (*tick)(void *ctx, uint64_t now_ns, uint64_t t0_ns);
	/* Asked at each wake-up (at least every max_wait_ms): true ends the run. */
	bool (*over)(void *ctx);
};

struct live_opts {
	struct ring *rings; /* drained and polled; may be none (stat) */
	size_t nr_rings;
	struct live_signals *sig;  /* blocked by the caller */
	struct workload *workload; /* prepared, started here; or NULL */
	int delay_ms;		   /* > 0: sink->enable() this long after the start */
	bool delay_holds;	   /* the delay is waited out even when the workload ends */
	int interval_ms;	   /* > 0: sink->tick() this often */
	int timeout_ms;		   /* > 0: the run ends after this long */
	int max_wait_ms;	   /* the longest sleep between wake-ups (0: 100 ms) */
};

struct live_result {
	enum live_end end;
	uint64_t t0_ns;	  /* the start (CLOCK_MONOTONIC ns), before the exec */
	uint64_t wakeups; /* ppoll() returns with a ring ready */
	int workload_err; /* workload_start()'s error, or 0 */
};

/* Runs until a stop condition holds (see above). 0, or < 0: a sink's error, a ppoll error,
 * or the workload's exec error (res->workload_err; nothing was waited for then, except
 * -ECANCELED which ends the run normally as LIVE_END_WORKLOAD). */
int live_run(const struct live_opts *o, const struct live_sink *s, void *ctx,
	     struct live_result *res);

/* One pass over the rings into the sink (round() after a pass that read something).
 * The number of bytes read, or < 0. */
int64_t live_drain(struct ring *rings, size_t nr_rings, const struct live_sink *s, void *ctx);

/* CLOCK_MONOTONIC in ns. */
uint64_t live_now_ns(void);

#endif
