// SPDX-License-Identifier: GPL-2.0
/*
 * reader-zstd: COMPRESSED records (perf record -z). Their payloads form one zstd stream; a
 * record may be split across two COMPRESSED records, so the undelivered tail of one block is
 * carried in front of the next. Each decompressed block is kept in chunk memory until close.
 */
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>
#include "lib/base/err.h"
#include "lib/data/reader-priv.h"

static int grow_scratch(struct pd_priv *p, size_t want)
{
	size_t cap = p->zscratch_cap ? p->zscratch_cap : 1 << 18;
	void *n;

	while (cap < want)
		cap *= 2;
	if (cap == p->zscratch_cap)
		return 0;
	n = realloc(p->zscratch, cap);
	if (!n)
		return -ENOMEM;
	p->zscratch = n;
	p->zscratch_cap = cap;
	return 0;
}

int pd_decompress(struct perf_data *pd, const struct perf_event_header *ev, uint64_t off)
{
	struct pd_priv *p = pd_priv(pd);
	size_t carry = p->zbuf ? p->zlen - p->zpos : 0;
	ZSTD_inBuffer in = { (const uint8_t *)ev + sizeof(*ev), ev->size - sizeof(*ev), 0 };
	ZSTD_outBuffer out;
	uint8_t *block;

	if (!p->zctx && !(p->zctx = ZSTD_createDCtx()))
		return -ENOMEM;
	if (grow_scratch(p, carry + 4 * in.size + 4096))
		return -ENOMEM;
	if (carry)
		memcpy(p->zscratch, p->zbuf + p->zpos, carry);
	out.pos = carry;
	for (;;) {
		size_t r;

		if (out.pos == p->zscratch_cap && grow_scratch(p, p->zscratch_cap * 2))
			return -ENOMEM;
		out.dst = p->zscratch;
		out.size = p->zscratch_cap;
		r = ZSTD_decompressStream(p->zctx, &out, &in);
		if (ZSTD_isError(r))
			return pd_err(pd, -ERR_FORMAT, "compressed record at offset 0x%llx: %s",
				      (unsigned long long)off, ZSTD_getErrorName(r));
		if (in.pos == in.size && out.pos < out.size)
			break;
		if (out.pos > (64u << 20))
			return pd_err(pd, -ERR_FORMAT,
				      "compressed record at offset 0x%llx expands beyond 64 MiB",
				      (unsigned long long)off);
	}
	block = pd_chunk_alloc(p, out.pos ? out.pos : 8);
	if (!block)
		return -ENOMEM;
	memcpy(block, p->zscratch, out.pos);
	p->zbuf = block;
	p->zpos = 0;
	p->zlen = out.pos;
	p->zoff = off;
	return 0;
}

void pd_zstd_free(struct pd_priv *p)
{
	ZSTD_freeDCtx(p->zctx);
	free(p->zscratch);
}
