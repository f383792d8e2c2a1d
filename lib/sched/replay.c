// SPDX-License-Identifier: GPL-2.0
/*
 * replay: perf sched replay's tasks and atoms, played by threads (see replay.h).
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include "lib/base/hashmap.h"
#include "lib/base/vec.h"
#include "lib/sched/replay.h"

enum atom_kind { A_RUN, A_SLEEP, A_WAKEUP };

struct atom {
	enum atom_kind kind;
	uint64_t duration; /* A_RUN */
	sem_t *sem;	   /* A_SLEEP: waited for; A_WAKEUP: posted (NULL: nothing) */
	bool own_sem;	   /* the sleep atom owns sem */
};

struct task {
	uint32_t pid;
	char comm[17];
	VEC(struct atom) atoms;
	struct replay *r;
	pthread_t thread;
	bool started;
	sem_t done;
	uint64_t cpu_ns;
};

struct replay {
	struct hashmap by_pid; /* pid -> task index + 1 */
	VEC(struct task *) tasks;
	uint64_t *cpu_last;
	size_t nr_cpus;
	struct replay_counts c;
	uint64_t overhead;
	pthread_mutex_t lock;
	pthread_cond_t go;
	unsigned long gen;
	bool quit;
};

uint64_t replay_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void replay_burn(uint64_t ns, uint64_t overhead)
{
	uint64_t t0 = replay_now();

	while (replay_now() + overhead < t0 + ns)
		;
}

void replay_sleep(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 999999999), (long)(ns % 999999999) };

	nanosleep(&ts, NULL);
}

int replay_new(struct replay **ret)
{
	struct replay *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->go, NULL);
	*ret = r;
	return 0;
}

static struct atom *last_atom(struct task *t)
{
	return t->atoms.nr ? &t->atoms.items[t->atoms.nr - 1] : NULL;
}

static int add_atom(struct task *t, enum atom_kind kind)
{
	struct atom a = { .kind = kind };

	return vec_push(&t->atoms, a);
}

static int add_sleep(struct replay *r, struct task *t)
{
	r->c.sleep++;
	return add_atom(t, A_SLEEP);
}

/* perf's register_pid(): the task of pid, made with comm (and an initial sleep) when new */
static struct task *task_of(struct replay *r, uint32_t pid, const char *comm)
{
	struct task *t;
	void *v;

	if (hashmap_get(&r->by_pid, pid, &v))
		return r->tasks.items[(uintptr_t)v - 1];
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->r = r;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	if (add_sleep(r, t) || vec_push(&r->tasks, t)) {
		vec_free(&t->atoms);
		free(t);
		return NULL;
	}
	if (hashmap_put(&r->by_pid, pid, (void *)(uintptr_t)r->tasks.nr))
		return NULL; /* kept in tasks: freed with them */
	return t;
}

static int add_run(struct replay *r, struct task *t, uint64_t duration)
{
	struct atom *last = last_atom(t);

	if (last && last->kind == A_RUN) {
		r->c.optimized++;
		last->duration += duration;
		return 0;
	}
	if (add_atom(t, A_RUN))
		return -ENOMEM;
	last_atom(t)->duration = duration;
	r->c.run++;
	return 0;
}

static int add_wakeup(struct replay *r, struct task *waker, struct task *wakee)
{
	struct atom *w;

	if (add_atom(waker, A_WAKEUP))
		return -ENOMEM;
	w = last_atom(wakee);
	if (!w || w->kind != A_SLEEP) {
		r->c.targetless++;
		return 0;
	}
	if (w->sem) {
		r->c.multitarget++;
		return 0;
	}
	w->sem = malloc(sizeof(*w->sem));
	if (!w->sem)
		return -ENOMEM;
	sem_init(w->sem, 0, 0);
	w->own_sem = true;
	last_atom(waker)->sem = w->sem;
	r->c.wakeup++;
	return 0;
}

int replay_switch(struct replay *r, uint64_t t, uint32_t cpu, uint32_t prev_pid,
		  const char *prev_comm, uint32_t next_pid, const char *next_comm)
{
	struct task *prev, *next;
	uint64_t delta = 0;

	if (cpu >= 4096)
		return 0; /* perf's MAX_CPUS */
	if (cpu >= r->nr_cpus) {
		size_t n = r->nr_cpus ? r->nr_cpus : 8, i;
		uint64_t *p;

		while (n <= cpu)
			n *= 2;
		p = realloc(r->cpu_last, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		for (i = r->nr_cpus; i < n; i++)
			p[i] = 0;
		r->cpu_last = p;
		r->nr_cpus = n;
	}
	if (r->cpu_last[cpu] && t >= r->cpu_last[cpu])
		delta = t - r->cpu_last[cpu];
	prev = task_of(r, prev_pid, prev_comm);
	next = task_of(r, next_pid, next_comm);
	if (!prev || !next)
		return -ENOMEM;
	r->cpu_last[cpu] = t;
	if (add_run(r, prev, delta))
		return -ENOMEM;
	return add_sleep(r, prev);
}

int replay_wakeup(struct replay *r, uint64_t t, uint32_t waker_tid, uint32_t pid, const char *comm)
{
	struct task *waker = task_of(r, waker_tid, "<unknown>"), *wakee;

	wakee = waker ? task_of(r, pid, comm) : NULL;
	return wakee ? add_wakeup(r, waker, wakee) : -ENOMEM;
}

int replay_fork(struct replay *r, uint32_t parent_tid, const char *parent_comm, uint32_t tid,
		const char *comm)
{
	return task_of(r, parent_tid, parent_comm) && task_of(r, tid, comm) ? 0 : -ENOMEM;
}

void replay_get_counts(const struct replay *r, struct replay_counts *c)
{
	*c = r->c;
}

size_t replay_nr_tasks(const struct replay *r)
{
	return r->tasks.nr;
}

void replay_task(const struct replay *r, size_t i, uint32_t *pid, const char **comm,
		 long *nr_events)
{
	const struct task *t = r->tasks.items[i];

	*pid = t->pid;
	*comm = t->comm;
	*nr_events = (long)t->atoms.nr;
}

int replay_cross_wakeups(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->tasks.nr; i++)
		if (add_wakeup(r, r->tasks.items[i], r->tasks.items[(i + 1) % r->tasks.nr]))
			return -ENOMEM;
	return 0;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void *task_main(void *arg)
{
	struct task *t = arg;
	struct replay *r = t->r;
	unsigned long seen = 0;
	char name[18];
	size_t i;

	snprintf(name, sizeof(name), ":%s", t->comm);
	name[15] = '\0'; /* the kernel keeps 15 characters */
	prctl(PR_SET_NAME, name);
	for (;;) {
		uint64_t c0;

		pthread_mutex_lock(&r->lock);
		while (r->gen == seen && !r->quit)
			pthread_cond_wait(&r->go, &r->lock);
		seen = r->gen;
		pthread_mutex_unlock(&r->lock);
		if (r->quit)
			return NULL;
		c0 = thread_cpu_ns();
		for (i = 0; i < t->atoms.nr; i++) {
			struct atom *a = &t->atoms.items[i];

			if (a->kind == A_RUN)
				replay_burn(a->duration, r->overhead);
			else if (a->kind == A_SLEEP && a->sem)
				while (sem_wait(a->sem) && errno == EINTR)
					;
			else if (a->kind == A_WAKEUP && a->sem)
				sem_post(a->sem);
		}
		t->cpu_ns = thread_cpu_ns() - c0;
		sem_post(&t->done);
	}
}

int replay_start(struct replay *r, uint64_t run_overhead)
{
	pthread_attr_t attr;
	size_t i;
	int err = 0;

	r->overhead = run_overhead;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < r->tasks.nr && !err; i++) {
		struct task *t = r->tasks.items[i];

		sem_init(&t->done, 0, 0);
		err = -pthread_create(&t->thread, &attr, task_main, t);
		t->started = !err;
	}
	pthread_attr_destroy(&attr);
	return err;
}

int replay_play(struct replay *r, uint64_t *wall_ns, uint64_t *cpu_ns)
{
	uint64_t t0 = replay_now();
	size_t i;

	pthread_mutex_lock(&r->lock);
	r->gen++;
	pthread_cond_broadcast(&r->go);
	pthread_mutex_unlock(&r->lock);
	*cpu_ns = 0;
	for (i = 0; i < r->tasks.nr; i++) {
		struct task *t = r->tasks.items[i];

		while (sem_wait(&t->done) && errno == EINTR)
			;
		*cpu_ns += t->cpu_ns;
	}
	*wall_ns = replay_now() - t0;
	return 0;
}

void replay_free(struct replay *r)
{
	size_t i, j;

	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->quit = true;
	pthread_cond_broadcast(&r->go);
	pthread_mutex_unlock(&r->lock);
	for (i = 0; i < r->tasks.nr; i++) {
		struct task *t = r->tasks.items[i];

		if (t->started) {
			pthread_join(t->thread, NULL);
			sem_destroy(&t->done);
		}
		for (j = 0; j < t->atoms.nr; j++)
			if (t->atoms.items[j].own_sem) {
				sem_destroy(t->atoms.items[j].sem);
				free(t->atoms.items[j].sem);
			}
		vec_free(&t->atoms);
		free(t);
	}
	vec_free(&r->tasks);
	hashmap_release(&r->by_pid);
	free(r->cpu_last);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->go);
	free(r);
}
