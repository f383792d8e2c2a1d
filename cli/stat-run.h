/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat-run: opening, enabling, reading and aggregating flare stat's counters (stat.h holds
 * the state). Functions return 0 or -errno; messages for the user go into msg buffers.
 */
#ifndef FLARE_CLI_STAT_RUN_H
#define FLARE_CLI_STAT_RUN_H
#include "cli/stat.h"
#include "lib/event/target.h"

struct stat_run_opts {
	const struct target *target;
	enum stat_aggr aggr;
	bool workload;		/* a command is run: enable_on_exec */
	bool no_inherit;
	int delay_ms;
	const char *const *filters;	/* per evsel, NULL or a tracepoint filter */
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
