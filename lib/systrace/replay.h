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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/systrace/systrace.h"

/* A page fault sample (major-faults, minor-faults or page-faults events in the file), its ip
 * and the faulting address resolved through the recording's maps as perf trace resolves them. */
struct st_fault {
	uint64_t time;
	uint32_t pid, tid, cpu;
	const char *comm;
	bool major;
	const char *ip_sym; /* the symbol of the ip, NULL: none */
	uint64_t ip_off;    /* the ip's offset in it */
	bool ip_mapped;	    /* a map holds the ip */
	uint64_t ip_addr;   /* the ip in its map's terms (file offset, or itself) */
	const char *dso;    /* the map holding the address (its path), NULL: none */
	uint64_t addr;	    /* the address in that map's terms, or as sampled */
	char level;	    /* where the ip ran: 'k' kernel, '.' user, 'H', 'g', 'u' */
};

typedef int (*systrace_fault_fn)(void *ctx, const struct st_fault *f);

struct st_replay_stats {
	uint64_t samples; /* raw_syscalls samples fed */
	uint64_t lost;	  /* samples the recording lost (its LOST_SAMPLES) */
};

/* Replays path (open_flags: PD_FORCE) into st, records to fn and page faults to fault_fn
 * (may be NULL), in time order. 0; -ERR_FORMAT with errbuf saying why when the file cannot
 * be read or has neither raw_syscalls nor page fault events; a callback's error. */
int systrace_replay(struct systrace *st, const char *path, unsigned int open_flags,
		    systrace_rec_fn fn, systrace_fault_fn fault_fn, void *ctx,
		    struct st_replay_stats *stats, char *errbuf, size_t errlen);

#endif
