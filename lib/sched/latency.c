// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/sched/latency.h"

/* The states of perf's work atom */
enum { TS_SLEEPING, TS_WAIT_CPU, TS_SCHED_IN, TS_IGNORE };

int sched_lat_init(struct sched_lat *l, int profile_cpu, bool keep_delays)
{
	memset(l, 0, sizeof(*l));
	l->profile_cpu = profile_cpu;
	l->keep_delays = keep_delays;
	return 0;
}

void sched_lat_free(struct sched_lat *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->tasks[i]->delays);
		free(l->tasks[i]);
	}
	free(l->tasks);
	free(l->cpu_last);
	free(l->cpu_curr);
	hashmap_release(&l->index);
	memset(l, 0, sizeof(*l));
}

static struct lat_task *task_find(struct sched_lat *l, uint32_t tid)
{
	void *v;

	return hashmap_get(&l->index, tid, &v) ? v : NULL;
}

static struct lat_task *task_new(struct sched_lat *l, uint32_t tid)
{
	struct lat_task *t;

	if (l->nr == l->alloc) {
		size_t n = l->alloc ? l->alloc * 2 : 64;
		void *p = realloc(l->tasks, n * sizeof(*l->tasks));

		if (!p)
			return NULL;
		l->tasks = p;
		l->alloc = n;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	if (hashmap_put(&l->index, tid, t)) {
		free(t);
		return NULL;
	}
	t->tid = tid;
	l->tasks[l->nr++] = t;
	return t;
}

/* perf's add_sched_out_event: a new atom, runnable when the task left in state 'R' */
static void sched_out(struct lat_task *t, bool runnable, uint64_t ts)
{
	t->sched_out = ts;
	t->state = runnable ? TS_WAIT_CPU : TS_SLEEPING;
	t->wake_up = runnable ? ts : 0;
}

static int push_delay(struct sched_lat *l, struct lat_task *t, uint64_t d)
{
	uint64_t us = d / 1000;

	/* slot 0: 0-1 us; slot k: 2^k .. 2^(k+1)-1 us */
	l->hist[us < 2 ? 0 : 63 - __builtin_clzll(us)]++;
	if (!l->keep_delays)
		return 0;
	if (t->nr_delays == t->alloc_delays) {
		size_t n = t->alloc_delays ? t->alloc_delays * 2 : 16;
		void *p = realloc(t->delays, n * sizeof(*t->delays));

		if (!p)
			return -ENOMEM;
		t->delays = p;
		t->alloc_delays = n;
	}
	t->delays[t->nr_delays++] = d;
	return 0;
}

/* perf's add_sched_in_event */
static int sched_in(struct sched_lat *l, struct lat_task *t, uint64_t ts)
{
	uint64_t d;

	if (t->state != TS_WAIT_CPU)
		return 0;
	if (ts < t->wake_up) {
		t->state = TS_IGNORE;
		return 0;
	}
	t->state = TS_SCHED_IN;
	d = ts - t->wake_up;
	t->total_lat += d;
	if (d > t->max_lat) {
		t->max_lat = d;
		t->max_start = t->wake_up;
		t->max_end = ts;
	}
	t->nb_atoms++;
	return push_delay(l, t, d);
}

static int grow_cpus(struct sched_lat *l, uint32_t cpu)
{
	size_t n = l->nr_cpus, i;
	void *p;

	if (cpu < n)
		return 0;
	while (n <= cpu)
		n = n ? n * 2 : 8;
	p = realloc(l->cpu_last, n * sizeof(*l->cpu_last));
	if (!p)
		return -ENOMEM;
	l->cpu_last = p;
	p = realloc(l->cpu_curr, n * sizeof(*l->cpu_curr));
	if (!p)
		return -ENOMEM;
	l->cpu_curr = p;
	for (i = l->nr_cpus; i < n; i++) {
		l->cpu_last[i] = 0;
		l->cpu_curr[i] = (uint32_t)-1;
	}
	l->nr_cpus = n;
	return 0;
}

static int on_switch(struct sched_lat *l, const struct sched_rec *r, uint64_t ts, uint32_t cpu)
{
	struct lat_task *out, *in;

	if (grow_cpus(l, cpu))
		return -ENOMEM;
	if (l->cpu_curr[cpu] != (uint32_t)-1 && l->cpu_curr[cpu] != r->prev_pid)
		l->nr_switch_bugs++;
	l->cpu_curr[cpu] = r->next_pid;
	l->cpu_last[cpu] = ts;
	out = task_find(l, r->prev_pid);
	if (!out && !(out = task_new(l, r->prev_pid)))
		return -ENOMEM;
	/* perf 6.1 reads the state as an index into "RSDTtZXxKWP": only 0 is 'R' (a
	 * preempted task's TASK_REPORT_MAX reads past the string, never an 'R') */
	sched_out(out, r->prev_state == 0, ts);
	in = task_find(l, r->next_pid);
	if (!in) {
		in = task_new(l, r->next_pid);
		if (!in)
			return -ENOMEM;
		sched_out(in, true, ts);
	}
	return sched_in(l, in, ts);
}

static int on_wakeup(struct sched_lat *l, const struct sched_rec *r, uint64_t ts)
{
	struct lat_task *t = task_find(l, r->pid);

	if (!t) {
		t = task_new(l, r->pid);
		if (!t)
			return -ENOMEM;
		sched_out(t, false, ts);
	}
	/* a wakeup of a task still on the run queue changes nothing (with all CPUs seen) */
	if (l->profile_cpu == -1 && t->state != TS_SLEEPING)
		return 0;
	l->nr_timestamps++;
	if (t->sched_out > ts) {
		l->nr_unordered++;
		return 0;
	}
	t->state = TS_WAIT_CPU;
	t->wake_up = ts;
	return 0;
}

static int on_migrate(struct sched_lat *l, const struct sched_rec *r, uint64_t ts)
{
	struct lat_task *t;

	if (l->profile_cpu == -1) /* only matters when one CPU is looked at */
		return 0;
	t = task_find(l, r->pid);
	if (!t) {
		t = task_new(l, r->pid);
		if (!t)
			return -ENOMEM;
		sched_out(t, true, ts);
	}
	t->sched_out = t->wake_up = ts;
	l->nr_timestamps++;
	return 0;
}

int sched_lat_event(struct sched_lat *l, const struct sched_rec *r, uint64_t t, uint32_t cpu)
{
	struct lat_task *task;

	switch (r->kind) {
	case SEV_SWITCH:
		return on_switch(l, r, t, cpu);
	case SEV_RUNTIME:
		task = task_find(l, r->pid);
		if (!task) {
			task = task_new(l, r->pid);
			if (!task)
				return -ENOMEM;
			sched_out(task, true, t);
		}
		task->total_runtime += r->runtime;
		return 0;
	case SEV_WAKEUP:
	case SEV_WAKEUP_NEW:
		return on_wakeup(l, r, t);
	case SEV_WAKING: /* perf 6.1's latency has no handler for it */
		return 0;
	case SEV_MIGRATE:
		return on_migrate(l, r, t);
	default:
		return 0;
	}
}

/* ---- merging and sorting ---- */

static int cmp_tid(const void *a, const void *b)
{
	const struct lat_task *x = *(struct lat_task *const *)a, *y = *(struct lat_task *const *)b;

	return x->tid > y->tid ? -1 : x->tid < y->tid;
}

static int cmp_comm(const void *a, const void *b)
{
	const struct lat_task *x = *(struct lat_task *const *)a, *y = *(struct lat_task *const *)b;
	int c = strcmp(y->comm, x->comm);

	return c ? c : x->tid > y->tid ? -1 : x->tid < y->tid;
}

static int merge_into(struct lat_task *h, struct lat_task *t)
{
	h->num_merged++;
	h->total_runtime += t->total_runtime;
	h->nb_atoms += t->nb_atoms;
	h->total_lat += t->total_lat;
	if (h->max_lat < t->max_lat) {
		h->max_lat = t->max_lat;
		h->max_start = t->max_start;
		h->max_end = t->max_end;
	}
	if (t->nr_delays) {
		size_t n = h->nr_delays + t->nr_delays;
		void *p = realloc(h->delays, n * sizeof(*h->delays));

		if (!p)
			return -ENOMEM;
		h->delays = p;
		memcpy(h->delays + h->nr_delays, t->delays, t->nr_delays * sizeof(*t->delays));
		h->nr_delays = h->alloc_delays = n;
	}
	return 0;
}

static int key_cmp(enum lat_key k, const struct lat_task *l, const struct lat_task *r)
{
	uint64_t a, b;

	switch (k) {
	case LK_PID:
		return l->tid < r->tid ? -1 : l->tid > r->tid;
	case LK_AVG:
		if (!l->nb_atoms)
			return -1;
		if (!r->nb_atoms)
			return 1;
		a = l->total_lat / l->nb_atoms;
		b = r->total_lat / r->nb_atoms;
		break;
	case LK_MAX:
		a = l->max_lat, b = r->max_lat;
		break;
	case LK_SWITCH:
		a = l->nb_atoms, b = r->nb_atoms;
		break;
	default:
		a = l->total_runtime, b = r->total_runtime;
		break;
	}
	return a < b ? -1 : a > b;
}

struct sort_ctx {
	const enum lat_key *keys;
	int nr;
};

static int task_cmp(const struct sort_ctx *s, const struct lat_task *l, const struct lat_task *r)
{
	int i, c;

	for (i = 0; i < s->nr; i++) {
		c = key_cmp(s->keys[i], l, r);
		if (c)
			return c;
	}
	return 0;
}

/* perf inserts into a tree where larger goes left and equal goes right: a stable sort,
 * largest first. Done here as a stable merge sort. */
static void stable_sort(struct lat_task **v, struct lat_task **tmp, size_t n,
			const struct sort_ctx *s)
{
	size_t m = n / 2, i = 0, j = m, k = 0;

	if (n < 2)
		return;
	stable_sort(v, tmp, m, s);
	stable_sort(v + m, tmp, n - m, s);
	while (i < m && j < n)
		tmp[k++] = task_cmp(s, v[j], v[i]) > 0 ? v[j++] : v[i++];
	while (i < m)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

int sched_lat_finish(struct sched_lat *l, bool per_pid, const enum lat_key *keys, int nr_keys,
		     lat_comm_fn comm, void *ctx, struct lat_task ***out)
{
	struct sort_ctx s = { keys, nr_keys };
	struct lat_task **v, **tmp;
	size_t i, n = 0;

	v = malloc((l->nr ? l->nr : 1) * sizeof(*v));
	tmp = malloc((l->nr ? l->nr : 1) * sizeof(*tmp));
	if (!v || !tmp) {
		free(v);
		free(tmp);
		return -ENOMEM;
	}
	for (i = 0; i < l->nr; i++) {
		struct lat_task *t = l->tasks[i];

		t->comm = comm(ctx, t->tid);
		if (!t->comm) {
			snprintf(t->comm_buf, sizeof(t->comm_buf), ":%u", t->tid);
			t->comm = t->comm_buf;
		}
		l->tasks[i]->num_merged = 0;
		v[i] = l->tasks[i];
	}
	/* perf keeps its tasks in trees whose first entry is the largest (tid, then name):
	 * the walk goes by tid downwards, merging each task into the first of its name */
	qsort(v, l->nr, sizeof(*v), cmp_tid);
	if (per_pid) {
		for (n = 0; n < l->nr; n++)
			v[n]->num_merged = 1;
	} else {
		qsort(v, l->nr, sizeof(*v), cmp_comm);
		for (i = 0; i < l->nr; i++) {
			if (n && !strcmp(v[n - 1]->comm, v[i]->comm)) {
				if (merge_into(v[n - 1], v[i]))
					goto nomem;
				continue;
			}
			v[i]->num_merged = 1;
			v[n++] = v[i];
		}
	}
	stable_sort(v, tmp, n, &s);
	free(tmp);
	*out = v;
	return (int)n;
nomem:
	free(tmp);
	free(v);
	return -ENOMEM;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t sched_lat_percentile(struct lat_task *t, double p)
{
	size_t rank;

	if (!t->nr_delays)
		return 0;
	if (!t->delays_sorted) {
		qsort(t->delays, t->nr_delays, sizeof(*t->delays), cmp_u64);
		t->delays_sorted = true;
	}
	rank = (size_t)(p / 100.0 * (double)t->nr_delays + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > t->nr_delays)
		rank = t->nr_delays;
	return t->delays[rank - 1];
}
