/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time-range: perf's --time ranges (report, script): "START,STOP" in seconds with either end
 * open, several ranges separated by spaces, or slices of the recording in percent ("10%/2",
 * "0%-10%,30%-40%", "50%") of the span between the first and last sample times.
 */
#ifndef FLARE_CLI_TIME_RANGE_H
#define FLARE_CLI_TIME_RANGE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/data/reader.h"

struct time_range {
	uint64_t start, end;	/* ns; 0: open */
};

struct time_ranges {
	struct time_range *v;
	size_t nr;		/* 0: no --time */
};

/* str into tr; first/last: the file's first and last sample times, for percents.
 * 0, -EINVAL (not a time range) or -ENOMEM. */
int time_ranges_parse(struct time_ranges *tr, const char *str, uint64_t first, uint64_t last);
/* Whether time t is outside every range (a sample without a time is kept). */
bool time_ranges_skip(const struct time_ranges *tr, uint64_t t);
void time_ranges_release(struct time_ranges *tr);
/* --time STR for the file: parsed against its span (relative to its first sample with
 * reltime), what is wrong said. 0, -ERANGE (no range, or percents without the span: perf's
 * -EINVAL status) or -ENOMEM. */
int time_ranges_setup(struct time_ranges *tr, struct perf_data *pd, const char *input,
		      const char *str, bool reltime);
/* The header's CPU count and first/last sample times (zero when absent, or for a pipe). */
void time_span(struct perf_data *pd, int *nr_cpus, uint64_t *first, uint64_t *last);

#endif
