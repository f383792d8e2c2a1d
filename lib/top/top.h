/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top: a live profile, as `flare top` shows it. The record engine (lib/record) samples the
 * target and writes perf's pipe format into a pipe on one thread; a second thread reads the
 * pipe back with a streaming session (lib/session, PD_STREAM: bounded memory however long it
 * runs), which follows the processes that start, exec and exit and resolves each sample as it
 * arrives, and hands it to the caller's callback under the top's lock. The caller (the
 * display) takes the same lock to look at what its callback built.
 *
 * The recording ends when the caller calls top_stop(), or on its own: a SIGINT or SIGTERM
 * (the caller blocked them with live_signals_block() before top_start(), so the recording
 * thread's signalfd reads them), the -p/-t tasks all gone. top_running() turns false then.
 * Nothing is left behind: the events are closed and the pipe's ends too, on every path.
 *
 * The top owns its threads, pipe and session; the options and everything they point to are
 * the caller's and must outlive the top.
 */
#ifndef FLARE_TOP_TOP_H
#define FLARE_TOP_TOP_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/record/record.h"
#include "lib/session/session.h"

struct top;

struct top_opts {
	struct record_opts *rec;  /* output and pipe_fd are set by top_start() */
	struct session_opts sess; /* open_flags and file_order are set by top_start() */
	/* Each resolved sample, on the reading thread with the lock held; < 0 stops the top
	 * with that error. */
	session_sample_cb on_sample;
	void *ctx;
};

/* Starts both threads and waits until the stream's events are known (or the recording
 * failed). 0, or < 0 with one line in errbuf; *ret is NULL then. */
int top_start(const struct top_opts *o, struct top **ret, char *errbuf, size_t errlen);

void top_lock(struct top *t);
void top_unlock(struct top *t);

/* False once the recording ended (any reason) and every sample was handed over. */
bool top_running(struct top *t);
/* Samples lost so far (the kernel's LOST records, then its final count). */
uint64_t top_lost(struct top *t);
/* The session (for thread names) and its perf.data view (attrs); valid until top_free(). */
struct session *top_session(struct top *t);

/* Stops the recording if it still runs and waits for both threads. 0, or the first error of
 * the recording or the reading with one line in errbuf; st gets the recording's stats. */
int top_stop(struct top *t, struct record_stats *st, char *errbuf, size_t errlen);
/* top_stop() if not done, then frees everything; accepts NULL. */
void top_free(struct top *t);

#endif
