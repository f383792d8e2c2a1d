// SPDX-License-Identifier: GPL-2.0
/* lib/base/batcher: records of any size consumed in order on the second thread, errors back to
 * the caller, sync as a fence, and free draining what was queued. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "tests/unit/unit.h"
#include "lib/base/batcher.h"

struct seen {
	uint64_t next; /* the number the next record must carry */
	uint64_t bytes, bad;
	uint64_t fail_at; /* consume() fails on this number (0: never) */
};

/* a record: u64 n, then n % 61 bytes of (n + i) */
static int check_rec(void *ctx, void *rec, size_t len)
{
	struct seen *s = ctx;
	const uint8_t *b = rec;
	uint64_t n;
	size_t i;

	memcpy(&n, rec, 8);
	if (s->fail_at && n == s->fail_at)
		return -EIO;
	if (n != s->next || len != 8 + n % 61)
		s->bad++;
	for (i = 8; i < len; i++)
		if (b[i] != (uint8_t)(n + i))
			s->bad++;
	s->next = n + 1;
	s->bytes += len;
	return 0;
}

static int put(struct batcher *b, uint64_t n)
{
	size_t i, len = 8 + n % 61;
	uint8_t *rec;
	int err = batcher_reserve(b, len, (void **)&rec);

	if (err)
		return err;
	memcpy(rec, &n, 8);
	for (i = 8; i < len; i++)
		rec[i] = (uint8_t)(n + i);
	return 0;
}

TEST(batcher_order)
{
	struct seen s = { 0 };
	struct batcher *b;
	uint64_t n;

	CHECK(batcher_new(check_rec, &s, &b) == 0);
	for (n = 0; n < 20000; n++)
		CHECK(put(b, n) == 0);
	CHECK(batcher_sync(b) == 0);
	CHECK(s.next == 20000 && s.bad == 0);
	for (; n < 20010; n++)
		CHECK(put(b, n) == 0);
	CHECK(batcher_finish(b) == 0);
	CHECK(s.next == 20010 && s.bad == 0);
	batcher_free(b);
	batcher_free(NULL);
}

TEST(batcher_error)
{
	struct seen s = { .fail_at = 5000 };
	struct batcher *b;
	uint64_t n;
	int err = 0;

	CHECK(batcher_new(check_rec, &s, &b) == 0);
	for (n = 0; n < 30000 && !err; n++)
		err = put(b, n);
	if (!err)
		err = batcher_sync(b);
	CHECK(err == -EIO);
	CHECK(s.next == 5000); /* nothing after the failing record was consumed */
	CHECK(batcher_finish(b) == -EIO);
	batcher_free(b);
}

TEST(batcher_free_drains)
{
	struct seen s = { 0 };
	struct batcher *b;
	uint64_t n;

	CHECK(batcher_new(check_rec, &s, &b) == 0);
	for (n = 0; n < 100; n++)
		CHECK(put(b, n) == 0);
	batcher_free(b);
	CHECK(s.next == 100 && s.bad == 0);
}

int main(void)
{
	RUN(batcher_order);
	RUN(batcher_error);
	RUN(batcher_free_drains);
	return unit_done();
}
