// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: perf keeps a dso's symbols in a red-black tree (the kernel's lib/rbtree.c
 * algorithms) and, where two symbols overlap, its lookup returns whichever the descent from
 * the root meets first. Overlaps arise when perf adds the PLT symbols after stretching a
 * zero-sized symbol (_init) over the .plt section: which of the two a PLT address resolves to
 * depends on the tree's shape. This file rebuilds that shape (same insertions and removals in
 * the same order, the same rebalancing cases) so flare can answer as perf does. Each case is
 * written once for a direction d (0 left, 1 right) and its mirror !d.
 */
#include <stddef.h>
#include "lib/sym/rbsim.h"

static void set_child(struct rbs *t, struct rbs_node *parent, struct rbs_node *old,
		      struct rbs_node *new)
{
	if (!parent)
		t->root = new;
	else
		parent->c[parent->c[1] == old] = new;
}

/* new takes old's place (parent and colour); old becomes new's child with the given colour. */
static void rotate_set_parents(struct rbs *t, struct rbs_node *old, struct rbs_node *new,
			       bool black)
{
	struct rbs_node *parent = old->p;

	new->p = parent;
	new->black = old->black;
	old->p = new;
	old->black = black;
	set_child(t, parent, old, new);
}

static bool is_red(const struct rbs_node *n)
{
	return n && !n->black;
}

static void insert_fixup(struct rbs *t, struct rbs_node *node)
{
	struct rbs_node *parent, *gparent, *tmp;
	int d;

	for (;;) {
		parent = node->p;
		if (!parent) {
			node->black = true;
			return;
		}
		if (parent->black)
			return;
		gparent = parent->p;
		d = gparent->c[1] == parent; /* parent's side of gparent */
		tmp = gparent->c[!d];	     /* the uncle */
		if (is_red(tmp)) {
			tmp->black = parent->black = true;
			gparent->black = false;
			node = gparent;
			continue;
		}
		if (node == parent->c[!d]) { /* inner grandchild: rotate it outward */
			tmp = node->c[d];
			parent->c[!d] = tmp;
			node->c[d] = parent;
			if (tmp)
				tmp->p = parent;
			parent->p = node;
			parent = node;
		}
		tmp = parent->c[!d];
		gparent->c[d] = tmp;
		parent->c[!d] = gparent;
		if (tmp)
			tmp->p = gparent;
		rotate_set_parents(t, gparent, parent, false);
		return;
	}
}

void rbs_insert(struct rbs *t, struct rbs_node *n)
{
	struct rbs_node **link = &t->root, *parent = NULL;

	while (*link) {
		parent = *link;
		link = &parent->c[n->start >= parent->start]; /* equal starts go right */
	}
	n->c[0] = n->c[1] = NULL;
	n->p = parent;
	n->black = false;
	*link = n;
	insert_fixup(t, n);
}

/* One step of the removal rebalancing with node on side d of parent. Returns the node to go
 * on with (its parent is the next parent), or NULL when done. */
static struct rbs_node *erase_step(struct rbs *t, struct rbs_node *parent, int d)
{
	struct rbs_node *sibling = parent->c[!d], *tmp1, *tmp2;

	if (is_red(sibling)) {
		tmp1 = sibling->c[d];
		parent->c[!d] = tmp1;
		sibling->c[d] = parent;
		tmp1->p = parent;
		tmp1->black = true;
		rotate_set_parents(t, parent, sibling, false);
		sibling = tmp1;
	}
	tmp1 = sibling->c[!d];
	if (!is_red(tmp1)) {
		tmp2 = sibling->c[d];
		if (!is_red(tmp2)) {
			sibling->black = false;
			if (is_red(parent)) {
				parent->black = true;
				return NULL;
			}
			return parent;
		}
		tmp1 = tmp2->c[!d];
		sibling->c[d] = tmp1;
		tmp2->c[!d] = sibling;
		parent->c[!d] = tmp2;
		if (tmp1) {
			tmp1->p = sibling;
			tmp1->black = true;
		}
		sibling->p = tmp2;
		tmp1 = sibling;
		sibling = tmp2;
	}
	tmp2 = sibling->c[d];
	parent->c[!d] = tmp2;
	sibling->c[d] = parent;
	tmp1->p = sibling;
	tmp1->black = true;
	if (tmp2)
		tmp2->p = parent;
	rotate_set_parents(t, parent, sibling, true);
	return NULL;
}

static void erase_fixup(struct rbs *t, struct rbs_node *parent)
{
	struct rbs_node *node = NULL;

	/* the first time node is the emptied (NULL) side: the sibling is the other one */
	while (parent) {
		node = erase_step(t, parent, parent->c[1] == node);
		if (!node)
			return;
		parent = node->p;
	}
}

void rbs_erase(struct rbs *t, struct rbs_node *node)
{
	struct rbs_node *child = node->c[1], *tmp = node->c[0], *parent, *rebalance = NULL;

	if (!tmp || !child) {
		/* at most one child: it takes node's place and colour */
		struct rbs_node *only = tmp ? tmp : child;

		parent = node->p;
		set_child(t, parent, node, only);
		if (only) {
			only->p = parent;
			only->black = node->black;
		} else if (node->black) {
			rebalance = parent;
		}
	} else {
		/* two children: the successor takes node's place and colour */
		struct rbs_node *successor = child, *child2;
		bool succ_black;

		parent = successor;
		for (tmp = child->c[0]; tmp; tmp = tmp->c[0]) {
			parent = successor;
			successor = tmp;
		}
		child2 = successor->c[1];
		if (successor != child) {
			parent->c[0] = child2;
			successor->c[1] = child;
			child->p = successor;
		}
		successor->c[0] = node->c[0];
		node->c[0]->p = successor;
		set_child(t, node->p, node, successor);
		succ_black = successor->black;
		successor->p = node->p;
		successor->black = node->black;
		if (child2) {
			child2->p = parent;
			child2->black = true;
		} else if (succ_black) {
			rebalance = parent;
		}
	}
	if (rebalance)
		erase_fixup(t, rebalance);
}

const struct rbs_node *rbs_find(const struct rbs *t, uint64_t ip)
{
	const struct rbs_node *n = t->root;

	/* perf's symbols__find(): end is inclusive only for a zero-sized symbol */
	while (n) {
		if (ip < n->start)
			n = n->c[0];
		else if (ip > n->end || (ip == n->end && ip != n->start))
			n = n->c[1];
		else
			return n;
	}
	return NULL;
}
