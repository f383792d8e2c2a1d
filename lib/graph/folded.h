/* SPDX-License-Identifier: GPL-2.0 */
/*
 * folded: stacks in the "folded" form of FlameGraph ("main;a;b 123"): a set that merges equal
 * stacks and sums their counts (what stackcollapse-*.pl build), the parser of folded text
 * (one or two counts per line, as flamegraph.pl reads it) and the printer.
 *
 * A stackset owns every stack string (arena) and entry; stackset_release() frees them all.
 * Entries keep the order in which stacks were first seen; stackset_sorted() gives them in the
 * byte order stackcollapse-perf.pl prints. When the set records a sequence (for flame charts),
 * every add also appends to seq, merging an add equal to the previous one.
 */
#ifndef FLARE_GRAPH_FOLDED_H
#define FLARE_GRAPH_FOLDED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/base/arena.h"
#include "lib/base/hashmap.h"
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"

struct stack_ent {
	const char *stack; /* NUL-terminated, in the set's arena */
	size_t len;
	uint64_t count;
	struct stack_ent *next; /* hash chain */
};

struct stack_seq {
	struct stack_ent *ent;
	uint64_t count;
};

struct stackset {
	struct arena arena;
	struct hashmap map;	      /* hash of the stack -> first stack_ent of the chain */
	VEC(struct stack_ent *) ents; /* first-seen order */
	VEC(struct stack_seq) seq;    /* filled only when keep_seq */
	bool keep_seq;
	uint64_t total;
};

void stackset_init(struct stackset *s, bool keep_seq);
void stackset_release(struct stackset *s);
/* Adds count to the stack (len bytes, no NUL needed). 0 or -ENOMEM. */
int stackset_add(struct stackset *s, const char *stack, size_t len, uint64_t count);
/* The same, and *ret is the stack's entry (kept as long as the set). */
int stackset_add_ent(struct stackset *s, const char *stack, size_t len, uint64_t count,
		     struct stack_ent **ret);
/* Adds count to an entry of the set, as stackset_add() of its stack would. */
int stackset_add_to(struct stackset *s, struct stack_ent *e, uint64_t count);
/* A malloc'd array of the entries sorted by the byte order of their stacks (caller frees
 * the array, not the entries). NULL only when out of memory or the set is empty. */
struct stack_ent **stackset_sorted(const struct stackset *s);
/* Appends "stack count\n" for every stack, sorted. 0 or -ENOMEM. */
int stackset_print(const struct stackset *s, struct strbuf *out);

/* One line of folded input as flamegraph.pl reads it: "stack c1" or "stack c1 c2". */
struct fg_line {
	const char *stack; /* not NUL-terminated: len bytes */
	size_t len;
	double c1, c2; /* c2 only when has2; a one-count line has its count in c1 */
	bool has2;
};

/*
 * Parses one folded line (no newline) the way flamegraph.pl does: the count is the last
 * blank-separated word, a decimal number; a second count before it makes a differential
 * line. Returns 0, or -ERR_FORMAT when the line has no count.
 */
int folded_parse_line(const char *line, size_t len, struct fg_line *out);

/* Orders fg_lines as flamegraph.pl's sort of whole lines does (byte order, the stack
 * ending as if followed by a blank). */
int fg_line_cmp(const void *a, const void *b);
/* Sorts lines by fg_line_cmp() as if the kernel and JIT marks ending frames ("_[k]",
 * "_[j]") were not there: the order of the stacks folded without them. 0 or -ENOMEM. */
int fg_lines_sort_unmarked(struct fg_line *lines, size_t n);

#endif
