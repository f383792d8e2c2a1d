// SPDX-License-Identifier: GPL-2.0
/*
 * systrace: loads and drives the embedded BPF syscall tracer (see systrace.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "lib/base/log.h"
#include "lib/systrace/systrace.h"
#include "lib/systrace/tpf.h"
#include "systrace.skel.h"

struct systrace {
	struct tpf *tpf; /* the fallback, when BPF was refused; else NULL */
	int bpf_err;	 /* why BPF was not used */
	struct systrace_bpf *skel;
	struct ring_buffer *rb;
	systrace_rec_fn fn;
	void *fn_ctx;
	int ncpus;
};

static int libbpf_sink(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *buf = NULL;
	size_t n;

	if (vasprintf(&buf, fmt, ap) < 0)
		return 0;
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	log_debug("%s", buf);
	free(buf);
	return 0;
}

static int on_ring(void *ctx, void *data, size_t size)
{
	struct systrace *st = ctx;

	if (size < offsetof(struct st_rec, data))
		return 0;
	return st->fn(st->fn_ctx, data, size);
}

static size_t ring_size(size_t want)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = page;

	while (n < want && n < (1UL << 30))
		n <<= 1;
	return n;
}

static int open_fallback(struct systrace *st, const struct st_config *cfg, size_t ring_bytes,
			 int why, bool replay)
{
	int err = tpf_open(cfg, ring_bytes, replay, &st->tpf);

	st->bpf_err = why;
	return err;
}

int systrace_open(const struct st_config *cfg, size_t ring_bytes, int flags, struct systrace **ret)
{
	struct systrace *st;
	int err;

	libbpf_set_print(libbpf_sink);
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	if (flags & (SYSTRACE_NO_BPF | SYSTRACE_REPLAY)) {
		err = open_fallback(st, cfg, ring_bytes, -ENOTSUP, flags & SYSTRACE_REPLAY);
		if (err)
			goto out_free;
		*ret = st;
		return 0;
	}
	st->ncpus = libbpf_num_possible_cpus();
	if (st->ncpus <= 0) {
		err = st->ncpus ? st->ncpus : -EINVAL;
		goto out_free;
	}
	st->skel = systrace_bpf__open();
	if (!st->skel) {
		err = -errno;
		goto out_free;
	}
	st->skel->rodata->cfg = *cfg;
	err = bpf_map__set_max_entries(st->skel->maps.ring, ring_size(ring_bytes));
	if (!err && !cfg->hist)
		err = bpf_map__set_max_entries(st->skel->maps.hist, 1);
	if (!err)
		err = systrace_bpf__load(st->skel);
	if (err)
		goto out_skel;
	st->rb = ring_buffer__new(bpf_map__fd(st->skel->maps.ring), on_ring, st, NULL);
	if (!st->rb) {
		err = -errno;
		goto out_skel;
	}
	*ret = st;
	return 0;
out_skel:
	systrace_bpf__destroy(st->skel);
	st->skel = NULL;
	/* refused (no CAP_BPF, a locked-down or old kernel): the tracepoints without BPF */
	if (err != -ENOMEM && !open_fallback(st, cfg, ring_bytes, err < 0 ? err : -EINVAL, false)) {
		*ret = st;
		return 0;
	}
out_free:
	free(st);
	return err < 0 ? err : -EINVAL;
}

int systrace_bpf_refused(const struct systrace *st)
{
	return st->tpf ? st->bpf_err : 0;
}

int systrace_set_syscall(struct systrace *st, int nr, const struct st_sysconf *sc)
{
	if (st->tpf)
		return tpf_set_syscall(st->tpf, nr, sc);
	__u32 k = (__u32)nr;

	if (nr < 0 || nr >= ST_MAX_SYSCALLS)
		return -EINVAL;
	return bpf_map_update_elem(bpf_map__fd(st->skel->maps.sysconf), &k, sc, BPF_ANY) ? -errno
											 : 0;
}

int systrace_add_task(struct systrace *st, int tid, enum st_task_state state)
{
	if (st->tpf)
		return tpf_add_task(st->tpf, tid, state);
	__u32 k = (__u32)tid, v = state;

	return bpf_map_update_elem(bpf_map__fd(st->skel->maps.tasks), &k, &v, BPF_ANY) ? -errno : 0;
}

int systrace_skip_pid(struct systrace *st, int pid)
{
	if (st->tpf)
		return tpf_skip_pid(st->tpf, pid);
	__u32 k = (__u32)pid, v = 1;

	return bpf_map_update_elem(bpf_map__fd(st->skel->maps.skip_pids), &k, &v, BPF_ANY) ? -errno
											   : 0;
}

int systrace_attach(struct systrace *st)
{
	if (st->tpf)
		return tpf_attach(st->tpf);
	int err = systrace_bpf__attach(st->skel);

	return err < 0 ? err : 0;
}

int systrace_poll(struct systrace *st, int timeout_ms, const sigset_t *mask, systrace_rec_fn fn,
		  void *ctx)
{
	if (st->tpf)
		return tpf_poll(st->tpf, timeout_ms, mask, fn, ctx);
	struct epoll_event ev;
	int n;

	st->fn = fn;
	st->fn_ctx = ctx;
	n = epoll_pwait(ring_buffer__epoll_fd(st->rb), &ev, 1, timeout_ms, mask);
	if (n < 0)
		return -errno;
	return ring_buffer__consume(st->rb);
}

int systrace_feed(struct systrace *st, const struct st_sample *s, const char *comm,
		  systrace_rec_fn fn, void *ctx)
{
	return st->tpf ? tpf_feed(st->tpf, s, comm, fn, ctx) : -EINVAL;
}

int systrace_drain(struct systrace *st, systrace_rec_fn fn, void *ctx)
{
	if (st->tpf)
		return tpf_poll(st->tpf, 0, NULL, fn, ctx);
	st->fn = fn;
	st->fn_ctx = ctx;
	return ring_buffer__consume(st->rb);
}

int systrace_for_each_stat(struct systrace *st, systrace_stat_fn fn, void *ctx)
{
	if (st->tpf)
		return tpf_for_each_stat(st->tpf, fn, ctx);
	int fd = bpf_map__fd(st->skel->maps.stats), err;
	struct st_stat_key k, next;
	struct st_stat s;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &s))
			continue;
		err = fn(ctx, &k, &s);
		if (err)
			return err;
	}
	return 0;
}

int systrace_for_each_err(struct systrace *st, systrace_err_fn fn, void *ctx)
{
	if (st->tpf)
		return tpf_for_each_err(st->tpf, fn, ctx);
	int fd = bpf_map__fd(st->skel->maps.errs), err;
	struct st_err_key k, next;
	void *prev = NULL;
	__u64 n;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &n))
			continue;
		err = fn(ctx, &k, n);
		if (err)
			return err;
	}
	return 0;
}

static int percpu_sum(struct systrace *st, int fd, __u32 key, uint64_t *sum)
{
	__u64 *v = calloc(st->ncpus, sizeof(*v));
	int i;

	if (!v)
		return -ENOMEM;
	*sum = 0;
	if (bpf_map_lookup_elem(fd, &key, v)) {
		free(v);
		return -errno;
	}
	for (i = 0; i < st->ncpus; i++)
		*sum += v[i];
	free(v);
	return 0;
}

int systrace_hist(struct systrace *st, int nr, uint64_t *b)
{
	if (st->tpf)
		return tpf_hist(st->tpf, nr, b);
	int fd = bpf_map__fd(st->skel->maps.hist), i, err;

	if (nr < 0 || nr >= ST_MAX_SYSCALLS)
		return -EINVAL;
	for (i = 0; i < ST_HIST_BUCKETS; i++) {
		err = percpu_sum(st, fd, (__u32)(nr * ST_HIST_BUCKETS + i), &b[i]);
		if (err)
			return err;
	}
	return 0;
}

uint64_t systrace_lost(struct systrace *st, int which)
{
	if (st->tpf)
		return tpf_lost(st->tpf, which);
	uint64_t n = 0;

	percpu_sum(st, bpf_map__fd(st->skel->maps.lost), (__u32)which, &n);
	return n;
}

static void *link_destroy(void *link)
{
	bpf_link__destroy(link);
	return NULL;
}

/* Detaching a tracepoint program waits for the kernel's RCU grace periods, ~70 ms each here:
 * the links go in parallel, so that an exit costs one wait, not three. */
static void links_destroy(struct systrace_bpf *skel)
{
	struct bpf_link **links[] = { &skel->links.st_enter, &skel->links.st_exit,
				      &skel->links.st_fork };
	pthread_t th[3];
	bool started[3] = { false };
	size_t i;

	for (i = 0; i < 3; i++) {
		if (!*links[i])
			continue;
		started[i] = !pthread_create(&th[i], NULL, link_destroy, *links[i]);
		if (!started[i])
			bpf_link__destroy(*links[i]);
		*links[i] = NULL;
	}
	for (i = 0; i < 3; i++)
		if (started[i])
			pthread_join(th[i], NULL);
}

void systrace_free(struct systrace *st)
{
	if (!st)
		return;
	tpf_free(st->tpf);
	ring_buffer__free(st->rb);
	if (st->skel)
		links_destroy(st->skel);
	systrace_bpf__destroy(st->skel);
	free(st);
}
