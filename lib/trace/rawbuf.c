// SPDX-License-Identifier: GPL-2.0
/*
 * rawbuf: per-CPU trace_pipe_raw pages of a tracefs instance, and their events merged by
 * time (see rawbuf.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <kbuffer.h>
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"
#include "lib/trace/rawbuf.h"

#define MAX_CPUS 4096

struct rawbuf {
	struct pollfd *fds;
	int *cpus;
	int nr;
	size_t page_size;
	char *page;
};

static size_t subbuf_size(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096];
	long kb = 0;

	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", dir);
	if (!strbuf_read_file(&sb, path))
		kb = strtol(sb.buf, NULL, 10);
	strbuf_release(&sb);
	if (kb > 0 && kb <= 1024)
		return (size_t)kb * 1024;
	return (size_t)sysconf(_SC_PAGESIZE);
}

int rawbuf_open(const char *dir, struct rawbuf **ret)
{
	struct rawbuf *rb = calloc(1, sizeof(*rb));
	char path[4096];
	int cpu, err = 0;

	if (!rb)
		return -ENOMEM;
	rb->page_size = subbuf_size(dir);
	rb->fds = calloc(MAX_CPUS, sizeof(*rb->fds));
	rb->cpus = calloc(MAX_CPUS, sizeof(*rb->cpus));
	rb->page = malloc(rb->page_size);
	if (!rb->fds || !rb->cpus || !rb->page) {
		rawbuf_close(rb);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		int fd;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT)
				continue; /* CPUs need not be numbered without gaps */
			err = -errno;
			break;
		}
		rb->fds[rb->nr].fd = fd;
		rb->fds[rb->nr].events = POLLIN;
		rb->cpus[rb->nr++] = cpu;
	}
	if (!err && !rb->nr)
		err = -ENOENT;
	if (err) {
		rawbuf_close(rb);
		return err;
	}
	*ret = rb;
	return 0;
}

void rawbuf_close(struct rawbuf *rb)
{
	int i;

	if (!rb)
		return;
	for (i = 0; i < rb->nr; i++)
		close(rb->fds[i].fd);
	free(rb->fds);
	free(rb->cpus);
	free(rb->page);
	free(rb);
}

size_t rawbuf_page_size(const struct rawbuf *rb)
{
	return rb->page_size;
}

int rawbuf_nr_cpus(const struct rawbuf *rb)
{
	return rb->nr;
}

int rawbuf_cpu(const struct rawbuf *rb, int i)
{
	return rb->cpus[i];
}

int rawbuf_wait(struct rawbuf *rb, int timeout_ms)
{
	if (poll(rb->fds, (nfds_t)rb->nr, timeout_ms) < 0)
		return -errno;
	return 0;
}

long rawbuf_read(struct rawbuf *rb, long max_pages, rawbuf_page_fn fn, void *ctx)
{
	long total = 0;
	int i, ret;

	for (i = 0; i < rb->nr; i++) {
		long n = 0;

		while (n < max_pages) {
			ssize_t got = read(rb->fds[i].fd, rb->page, rb->page_size);

			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0 && errno == EAGAIN)
				break;
			if (got < 0)
				return -errno;
			if (got == 0)
				break;
			ret = fn(ctx, rb->cpus[i], rb->page, (size_t)got);
			if (ret)
				return ret;
			n++;
		}
		total += n;
	}
	return total;
}

int rawbuf_lost(const char *dir, unsigned long long *lost)
{
	char path[4096], line[128];
	int cpu, seen = 0;

	*lost = 0;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", dir, cpu);
		f = fopen(path, "r");
		if (!f) {
			if (errno == ENOENT)
				continue;
			return -errno;
		}
		seen++;
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "overrun: ", 9))
				*lost += strtoull(line + 9, NULL, 10);
			else if (!strncmp(line, "dropped events: ", 16))
				*lost += strtoull(line + 16, NULL, 10);
		}
		fclose(f);
	}
	return seen ? 0 : -ENOENT;
}

/* ---- merging ---- */

/* Bytes kept zeroed after each copied page: kbuffer reads an event's header words (up to
 * 8 bytes) before it can know the event ends past the data. */
#define PAGE_SLACK 16
#define COMMIT_MASK ((1ULL << 27) - 1)
#define MISSED_STORED (1ULL << 30)

struct mpage {
	char *buf;
	size_t size;
};

struct cpuq {
	int cpu;
	VEC(struct mpage) pages;
	size_t next; /* the next page to load */
	struct kbuffer *kb;
	void *ev; /* the current event, NULL when the queue is done */
	unsigned long long ts;
	char *page; /* the page loaded */
	size_t page_size;
	long long missed; /* to report with the current event */
};

struct rawmerge {
	int long_size;
	bool big_endian;
	VEC(struct cpuq) q;
};

int rawmerge_new(int long_size, bool big_endian, struct rawmerge **ret)
{
	struct rawmerge *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->long_size = long_size == 4 ? 4 : 8;
	m->big_endian = big_endian;
	*ret = m;
	return 0;
}

static void queue_clear(struct cpuq *q)
{
	size_t i;

	for (i = 0; i < q->pages.nr; i++)
		free(q->pages.items[i].buf);
	q->pages.nr = 0;
	q->next = 0;
	q->ev = NULL;
}

void rawmerge_free(struct rawmerge *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->q.nr; i++) {
		queue_clear(&m->q.items[i]);
		vec_free(&m->q.items[i].pages);
		kbuffer_free(m->q.items[i].kb);
	}
	vec_free(&m->q);
	free(m);
}

static unsigned long long read_word(const unsigned char *p, int size, bool big)
{
	unsigned long long v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (unsigned long long)p[big ? size - 1 - i : i] << (8 * i);
	return v;
}

static struct cpuq *queue_of(struct rawmerge *m, int cpu)
{
	struct cpuq q = { .cpu = cpu };
	size_t i;

	for (i = 0; i < m->q.nr; i++)
		if (m->q.items[i].cpu == cpu)
			return &m->q.items[i];
	q.kb = kbuffer_alloc(m->long_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
			     m->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!q.kb || vec_push(&m->q, q)) {
		kbuffer_free(q.kb);
		return NULL;
	}
	return &m->q.items[m->q.nr - 1];
}

int rawmerge_add(struct rawmerge *m, int cpu, const void *page, size_t size)
{
	size_t head = 8 + (size_t)m->long_size;
	unsigned long long commit;
	struct mpage p;
	struct cpuq *q;

	if (cpu < 0 || size < head)
		return -ERR_FORMAT;
	commit = read_word((const unsigned char *)page + 8, m->long_size, m->big_endian);
	if ((commit & COMMIT_MASK) + head + (commit & MISSED_STORED ? (size_t)m->long_size : 0) >
	    size)
		return -ERR_FORMAT;
	if (!(commit & COMMIT_MASK))
		return 0; /* an empty page: nothing to merge */
	q = queue_of(m, cpu);
	p.buf = q ? calloc(1, size + PAGE_SLACK) : NULL;
	p.size = size;
	if (!p.buf)
		return -ENOMEM;
	memcpy(p.buf, page, size);
	if (vec_push(&q->pages, p)) {
		free(p.buf);
		return -ENOMEM;
	}
	return 0;
}

/* Moves q to its next event that lies inside its page, loading pages as needed. */
static void queue_step(struct cpuq *q, bool first)
{
	for (;;) {
		if (q->ev && !first)
			q->ev = kbuffer_next_event(q->kb, &q->ts);
		first = false;
		if (q->ev) {
			int size = kbuffer_event_size(q->kb);
			char *d = q->ev;

			if (size >= 0 && d >= q->page && d + size <= q->page + q->page_size)
				return;
			q->ev = NULL; /* a malformed event: the rest of the page goes */
		}
		if (q->next >= q->pages.nr)
			return;
		q->page = q->pages.items[q->next].buf;
		q->page_size = q->pages.items[q->next++].size;
		if (kbuffer_load_subbuffer(q->kb, q->page) < 0)
			continue;
		q->missed = kbuffer_missed_events(q->kb);
		q->ev = kbuffer_read_event(q->kb, &q->ts);
		first = true;
	}
}

int rawmerge_run(struct rawmerge *m, rawmerge_fn fn, void *ctx)
{
	struct rawevent ev;
	size_t i;
	int ret = 0;

	for (i = 0; i < m->q.nr; i++) {
		m->q.items[i].ev = NULL;
		queue_step(&m->q.items[i], true);
	}
	while (!ret) {
		struct cpuq *best = NULL;

		for (i = 0; i < m->q.nr; i++) {
			struct cpuq *q = &m->q.items[i];

			if (q->ev && (!best || q->ts < best->ts))
				best = q;
		}
		if (!best)
			break;
		ev.cpu = best->cpu;
		ev.ts = best->ts;
		ev.data = best->ev;
		ev.size = kbuffer_event_size(best->kb);
		ev.missed = best->missed;
		best->missed = 0;
		ret = fn(ctx, &ev);
		queue_step(best, false);
	}
	for (i = 0; i < m->q.nr; i++)
		queue_clear(&m->q.items[i]);
	return ret;
}
