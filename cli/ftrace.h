/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace: the pieces of 'flare ftrace'. cmd-ftrace.c parses the tracing options and runs a
 * trace (live or into a file) in a tracefs instance of its own (lib/trace/tfs.h);
 * ftrace-tools.c holds the subcommands that only look at or poke tracefs once (show, marker,
 * snapshot, report, -F) and the words flare says when the kernel refuses something.
 */
#ifndef FLARE_CLI_FTRACE_H
#define FLARE_CLI_FTRACE_H
#include <stdio.h>

struct tfs;

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
