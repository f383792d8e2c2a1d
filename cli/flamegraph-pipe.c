// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-pipe: see flamegraph-pipe.h. Two batches: the reader fills one while the worker
 * folds the other; a mutex and two condition variables hand them over.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "cli/flamegraph-pipe.h"
#include "lib/base/vec.h"

#define BATCH_SAMPLES 4096

struct item {
	const struct pd_attr *attr;
	const char *comm;
	uint32_t pid, tid, cpu;
	uint64_t time, period;
	size_t first, nr_frames;
	bool discarded;
};

/* What folding reads of a frame: half a struct frame to copy and to hand across CPUs. */
struct pframe {
	struct dso *dso;
	const struct symbol *sym;
	uint64_t addr;
};

struct batch {
	VEC(struct item) items;
	VEC(struct pframe) frames;
};

struct fg_pipe {
	fg_consume_fn consume;
	void *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t ready, done;	/* a batch for the worker; the worker's slot is free */
	struct batch fill, work;	/* the reader's, and the one handed to the worker */
	VEC(struct frame) scratch;	/* the worker's: a sample's frames made whole */
	bool has_work, stop, running;
	int err;			/* consume()'s first error */
};

static int batch_consume(struct fg_pipe *p, const struct batch *b)
{
	size_t i, j;
	int err = 0;

	for (i = 0; i < b->items.nr && !err; i++) {
		const struct item *it = &b->items.items[i];
		/* a sample without frames has none stored (the vector may still be empty) */
		const struct pframe *pf = it->nr_frames ? b->frames.items + it->first : NULL;
		struct perf_sample s = { .pid = it->pid, .tid = it->tid, .time = it->time,
					 .cpu = it->cpu, .period = it->period };
		struct thread t = { .pid = it->pid, .tid = it->tid, .comm = it->comm };
		struct resolved_sample rs = { .s = &s, .attr = it->attr, .thread = &t,
					      .nr_frames = it->nr_frames,
					      .chain_discarded = it->discarded };

		if (vec_reserve(&p->scratch, it->nr_frames))
			return -ENOMEM;
		for (j = 0; j < it->nr_frames; j++)
			p->scratch.items[j] = (struct frame){ .dso = pf[j].dso, .sym = pf[j].sym,
							      .addr = pf[j].addr };
		rs.frames = p->scratch.items;
		err = p->consume(p->ctx, &rs);
	}
	return err;
}

static void *worker(void *arg)
{
	struct fg_pipe *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		int err;

		while (!p->has_work && !p->stop)
			pthread_cond_wait(&p->ready, &p->lock);
		if (!p->has_work)
			break;
		pthread_mutex_unlock(&p->lock);
		err = p->err ? 0 : batch_consume(p, &p->work);
		pthread_mutex_lock(&p->lock);
		if (err && !p->err)
			p->err = err;
		p->work.items.nr = p->work.frames.nr = 0;
		p->has_work = false;
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int fg_pipe_new(fg_consume_fn consume, void *ctx, struct fg_pipe **ret)
{
	struct fg_pipe *p = calloc(1, sizeof(*p));

	*ret = NULL;
	if (!p)
		return -ENOMEM;
	p->consume = consume;
	p->ctx = ctx;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->ready, NULL);
	pthread_cond_init(&p->done, NULL);
	if (pthread_create(&p->thread, NULL, worker, p)) {
		fg_pipe_free(p);
		return -EAGAIN;
	}
	p->running = true;
	*ret = p;
	return 0;
}

/* Hands the filled batch to the worker once it is done with the last one. */
static int hand_over(struct fg_pipe *p)
{
	struct batch t;
	int err;

	pthread_mutex_lock(&p->lock);
	while (p->has_work)
		pthread_cond_wait(&p->done, &p->lock);
	t = p->work;
	p->work = p->fill;
	p->fill = t;
	p->has_work = p->work.items.nr > 0;
	if (p->has_work)
		pthread_cond_signal(&p->ready);
	err = p->err;
	pthread_mutex_unlock(&p->lock);
	return err;
}

int fg_pipe_add(struct fg_pipe *p, const struct resolved_sample *rs)
{
	struct batch *b = &p->fill;
	struct item *it;
	size_t i, nf = rs->chain_discarded ? 0 : rs->nr_frames;

	if (vec_reserve(&b->items, 1) || vec_reserve(&b->frames, nf))
		return -ENOMEM;
	it = &b->items.items[b->items.nr++];
	*it = (struct item){ .attr = rs->attr, .pid = rs->s->pid, .tid = rs->s->tid,
			     .cpu = rs->s->cpu, .time = rs->s->time, .period = rs->s->period,
			     .first = b->frames.nr, .nr_frames = nf,
			     .discarded = rs->chain_discarded };
	it->comm = rs->thread ? rs->thread->comm : NULL;
	for (i = 0; i < nf; i++)
		b->frames.items[b->frames.nr + i] = (struct pframe){ .dso = rs->frames[i].dso,
								     .sym = rs->frames[i].sym,
								     .addr = rs->frames[i].addr };
	b->frames.nr += nf;
	return b->items.nr < BATCH_SAMPLES ? 0 : hand_over(p);
}

int fg_pipe_finish(struct fg_pipe *p)
{
	int err = hand_over(p);

	pthread_mutex_lock(&p->lock);
	while (p->has_work)
		pthread_cond_wait(&p->done, &p->lock);
	p->stop = true;
	pthread_cond_signal(&p->ready);
	err = err ? err : p->err;
	pthread_mutex_unlock(&p->lock);
	if (p->running)
		pthread_join(p->thread, NULL);
	p->running = false;
	return err;
}

void fg_pipe_free(struct fg_pipe *p)
{
	if (!p)
		return;
	if (p->running) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_signal(&p->ready);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->ready);
	pthread_cond_destroy(&p->done);
	vec_free(&p->fill.items);
	vec_free(&p->fill.frames);
	vec_free(&p->work.items);
	vec_free(&p->work.frames);
	vec_free(&p->scratch);
	free(p);
}
