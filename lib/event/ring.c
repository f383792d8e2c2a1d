// SPDX-License-Identifier: GPL-2.0
/*
 * ring: reading a perf_event mmap ring buffer (see ring.h). The kernel writes data_head
 * and we write data_tail; head is read with acquire ordering so the records before it are
 * visible, and tail is stored with release ordering after we are done with the bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lib/event/ring.h"

int ring_mmap(struct ring *r, int fd, int cpu, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!data_pages || (data_pages & (data_pages - 1)))
		return -EINVAL;
	r->map_len = (data_pages + 1) * page;
	r->base = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	r->fd = fd;
	r->cpu = cpu;
	r->data = (unsigned char *)r->base + page;
	r->size = data_pages * page;
	return 0;
}

void ring_unmap(struct ring *r)
{
	if (r->base)
		munmap(r->base, r->map_len);
	free(r->scratch);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

static uint64_t head_of(const struct ring *r)
{
	const struct perf_event_mmap_page *pc = r->base;

	return __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
}

static uint64_t tail_of(const struct ring *r)
{
	const struct perf_event_mmap_page *pc = r->base;

	return pc->data_tail;
}

uint64_t ring_avail(const struct ring *r)
{
	return r->base ? head_of(r) - tail_of(r) : 0;
}

static void set_tail(struct ring *r, uint64_t tail)
{
	struct perf_event_mmap_page *pc = r->base;

	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
}

/* The record at pos, contiguous: in place, or copied into scratch when it wraps. */
static const struct perf_event_header *record_at(struct ring *r, uint64_t pos, uint64_t end)
{
	uint64_t mask = r->size - 1, off = pos & mask;
	struct perf_event_header h;
	size_t first;

	if (end - pos < sizeof(h))
		return NULL;
	if (off + sizeof(h) <= r->size) {
		memcpy(&h, r->data + off, sizeof(h));
	} else {
		first = r->size - off;
		memcpy(&h, r->data + off, first);
		memcpy((char *)&h + first, r->data, sizeof(h) - first);
	}
	if (h.size < sizeof(h) || h.size > end - pos)
		return NULL;
	if (off + h.size <= r->size)
		return (const void *)(r->data + off);
	if (r->scratch_len < h.size) {
		void *p = realloc(r->scratch, 65536);

		if (!p)
			return NULL;
		r->scratch = p;
		r->scratch_len = 65536;
	}
	first = r->size - off;
	memcpy(r->scratch, r->data + off, first);
	memcpy((char *)r->scratch + first, r->data, h.size - first);
	return r->scratch;
}

int64_t ring_drain(struct ring *r, const struct ring_ops *ops, void *ctx)
{
	uint64_t head, tail, pos, mask = r->size - 1;
	const struct perf_event_header *ev;
	int err = 0;

	if (!r->base)
		return 0;
	head = head_of(r);
	tail = tail_of(r);
	if (head == tail)
		return 0;
	for (pos = tail; pos < head && ops->record; pos += ev->size) {
		ev = record_at(r, pos, head);
		if (!ev) {
			set_tail(r, head);
			return -EINVAL;
		}
		err = ops->record(ctx, r, ev);
		if (err < 0)
			break;
	}
	if (!err && ops->bytes) {
		uint64_t off = tail & mask, len = head - tail;

		if (off + len > r->size) {
			err = ops->bytes(ctx, r->data + off, r->size - off);
			if (!err)
				err = ops->bytes(ctx, r->data, len - (r->size - off));
		} else {
			err = ops->bytes(ctx, r->data + off, len);
		}
	}
	set_tail(r, head);
	return err < 0 ? err : (int64_t)(head - tail);
}
