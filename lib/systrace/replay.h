/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay: a recording of raw_syscalls:sys_enter and sys_exit (flare trace record's, perf
 * trace record's, or any perf.data with those tracepoints and RAW samples) read in time order
 * and fed, sample by sample with its thread's name, to a systrace opened with SYSTRACE_REPLAY,
 * which makes the same records and statistics as a live trace. Other events in the file are
 * skipped. Owns nothing after it returns.
 */
#ifndef FLARE_SYSTRACE_REPLAY_H
#define FLARE_SYSTRACE_REPLAY_H
#include <stddef.h>
#include <stdint.h>
#include "lib/systrace/systrace.h"

struct st_replay_stats {
	uint64_t samples;	/* raw_syscalls samples fed */
	uint64_t lost;		/* samples the recording lost (its LOST_SAMPLES) */
};

/* Replays path (open_flags: PD_FORCE) into st, records to fn. 0; -ERR_FORMAT with errbuf
 * saying why when the file cannot be read or has no raw_syscalls events; fn's error. */
int systrace_replay(struct systrace *st, const char *path, unsigned int open_flags,
		    systrace_rec_fn fn, void *ctx, struct st_replay_stats *stats, char *errbuf,
		    size_t errlen);

#endif
