/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawbuf: the kernel's per-CPU ring buffers of a tracefs instance, read as they are, page by
 * page, from per_cpu/cpuN/trace_pipe_raw (what trace-cmd reads), and the kernel's count of
 * what it could not keep (per_cpu/cpuN/stats). A struct rawbuf owns one open file per CPU;
 * pages are handed to a callback and not kept. Nothing here prints.
 *
 * rawmerge: the events of such pages, from any number of CPUs, in timestamp order (the order
 * the kernel's trace and trace_pipe files show), decoded with libtraceevent's kbuffer. It
 * keeps a copy of each page it is given until rawmerge_run() has walked them; pages from a
 * file are checked, so that no event reaches past its page.
 */
#ifndef FLARE_TRACE_RAWBUF_H
#define FLARE_TRACE_RAWBUF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rawbuf;

/* Opens per_cpu/cpu* /trace_pipe_raw of the tracefs instance directory dir (non-blocking).
 * *ret is freed by rawbuf_close(). 0, -ENOENT (no per-CPU buffers) or -errno. */
int rawbuf_open(const char *dir, struct rawbuf **ret);
void rawbuf_close(struct rawbuf *rb);
/* The size of one page (sub-buffer) as read: the instance's buffer_subbuf_size_kb, else the
 * system page size. */
size_t rawbuf_page_size(const struct rawbuf *rb);
int rawbuf_nr_cpus(const struct rawbuf *rb);
/* The CPU number of the i-th buffer. */
int rawbuf_cpu(const struct rawbuf *rb, int i);

/* Waits up to timeout_ms for a buffer to have data (the kernel wakes a reader when a buffer
 * is buffer_percent full). 0, or -errno (-EINTR on a signal). */
int rawbuf_wait(struct rawbuf *rb, int timeout_ms);

typedef int (*rawbuf_page_fn)(void *ctx, int cpu, const void *page, size_t size);
/* Reads every page each CPU has now, at most max_pages per CPU, calling fn for each; a
 * non-zero return from fn stops and is returned. Returns the number of pages read, or
 * -errno. */
long rawbuf_read(struct rawbuf *rb, long max_pages, rawbuf_page_fn fn, void *ctx);

/* The events the kernel lost in the instance dir, summed over CPUs: "overrun" (overwritten
 * when the buffer was full) plus "dropped events" (refused when it was full). 0 or -errno. */
int rawbuf_lost(const char *dir, unsigned long long *lost);

/* ---- merging pages of several CPUs by time ---- */
struct rawmerge;
struct tep_handle;

struct rawevent {
	int cpu;
	unsigned long long ts;
	void *data; /* the event's bytes (common_type first) */
	int size;
	long long missed; /* before this event: events the kernel lost on cpu, -1 when
				 * it lost some but kept no count, else 0 */
};

/* A merger whose pages hold longs of long_size bytes (4 or 8), little-endian unless
 * big_endian. *ret is freed by rawmerge_free(). 0 or -ENOMEM. */
int rawmerge_new(int long_size, bool big_endian, struct rawmerge **ret);
void rawmerge_free(struct rawmerge *m);
/* Adds a copy of a page read from cpu (>= 0). A page whose header claims more data than size
 * holds is refused with -ERR_FORMAT; -ENOMEM. */
int rawmerge_add(struct rawmerge *m, int cpu, const void *page, size_t size);

typedef int (*rawmerge_fn)(void *ctx, const struct rawevent *ev);
/* Calls fn for each event of the added pages, oldest first, then forgets the pages. A
 * non-zero return from fn stops and is returned (the pages are forgotten all the same). */
int rawmerge_run(struct rawmerge *m, rawmerge_fn fn, void *ctx);

#endif
