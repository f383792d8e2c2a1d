/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace: the pieces of 'flare ftrace'. cmd-ftrace.c parses the tracing options and runs a
 * trace (live or into a file) in a tracefs instance of its own (lib/trace/tfs.h);
 * ftrace-stream.c reads the instance's raw buffers while it runs;
 * ftrace-tools.c holds the subcommands that only look at or poke tracefs once (show, marker,
 * snapshot, report, -F) and the words flare says when the kernel refuses something.
 */
#ifndef FLARE_CLI_FTRACE_H
#define FLARE_CLI_FTRACE_H
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

struct tfs;
struct workload;

/* How ftrace_stream() runs: into a recording or live; the workload's delay and name; the
 * flags the command's signal handler sets. */
struct ftrace_run {
	bool record;
	int delay;
	const char *cmd;
	volatile sig_atomic_t *stop, *child_done;
};
/* Turns tracing on in t's instance (set up already), starts w (when it has a pid), copies
 * the trace to out (lines, or a recording: lib/trace/ftfile.h) until w ends or *stop is
 * set, turns tracing off and drains. Says what failed. 0, or 1 (the exit status). */
int ftrace_stream(struct tfs *t, struct workload *w, const struct ftrace_run *r, FILE *out);

/* Prints, in one line, why the kernel refused tracer `what` (err from `action`, a phrase
 * such as "writing set_ftrace_pid") and what works instead. Returns 1 (the exit status). */
int ftrace_refused(const char *what, const char *action, int err);
/* Checks that this kernel offers trigger (its first word) on sys:name, from the event's
 * trigger file. 0, or 1 after printing what the kernel offers instead. */
int ftrace_check_trigger(const char *sys, const char *name, const char *trigger);

int ftrace_show(int argc, char **argv);
int ftrace_marker(int argc, char **argv);
int ftrace_snapshot(int argc, char **argv);
int ftrace_report(int argc, char **argv);
/* -F [GLOB]: the traceable functions. */
int ftrace_list_funcs(const char *glob);

#endif
