/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat: the state `flare stat` counts into and prints from (cmd-stat.c runs, stat-out.c
 * prints text, CSV and JSON in perf 6.1's shapes, with its derived metrics).
 */
#ifndef FLARE_CLI_STAT_H
#define FLARE_CLI_STAT_H
#include <stdbool.h>
#include <stdio.h>
#include "lib/event/evlist.h"
#include "lib/event/open.h"

enum stat_aggr { AGGR_GLOBAL, AGGR_CPU, AGGR_CORE, AGGR_SOCKET, AGGR_DIE, AGGR_NODE, AGGR_THREAD };

/* Running mean and variance (Welford), as perf's stats do. */
struct welford {
	double n, mean, m2;
};

void welford_add(struct welford *w, double v);
/* Standard deviation of the mean, and that as a percentage of the mean. */
double welford_stddev(const struct welford *w);
double welford_noise_pct(const struct welford *w);

struct stat_cfg {
	enum stat_aggr aggr;
	const char *csv_sep;	/* -x: CSV with this separator; NULL for text */
	bool json;
	bool big_num;		/* thousands separators in text */
	int run_count;		/* -r */
	int interval_ms;	/* -I */
	bool show_ru;		/* user/sys lines: a workload and one run */
	bool quiet_reasons;	/* why-lines already printed (intervals after the first) */
	FILE *out;
	char target_desc[256];	/* "'true'", "'system wide'", "process id '42'" */
	int nr_intervals;	/* printed so far, for the header every 25 */
	bool summary;		/* the totals after -I --summary ("summary" prefix in CSV) */
	bool table;		/* --table: each run's elapsed time before the -r result */
	bool interval_clear;	/* --interval-clear: clear the screen before each interval */
	bool skip_zero_threads;	/* --per-thread -a: leave out threads that counted nothing */
};

struct stat_ctr {
	struct evsel *ev;
	struct evfds fds;
	int err;		/* -errno when it could not be opened, else 0 */
	char reason[192];	/* why, when err */
	struct counts *prev;	/* previous reading per fd, for intervals */
};

struct stat_unit {
	int cpu, socket, die, core, node;
	int nr;			/* cpus in it */
	int tid;		/* AGGR_THREAD */
	char comm[20];
};

/* One counter in one aggregation unit. */
struct stat_val {
	double val;		/* scaled to what ran the whole time; mean over runs */
	uint64_t ena, run;
	struct welford w;	/* over runs */
};

struct stat_state {
	struct stat_ctr *ctrs;
	size_t nr_ctrs;
	struct stat_unit *units;
	size_t nr_units;
	size_t *unit_of;	/* unit of each target cpu (or task, when by_task) index */
	bool by_task;		/* units are the target's tasks (--per-thread) */
	bool no_scale;		/* --no-scale: raw counts of multiplexed events */
	struct stat_val *vals;	/* [unit * nr_ctrs + ctr] */
	struct welford wall;	/* elapsed ns over runs */
	double wall_ns;		/* this run's or interval's elapsed ns */
	double user_s, sys_s;
	double *run_ns;		/* elapsed ns of each -r run (--table), run_count of them */
	int nr_runs;
};

static inline struct stat_val *stat_val_at(const struct stat_state *s, size_t u, size_t c)
{
	return &s->vals[u * s->nr_ctrs + c];
}

/* Prints the counters; ts >= 0 is the interval timestamp in seconds. */
void stat_print_counters(struct stat_cfg *c, const struct stat_state *s, double ts);
/* The header (before) and the elapsed/user/sys footer (after) of a non-interval run. */
void stat_print_header(const struct stat_cfg *c);
void stat_print_footer(const struct stat_cfg *c, const struct stat_state *s);

#endif
