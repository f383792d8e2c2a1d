/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader-build: builds small perf.data images in memory for the reader's unit tests and the
 * fuzz seeds: a file (header, ids, attrs, data, feature index) or a pipe stream, from records
 * appended with rb_*(). Everything lives in a fixed buffer; nothing is allocated.
 */
#ifndef FLARE_TESTS_READER_BUILD_H
#define FLARE_TESTS_READER_BUILD_H
#include <stdint.h>
#include <string.h>
#include "lib/data/format.h"

struct rb {
	uint8_t data[1 << 16]; /* the records */
	size_t len;
	size_t rec;	      /* start of the record being built */
	uint8_t out[1 << 17]; /* the finished image */
	size_t out_len;
};

static inline void rb_bytes(struct rb *b, const void *p, size_t n)
{
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static inline void rb_u64(struct rb *b, uint64_t v)
{
	rb_bytes(b, &v, 8);
}

static inline void rb_u32(struct rb *b, uint32_t v)
{
	rb_bytes(b, &v, 4);
}

static inline void rb_begin(struct rb *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, 0 };

	b->rec = b->len;
	rb_bytes(b, &h, sizeof(h));
}

/* Closes the record: pads to pad bytes (8, or 1 for none) and writes its size. */
static inline void rb_end(struct rb *b, size_t pad)
{
	uint16_t size;

	while ((b->len - b->rec) % pad)
		b->data[b->len++] = 0;
	size = b->len - b->rec;
	memcpy(b->data + b->rec + 6, &size, 2);
}

/* A perf header string {u32 len; char[len]} padded to 64. */
static inline void rb_str(uint8_t *out, size_t *len, const char *s)
{
	uint32_t n = (strlen(s) + 1 + 63) / 64 * 64;

	memcpy(out + *len, &n, 4);
	memset(out + *len + 4, 0, n);
	memcpy(out + *len + 4, s, strlen(s));
	*len += 4 + n;
}

struct rb_feat {
	int bit;
	const void *p;
	size_t size;
};

/* Lays out a seekable file: header, ids of each attr, attrs, data = the records, features. */
static inline void rb_file(struct rb *b, const struct perf_event_attr *attrs,
			   const uint64_t *const *ids, const size_t *nr_ids, size_t nr_attrs,
			   const struct rb_feat *feats, size_t nr_feats)
{
	struct perf_file_header h = { PERF_MAGIC2, sizeof(h), PERF_ATTR_SIZE_FILE + 16 };
	size_t off = sizeof(h), i, idoff[16], foff;

	for (i = 0; i < nr_attrs; i++) {
		idoff[i] = off;
		memcpy(b->out + off, ids[i], nr_ids[i] * 8);
		off += nr_ids[i] * 8;
	}
	h.attrs.offset = off;
	h.attrs.size = nr_attrs * h.attr_size;
	for (i = 0; i < nr_attrs; i++) {
		struct perf_file_section s = { idoff[i], nr_ids[i] * 8 };

		memcpy(b->out + off, &attrs[i], PERF_ATTR_SIZE_FILE);
		memcpy(b->out + off + PERF_ATTR_SIZE_FILE, &s, sizeof(s));
		off += h.attr_size;
	}
	off = (off + 7) & ~(size_t)7;
	h.data.offset = off;
	h.data.size = b->len;
	memcpy(b->out + off, b->data, b->len);
	off += b->len;
	foff = off + 16 * nr_feats;
	for (i = 0; i < nr_feats; i++) {
		struct perf_file_section s = { foff, feats[i].size };

		h.features[feats[i].bit / 64] |= 1ULL << (feats[i].bit % 64);
		memcpy(b->out + off + 16 * i, &s, sizeof(s));
		memcpy(b->out + foff, feats[i].p, feats[i].size);
		foff += feats[i].size;
	}
	memcpy(b->out, &h, sizeof(h));
	b->out_len = foff;
}

/* A pipe stream: the 16-byte header and the records as they are. */
static inline void rb_pipe(struct rb *b)
{
	struct perf_pipe_file_header h = { PERF_MAGIC2, sizeof(h) };

	memcpy(b->out, &h, sizeof(h));
	memcpy(b->out + sizeof(h), b->data, b->len);
	b->out_len = sizeof(h) + b->len;
}

#endif
