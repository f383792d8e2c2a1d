/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flamegraph (cli): what cmd-flamegraph.c and its helpers share: the parsed options and a
 * loaded profile (folded lines, from folded text, perf script text or a perf.data file).
 */
#ifndef FLARE_CLI_FLAMEGRAPH_H
#define FLARE_CLI_FLAMEGRAPH_H
#include <stdbool.h>
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"
#include "lib/graph/collapse.h"
#include "lib/graph/flame.h"

struct fg_cli {
	struct flame_opts fo;
	struct collapse_opts co;
	int force;
	int verbose;
};

struct profile {
	struct strbuf text;   /* folded input text; lines point into it */
	struct collapse *col; /* stacks from perf script text or perf.data */
	VEC(struct fg_line) lines;
	uint64_t ignored; /* folded lines without a count */
	bool from_data;	  /* came from a perf.data file */
	bool folded;	  /* was folded stacks (not folded here) */
};

/* Loads path ("-" or NULL: stdin) of any kind. Prints one error line and returns < 0 on
 * failure. */
int profile_load(const char *path, const struct fg_cli *cli, struct profile *p);
void profile_release(struct profile *p);

/* perf.data (cli/flamegraph-data.c): replays the file into c. Prints its own error. */
int fg_collapse_data(const char *path, const struct fg_cli *cli, struct collapse *c);

/* The hint 'flare record' and 'flare report' print, with the perf.data path for %s:
 *	fprintf(stderr, FLAMEGRAPH_HINT_FMT "\n", path); */
#define FLAMEGRAPH_HINT_FMT "flare: see it as a flame graph: flare flamegraph -i %s -o flame.svg"

#endif
