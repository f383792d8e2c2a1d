/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pair: perf diff's view of several recordings' histograms of one event. Each row is an
 * entry of the baseline (file 0) or, for what only a later file has, a dummy row standing for
 * it; cols[i] is file i's matching entry or NULL. Entries match as perf matches them: equal
 * under every sort key, a symbol by its address range in a dso of the same name (so a rebuilt
 * binary's functions pair only where they did not move), an unresolved address by address.
 * Rows are then computed (delta of percentages, ratio or weighted diff of periods) and sorted
 * in perf diff's order. The set owns its rows; the hists stay the caller's and must outlive it.
 */
#ifndef FLARE_HIST_PAIR_H
#define FLARE_HIST_PAIR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/hist/hist.h"

enum pair_compute { PAIR_DELTA, PAIR_DELTA_ABS, PAIR_RATIO, PAIR_WDIFF };

struct pair_row {
	const struct hist_entry **cols; /* nr_files entries; cols[0] NULL for a dummy row */
	const struct hist_entry *key;	/* the entry whose key fields the row prints */
	size_t key_file;		/* the file key belongs to */
	double *delta, *ratio;		/* per file (index 0 unused) */
	int64_t *wdiff;
};

struct pair_set {
	size_t nr_files;
	const struct hist **hists; /* per file; NULL where a file lacks the event */
	uint64_t *totals;	   /* period total per file */
	uint64_t shown_total0;	   /* the baseline rows' period (less than totals[0] with
					 * baseline_only): perf prints baseline shares of it */
	struct pair_row *rows;
	size_t nr_rows, alloc;
	enum pair_compute compute;
	int64_t w1, w2; /* wdiff weights */
};

/* Matches the entries of hists[0..nr) (after hist_collapse()) into rows. baseline_only: no
 * dummy rows, and baseline rows without any match are dropped (perf diff -b). 0 or -ENOMEM. */
int pair_set_build(struct pair_set *ps, const struct hist **hists, size_t nr, bool baseline_only);
/* Computes every row's values and sorts the rows as perf diff does: first by the values of
 * file order_idx (0: none), then baseline period, then each file's value, then the keys. */
int pair_set_sort(struct pair_set *ps, enum pair_compute c, int64_t w1, int64_t w2,
		  size_t order_idx);
void pair_set_release(struct pair_set *ps);

/* The percentage of e's period in file i (0 when e is NULL). For the baseline column, perf
 * divides by shown_total0 instead: pair_shown_percent(). */
double pair_percent(const struct pair_set *ps, size_t i, const struct hist_entry *e);

double pair_shown_percent(const struct pair_set *ps, const struct hist_entry *base);

#endif
