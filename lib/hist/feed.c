// SPDX-License-Identifier: GPL-2.0
/*
 * feed: batches of samples handed to a worker thread that runs hist_add() (see feed.h).
 * Three batches circulate: one being filled, up to two queued or being added. They are
 * reused, so after the first few the feed allocates nothing.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/vec.h"
#include "lib/hist/feed.h"

#define BATCH_SAMPLES 4096
#define NR_BATCHES 3

struct item {
	struct hist *h;
	struct hist_sample s;	/* frames and trace: offsets into the batch until added */
	size_t frame_off, trace_off;
	bool has_trace;
};

struct batch {
	struct item *items;
	size_t nr, cap;
	struct hist_frame *frames;
	size_t nr_frames, frames_cap;
	char *text;
	size_t text_len, text_cap;
};

struct hist_feed {
	pthread_t th;
	bool running, stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch batches[NR_BATCHES];
	struct batch *free[NR_BATCHES], *queue[NR_BATCHES];
	size_t nr_free, q_head, q_len;
	bool busy;		/* the worker is adding a batch */
	int err;		/* first hist_add() error */
	struct batch *cur;	/* being filled by the caller */
};

static int batch_add_one(struct hist *h, const struct item *it, struct batch *b)
{
	struct hist_sample s = it->s;

	s.frames = b->frames + it->frame_off;
	if (it->has_trace)
		s.trace = b->text + it->trace_off;
	return hist_add(h, &s);
}

static void *worker(void *arg)
{
	struct hist_feed *f = arg;

	pthread_mutex_lock(&f->mu);
	for (;;) {
		struct batch *b;
		size_t i;
		int err = 0;

		while (!f->q_len && !f->stop)
			pthread_cond_wait(&f->cv, &f->mu);
		if (!f->q_len)
			break;
		b = f->queue[f->q_head];
		f->q_head = (f->q_head + 1) % NR_BATCHES;
		f->q_len--;
		f->busy = true;
		err = f->err;
		pthread_mutex_unlock(&f->mu);
		for (i = 0; i < b->nr && !err; i++)
			err = batch_add_one(b->items[i].h, &b->items[i], b);
		b->nr = b->nr_frames = b->text_len = 0;
		pthread_mutex_lock(&f->mu);
		if (err && !f->err)
			f->err = err;
		f->free[f->nr_free++] = b;
		f->busy = false;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

int hist_feed_new(struct hist_feed **ret)
{
	struct hist_feed *f = calloc(1, sizeof(*f));
	size_t i;

	*ret = NULL;
	if (!f)
		return -ENOMEM;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	for (i = 1; i < NR_BATCHES; i++)
		f->free[f->nr_free++] = &f->batches[i];
	f->cur = &f->batches[0];
	f->running = !pthread_create(&f->th, NULL, worker, f);
	*ret = f;
	return 0;
}

/* Hands the filled batch to the worker and takes a free one. */
static int hand_over(struct hist_feed *f)
{
	int err;

	pthread_mutex_lock(&f->mu);
	f->queue[(f->q_head + f->q_len) % NR_BATCHES] = f->cur;
	f->q_len++;
	pthread_cond_broadcast(&f->cv);
	while (!f->nr_free)
		pthread_cond_wait(&f->cv, &f->mu);
	f->cur = f->free[--f->nr_free];
	err = f->err;
	pthread_mutex_unlock(&f->mu);
	return err;
}

int hist_feed_add(struct hist_feed *f, struct hist *h, const struct hist_sample *s)
{
	struct batch *b = f->cur;
	size_t tlen = s->trace ? strlen(s->trace) + 1 : 0;
	struct item *it;

	if (!f->running)
		return hist_add(h, s);
	if (vec_reserve_((void **)&b->items, &b->cap, b->nr + 1, sizeof(*b->items)) ||
	    vec_reserve_((void **)&b->frames, &b->frames_cap, b->nr_frames + s->nr_frames,
			 sizeof(*b->frames)) ||
	    vec_reserve_((void **)&b->text, &b->text_cap, b->text_len + tlen, 1))
		return -ENOMEM;
	it = &b->items[b->nr++];
	*it = (struct item){ h, *s, b->nr_frames, b->text_len, s->trace != NULL };
	it->s.frames = NULL;
	it->s.trace = NULL;
	if (s->nr_frames)
		memcpy(b->frames + b->nr_frames, s->frames, s->nr_frames * sizeof(*s->frames));
	b->nr_frames += s->nr_frames;
	if (tlen)
		memcpy(b->text + b->text_len, s->trace, tlen);
	b->text_len += tlen;
	if (b->nr < BATCH_SAMPLES)
		return 0;
	return hand_over(f);
}

int hist_feed_sync(struct hist_feed *f)
{
	int err;

	if (!f->running)
		return 0;
	if (f->cur->nr && (err = hand_over(f)))
		return err;
	pthread_mutex_lock(&f->mu);
	while (f->q_len || f->busy)
		pthread_cond_wait(&f->cv, &f->mu);
	err = f->err;
	pthread_mutex_unlock(&f->mu);
	return err;
}

int hist_feed_finish(struct hist_feed *f)
{
	int err = hist_feed_sync(f);

	if (f->running) {
		pthread_mutex_lock(&f->mu);
		f->stop = true;
		pthread_cond_broadcast(&f->cv);
		pthread_mutex_unlock(&f->mu);
		pthread_join(f->th, NULL);
		f->running = false;
	}
	return err;
}

void hist_feed_free(struct hist_feed *f)
{
	size_t i;

	if (!f)
		return;
	hist_feed_finish(f);
	for (i = 0; i < NR_BATCHES; i++) {
		free(f->batches[i].items);
		free(f->batches[i].frames);
		free(f->batches[i].text);
	}
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->cv);
	free(f);
}
