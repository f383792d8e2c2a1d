/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htab: an open-addressing table of (hash, node) pairs for lib/hist's hot paths (the trie of
 * distinct call chains and the call-graph trees). The full 64-bit hash sits in the slot, so
 * a probe touches a node only when its hash matches, and growing never touches a node. The
 * table owns its slot array only; nodes belong to the caller, who probes inline:
 *
 *	for (i = htab_first(t, hash); t->s[i].node; i = htab_step(t, i))
 *		if (t->s[i].hash == hash && same(t->s[i].node, key))
 *			return t->s[i].node;
 *	if (htab_put(t, i, hash, new_node))	(i: the free slot the probe ended on)
 *		return -ENOMEM;
 */
#ifndef FLARE_HIST_HTAB_H
#define FLARE_HIST_HTAB_H
#include <stddef.h>
#include <stdint.h>

struct htab_slot {
	uint64_t hash;
	void *node; /* NULL: free */
};

struct htab {
	struct htab_slot *s;
	size_t mask; /* slots - 1 */
	size_t nr;   /* nodes */
};

void htab_init(struct htab *t);
void htab_release(struct htab *t);

static inline size_t htab_first(const struct htab *t, uint64_t hash)
{
	return (size_t)(hash ^ (hash >> 29)) & t->mask;
}

static inline size_t htab_step(const struct htab *t, size_t i)
{
	return (i + 1) & t->mask;
}

/* Stores node in free slot i (where a probe for hash ended), growing the table when it is
 * 3/4 full. 0 or -ENOMEM (the node is then not stored). */
int htab_put(struct htab *t, size_t i, uint64_t hash, void *node);

#endif
