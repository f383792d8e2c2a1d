// SPDX-License-Identifier: GPL-2.0
/*
 * Ordering of the call-graph trees of hist entries for output (see hist.h). A tree is a trie
 * of frames; perf's nodes are runs of trie nodes that neither branch nor end a sample, so a
 * trie node without own samples and with one child is merged into that child (run_next).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist/hist.h"

/* The order perf keeps children in before sorting: by dso, then address, both descending;
 * by name, descending too, where one is an inline frame (their symbols share addresses). */
static int cmp_in(const struct cg_node *a, const struct cg_node *b)
{
	uint64_t ka, kb;

	if ((a->f.inl || b->f.inl) && a->f.sym && b->f.sym) {
		int r = strcmp(a->f.sym->name, b->f.sym->name);

		return r > 0 ? -1 : r < 0;
	}
	if (a->f.dso != b->f.dso)
		return (uintptr_t)a->f.dso > (uintptr_t)b->f.dso ? -1 : 1;
	ka = a->f.sym ? a->f.sym->start : a->f.ip;
	kb = b->f.sym ? b->f.sym->start : b->f.ip;
	if (ka != kb)
		return ka > kb ? -1 : 1;
	return 0;
}

static size_t nr_children(const struct cg_node *n)
{
	size_t k = 0;

	for (n = n->child; n; n = n->next)
		k++;
	return k;
}

/* Children of n in perf's pre-sort order, into an arena array. */
static struct cg_node **children_in(struct hist *h, const struct cg_node *n, size_t *nr)
{
	size_t k = nr_children(n), i = 0;
	struct cg_node **v, *c;

	*nr = k;
	if (!k)
		return NULL;
	v = arena_alloc(&h->tree_arena, k * sizeof(*v));
	if (!v)
		return NULL;
	for (c = n->child; c; c = c->next)
		v[i++] = c;
	return v;
}

static int cmp_in_p(const void *pa, const void *pb)
{
	return cmp_in(*(const struct cg_node *const *)pa, *(const struct cg_node *const *)pb);
}

/* Sorts the graph below n. min_abs: absolute threshold (graph), or < 0 for relative. */
static int sort_graph(struct hist *h, struct cg_node *n, double min_abs, double rel)
{
	struct cg_node **v, *end = n;
	size_t k, i, kept = 0;
	uint64_t min_hit;

	/* merge the run starting at n (the root is never part of a run) */
	n->run_next = NULL;
	if (n->parent) {
		while (end->count == 0 && end->child && !end->child->next) {
			end->run_next = end->child;
			end = end->child;
		}
		end->run_next = NULL;
	}
	v = children_in(h, end, &k);
	if (k && !v)
		return -ENOMEM;
	if (min_abs >= 0)
		min_hit = (uint64_t)ceil(min_abs);
	else
		min_hit = (uint64_t)ceil((double)end->children_hit * rel);
	for (i = 0; i < k; i++)
		if (cg_cumul(v[i]) >= min_hit && cg_cumul(v[i]))
			v[kept++] = v[i];
	if (kept)
		qsort(v, kept, sizeof(*v), cmp_in_p);
	/* stable by cumul: insertion sort keeps perf's tie order */
	for (i = 1; i < kept; i++) {
		struct cg_node *x = v[i];
		size_t j = i;

		while (j > 0 && cg_cumul(v[j - 1]) < cg_cumul(x)) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	end->sorted = v;
	end->nr_sorted = kept;
	if (end != n) {
		n->sorted = v;
		n->nr_sorted = kept;
	}
	for (i = 0; i < kept; i++) {
		int err = sort_graph(h, v[i], min_abs, rel);

		if (err)
			return err;
	}
	return 0;
}

struct flat_acc {
	struct cg_node **v;
	size_t nr, alloc;
};

/* Post-order walk collecting the nodes that end samples, in perf's insertion order. */
static int collect_flat(struct hist *h, struct cg_node *n, uint64_t min_hit, struct flat_acc *acc)
{
	struct cg_node **v;
	size_t k, i;
	int err;

	v = children_in(h, n, &k);
	if (k && !v)
		return -ENOMEM;
	if (k)
		qsort(v, k, sizeof(*v), cmp_in_p);
	for (i = 0; i < k; i++)
		if ((err = collect_flat(h, v[i], min_hit, acc)))
			return err;
	if (n->parent && n->hit && n->hit >= min_hit && n->count) {
		if (acc->nr == acc->alloc) {
			size_t na = acc->alloc ? acc->alloc * 2 : 16;
			struct cg_node **p = realloc(acc->v, na * sizeof(*p));

			if (!p)
				return -ENOMEM;
			acc->v = p;
			acc->alloc = na;
		}
		acc->v[acc->nr++] = n;
	}
	return 0;
}

static int sort_flat(struct hist *h, struct hist_entry *e, uint64_t min_hit)
{
	struct flat_acc acc = { 0 };
	size_t i;
	int err;

	err = collect_flat(h, e->root, min_hit, &acc);
	if (err)
		goto out;
	/* stable sort by hit, descending */
	for (i = 1; i < acc.nr; i++) {
		struct cg_node *x = acc.v[i];
		size_t j = i;

		while (j > 0 && acc.v[j - 1]->hit < x->hit) {
			acc.v[j] = acc.v[j - 1];
			j--;
		}
		acc.v[j] = x;
	}
	e->root->nr_sorted = acc.nr;
	e->root->sorted = NULL;
	if (acc.nr) {
		e->root->sorted = arena_alloc(&h->tree_arena, acc.nr * sizeof(*acc.v));
		if (!e->root->sorted) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(e->root->sorted, acc.v, acc.nr * sizeof(*acc.v));
	}
out:
	free(acc.v);
	return err;
}

/* perf's min_callchain_hits: the share of the total period, truncated to a u64 (on 395
 * tracepoint hits, 0.5% keeps every chain of 1 hit or more) */
static double min_hits(double min_percent, uint64_t total)
{
	return floor((double)total * min_percent / 100.0);
}

/* The period an entry needs for a tree: one under the absolute threshold prints no graph. */
static uint64_t tree_min(enum cg_mode mode, double min_percent, uint64_t total)
{
	return mode == CG_GRAPH_REL ? 0 : (uint64_t)ceil(min_hits(min_percent, total));
}

int hist_sort_callchains(struct hist *h, enum cg_mode mode, double min_percent, uint64_t total)
{
	return hist_sort_callchains_n(h, mode, min_percent, total, h->nr_entries);
}

int hist_sort_callchains_n(struct hist *h, enum cg_mode mode, double min_percent, uint64_t total,
			   size_t n)
{
	double min_abs = min_hits(min_percent, total);
	size_t i;
	int err = 0;

	if (!h->o.callchain || mode == CG_NONE)
		return 0;
	err = hist_build_trees(h, tree_min(mode, min_percent, total));
	for (i = 0; i < h->nr_entries && i < n && !err; i++) {
		struct hist_entry *e = h->sorted[i];

		if (!e->root) /* no tree: nothing to print under it */
			continue;
		switch (mode) {
		case CG_GRAPH_ABS:
			err = sort_graph(h, e->root, min_abs, 0);
			break;
		case CG_GRAPH_REL:
			err = sort_graph(h, e->root, -1, min_percent / 100.0);
			break;
		case CG_FLAT:
		case CG_FOLDED:
			err = sort_flat(h, e, (uint64_t)ceil(min_abs));
			break;
		default:
			break;
		}
	}
	return err;
}

struct trees_job {
	struct hist *h;
	uint64_t min;
	int err;
};

static void *build_trees(void *arg)
{
	struct trees_job *j = arg;

	j->err = hist_build_trees(j->h, j->min);
	return NULL;
}

int hist_finish(struct hist *h, enum cg_mode mode, double min_percent, uint64_t total)
{
	struct trees_job j = { h, tree_min(mode, min_percent, total), 0 };
	bool threaded = false;
	pthread_t th;
	int err;

	if ((err = hist_collapse(h)))
		return err;
	/* the trees need the entries' periods only, not their order: built beside the sort */
	if (h->o.callchain && mode != CG_NONE && !h->trees_built)
		threaded = !pthread_create(&th, NULL, build_trees, &j);
	err = hist_sort(h);
	if (threaded) {
		pthread_join(th, NULL);
		if (!err)
			err = j.err;
	}
	return err ? err : hist_sort_callchains(h, mode, min_percent, total);
}
