/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feed: hist_add() on a second thread (lib/base/batcher.h). The caller (who reads and
 * resolves the samples) hands each sample to hist_feed_add(), which copies it into a batch;
 * full batches go to a worker thread that adds them to their hists in the order they were
 * given, so the hists come out as direct hist_add() calls would make them. Reading and
 * resolving then overlap with counting on a machine with two CPUs.
 *
 * While a feed runs, the hists it was given belong to its worker: the caller must not touch
 * them (nor move them) before hist_feed_sync() or hist_feed_finish(). If the thread cannot be
 * started, hist_feed_add() calls hist_add() itself. Errors of hist_add() (-ENOMEM) come back
 * from a later hist_feed_add() or from hist_feed_sync()/hist_feed_finish().
 */
#ifndef FLARE_HIST_FEED_H
#define FLARE_HIST_FEED_H
#include "lib/hist/hist.h"

struct hist_feed;

/* A new feed (its thread starts with it). 0 or -ENOMEM; the caller frees with hist_feed_free. */
int hist_feed_new(struct hist_feed **ret);

/* Queues s for h (frames and trace text are copied). 0 or an earlier hist_add() error. */
int hist_feed_add(struct hist_feed *f, struct hist *h, const struct hist_sample *s);

/* Waits until every queued sample was added. 0 or the first hist_add() error. */
int hist_feed_sync(struct hist_feed *f);

/* hist_feed_sync() and stops the thread. */
int hist_feed_finish(struct hist_feed *f);

/* Stops the thread if running and frees the feed; accepts NULL. */
void hist_feed_free(struct hist_feed *f);

#endif
