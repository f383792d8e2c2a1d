// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/sched/timehist.h"

static void stats_init(struct th_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

static void stats_add(struct th_stats *s, uint64_t v)
{
	double delta;

	s->n++;
	delta = (double)v - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * ((double)v - s->mean);
	if (v > s->max)
		s->max = v;
	if (v < s->min)
		s->min = v;
}

double th_stats_rel_stddev(const struct th_stats *s)
{
	double var;

	if (s->n < 2 || !s->mean)
		return 0;
	var = s->m2 / (double)(s->n - 1);
	return 100.0 * sqrt(var / (double)s->n) / s->mean;
}

void sched_th_init(struct sched_th *th)
{
	memset(th, 0, sizeof(*th));
}

void sched_th_free(struct sched_th *th)
{
	size_t i = 0, k;
	uint64_t key;
	void *v;

	while (hashmap_next(&th->tasks, &i, &key, &v))
		free(v);
	hashmap_release(&th->tasks);
	for (k = 0; k < th->nr_cpus; k++)
		free(th->idle[k]);
	free(th->idle);
	free(th->cpu_last);
	memset(th, 0, sizeof(*th));
}

static struct th_task *task_new(struct sched_th *th, uint32_t tid, uint32_t pid)
{
	struct th_task *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = pid;
	t->prio = -1;
	t->order = th->next_order++;
	stats_init(&t->run);
	return t;
}

struct th_task *sched_th_task(struct sched_th *th, uint32_t tid, uint32_t pid)
{
	void **slot = hashmap_slot(&th->tasks, tid);

	if (!slot)
		return NULL;
	if (!*slot)
		*slot = task_new(th, tid, pid);
	if (!*slot)
		hashmap_del(&th->tasks, tid);
	return *slot;
}

static int grow(struct sched_th *th, uint32_t cpu)
{
	size_t n = th->nr_cpus, i;
	void *p;

	if (cpu < n)
		return 0;
	while (n <= cpu)
		n = n ? n * 2 : 8;
	p = realloc(th->idle, n * sizeof(*th->idle));
	if (!p)
		return -ENOMEM;
	th->idle = p;
	p = realloc(th->cpu_last, n * sizeof(*th->cpu_last));
	if (!p)
		return -ENOMEM;
	th->cpu_last = p;
	for (i = th->nr_cpus; i < n; i++) {
		th->idle[i] = NULL;
		th->cpu_last[i] = 0;
	}
	th->nr_cpus = n;
	return 0;
}

struct th_task *sched_th_idle(struct sched_th *th, uint32_t cpu)
{
	if (grow(th, cpu))
		return NULL;
	if (!th->idle[cpu]) {
		th->idle[cpu] = task_new(th, 0, 0);
		if (th->idle[cpu])
			th->idle[cpu]->idle = true;
	}
	return th->idle[cpu];
}

void sched_th_exit(struct sched_th *th, uint32_t tid)
{
	void *v;

	if (hashmap_get(&th->tasks, tid, &v)) {
		hashmap_del(&th->tasks, tid);
		free(v);
	}
}

uint64_t sched_th_cpu_prev(const struct sched_th *th, uint32_t cpu)
{
	uint64_t tprev = cpu < th->nr_cpus ? th->cpu_last[cpu] : 0;

	/* perf: a previous switch before the window counts from the window's start */
	if (tprev && th->win_start > tprev)
		tprev = th->win_start;
	return tprev;
}

int sched_th_switch(struct sched_th *th, struct th_task *r, uint64_t t, uint32_t cpu, bool account)
{
	uint64_t tprev;

	if (grow(th, cpu))
		return -ENOMEM;
	tprev = sched_th_cpu_prev(th, cpu);
	r->dt_delay = r->dt_sleep = r->dt_iowait = r->dt_preempt = r->dt_run = 0;
	if (!account)
		return 0;
	if (tprev) {
		r->dt_run = t - tprev;
		if (r->ready_to_run && r->ready_to_run <= tprev)
			r->dt_delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev) {
			uint64_t w = tprev - r->last_time;

			if (r->last_state == 0) /* TASK_RUNNING: preempted */
				r->dt_preempt = w;
			else if (r->last_state == 2) /* TASK_UNINTERRUPTIBLE */
				r->dt_iowait = w;
			else
				r->dt_sleep = w;
		}
	}
	stats_add(&r->run, r->dt_run);
	r->total_run += r->dt_run;
	r->total_delay += r->dt_delay;
	r->total_sleep += r->dt_sleep;
	r->total_iowait += r->dt_iowait;
	r->total_preempt += r->dt_preempt;
	return 0;
}

void sched_th_switch_done(struct sched_th *th, struct th_task *r, uint64_t t, uint32_t cpu,
			  int64_t prev_state)
{
	if (r) {
		r->last_time = t;
		r->last_state = prev_state;
		/* perf 6.1 forgets the wakeup at every switch out, a preempted task's too:
		 * its next delay is counted from its next wakeup only */
		r->ready_to_run = 0;
		r->migrated = 0;
	}
	if (!grow(th, cpu))
		th->cpu_last[cpu] = t;
}

void sched_th_wakeup(struct th_task *r, uint64_t t)
{
	if (!r->ready_to_run)
		r->ready_to_run = t;
}

void sched_th_migrate(struct th_task *r, uint64_t t)
{
	r->migrations++;
	r->migrated = t;
}
