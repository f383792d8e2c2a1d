/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat: how `flare stat` prints (stat-out.c: text, CSV and JSON in perf 6.1's shapes, with its
 * derived metrics) what the counting engine (lib/stat/stat.h) counted; cmd-stat.c runs it.
 */
#ifndef FLARE_CLI_STAT_H
#define FLARE_CLI_STAT_H
#include <stdbool.h>
#include <stdio.h>
#include "lib/stat/stat.h"

struct stat_cfg {
	enum stat_aggr aggr;
	const char *csv_sep; /* -x: CSV with this separator; NULL for text */
	bool json;
	bool big_num;	    /* thousands separators in text */
	int run_count;	    /* -r */
	int interval_ms;    /* -I */
	bool show_ru;	    /* user/sys lines: a workload and one run */
	bool quiet_reasons; /* why-lines already printed (intervals after the first) */
	FILE *out;
	char target_desc[256];	/* "'true'", "'system wide'", "process id '42'" */
	int nr_intervals;	/* printed so far, for the header every 25 */
	bool summary;		/* the totals after -I --summary ("summary" prefix in CSV) */
	bool table;		/* --table: each run's elapsed time before the -r result */
	bool interval_clear;	/* --interval-clear: clear the screen before each interval */
	bool skip_zero_threads; /* --per-thread -a: leave out threads that counted nothing */
};

/* Prints the counters; ts >= 0 is the interval timestamp in seconds. */
void stat_print_counters(struct stat_cfg *c, const struct stat_state *s, double ts);
/* The header (before) and the elapsed/user/sys footer (after) of a non-interval run. */
void stat_print_header(const struct stat_cfg *c);
void stat_print_footer(const struct stat_cfg *c, const struct stat_state *s);

#endif
