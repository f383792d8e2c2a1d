/* SPDX-License-Identifier: GPL-2.0 */
/*
 * batcher: work handed to a second thread in batches. The caller writes each record into
 * space batcher_reserve() gives it; full batches go to a worker thread that calls
 * consume(ctx, record, len) on every record in the order they were reserved, so the result
 * is what direct calls would make. Reading and resolving samples then overlap with counting
 * or folding them on a machine with two CPUs.
 *
 * A record is plain bytes the batcher copies nowhere: the caller puts in it what the
 * consumer needs (pointers into data that outlives the batcher, offsets into the record
 * itself); it stays where it is (8-byte aligned) until consumed. Batches are reused, so
 * after the first few the batcher allocates nothing. The first error consume() returns stops
 * the consuming and comes back from a later batcher_reserve() or from batcher_sync() and
 * batcher_finish(). What consume() touches belongs to the worker until batcher_sync().
 */
#ifndef FLARE_BASE_BATCHER_H
#define FLARE_BASE_BATCHER_H
#include <stddef.h>

struct batcher;

/* Called on the worker thread; < 0 stops the consuming with that error. */
typedef int (*batcher_consume_fn)(void *ctx, void *rec, size_t len);

/* A new batcher and its thread. 0, -ENOMEM, or -EAGAIN when no thread could be started (the
 * caller then does the work itself); *ret is freed with batcher_free(). */
int batcher_new(batcher_consume_fn consume, void *ctx, struct batcher **ret);

/* Space for a record of len bytes in *rec, valid until the next call; the record is consumed
 * as it is when its batch is handed over. 0, -ENOMEM, or consume()'s first error so far. */
int batcher_reserve(struct batcher *b, size_t len, void **rec);

/* Waits until every record reserved so far was consumed. 0 or consume()'s first error. */
int batcher_sync(struct batcher *b);

/* batcher_sync() and stops the thread. */
int batcher_finish(struct batcher *b);

/* batcher_finish() if running, then frees; accepts NULL. */
void batcher_free(struct batcher *b);

#endif
