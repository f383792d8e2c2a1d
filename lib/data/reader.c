// SPDX-License-Identifier: GPL-2.0
/*
 * reader: opening perf.data (seekable file by mmap, pipe stream by read into chunks), the
 * header, attrs and feature index, and iteration over the records. Record decoding is in
 * reader-sample.c, event names in reader-names.c, COMPRESSED records in reader-zstd.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/data/reader-priv.h"

#define CHUNK_SIZE (1u << 20)
#define PRELUDE_MAX 200000    /* records read ahead in pipe mode, at most */
#define SRC_BUF (256u << 10)  /* read() size for streams */
#define DROP_STEP (32u << 20) /* bytes read between drop_behind() calls */

int pd_err(struct perf_data *pd, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pd->err_msg, sizeof(pd->err_msg), fmt, ap);
	va_end(ap);
	return err;
}

void *pd_chunk_alloc(struct pd_priv *p, size_t n)
{
	struct pd_chunk *c = p->chunks;
	void *ret;

	n = (n + 7) & ~(size_t)7;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_SIZE ? n : CHUNK_SIZE;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->used = 0;
		c->next = p->chunks;
		p->chunks = c;
	}
	ret = (uint8_t *)c->data + c->used;
	c->used += n;
	return ret;
}

/* Reads up to n bytes from the stream; returns the count (short only at EOF) or -errno. */
static ssize_t src_read(struct pd_src *s, void *buf, size_t n)
{
	size_t got = 0, k;

	if (s->fd < 0) {
		size_t left = s->mem_len - s->mem_pos;

		if (n > left)
			n = left;
		memcpy(buf, s->mem + s->mem_pos, n);
		s->mem_pos += n;
		return n;
	}
	if (!s->buf && !(s->buf = malloc(SRC_BUF)))
		return -ENOMEM;
	while (got < n) {
		if (s->buf_pos == s->buf_len) {
			ssize_t r = read(s->fd, s->buf, SRC_BUF);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return -errno;
			if (r == 0)
				break;
			s->buf_len = r;
			s->buf_pos = 0;
		}
		k = n - got < s->buf_len - s->buf_pos ? n - got : s->buf_len - s->buf_pos;
		memcpy((uint8_t *)buf + got, s->buf + s->buf_pos, k);
		s->buf_pos += k;
		got += k;
	}
	return got;
}

const void *perf_data_feature(struct perf_data *pd, int feat, size_t *size)
{
	struct pd_priv *p = pd_priv(pd);

	if (feat < 0 || feat > 255 || !p->feat[feat].p)
		return NULL;
	if (size)
		*size = p->feat[feat].size;
	return p->feat[feat].p;
}

bool perf_data_has_feature(struct perf_data *pd, int feat)
{
	return perf_data_feature(pd, feat, NULL) != NULL;
}

const char *perf_data_feature_str(struct perf_data *pd, int feat)
{
	size_t size;
	const uint8_t *f = perf_data_feature(pd, feat, &size);
	uint32_t len;

	if (!f || size < 4)
		return NULL;
	len = pd_u32(f);
	if (len == 0 || len > size - 4 || !memchr(f + 4, 0, len))
		return NULL;
	return (const char *)f + 4;
}

long long perf_data_mtime(struct perf_data *pd)
{
	return pd_priv(pd)->mtime;
}

/* Reads the attr section: attr_size bytes per event, the attr then {offset, size} of ids. */
static int read_attrs(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	const struct perf_file_header *h = &pd->header;
	uint64_t asz = h->attr_size, nr, i;

	if (asz < PERF_ATTR_SIZE_VER0 + 16 || asz > 4096)
		return pd_err(pd, -ERR_FORMAT, "bad attr size %llu in the header at offset 16",
			      (unsigned long long)asz);
	if (h->attrs.offset > p->map_len || h->attrs.size > p->map_len - h->attrs.offset)
		return pd_err(
			pd, -ERR_TRUNCATED,
			"attr section at offset 0x%llx (%llu bytes) runs past the end of the file",
			(unsigned long long)h->attrs.offset, (unsigned long long)h->attrs.size);
	if (h->attrs.size % asz)
		return pd_err(pd, -ERR_FORMAT, "attr section size %llu is not a multiple of %llu",
			      (unsigned long long)h->attrs.size, (unsigned long long)asz);
	nr = h->attrs.size / asz;
	if (nr == 0)
		return pd_err(pd, -ERR_FORMAT, "file has no events (attr section is empty)");
	pd->attrs = calloc(nr, sizeof(*pd->attrs));
	p->name_src = calloc(nr, 1);
	if (!pd->attrs || !p->name_src)
		return -ENOMEM;
	pd->nr_attrs = nr;
	p->attrs_alloc = nr;
	for (i = 0; i < nr; i++) {
		const uint8_t *e = p->map + h->attrs.offset + i * asz;
		struct pd_attr *a = &pd->attrs[i];
		size_t n = asz - 16;
		uint64_t ioff = pd_u64(e + n), isz = pd_u64(e + n + 8);

		memcpy(&a->attr, e, n < sizeof(a->attr) ? n : sizeof(a->attr));
		a->idx = i;
		if (isz % 8 || ioff > p->map_len || isz > p->map_len - ioff)
			return pd_err(
				pd, -ERR_FORMAT,
				"ids of event %llu (offset 0x%llx, %llu bytes) are outside the "
				"file",
				(unsigned long long)i, (unsigned long long)ioff,
				(unsigned long long)isz);
		a->nr_ids = isz / 8;
		if (a->nr_ids) {
			a->ids = malloc(isz);
			if (!a->ids)
				return -ENOMEM;
			memcpy(a->ids, p->map + ioff, isz);
		}
	}
	return 0;
}

/* The feature index follows the data section: one {offset, size} per set bit, in bit order. */
static void read_features(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	uint64_t idx = pd->data_offset + pd->data_size;
	int bit;

	for (bit = 0; bit < 256; bit++) {
		uint64_t off, size;

		if (!(pd->header.features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		if (idx > p->map_len || p->map_len - idx < 16) {
			log_warn("%s: feature index is cut short at feature %d", pd->path, bit);
			return;
		}
		off = pd_u64(p->map + idx);
		size = pd_u64(p->map + idx + 8);
		idx += 16;
		if (off > p->map_len || size > p->map_len - off) {
			log_warn("%s: feature %d at offset 0x%llx (%llu bytes) is outside the file",
				 pd->path, bit, (unsigned long long)off, (unsigned long long)size);
			continue;
		}
		p->feat[bit].p = p->map + off;
		p->feat[bit].size = size;
	}
}

static int check_header(struct perf_data *pd, uint64_t magic)
{
	if (magic == PERF_MAGIC2)
		return 0;
	if (magic == __builtin_bswap64(PERF_MAGIC2))
		return pd_err(
			pd, -ERR_ENDIAN,
			"file was written on a big-endian machine (byte-swapped magic at offset "
			"0); flare reads only files of this machine's byte order");
	if (!memcmp(&magic, "PERFFILE", 8))
		return pd_err(
			pd, -ERR_UNSUPPORTED_FILE,
			"file is in perf's obsolete version 1 format (magic PERFFILE); re-record "
			"it with a current perf");
	return pd_err(pd, -ERR_FORMAT, "bad magic at offset 0: not a perf.data file");
}

static int open_file_mode(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	struct perf_file_header *h = &pd->header;
	int err;

	if (p->map_len < sizeof(*h))
		return pd_err(pd, -ERR_TRUNCATED,
			      "file is %zu bytes, shorter than the %zu-byte header", p->map_len,
			      sizeof(*h));
	memcpy(h, p->map, sizeof(*h));
	if (h->size != sizeof(*h))
		return pd_err(pd, -ERR_FORMAT, "header size %llu at offset 8 is not 104",
			      (unsigned long long)h->size);
	pd->data_offset = h->data.offset;
	pd->data_size = h->data.size;
	if (h->data.offset % 8 || h->data.offset < sizeof(*h))
		return pd_err(pd, -ERR_FORMAT,
			      "data section offset 0x%llx at offset 40 is not valid",
			      (unsigned long long)h->data.offset);
	if (h->data.offset > p->map_len)
		return pd_err(pd, -ERR_TRUNCATED,
			      "data section starts at 0x%llx, past the end of the file (%zu bytes)",
			      (unsigned long long)h->data.offset, p->map_len);
	err = read_attrs(pd);
	if (err)
		return err;
	p->cur = p->map;
	p->cur_name = "";
	p->pos = h->data.offset;
	p->data_end = h->data.offset + h->data.size;
	if (p->data_end < h->data.offset)
		return pd_err(pd, -ERR_FORMAT, "data size at offset 48 overflows");
	if (h->data.size == 0) {
		/* a recording killed before it finished (perf leaves these): its records run
		 * to the end of the file, and it has no feature sections */
		log_warn("%s: the header's data size is 0 (was the recording killed?): reading "
			 "its records up to the end of the file",
			 pd->path);
		p->open_end = true;
		p->data_end = p->map_len;
		pd->data_size = p->map_len - h->data.offset;
	}
	p->end = p->data_end <= p->map_len ? p->data_end : p->map_len;
	if (p->data_end <= p->map_len && !p->open_end)
		read_features(pd);
	err = pd_index_ids(pd);
	if (err)
		return err;
	return pd_names_init(pd);
}

/* Skips n bytes of the stream; false when it ends first. */
static bool src_skip(struct pd_src *s, uint64_t n)
{
	uint8_t buf[16384];

	if (s->fd < 0) {
		if (n > s->mem_len - s->mem_pos)
			return false;
		s->mem_pos += n;
		return true;
	}
	while (n) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);

		if (src_read(s, buf, k) != (ssize_t)k)
			return false;
		n -= k;
	}
	return true;
}

/*
 * Data that follows a record outside its size: the tracing data after HEADER_TRACING_DATA
 * (u32 size, padded to 8; kept) and the AUX area data after AUXTRACE (u64 size; skipped).
 */
static int stream_trailing(struct perf_data *pd, const uint8_t *rec, uint64_t off)
{
	const struct perf_event_header *h = (const void *)rec;
	struct pd_priv *p = pd_priv(pd);
	uint64_t tsz, padded;
	uint8_t *blob;

	if (h->type == PERF_RECORD_AUXTRACE && h->size >= 16) {
		padded = pd_u64(rec + 8);
		if (!src_skip(&p->src, padded))
			return pd_err(pd, -ERR_TRUNCATED,
				      "stream ends inside the AUX data after offset 0x%llx",
				      (unsigned long long)off);
		p->pos += padded;
		return 1;
	}
	if (h->type != PERF_RECORD_HEADER_TRACING_DATA)
		return 1;
	if (h->size < sizeof(*h) + 4)
		return pd_err(pd, -ERR_FORMAT, "tracing data record at offset 0x%llx is too short",
			      (unsigned long long)off);
	tsz = pd_u32(rec + sizeof(*h));
	padded = (tsz + 7) & ~7ULL;
	if (p->src.fd < 0 ? padded > p->src.mem_len - p->src.mem_pos : padded > (256u << 20))
		return pd_err(
			pd, -ERR_TRUNCATED,
			"tracing data of %llu bytes after offset 0x%llx runs past the end of the "
			"stream",
			(unsigned long long)tsz, (unsigned long long)off);
	blob = pd_chunk_alloc(p, padded ? padded : 8);
	if (!blob)
		return -ENOMEM;
	if (src_read(&p->src, blob, padded) != (ssize_t)padded)
		return pd_err(pd, -ERR_TRUNCATED,
			      "stream ends inside the tracing data after offset 0x%llx",
			      (unsigned long long)off);
	p->tdata = blob;
	p->tdata_size = tsz;
	p->pos += padded;
	return 1;
}

/* Pipe mode: the stream ends inside a record (a recording killed, a copy cut short): the
 * records before it are all there is. Said once, then the end. */
static int stream_cut(struct perf_data *pd, size_t partial)
{
	struct pd_priv *p = pd_priv(pd);

	p->eof = true;
	pd->cut_short = true;
	log_warn("%s: the stream is cut short inside the record at offset 0x%llx: the %llu "
		 "bytes of records before it were read, the %zu bytes of that one are lost",
		 pd->path, (unsigned long long)p->pos, (unsigned long long)p->pos, partial);
	return 0;
}

/* Where a stream record goes: chunk memory kept until close, or with PD_STREAM, for the
 * kernel's records after the prelude, the one buffer reused by every such record. */
static uint8_t *stream_buf(struct pd_priv *p, const struct perf_event_header *h)
{
	if (!p->stream || !p->prelude_done || h->type >= PERF_RECORD_USER_TYPE_START)
		return pd_chunk_alloc(p, h->size);
	if (h->size > p->recbuf_cap) {
		uint8_t *b = realloc(p->recbuf, h->size);

		if (!b)
			return NULL;
		p->recbuf = b;
		p->recbuf_cap = h->size;
	}
	return p->recbuf;
}

/* Pipe mode: reads the next record of the stream into chunk memory. 1, 0 at EOF, or < 0. */
static int stream_next(struct perf_data *pd, const struct perf_event_header **ev, uint64_t *off)
{
	struct pd_priv *p = pd_priv(pd);
	struct perf_event_header h;
	uint8_t *buf;
	ssize_t r;

	if (p->eof)
		return 0;
	r = src_read(&p->src, &h, sizeof(h));
	if (r < 0)
		return pd_err(pd, r, "cannot read the stream at offset 0x%llx: %s",
			      (unsigned long long)p->pos, err_str(r));
	if (r == 0) {
		p->eof = true;
		return 0;
	}
	if (r < (ssize_t)sizeof(h))
		return stream_cut(pd, (size_t)r);
	if (h.size < sizeof(h))
		return pd_err(pd, -ERR_FORMAT, "record at offset 0x%llx has size %u",
			      (unsigned long long)p->pos, h.size);
	buf = stream_buf(p, &h);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &h, sizeof(h));
	r = src_read(&p->src, buf + sizeof(h), h.size - sizeof(h));
	if (r < 0)
		return pd_err(pd, r, "cannot read the stream at offset 0x%llx: %s",
			      (unsigned long long)p->pos, err_str(r));
	if (r < (ssize_t)(h.size - sizeof(h)))
		return stream_cut(pd, sizeof(h) + (size_t)r);
	*ev = (const void *)buf;
	*off = p->pos;
	p->pos += h.size;
	return stream_trailing(pd, buf, *off);
}

/* rec itself when 8-aligned, else a copy in chunk memory (NULL on -ENOMEM). */
static const struct perf_event_header *aligned_record(struct pd_priv *p, const uint8_t *rec,
						      size_t size)
{
	void *copy;

	if (!((uintptr_t)rec & 7))
		return (const void *)rec;
	copy = pd_chunk_alloc(p, size);
	if (copy)
		memcpy(copy, rec, size);
	return copy;
}

/*
 * Gives the pages already read back to the page cache: a private, never-written file
 * mapping refaults them from the file on the next access, so every record pointer handed
 * out stays valid while the resident size of a long walk stays small.
 */
static void drop_behind(struct pd_priv *p)
{
	uint64_t page = sysconf(_SC_PAGESIZE), upto = p->pos & ~(page - 1);

	if (upto > p->dropped)
		madvise((void *)(p->cur + p->dropped), upto - p->dropped, MADV_DONTNEED);
	p->dropped = upto;
}

/* File mode: the file ends before its data section does (a copy cut short, a recording
 * killed): the records before the cut are all there is. Said once, with what was lost;
 * then the end. */
static int cut_short(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	uint64_t start = pd->data_offset, read = p->pos - start;

	if (p->eof)
		return 0;
	p->eof = true;
	pd->cut_short = true;
	if (p->open_end)
		log_warn("%s: the records end with a partial one at offset 0x%llx: %llu bytes of "
			 "records read, %llu bytes after them ignored",
			 pd->path, (unsigned long long)p->pos, (unsigned long long)read,
			 (unsigned long long)(p->map_len - p->pos));
	else
		log_warn("%s: the file is cut short at offset 0x%llx: read %llu of the data "
			 "section's %llu bytes of records (%.1f%%); the rest is lost",
			 pd->path, (unsigned long long)p->pos, (unsigned long long)read,
			 (unsigned long long)(p->data_end - start),
			 100.0 * (double)read / (double)(p->data_end - start));
	return 0;
}

/* File mode: the record at p->pos of the mapping. */
static int map_next(struct perf_data *pd, const struct perf_event_header **ev, uint64_t *off)
{
	struct pd_priv *p = pd_priv(pd);
	struct perf_event_header h;

	while (p->pos >= p->end) {
		if (p->end < p->data_end)
			return cut_short(pd);
		if (!pd_dir_next_file(p))
			return 0;
	}
	if (p->end - p->pos < sizeof(h))
		return cut_short(pd);
	memcpy(&h, p->cur + p->pos, sizeof(h));
	if (h.size < sizeof(h) && p->open_end && !h.size && !h.type)
		return cut_short(pd); /* zeros past what a killed recording wrote */
	if (h.size < sizeof(h))
		return pd_err(pd, -ERR_FORMAT, "record at offset 0x%llx%s has size %u",
			      (unsigned long long)p->pos, p->cur_name, h.size);
	if (h.size > p->end - p->pos && (p->end < p->data_end || p->open_end))
		return cut_short(pd);
	if (h.size > p->end - p->pos)
		return pd_err(
			pd, -ERR_FORMAT,
			"record at offset 0x%llx%s (type %u, size %u) runs past the end of the "
			"data section at 0x%llx",
			(unsigned long long)p->pos, p->cur_name, h.type, h.size,
			(unsigned long long)p->end);
	*off = p->pos;
	*ev = aligned_record(p, p->cur + p->pos, h.size);
	if (!*ev)
		return -ENOMEM;
	p->pos += h.size;
	if (h.type == PERF_RECORD_AUXTRACE && h.size >= 16) {
		uint64_t skip = pd_u64(p->cur + *off + 8); /* AUX data follows the record */

		if (skip > p->end - p->pos)
			return pd_err(
				pd, -ERR_TRUNCATED,
				"AUX data of %llu bytes after offset 0x%llx runs past the data "
				"section",
				(unsigned long long)skip, (unsigned long long)*off);
		p->pos += skip;
	}
	if (p->own_map && p->pos - p->dropped > DROP_STEP)
		drop_behind(p);
	return 1;
}

/* A record from the compressed block being handed out. 1, 0 when it is used up, or < 0. */
static int zblock_next(struct perf_data *pd, const struct perf_event_header **ev, uint64_t *off)
{
	struct pd_priv *p = pd_priv(pd);
	struct perf_event_header h;

	if (!p->zbuf || p->zlen - p->zpos < sizeof(h))
		return 0;
	memcpy(&h, p->zbuf + p->zpos, sizeof(h));
	if (h.size < sizeof(h))
		return pd_err(pd, -ERR_FORMAT,
			      "compressed record at offset 0x%llx holds a record of size %u",
			      (unsigned long long)p->zoff, h.size);
	if (h.size > p->zlen - p->zpos)
		return 0; /* continues in the next COMPRESSED record */
	*ev = aligned_record(p, p->zbuf + p->zpos, h.size);
	if (!*ev)
		return -ENOMEM;
	*off = p->zoff;
	p->zpos += h.size;
	return 1;
}

/* Bookkeeping for records the reader itself understands. */
static int absorb(struct perf_data *pd, const struct perf_event_header *ev, uint64_t off)
{
	struct pd_priv *p = pd_priv(pd);
	const uint8_t *b = (const uint8_t *)ev;

	switch (ev->type) {
	case PERF_RECORD_HEADER_ATTR:
		return pd_absorb_attr(pd, ev);
	case PERF_RECORD_HEADER_FEATURE: {
		uint64_t feat;

		if (ev->size < 16)
			return pd_err(pd, -ERR_FORMAT,
				      "feature record at offset 0x%llx is too short",
				      (unsigned long long)off);
		feat = pd_u64(b + 8);
		if (feat < 256 && feat != FEAT_LAST) {
			p->feat[feat].p = b + 16;
			p->feat[feat].size = ev->size - 16;
		}
		return 0;
	}
	case PERF_RECORD_ID_INDEX:
		return pd_add_id_index(pd, ev);
	case PERF_RECORD_EVENT_UPDATE:
		return pd_name_update(pd, ev);
	case PERF_RECORD_HEADER_TRACING_DATA:
		return pd_name_tracepoints(pd);
	}
	return 0;
}

static int raw_next(struct perf_data *pd, const struct perf_event_header **ev, uint64_t *off)
{
	return pd->is_pipe ? stream_next(pd, ev, off) : map_next(pd, ev, off);
}

uint64_t perf_data_nr_compressed(struct perf_data *pd)
{
	return pd_priv(pd)->nr_compressed;
}

int perf_data_next(struct perf_data *pd, const struct perf_event_header **ev, uint64_t *off)
{
	struct pd_priv *p = pd_priv(pd);
	uint64_t o;
	int ret, err;

	if (!off)
		off = &o;
	if (p->pending_pos < p->nr_pending) {
		*ev = p->pending[p->pending_pos].ev;
		*off = p->pending[p->pending_pos++].off;
		return 1;
	}
	for (;;) {
		ret = zblock_next(pd, ev, off);
		if (ret)
			return ret;
		ret = raw_next(pd, ev, off);
		if (ret <= 0)
			return ret;
		if ((*ev)->type == PERF_RECORD_COMPRESSED) {
			p->nr_compressed++;
			err = pd_decompress(pd, *ev, *off);
			if (err)
				return err;
			continue;
		}
		err = absorb(pd, *ev, *off);
		return err ? err : 1;
	}
}

/* Pipe mode: reads ahead the prelude so that attrs, features and names are known at open. */
static int read_prelude(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	size_t alloc = 0;
	int ret, err;

	while (p->nr_pending < PRELUDE_MAX) {
		const struct perf_event_header *ev;
		uint64_t off;

		p->pending_pos = p->nr_pending; /* do not hand out what is queued */
		ret = perf_data_next(pd, &ev, &off);
		if (ret < 0)
			return ret;
		if (ret == 0)
			break;
		if (p->nr_pending == alloc) {
			size_t n = alloc ? alloc * 2 : 64;
			void *q = realloc(p->pending, n * sizeof(*p->pending));

			if (!q)
				return -ENOMEM;
			p->pending = q;
			alloc = n;
		}
		p->pending[p->nr_pending].ev = ev;
		p->pending[p->nr_pending++].off = off;
		if (ev->type == PERF_RECORD_FINISHED_INIT || ev->type == PERF_RECORD_SAMPLE ||
		    ev->type == PERF_RECORD_FINISHED_ROUND)
			break;
	}
	p->pending_pos = 0;
	p->prelude_done = true;
	if (!pd->nr_attrs)
		return pd_err(pd, -ERR_FORMAT,
			      "pipe stream has no event attributes (no HEADER_ATTR record)");
	err = pd_index_ids(pd);
	if (err)
		return err;
	return pd_names_init(pd);
}

static int open_pipe_mode(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	struct perf_pipe_file_header ph;
	ssize_t r;

	r = src_read(&p->src, &ph, sizeof(ph));
	if (r < 0)
		return pd_err(pd, r, "cannot read: %s", err_str(r));
	if (r < (ssize_t)sizeof(ph.magic))
		return pd_err(pd, r ? -ERR_TRUNCATED : -ERR_FORMAT,
			      r ? "file ends inside the magic at offset 0" : "file is empty");
	if (check_header(pd, ph.magic))
		return check_header(pd, ph.magic);
	if (r == (ssize_t)sizeof(ph) && ph.size == sizeof(struct perf_file_header))
		return pd_err(pd, -ERR_UNSUPPORTED_FILE,
			      "a seekable perf.data file cannot be read from a pipe; give its path "
			      "instead (or record with -o - for pipe mode)");
	if (r < (ssize_t)sizeof(ph) || ph.size != sizeof(ph))
		return pd_err(pd, -ERR_FORMAT, "pipe header size %llu at offset 8 is not 16",
			      (unsigned long long)ph.size);
	pd->is_pipe = true;
	pd->header.magic = ph.magic;
	pd->header.size = ph.size;
	pd->data_offset = sizeof(ph);
	p->pos = 0; /* perf counts pipe offsets from the end of the 16-byte header */
	return read_prelude(pd);
}

static int pd_alloc(const char *path, struct perf_data **ret)
{
	struct perf_data *pd = calloc(1, sizeof(*pd));
	struct pd_priv *p = calloc(1, sizeof(*p));

	if (!pd || !p) {
		free(pd);
		free(p);
		return -ENOMEM;
	}
	pd->priv = p;
	pd->path = strdup(path);
	if (!pd->path) {
		free(p);
		free(pd);
		return -ENOMEM;
	}
	p->fd = -1;
	p->src.fd = -1;
	*ret = pd;
	return 0;
}

/* Decides between file and pipe mode by the header size field. */
static int open_by_header(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	uint64_t magic, size;

	if (p->map_len >= 16) {
		memcpy(&magic, p->map, 8);
		memcpy(&size, p->map + 8, 8);
		if (check_header(pd, magic))
			return check_header(pd, magic);
		if (size == sizeof(struct perf_pipe_file_header)) {
			p->src.mem = p->map;
			p->src.mem_len = p->map_len;
			return open_pipe_mode(pd);
		}
		return open_file_mode(pd);
	}
	if (p->map_len >= 8) {
		memcpy(&magic, p->map, 8);
		if (check_header(pd, magic))
			return check_header(pd, magic);
	}
	return pd_err(pd, p->map_len ? -ERR_TRUNCATED : -ERR_FORMAT,
		      p->map_len ? "file is %zu bytes, too short for a header" : "file is empty",
		      p->map_len);
}

int pd_open_path(struct perf_data *pd, const char *path, unsigned int flags)
{
	struct pd_priv *p = pd_priv(pd);
	struct stat st;
	void *m;

	p->stream = flags & PD_STREAM;
	if (!strcmp(path, "-")) {
		p->fd = dup(0);
	} else {
		p->fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (p->fd < 0)
		return pd_err(pd, -errno, "%s", strerror(errno));
	if (fstat(p->fd, &st))
		return pd_err(pd, -errno, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode) && !p->in_dir) {
		close(p->fd);
		p->fd = -1;
		return pd_dir_open(pd, path, flags);
	}
	if (S_ISDIR(st.st_mode))
		return pd_err(pd, -EISDIR, "'data' of the perf.data directory is a directory");
	if (!(flags & PD_FORCE) && strcmp(path, "-") && st.st_uid && st.st_uid != geteuid())
		return pd_err(pd, -EPERM,
			      "not owned by current user or root (use -f to read it anyway)");
	if (!S_ISREG(st.st_mode)) {
		p->src.fd = p->fd;
		return open_pipe_mode(pd);
	}
	p->mtime = st.st_mtime;
	pd->file_size = st.st_size;
	if (st.st_size == 0)
		return pd_err(pd, -ERR_FORMAT, "file is empty (0 bytes)");
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, p->fd, 0);
	if (m == MAP_FAILED)
		return pd_err(pd, -errno, "cannot map the file: %s", strerror(errno));
	p->map = m;
	p->map_len = st.st_size;
	p->own_map = true;
	madvise(m, st.st_size, MADV_SEQUENTIAL);
	return open_by_header(pd);
}

static int finish_open(struct perf_data *pd, int err, struct perf_data **ret, char *errbuf,
		       size_t errlen)
{
	if (err) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s", pd->err_msg[0] ? pd->err_msg : err_str(err));
		perf_data_close(pd);
		*ret = NULL;
		return err;
	}
	*ret = pd;
	return 0;
}

int perf_data_open(const char *path, unsigned int flags, struct perf_data **ret, char *errbuf,
		   size_t errlen)
{
	struct perf_data *pd;
	int err = pd_alloc(path, &pd);

	if (err) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s", err_str(err));
		*ret = NULL;
		return err;
	}
	return finish_open(pd, pd_open_path(pd, path, flags), ret, errbuf, errlen);
}

int perf_data_open_mem(const void *buf, size_t len, const char *name, struct perf_data **ret,
		       char *errbuf, size_t errlen)
{
	struct perf_data *pd;
	int err = pd_alloc(name ? name : "(memory)", &pd);

	if (err) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s", err_str(err));
		*ret = NULL;
		return err;
	}
	pd_priv(pd)->map = buf;
	pd_priv(pd)->map_len = len;
	pd->file_size = len;
	return finish_open(pd, open_by_header(pd), ret, errbuf, errlen);
}

void perf_data_close(struct perf_data *pd)
{
	struct pd_priv *p;
	size_t i;

	if (!pd)
		return;
	p = pd->priv;
	for (i = 0; i < pd->nr_attrs; i++) {
		free(pd->attrs[i].ids);
		free(pd->attrs[i].name);
	}
	free(pd->attrs);
	if (p) {
		while (p->chunks) {
			struct pd_chunk *c = p->chunks;

			p->chunks = c->next;
			free(c);
		}
		if (p->own_map)
			munmap((void *)p->map, p->map_len);
		if (p->fd >= 0)
			close(p->fd);
		if (p->tep)
			tep_free(p->tep);
		pd_zstd_free(p);
		pd_dir_free(p);
		free(p->src.buf);
		free(p->recbuf);
		hashmap_release(&p->id2attr);
		hashmap_release(&p->id_index);
		arena_release(&p->arena);
		free(p->pending);
		free(p->name_src);
		free(p);
	}
	free((void *)pd->path);
	free(pd);
}
