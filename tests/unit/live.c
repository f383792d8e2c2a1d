// SPDX-License-Identifier: GPL-2.0
/* The live loop's contract (lib/event/live.h): its stop conditions, ticks and delay, the
 * signals read while blocked, a workload killed before its exec, and the rings drained into
 * the sink with a round after each pass that read something. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/unit/unit.h"
#include "lib/event/live.h"
#include "lib/event/open.h"
#include "lib/event/ring.h"

struct tally {
	int ticks, enables, rounds, records, overs;
	int stop_after_ticks; /* tick() returns 1 at this count */
	int over_after;	      /* over() says true at this count, 0: never */
	uint64_t bytes;
};

static int t_record(void *ctx, struct ring *rg, const struct perf_event_header *ev)
{
	((struct tally *)ctx)->records++;
	return 0;
}

static int t_bytes(void *ctx, const void *p, size_t len)
{
	((struct tally *)ctx)->bytes += len;
	return 0;
}

static int t_round(void *ctx)
{
	((struct tally *)ctx)->rounds++;
	return 0;
}

static int t_enable(void *ctx)
{
	((struct tally *)ctx)->enables++;
	return 0;
}

static int t_tick(void *ctx, uint64_t now, uint64_t t0)
{
	struct tally *t = ctx;

	return ++t->ticks == t->stop_after_ticks && now > t0;
}

static bool t_over(void *ctx)
{
	struct tally *t = ctx;

	return ++t->overs == t->over_after;
}

static const struct live_sink sink = { t_record, t_bytes, t_round, t_enable, t_tick, t_over };

TEST(stops_on_workload_exit)
{
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct workload w = WORKLOAD_INIT;
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)"sleep 0.05; exit 3", NULL };
	struct live_opts o = { .sig = &sig, .workload = &w, .interval_ms = 10 };
	struct live_result res;
	struct tally t = { 0 };

	CHECK(live_signals_block(&sig) == 0);
	CHECK(workload_prepare(&w, argv) == 0);
	CHECK(live_run(&o, &sink, &t, &res) == 0);
	CHECK(res.end == LIVE_END_WORKLOAD && res.workload_err == 0);
	CHECK(t.ticks >= 2);
	CHECK(workload_wait(&w, NULL) == 3);
	workload_release(&w);
	live_signals_release(&sig);
}

TEST(delay_holds_past_the_exit)
{
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct workload w = WORKLOAD_INIT;
	char *argv[] = { (char *)"true", NULL };
	struct live_opts o = { .sig = &sig, .workload = &w, .delay_ms = 80, .delay_holds = true };
	struct live_result res;
	struct tally t = { 0 };

	CHECK(live_signals_block(&sig) == 0);
	CHECK(workload_prepare(&w, argv) == 0);
	CHECK(live_run(&o, &sink, &t, &res) == 0);
	CHECK(res.end == LIVE_END_WORKLOAD && t.enables == 1);
	CHECK(live_now_ns() - res.t0_ns >= 80000000ULL);
	CHECK(workload_wait(&w, NULL) == 0);
	workload_release(&w);
	live_signals_release(&sig);
}

TEST(tick_timeout_over_signal)
{
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct live_opts o = { .sig = &sig, .interval_ms = 10 };
	struct live_result res;
	struct tally t = { .stop_after_ticks = 3 };

	CHECK(live_signals_block(&sig) == 0);
	CHECK(live_run(&o, &sink, &t, &res) == 0);
	CHECK(res.end == LIVE_END_SINK && t.ticks == 3);
	CHECK(live_now_ns() - res.t0_ns >= 30000000ULL);
	memset(&t, 0, sizeof(t));
	o.interval_ms = 0;
	o.timeout_ms = 30;
	CHECK(live_run(&o, &sink, &t, &res) == 0 && res.end == LIVE_END_TIMEOUT);
	t.over_after = 2;
	o.timeout_ms = 0;
	o.max_wait_ms = 5;
	CHECK(live_run(&o, &sink, &t, &res) == 0 && res.end == LIVE_END_SINK);
	/* a SIGTERM while blocked: read from the signalfd, nothing dies */
	t.over_after = 0;
	CHECK(kill(getpid(), SIGTERM) == 0);
	CHECK(live_run(&o, &sink, &t, &res) == 0 && res.end == LIVE_END_SIGNAL);
	CHECK(sig.signo == SIGTERM);
	live_signals_release(&sig);
	CHECK(sig.fd == -1);
}

TEST(workload_killed_before_exec)
{
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct workload w = WORKLOAD_INIT;
	char *argv[] = { (char *)"true", NULL };
	struct live_opts o = { .sig = &sig, .workload = &w };
	struct live_result res;
	struct tally t = { 0 };

	CHECK(live_signals_block(&sig) == 0);
	CHECK(workload_prepare(&w, argv) == 0);
	/* as a Ctrl-C to the process group in the first milliseconds */
	CHECK(kill(w.pid, SIGINT) == 0);
	{
		siginfo_t si; /* dead, not reaped */

		CHECK(waitid(P_PID, (id_t)w.pid, &si, WEXITED | WNOWAIT) == 0);
	}
	CHECK(live_run(&o, &sink, &t, &res) == 0);
	CHECK(res.end == LIVE_END_WORKLOAD && res.workload_err == -ECANCELED);
	CHECK(workload_wait(&w, NULL) == 128 + SIGINT);
	workload_release(&w);
	live_signals_release(&sig);
}

TEST(rings_drained_into_the_sink)
{
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct perf_event_attr a = { 0 };
	struct live_opts o = { .sig = &sig, .max_wait_ms = 5 };
	struct live_result res;
	struct tally t = { .over_after = 20 };
	struct ring rg;
	int fd;

	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.comm = 1;
	a.sample_id_all = 1;
	fd = event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		SKIP(rings_drained_into_the_sink, "perf_event_open is refused here");
		return;
	}
	CHECK(ring_mmap(&rg, fd, -1, 8) == 0);
	o.rings = &rg;
	o.nr_rings = 1;
	CHECK(live_signals_block(&sig) == 0);
	/* a COMM record of this thread */
	CHECK(prctl(PR_SET_NAME, "live-test") == 0);
	CHECK(live_run(&o, &sink, &t, &res) == 0 && res.end == LIVE_END_SINK);
	CHECK(t.records >= 1 && t.bytes > 0 && t.rounds >= 1);
	live_signals_release(&sig);
	ring_unmap(&rg);
	close(fd);
}

int main(void)
{
	RUN(stops_on_workload_exit);
	RUN(delay_holds_past_the_exit);
	RUN(tick_timeout_over_signal);
	RUN(workload_killed_before_exec);
	RUN(rings_drained_into_the_sink);
	return unit_done();
}
