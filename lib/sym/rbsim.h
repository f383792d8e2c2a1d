/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbsim: a red-black tree of symbol ranges built exactly as perf's symbol tree is (the
 * kernel's lib/rbtree.c insertion and removal cases; equal starts go right), so that lookups
 * of overlapping ranges return the symbol perf's would. The caller owns the nodes.
 */
#ifndef FLARE_SYM_RBSIM_H
#define FLARE_SYM_RBSIM_H
#include <stdbool.h>
#include <stdint.h>

struct rbs_node {
	struct rbs_node *c[2], *p; /* children: c[0] left, c[1] right */
	bool black;
	uint64_t start, end;
};

struct rbs {
	struct rbs_node *root;
};

void rbs_insert(struct rbs *t, struct rbs_node *n);
void rbs_erase(struct rbs *t, struct rbs_node *n);
const struct rbs_node *rbs_find(const struct rbs *t, uint64_t ip);

#endif
