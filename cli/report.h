/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report: the shared pieces of `flare report`: options, the per-event histograms, and the
 * --stdio printer (report-out.c) that draws entries and call graphs in perf 6.1's shapes.
 */
#ifndef FLARE_CLI_REPORT_H
#define FLARE_CLI_REPORT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/data/reader.h"
#include "lib/hist/hist.h"

struct report_opts {
	const char *input;
	int force;
	int show_nr;
	int children; /* -1: as perf decides (call chains present, not a pipe) */
	const char *sort;
	const char *call_graph; /* -g argument */
	bool cg_given;		/* -g was on the command line */
	double percent_limit;
	const char *comm, *pid, *tid, *dso, *symbols;
	const char *symbol_filter; /* --symbol-filter: entries whose symbol holds it */
	const char *time_str;	   /* --time */
	const char *cpu_list;	   /* -C */
	const char *symfs, *kallsyms;
	int demangle;
	int inline_frames;   /* --inline (default), --no-inline */
	int stats;	     /* --stats */
	int show_cpu_util;   /* --show-cpu-utilization: sys and usr columns */
	int tasks;	     /* --tasks */
	int hide_unresolved; /* -U */
	int show_period;     /* --show-total-period */
	int header, header_only, show_info;
	int stdio, tui, gtk, quiet, verbose, inverted;
	int max_stack;	 /* --max-stack: frames of a call chain (and unwound) kept */
	int max_entries; /* the entries printed at most (top's -E); 0: all */
	/* parsed */
	enum cg_mode cg_mode;
	double cg_min_percent;
	bool cg_order_set, cg_caller;
	bool cg_addr;
	int cg_print_limit; /* 0: no limit */
	enum { CGV_PERCENT, CGV_PERIOD, CGV_COUNT } cg_value;
	bool sort_starts_with_sym;
	bool percent_limit_cg_set; /* -g gave a threshold: --percent-limit keeps off it */
};

/* Parses a -g argument ("graph,0.5,caller,function,percent"). 0, or -1 with a message. */
int report_parse_callgraph(struct report_opts *o, const char *arg, char *err, size_t errlen);

/* One event's histogram and what its header prints. */
struct report_event {
	const char *name;
	struct hist hist;
	uint64_t total_period, nr_samples; /* every sample of the event, filtered or not */
	bool used;
	bool first; /* the file's first event (perf's --symbol-filter reaches only it) */
};

/* The event of attr in *events (by attr idx), named and marked used; the array grows (and
 * moves) for a new idx, each new hist made with o. NULL on -ENOMEM. */
struct report_event *report_event_of(struct report_event **events, size_t *nr,
				     const struct pd_attr *attr, const struct hist_opts *o);

/* Prints one event's section: "# Samples: ..." through the entries and the blank lines. */
void report_print_event(FILE *out, const struct report_opts *o, struct report_event *ev,
			bool has_callchain);

/* The browser's view of an event: the column header (*columns, the caller frees it), then
 * for each entry --stdio would print, its line and its call graph (NULL: none) as text. */
typedef int (*report_row_cb)(void *ctx, struct hist_entry *e, const char *line, const char *graph);
int report_event_rows(const struct report_opts *o, struct report_event *ev, bool has_callchain,
		      char **columns, report_row_cb fn, void *ctx);

/* --stats: the records by type and each event's samples, as perf prints them; returns the
 * exit status. */
int report_stats(const struct report_opts *o);
/* --tasks: the recorded threads as a parent/child tree, as perf prints it; the exit status. */
int report_tasks(const struct report_opts *o);

#endif
