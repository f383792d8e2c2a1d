/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff: differential folded stacks as difffolded.pl makes them ("stack before after"),
 * optionally normalised so both profiles have the same total (-n), and the table of the
 * frames whose self and total counts changed most.
 */
#ifndef FLARE_GRAPH_DIFF_H
#define FLARE_GRAPH_DIFF_H
#include <stdbool.h>
#include <stddef.h>
#include "lib/base/strbuf.h"
#include "lib/graph/folded.h"

struct fg_diff {
	struct fg_line *lines; /* has2 set: c1 before (normalised), c2 after */
	size_t nr;
	double total1, total2; /* raw totals of the two inputs */
};

/*
 * Merges before[] and after[] (one-count lines; stack text must outlive the result).
 * normalize scales the first profile's counts to the second's total, truncating as
 * difffolded.pl -n does. 0 or -ENOMEM; free with fg_diff_release().
 */
int fg_diff_build(const struct fg_line *before, size_t nb, const struct fg_line *after, size_t na,
		  bool normalize, struct fg_diff *out);
void fg_diff_release(struct fg_diff *d);

/* Text table of the top frames by change of self and of total count. */
int fg_diff_table(const struct fg_diff *d, size_t top, struct strbuf *out);

#endif
