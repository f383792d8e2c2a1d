// SPDX-License-Identifier: GPL-2.0
/*
 * feed: hist_add() on the batcher's thread (see feed.h). A sample is one record: the hist, the
 * hist_sample, then its frames and its trace text copied behind them; the worker points the
 * sample at its copies and adds it.
 */
#include <assert.h>
#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/batcher.h"
#include "lib/hist/feed.h"

struct hist_feed {
	struct batcher *b; /* NULL: no thread, hist_add() directly */
};

struct item {
	struct hist *h;
	struct hist_sample s; /* frames and trace: behind the item until added */
	size_t trace_len;     /* with its NUL; 0 for none */
};

static_assert(alignof(struct hist_frame) <= 8, "frames sit behind items at 8-byte alignment");

static int add_item(void *ctx, void *rec, size_t len)
{
	struct item *it = rec;
	struct hist_frame *frames = (struct hist_frame *)(it + 1);

	(void)ctx;
	(void)len;
	it->s.frames = frames;
	it->s.trace = it->trace_len ? (const char *)(frames + it->s.nr_frames) : NULL;
	return hist_add(it->h, &it->s);
}

int hist_feed_new(struct hist_feed **ret)
{
	struct hist_feed *f = calloc(1, sizeof(*f));
	int err;

	*ret = NULL;
	if (!f)
		return -ENOMEM;
	err = batcher_new(add_item, NULL, &f->b);
	if (err == -ENOMEM) {
		free(f);
		return err;
	}
	*ret = f;
	return 0;
}

int hist_feed_add(struct hist_feed *f, struct hist *h, const struct hist_sample *s)
{
	size_t tlen = s->trace ? strlen(s->trace) + 1 : 0;
	size_t flen = s->nr_frames * sizeof(*s->frames);
	struct item *it;
	int err;

	if (!f->b)
		return hist_add(h, s);
	err = batcher_reserve(f->b, sizeof(*it) + flen + tlen, (void **)&it);
	if (err)
		return err;
	it->h = h;
	it->s = *s;
	it->trace_len = tlen;
	if (flen)
		memcpy(it + 1, s->frames, flen);
	if (tlen)
		memcpy((char *)(it + 1) + flen, s->trace, tlen);
	return 0;
}

int hist_feed_sync(struct hist_feed *f)
{
	return f->b ? batcher_sync(f->b) : 0;
}

int hist_feed_finish(struct hist_feed *f)
{
	return f->b ? batcher_finish(f->b) : 0;
}

void hist_feed_free(struct hist_feed *f)
{
	if (!f)
		return;
	batcher_free(f->b);
	free(f);
}
