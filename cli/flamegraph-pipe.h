/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flamegraph-pipe: folding on a second thread (lib/base/batcher.h). The reader hands each
 * resolved sample to fg_pipe_add(), which copies what folding needs (attr, thread and its
 * name, pid/tid, cpu, time, period, and of each frame its dso, symbol and addr: the rest of
 * struct frame reaches consume() zeroed) into a batch; full batches go to a worker thread that
 * calls consume() on them in the order given, so the result is what direct calls would make.
 * Reading and resolving then overlap with folding on a machine with two CPUs.
 *
 * Only for samples whose consumer needs nothing else of the record (not tracepoints, whose
 * fields are formatted from the raw data). The pointers copied (attr, comm, dsos, symbols)
 * must stay valid until fg_pipe_finish(): the session owns them. If the thread cannot be
 * started, fg_pipe_new() fails and the caller folds directly.
 */
#ifndef FLARE_CLI_FLAMEGRAPH_PIPE_H
#define FLARE_CLI_FLAMEGRAPH_PIPE_H
#include "lib/session/session.h"

struct fg_pipe;

typedef int (*fg_consume_fn)(void *ctx, const struct resolved_sample *rs);

/* 0, or -errno (no thread); the caller frees with fg_pipe_free(). */
int fg_pipe_new(fg_consume_fn consume, void *ctx, struct fg_pipe **ret);
/* Queues a copy of rs. 0, or the first error consume() returned so far, or -ENOMEM. */
int fg_pipe_add(struct fg_pipe *p, const struct resolved_sample *rs);
/* Waits for every queued sample and stops the thread. 0 or the first error. */
int fg_pipe_finish(struct fg_pipe *p);
/* Stops the thread if running and frees; accepts NULL. */
void fg_pipe_free(struct fg_pipe *p);

#endif
