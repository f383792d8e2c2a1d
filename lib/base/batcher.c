// SPDX-License-Identifier: GPL-2.0
/*
 * batcher: see batcher.h. Three batches circulate: one being filled, up to two queued or
 * being consumed. A batch is one growing buffer of records, each a length and its bytes
 * padded to 8; a mutex and one condition variable hand the batches over.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "lib/base/batcher.h"
#include "lib/base/vec.h"

#define BATCH_RECORDS 4096
#define NR_BATCHES 3

struct batch {
	uint64_t *buf;	   /* records: {u64 len, bytes padded to 8} */
	size_t words, cap; /* in u64s */
	size_t nr;	   /* records */
};

struct batcher {
	batcher_consume_fn consume;
	void *ctx;
	pthread_t th;
	bool running, stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch batches[NR_BATCHES];
	struct batch *free[NR_BATCHES], *queue[NR_BATCHES];
	size_t nr_free, q_head, q_len;
	bool busy;	   /* the worker is consuming a batch */
	int err;	   /* consume()'s first error */
	struct batch *cur; /* being filled by the caller */
};

static int batch_consume(struct batcher *b, struct batch *bt)
{
	size_t i = 0;
	int err = 0;

	while (i < bt->words && !err) {
		size_t len = (size_t)bt->buf[i];

		err = b->consume(b->ctx, bt->buf + i + 1, len);
		i += 1 + (len + 7) / 8;
	}
	return err;
}

static void *worker(void *arg)
{
	struct batcher *b = arg;

	pthread_mutex_lock(&b->mu);
	for (;;) {
		struct batch *bt;
		int err;

		while (!b->q_len && !b->stop)
			pthread_cond_wait(&b->cv, &b->mu);
		if (!b->q_len)
			break;
		bt = b->queue[b->q_head];
		b->q_head = (b->q_head + 1) % NR_BATCHES;
		b->q_len--;
		b->busy = true;
		err = b->err;
		pthread_mutex_unlock(&b->mu);
		if (!err)
			err = batch_consume(b, bt);
		bt->words = bt->nr = 0;
		pthread_mutex_lock(&b->mu);
		if (err && !b->err)
			b->err = err;
		b->free[b->nr_free++] = bt;
		b->busy = false;
		pthread_cond_broadcast(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

int batcher_new(batcher_consume_fn consume, void *ctx, struct batcher **ret)
{
	struct batcher *b = calloc(1, sizeof(*b));
	size_t i;

	*ret = NULL;
	if (!b)
		return -ENOMEM;
	b->consume = consume;
	b->ctx = ctx;
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	for (i = 1; i < NR_BATCHES; i++)
		b->free[b->nr_free++] = &b->batches[i];
	b->cur = &b->batches[0];
	if (pthread_create(&b->th, NULL, worker, b)) {
		batcher_free(b);
		return -EAGAIN;
	}
	b->running = true;
	*ret = b;
	return 0;
}

/* Hands the filled batch to the worker and takes a free one. */
static int hand_over(struct batcher *b)
{
	int err;

	pthread_mutex_lock(&b->mu);
	b->queue[(b->q_head + b->q_len) % NR_BATCHES] = b->cur;
	b->q_len++;
	pthread_cond_broadcast(&b->cv);
	while (!b->nr_free)
		pthread_cond_wait(&b->cv, &b->mu);
	b->cur = b->free[--b->nr_free];
	err = b->err;
	pthread_mutex_unlock(&b->mu);
	return err;
}

int batcher_reserve(struct batcher *b, size_t len, void **rec)
{
	struct batch *bt;
	size_t words = 1 + (len + 7) / 8;
	int err;

	*rec = NULL;
	if (b->cur->nr >= BATCH_RECORDS && (err = hand_over(b)))
		return err;
	bt = b->cur;
	if (vec_reserve_((void **)&bt->buf, &bt->cap, bt->words + words, sizeof(*bt->buf)))
		return -ENOMEM;
	bt->buf[bt->words] = len;
	*rec = bt->buf + bt->words + 1;
	bt->words += words;
	bt->nr++;
	return 0;
}

int batcher_sync(struct batcher *b)
{
	int err;

	if (!b->running)
		return b->err;
	if (b->cur->nr && (err = hand_over(b)))
		return err;
	pthread_mutex_lock(&b->mu);
	while (b->q_len || b->busy)
		pthread_cond_wait(&b->cv, &b->mu);
	err = b->err;
	pthread_mutex_unlock(&b->mu);
	return err;
}

int batcher_finish(struct batcher *b)
{
	int err = batcher_sync(b);

	if (b->running) {
		pthread_mutex_lock(&b->mu);
		b->stop = true;
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
		pthread_join(b->th, NULL);
		b->running = false;
	}
	return err;
}

void batcher_free(struct batcher *b)
{
	size_t i;

	if (!b)
		return;
	batcher_finish(b);
	for (i = 0; i < NR_BATCHES; i++)
		free(b->batches[i].buf);
	pthread_mutex_destroy(&b->mu);
	pthread_cond_destroy(&b->cv);
	free(b);
}
