// SPDX-License-Identifier: GPL-2.0
/*
 * top: the recording and the reading threads of a live profile (see top.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/base/err.h"
#include "lib/data/reader.h"
#include "lib/top/top.h"

/* room for a burst of records while the reader resolves (the default pipe holds 64 KiB) */
#define PIPE_BYTES (1 << 20)

struct top {
	struct top_opts o;
	struct record_opts rec;
	int rfd, wfd;
	pthread_t rec_thread, read_thread;
	bool rec_started, read_started, stopped;
	pthread_mutex_t lock; /* the caller's data, and the fields below */
	pthread_cond_t cond;
	bool opened, read_done;
	atomic_bool stop, rec_done;
	atomic_uint_fast64_t lost;
	struct session *sess;
	struct record_stats st;
	int rec_err, read_err;
	char rec_msg[512], read_msg[512];
};

static bool stop_asked(void *ctx)
{
	struct top *t = ctx;

	return atomic_load(&t->stop);
}

static void *rec_main(void *arg)
{
	struct top *t = arg;

	t->rec_err = record_run(&t->rec, &t->st, t->rec_msg, sizeof(t->rec_msg));
	/* the reader sees the end of the stream */
	close(t->wfd);
	t->wfd = -1;
	atomic_store(&t->rec_done, true);
	return NULL;
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct top *t = ctx;
	int err;

	pthread_mutex_lock(&t->lock);
	err = t->o.on_sample(t->o.ctx, rs);
	pthread_mutex_unlock(&t->lock);
	return err;
}

static int on_other(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	struct top *t = ctx;
	uint64_t n;

	(void)off;
	/* LOST: id, lost (a ring overflowed); LOST_SAMPLES: lost (the kernel's count) */
	if (ev->type == PERF_RECORD_LOST && ev->size >= sizeof(*ev) + 16) {
		memcpy(&n, (const char *)(ev + 1) + 8, 8);
		atomic_fetch_add(&t->lost, n);
	} else if (ev->type == PERF_RECORD_LOST_SAMPLES && ev->size >= sizeof(*ev) + 8) {
		memcpy(&n, ev + 1, 8);
		atomic_fetch_add(&t->lost, n);
	}
	return 0;
}

/* After a reading error: the recording is told to stop, and what it still writes is read
 * away so that it never blocks on a full pipe. */
static void drain_pipe(struct top *t)
{
	char buf[4096];

	atomic_store(&t->stop, true);
	while (read(t->rfd, buf, sizeof(buf)) > 0)
		;
}

static void *read_main(void *arg)
{
	struct top *t = arg;
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/dev/fd/%d", t->rfd);
	err = session_open(path, &t->o.sess, &t->sess, t->read_msg, sizeof(t->read_msg));
	pthread_mutex_lock(&t->lock);
	t->opened = true;
	t->read_err = err;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	if (!err) {
		err = session_process(t->sess, on_sample, on_other, t);
		if (err < 0)
			snprintf(t->read_msg, sizeof(t->read_msg),
				 "cannot read the live stream: %s",
				 t->sess->pd->err_msg[0] ? t->sess->pd->err_msg : err_str(err));
	}
	if (err < 0)
		drain_pipe(t);
	pthread_mutex_lock(&t->lock);
	t->read_err = err < 0 ? err : 0;
	t->read_done = true;
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static int pipe_open(struct top *t)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	t->rfd = fds[0];
	t->wfd = fds[1];
	/* best effort: a smaller pipe only means the recording waits sooner */
	fcntl(t->wfd, F_SETPIPE_SZ, PIPE_BYTES);
	return 0;
}

int top_start(const struct top_opts *o, struct top **ret, char *errbuf, size_t errlen)
{
	struct top *t = calloc(1, sizeof(*t));
	int err;

	*ret = NULL;
	errbuf[0] = 0;
	if (!t) {
		snprintf(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	t->o = *o;
	t->rec = *o->rec;
	t->rfd = t->wfd = -1;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	t->o.sess.open_flags |= PD_STREAM;
	t->o.sess.file_order = true; /* nothing waits for a round: a sample shows at once */
	t->rec.output = "-";
	t->rec.stop = stop_asked;
	t->rec.stop_ctx = t;
	if ((err = pipe_open(t))) {
		snprintf(errbuf, errlen, "cannot make a pipe: %s", err_str(err));
		goto fail;
	}
	t->rec.pipe_fd = t->wfd;
	if ((err = -pthread_create(&t->rec_thread, NULL, rec_main, t))) {
		snprintf(errbuf, errlen, "cannot start the recording thread: %s", err_str(err));
		goto fail;
	}
	t->rec_started = true;
	if ((err = -pthread_create(&t->read_thread, NULL, read_main, t))) {
		snprintf(errbuf, errlen, "cannot start the reading thread: %s", err_str(err));
		goto fail;
	}
	t->read_started = true;
	pthread_mutex_lock(&t->lock);
	while (!t->opened)
		pthread_cond_wait(&t->cond, &t->lock);
	err = t->read_err;
	pthread_mutex_unlock(&t->lock);
	if (err) {
		/* the recording failed first (its message says why), or the stream is bad */
		top_stop(t, &t->st, errbuf, errlen);
		if (!errbuf[0])
			snprintf(errbuf, errlen, "%s", t->read_msg);
		goto fail;
	}
	*ret = t;
	return 0;
fail:
	top_free(t);
	return err < 0 ? err : -EIO;
}

void top_lock(struct top *t)
{
	pthread_mutex_lock(&t->lock);
}

void top_unlock(struct top *t)
{
	pthread_mutex_unlock(&t->lock);
}

bool top_running(struct top *t)
{
	bool done;

	pthread_mutex_lock(&t->lock);
	done = t->read_done;
	pthread_mutex_unlock(&t->lock);
	return !done;
}

uint64_t top_lost(struct top *t)
{
	return atomic_load(&t->lost);
}

struct session *top_session(struct top *t)
{
	return t->sess;
}

int top_stop(struct top *t, struct record_stats *st, char *errbuf, size_t errlen)
{
	int err = 0;

	errbuf[0] = 0;
	if (!t->stopped) {
		atomic_store(&t->stop, true);
		if (t->read_started)
			pthread_join(t->read_thread, NULL);
		else if (t->rfd >= 0)
			drain_pipe(t);
		if (t->rec_started)
			pthread_join(t->rec_thread, NULL);
		t->stopped = true;
	}
	if (st)
		*st = t->st;
	if (t->rec_err) {
		err = t->rec_err;
		snprintf(errbuf, errlen, "%s", t->rec_msg[0] ? t->rec_msg : err_str(err));
	} else if (t->read_err) {
		err = t->read_err;
		snprintf(errbuf, errlen, "%s", t->read_msg);
	}
	return err;
}

void top_free(struct top *t)
{
	char buf[8];

	if (!t)
		return;
	top_stop(t, NULL, buf, sizeof(buf));
	session_free(t->sess);
	if (t->rfd >= 0)
		close(t->rfd);
	if (t->wfd >= 0)
		close(t->wfd);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	free(t);
}
