// SPDX-License-Identifier: GPL-2.0
/* lib/sched: the latency and timehist engines on hand-made event sequences. */
#include <stdlib.h>
#include <string.h>
#include "tests/unit/unit.h"
#include "lib/sched/latency.h"
#include "lib/sched/timehist.h"

static struct sched_rec sw(uint32_t prev, uint64_t state, uint32_t next)
{
	struct sched_rec r = {
		.kind = SEV_SWITCH, .prev_pid = prev, .next_pid = next, .prev_state = state
	};
	return r;
}

static struct sched_rec ev(enum sched_ev kind, uint32_t pid, uint64_t runtime)
{
	struct sched_rec r = { .kind = kind, .pid = pid, .runtime = runtime };
	return r;
}

static const char *same_name(void *ctx, uint32_t tid)
{
	return ctx;
}

static struct lat_task *find(struct lat_task **v, int n, uint32_t tid)
{
	for (int i = 0; i < n; i++)
		if (v[i]->tid == tid)
			return v[i];
	return NULL;
}

/* feeds: 10 sleeps, 20 runs; 10 woken at 2000 runs at 5000 (20 preempted); 20 back at 9000 */
static void feed(struct sched_lat *l)
{
	struct sched_rec r;

	r = sw(10, 1, 20);
	sched_lat_event(l, &r, 1000, 0);
	r = ev(SEV_WAKEUP, 10, 0);
	sched_lat_event(l, &r, 2000, 0);
	r = ev(SEV_WAKING, 20, 0); /* perf 6.1's latency has no handler for it */
	sched_lat_event(l, &r, 2500, 0);
	r = ev(SEV_RUNTIME, 20, 777);
	sched_lat_event(l, &r, 4999, 0);
	r = sw(20, 0, 10);
	sched_lat_event(l, &r, 5000, 0);
	r = sw(10, 1, 20);
	sched_lat_event(l, &r, 9000, 0);
}

TEST(latency_per_pid)
{
	static const enum lat_key keys[] = { LK_AVG, LK_MAX, LK_SWITCH, LK_RUNTIME };
	struct sched_lat l;
	struct lat_task **v, *a, *b;
	int n;

	sched_lat_init(&l, -1, true);
	feed(&l);
	n = sched_lat_finish(&l, true, keys, 4, same_name, NULL, &v);
	CHECK(n == 2);
	a = find(v, n, 10);
	b = find(v, n, 20);
	CHECK(a && b);
	CHECK(a->nb_atoms == 1 && a->total_lat == 3000 && a->max_lat == 3000);
	CHECK(a->max_start == 2000 && a->max_end == 5000);
	CHECK(b->nb_atoms == 2 && b->total_lat == 4000 && b->max_lat == 4000);
	CHECK(b->total_runtime == 777);
	CHECK(v[0] == a);					   /* avg 3000 before avg 2000 */
	CHECK_STR(a->comm, ":10");				   /* no name: perf's ":tid" */
	CHECK(l.hist[0] == 1 && l.hist[1] == 1 && l.hist[2] == 1); /* 0, 3 and 4 us */
	free(v);
	sched_lat_free(&l);
}

TEST(latency_merged)
{
	static const enum lat_key keys[] = { LK_AVG, LK_MAX, LK_SWITCH, LK_RUNTIME };
	struct sched_lat l;
	struct lat_task **v;
	int n;

	sched_lat_init(&l, -1, true);
	feed(&l);
	n = sched_lat_finish(&l, false, keys, 4, same_name, (char *)"w", &v);
	CHECK(n == 1);
	CHECK(v[0]->tid == 20 && v[0]->num_merged == 2); /* the highest tid heads */
	CHECK(v[0]->nb_atoms == 3 && v[0]->total_lat == 7000 && v[0]->max_lat == 4000);
	CHECK(sched_lat_percentile(v[0], 50) == 3000);
	CHECK(sched_lat_percentile(v[0], 99) == 4000);
	CHECK(sched_lat_percentile(v[0], 1) == 0);
	free(v);
	sched_lat_free(&l);
}

TEST(timehist_deltas)
{
	struct sched_th th;
	struct th_task *idle, *a, *b;

	sched_th_init(&th);
	idle = sched_th_idle(&th, 0);
	a = sched_th_task(&th, 10, 10);
	b = sched_th_task(&th, 20, 20);
	CHECK(idle && a && b && idle->idle && !a->idle);
	CHECK(!sched_th_switch(&th, a, 1000, 0, true)); /* first switch on the cpu */
	CHECK(a->dt_run == 0);
	sched_th_switch_done(&th, a, 1000, 0, 1);
	sched_th_wakeup(a, 3000);
	sched_th_wakeup(a, 3500); /* the first wakeup counts */
	CHECK(!sched_th_switch(&th, b, 4000, 0, true));
	CHECK(b->dt_run == 3000);
	sched_th_switch_done(&th, b, 4000, 0, 0);
	CHECK(!sched_th_switch(&th, a, 6000, 0, true));
	CHECK(a->dt_run == 2000 && a->dt_delay == 1000 && a->dt_sleep == 3000);
	CHECK(a->dt_preempt == 0 && a->run.n == 2 && a->run.max == 2000 && a->run.min == 0);
	sched_th_switch_done(&th, a, 6000, 0, 2);
	CHECK(!sched_th_switch(&th, b, 7000, 0, true));
	sched_th_switch_done(&th, b, 7000, 0, 0);
	CHECK(!sched_th_switch(&th, a, 8000, 0, true)); /* left in D at 6000: iowait */
	CHECK(a->dt_iowait == 1000 && a->total_sleep == 3000 && a->dt_run == 1000);
	sched_th_exit(&th, 10);
	CHECK(sched_th_task(&th, 10, 10)->run.n == 0); /* a new task */
	sched_th_free(&th);
}

int main(void)
{
	RUN(latency_per_pid);
	RUN(latency_merged);
	RUN(timehist_deltas);
	return unit_done();
}
