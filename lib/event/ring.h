/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring: one perf_event mmap ring buffer (a control page and 2^n data pages) and the reading
 * of its records. ring_drain() hands each record to a callback as one contiguous piece (a
 * record that wraps the end of the buffer is copied into the ring's scratch buffer), then
 * the raw bytes of the whole batch in at most two spans, for writing straight to a file,
 * and only then frees the space for the kernel. A ring owns its mapping and scratch buffer,
 * not the fd.
 */
#ifndef FLARE_EVENT_RING_H
#define FLARE_EVENT_RING_H
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ring {
	int fd;
	int cpu;
	void *base; /* control page, then the data */
	size_t map_len;
	unsigned char *data;
	uint64_t size; /* data bytes, a power of two */
	void *scratch; /* for records that wrap */
	size_t scratch_len;
};

struct ring_ops {
	/* Each record in order; ev stays valid during the call. Return < 0 to stop. */
	int (*record)(void *ctx, struct ring *r, const struct perf_event_header *ev);
	/* The raw bytes of the batch, in order (called once or twice). Return < 0 to stop. */
	int (*bytes)(void *ctx, const void *p, size_t len);
};

/* Maps data_pages (a power of two) + 1 pages of fd. 0 or -errno. */
int ring_mmap(struct ring *r, int fd, int cpu, size_t data_pages);
void ring_unmap(struct ring *r);

/* Bytes waiting in the ring. */
uint64_t ring_avail(const struct ring *r);

/* Reads everything that is in the ring now. Returns the bytes consumed or < 0 (the error
 * of a callback, or -EINVAL for a corrupt record size; the ring is then emptied). */
int64_t ring_drain(struct ring *r, const struct ring_ops *ops, void *ctx);

#endif
