/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace: flare trace's state shared by its two files: cmd-trace.c (options, targets, the run
 * loop) and trace-out.c (perf trace's lines from the BPF records, and the summaries from the
 * in-kernel statistics). One struct trace lives on cmd_trace's stack; trace_release() frees
 * what it owns.
 */
#ifndef FLARE_CLI_TRACE_H
#define FLARE_CLI_TRACE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/base/hashmap.h"
#include "lib/base/strbuf.h"
#include "lib/systrace/fdpath.h"
#include "lib/systrace/replay.h"
#include "lib/systrace/sysfmt.h"
#include "lib/systrace/sysnames.h"
#include "lib/systrace/systrace.h"

#define TRACE_PF_MAJ 1
#define TRACE_PF_MIN 2

struct fault_count {
	uint64_t maj, min;
	char comm[16];
};

struct trace {
	/* options */
	struct opt_strlist *exprs;
	const char *pids, *tids, *cpus, *uid, *filter_pids, *comm, *output, *input;
	int all_cpus, summary_only, with_summary, errno_summary, hist, failure, abs_time, force;
	int strsize, mmap_pages, verbose, realtime, no_bpf;
	double duration_ms;
	int pf; /* -F: TRACE_PF_* shown */
	uint64_t max_events;

	/* state */
	FILE *out;
	bool sel[SYSNAMES_MAX];		   /* syscalls traced */
	struct sysfmt *fmts[SYSNAMES_MAX]; /* loaded on first use */
	const char *tracefs;
	struct systrace *st;
	struct hashmap pending;	   /* tid -> struct pending * */
	struct hashmap comms;	   /* tid -> char[16] of its last record */
	struct fdpath fds;	   /* the paths shown after fd arguments */
	struct hashmap faults;	   /* tid -> struct fault_count * */
	struct strbuf line;	   /* the buffer lines are built in, reused */
	struct sysfmt_hooks hooks; /* comm and fd path lookups for sysfmt */
	int current;		   /* tid of the last enter, for "..." lines */
	uint64_t base_ts;	   /* first record's time */
	uint64_t nr_printed;
	bool done;
};

/* Sets up what the lines need beyond the records: thread names, fd paths (read from /proc
 * when live). */
void trace_init_hooks(struct trace *t, bool live);
/* The record handler systrace_poll() calls: prints lines as perf trace does. */
int trace_on_rec(void *ctx, const struct st_rec *r, size_t size);
/* The fault handler of a replay: counts them per thread, prints those -F asks for. */
int trace_on_fault(void *ctx, const struct st_fault *f);
/* Prints the enters still waiting for their exit (exit_group's, Ctrl-C'd calls). */
void trace_flush_pending(struct trace *t);
/* The summary table(s) (-s/-S), --errno-summary, --hist, from the kernel's maps. */
int trace_print_summary(struct trace *t);
/* The syscall format of nr, loaded from tracefs on first use; never NULL. */
const struct sysfmt *trace_fmt(struct trace *t, int nr);
void trace_release(struct trace *t);

#endif
