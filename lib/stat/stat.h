/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat: the counting engine behind `flare stat` (and a live `top`): opening every evsel over
 * a target with perf stat's settings, enabling, reading (totals or deltas since the last
 * read), aggregating by CPU, core, die, socket, node or thread, scaling multiplexed counts,
 * and the statistics over repeated runs. It never prints: messages for the user go into msg
 * buffers; functions return 0 or -errno.
 *
 * A stat_state owns its counters' fds, units and values; stat_state_release() frees them
 * (the evsels stay the caller's). Printing is the command's (cli/stat-out.c); waiting is
 * the live loop's (lib/event/live.h).
 */
#ifndef FLARE_STAT_STAT_H
#define FLARE_STAT_STAT_H
#include <stdbool.h>
#include "lib/event/evlist.h"
#include "lib/event/open.h"
#include "lib/event/target.h"

enum stat_aggr { AGGR_GLOBAL, AGGR_CPU, AGGR_CORE, AGGR_SOCKET, AGGR_DIE, AGGR_NODE, AGGR_THREAD };

/* Running mean and variance (Welford), as perf's stats do. */
struct welford {
	double n, mean, m2;
};

void welford_add(struct welford *w, double v);
/* Standard deviation of the mean, and that as a percentage of the mean. */
double welford_stddev(const struct welford *w);
double welford_noise_pct(const struct welford *w);

struct stat_ctr {
	struct evsel *ev;
	struct evfds fds;
	int err;	     /* -errno when it could not be opened, else 0 */
	char reason[192];    /* why, when err */
	struct counts *prev; /* previous reading per fd, for intervals */
};

struct stat_unit {
	int cpu, socket, die, core, node;
	int nr;	 /* cpus in it */
	int tid; /* AGGR_THREAD */
	char comm[20];
};

/* One counter in one aggregation unit. */
struct stat_val {
	double val; /* scaled to what ran the whole time; mean over runs */
	uint64_t ena, run;
	struct welford w; /* over runs */
};

struct stat_state {
	struct stat_ctr *ctrs;
	size_t nr_ctrs;
	struct stat_unit *units;
	size_t nr_units;
	size_t *unit_of;       /* unit of each target cpu (or task, when by_task) index */
	bool by_task;	       /* units are the target's tasks (--per-thread) */
	bool no_scale;	       /* --no-scale: raw counts of multiplexed events */
	struct stat_val *vals; /* [unit * nr_ctrs + ctr] */
	struct welford wall;   /* elapsed ns over runs */
	double wall_ns;	       /* this run's or interval's elapsed ns */
	double user_s, sys_s;
	double *run_ns; /* elapsed ns of each -r run (--table), run_count of them */
	int nr_runs;
};

static inline struct stat_val *stat_val_at(const struct stat_state *s, size_t u, size_t c)
{
	return &s->vals[u * s->nr_ctrs + c];
}

struct stat_run_opts {
	const struct target *target;
	enum stat_aggr aggr;
	bool workload; /* a command is run: enable_on_exec */
	bool no_inherit;
	int delay_ms;
	const char *const *filters; /* per evsel, NULL or a tracepoint filter */
};

/* Opens every counter. An event this kernel cannot count is kept with err and reason set
 * (printed as <not supported>); any other failure closes all and returns it with msg set. */
int stat_open(struct stat_state *s, const struct stat_run_opts *o, char *msg, size_t len);
void stat_close(struct stat_state *s);
int stat_enable(struct stat_state *s, int enable);
/* Builds the aggregation units of the target's CPUs and the value table. */
int stat_units(struct stat_state *s, const struct stat_run_opts *o);
/* Reads all counters into the value table (since the last read when delta); with
 * accumulate, adds each value to its across-runs statistics. */
int stat_read(struct stat_state *s, bool delta, bool accumulate);
/* Frees what stat_units() and stat_open() made, and ctrs. */
void stat_state_release(struct stat_state *s);

#endif
