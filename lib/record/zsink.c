// SPDX-License-Identifier: GPL-2.0
/*
 * zsink: see zsink.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "lib/data/format.h"
#include "lib/record/zsink.h"

#define REC_MAX 65535u /* a record's size is a u16 */

struct zsink {
	ZSTD_CCtx *cc;
	uint8_t rec[REC_MAX];
	uint64_t in, out;
};

int zsink_new(int level, struct zsink **ret)
{
	struct zsink *z;

	*ret = NULL;
	if (level < 1 || level > ZSTD_maxCLevel())
		return -EINVAL;
	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	z->cc = ZSTD_createCCtx();
	if (!z->cc || ZSTD_isError(ZSTD_CCtx_setParameter(z->cc, ZSTD_c_compressionLevel, level))) {
		zsink_free(z);
		return -ENOMEM;
	}
	*ret = z;
	return 0;
}

int zsink_write(struct zsink *z, struct perf_writer *w, const void *buf, size_t len)
{
	ZSTD_inBuffer in = { buf, len, 0 };
	struct perf_event_header h = { PERF_RECORD_COMPRESSED, 0, 0 };

	z->in += len;
	for (;;) {
		ZSTD_outBuffer out = { z->rec + sizeof(h), REC_MAX - sizeof(h), 0 };
		size_t left = ZSTD_compressStream2(z->cc, &out, &in, ZSTD_e_flush);
		int err;

		if (ZSTD_isError(left))
			return -EIO;
		if (out.pos) {
			h.size = (uint16_t)(sizeof(h) + out.pos);
			memcpy(z->rec, &h, sizeof(h));
			err = perf_writer_write(w, z->rec, h.size);
			if (err)
				return err;
			z->out += h.size;
		}
		if (!left && in.pos == in.size)
			return 0;
	}
}

uint64_t zsink_bytes_in(const struct zsink *z)
{
	return z->in;
}

uint64_t zsink_bytes_out(const struct zsink *z)
{
	return z->out;
}

void zsink_free(struct zsink *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cc);
	free(z);
}
