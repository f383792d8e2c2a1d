// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: perf keeps a dso's symbols in a red-black tree (the kernel's lib/rbtree.c
 * algorithms) and, where two symbols overlap, its lookup returns whichever the descent from
 * the root meets first. Overlaps arise when perf adds the PLT symbols after stretching a
 * zero-sized symbol (_init) over the .plt section: which of the two a PLT address resolves to
 * depends on the tree's shape. This file rebuilds that shape (same insertions and removals in
 * the same order, the same rebalancing) so flare can answer as perf does.
 */
#include <stddef.h>
#include "lib/sym/rbsim.h"

static void set_child(struct rbs *t, struct rbs_node *parent, struct rbs_node *old,
		      struct rbs_node *new)
{
	if (!parent)
		t->root = new;
	else if (parent->l == old)
		parent->l = new;
	else
		parent->r = new;
}

/* new takes old's place (parent and colour); old becomes new's child with colour black. */
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

	for (;;) {
		parent = node->p;
		if (!parent) {
			node->black = true;
			return;
		}
		if (parent->black)
			return;
		gparent = parent->p;
		tmp = gparent->r;
		if (parent != tmp) {	/* parent is the left child */
			if (is_red(tmp)) {
				tmp->black = parent->black = true;
				gparent->black = false;
				node = gparent;
				continue;
			}
			tmp = parent->r;
			if (node == tmp) {
				tmp = node->l;
				parent->r = tmp;
				node->l = parent;
				if (tmp)
					tmp->p = parent;
				parent->p = node;
				parent = node;
				tmp = node->r;
			}
			gparent->l = tmp;
			parent->r = gparent;
			if (tmp)
				tmp->p = gparent;
			rotate_set_parents(t, gparent, parent, false);
			return;
		}
		tmp = gparent->l;
		if (is_red(tmp)) {
			tmp->black = parent->black = true;
			gparent->black = false;
			node = gparent;
			continue;
		}
		tmp = parent->l;
		if (node == tmp) {
			tmp = node->r;
			parent->l = tmp;
			node->r = parent;
			if (tmp)
				tmp->p = parent;
			parent->p = node;
			parent = node;
			tmp = node->l;
		}
		gparent->r = tmp;
		parent->l = gparent;
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
		link = n->start < parent->start ? &parent->l : &parent->r;
	}
	n->l = n->r = NULL;
	n->p = parent;
	n->black = false;
	*link = n;
	insert_fixup(t, n);
}

static void erase_fixup(struct rbs *t, struct rbs_node *parent)
{
	struct rbs_node *node = NULL, *sibling, *tmp1, *tmp2;

	for (;;) {
		sibling = parent->r;
		if (node != sibling) {	/* node is the left child */
			if (is_red(sibling)) {
				tmp1 = sibling->l;
				parent->r = tmp1;
				sibling->l = parent;
				tmp1->p = parent;
				tmp1->black = true;
				rotate_set_parents(t, parent, sibling, false);
				sibling = tmp1;
			}
			tmp1 = sibling->r;
			if (!is_red(tmp1)) {
				tmp2 = sibling->l;
				if (!is_red(tmp2)) {
					sibling->black = false;
					if (is_red(parent)) {
						parent->black = true;
					} else {
						node = parent;
						parent = node->p;
						if (parent)
							continue;
					}
					return;
				}
				tmp1 = tmp2->r;
				sibling->l = tmp1;
				tmp2->r = sibling;
				parent->r = tmp2;
				if (tmp1) {
					tmp1->p = sibling;
					tmp1->black = true;
				}
				sibling->p = tmp2;
				tmp1 = sibling;
				sibling = tmp2;
			}
			tmp2 = sibling->l;
			parent->r = tmp2;
			sibling->l = parent;
			tmp1->p = sibling;
			tmp1->black = true;
			if (tmp2)
				tmp2->p = parent;
			rotate_set_parents(t, parent, sibling, true);
			return;
		}
		sibling = parent->l;
		if (is_red(sibling)) {
			tmp1 = sibling->r;
			parent->l = tmp1;
			sibling->r = parent;
			tmp1->p = parent;
			tmp1->black = true;
			rotate_set_parents(t, parent, sibling, false);
			sibling = tmp1;
		}
		tmp1 = sibling->l;
		if (!is_red(tmp1)) {
			tmp2 = sibling->r;
			if (!is_red(tmp2)) {
				sibling->black = false;
				if (is_red(parent)) {
					parent->black = true;
				} else {
					node = parent;
					parent = node->p;
					if (parent)
						continue;
				}
				return;
			}
			tmp1 = tmp2->l;
			sibling->r = tmp1;
			tmp2->l = sibling;
			parent->l = tmp2;
			if (tmp1) {
				tmp1->p = sibling;
				tmp1->black = true;
			}
			sibling->p = tmp2;
			tmp1 = sibling;
			sibling = tmp2;
		}
		tmp2 = sibling->r;
		parent->l = tmp2;
		sibling->r = parent;
		tmp1->p = sibling;
		tmp1->black = true;
		if (tmp2)
			tmp2->p = parent;
		rotate_set_parents(t, parent, sibling, true);
		return;
	}
}

void rbs_erase(struct rbs *t, struct rbs_node *node)
{
	struct rbs_node *child = node->r, *tmp = node->l, *parent, *rebalance;

	if (!tmp) {
		parent = node->p;
		set_child(t, parent, node, child);
		if (child) {
			child->p = parent;
			child->black = node->black;
			rebalance = NULL;
		} else {
			rebalance = node->black ? parent : NULL;
		}
	} else if (!child) {
		parent = node->p;
		tmp->p = parent;
		tmp->black = node->black;
		set_child(t, parent, node, tmp);
		rebalance = NULL;
	} else {
		struct rbs_node *successor = child, *child2;
		bool succ_black;

		tmp = child->l;
		if (!tmp) {
			parent = successor;
			child2 = successor->r;
		} else {
			do {
				parent = successor;
				successor = tmp;
				tmp = tmp->l;
			} while (tmp);
			child2 = successor->r;
			parent->l = child2;
			successor->r = child;
			child->p = successor;
		}
		tmp = node->l;
		successor->l = tmp;
		tmp->p = successor;
		set_child(t, node->p, node, successor);
		succ_black = successor->black;
		successor->p = node->p;
		successor->black = node->black;
		if (child2) {
			child2->p = parent;
			child2->black = true;
			rebalance = NULL;
		} else {
			rebalance = succ_black ? parent : NULL;
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
			n = n->l;
		else if (ip > n->end || (ip == n->end && ip != n->start))
			n = n->r;
		else
			return n;
	}
	return NULL;
}
