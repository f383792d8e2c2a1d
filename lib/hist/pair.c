// SPDX-License-Identifier: GPL-2.0
/*
 * pair: matching and ordering of several recordings' entries, as perf diff does it (its
 * hists__match, hists__link and the sort of its diff columns).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/hashmap.h"
#include "lib/hist/pair.h"

/* Whether a and b are one entry under the hist's keys, as perf's collapse compares them. */
static bool same_entry(const struct hist_opts *o, const struct hist_entry *a,
		       const struct hist_entry *b)
{
	size_t k;

	for (k = 0; k < o->nr_keys; k++) {
		switch (o->keys[k]) {
		case HK_SYM:
			if (!a->sym && !b->sym) {
				/* perf diff: a dso's unresolved addresses are one entry a level */
				if (a->level != b->level || hist_entry_cmp_key(a, b, HK_DSO))
					return false;
				break;
			}
			if (!a->sym || !b->sym || a->sym->start != b->sym->start ||
			    a->sym->end != b->sym->end)
				return false;
			/* perf compares the dso with the symbol, whether dso is a key or not */
			if (hist_entry_cmp_key(a, b, HK_DSO))
				return false;
			break;
		default:
			if (hist_entry_cmp_key(a, b, o->keys[k]))
				return false;
		}
	}
	return true;
}

static uint64_t entry_hash(const struct hist_opts *o, const struct hist_entry *e)
{
	uint64_t h = 0;
	size_t k;

	for (k = 0; k < o->nr_keys; k++) {
		switch (o->keys[k]) {
		case HK_COMM:
			h = hash_u64(h ^ (e->comm ? hash_str(e->comm) : 0));
			break;
		case HK_PID:
			h = hash_u64(h ^ e->tid);
			break;
		case HK_CPU:
			h = hash_u64(h ^ e->cpu);
			break;
		case HK_DSO:
			h = hash_u64(h ^ (e->dso ? hash_str(e->dso->short_name) : 1));
			break;
		case HK_SYM:
			h = hash_u64(h ^ (e->sym ? e->sym->start : (uint64_t)e->level));
			break;
		case HK_TRACE:
			h = hash_u64(h ^ (e->trace ? hash_str(e->trace) : 0));
			break;
		default:
			break;
		}
	}
	return h;
}

static struct pair_row *row_add(struct pair_set *ps, const struct hist_entry *key)
{
	struct pair_row *r;

	if (ps->nr_rows == ps->alloc) {
		size_t n = ps->alloc ? 2 * ps->alloc : 256;
		struct pair_row *p = realloc(ps->rows, n * sizeof(*p));

		if (!p)
			return NULL;
		ps->rows = p;
		ps->alloc = n;
	}
	r = &ps->rows[ps->nr_rows];
	memset(r, 0, sizeof(*r));
	r->cols = calloc(ps->nr_files, sizeof(*r->cols));
	r->delta = calloc(ps->nr_files, sizeof(*r->delta));
	r->ratio = calloc(ps->nr_files, sizeof(*r->ratio));
	r->wdiff = calloc(ps->nr_files, sizeof(*r->wdiff));
	if (!r->cols || !r->delta || !r->ratio || !r->wdiff) {
		free(r->cols);
		free(r->delta);
		free(r->ratio);
		free(r->wdiff);
		return NULL;
	}
	r->key = key;
	ps->nr_rows++;
	return r;
}

/* Rows by key hash: a chain of row indexes per hash (value = index + 1, next in a side array). */
struct row_index {
	struct hashmap first; /* hash -> (void *)(index + 1) */
	size_t *next;	      /* per row: the next index + 1 with the same hash, or 0 */
	size_t alloc;
};

static int index_add(struct row_index *ix, uint64_t h, size_t row)
{
	void *prev = NULL;

	if (row >= ix->alloc) {
		size_t n = 2 * row + 256;
		size_t *p = realloc(ix->next, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ix->next = p;
		ix->alloc = n;
	}
	hashmap_get(&ix->first, h, &prev);
	ix->next[row] = (size_t)(uintptr_t)prev;
	return hashmap_put(&ix->first, h, (void *)(uintptr_t)(row + 1));
}

static struct pair_row *index_find(struct pair_set *ps, struct row_index *ix, uint64_t h,
				   const struct hist_opts *o, const struct hist_entry *e)
{
	void *v = NULL;
	size_t i;

	if (!hashmap_get(&ix->first, h, &v))
		return NULL;
	for (i = (size_t)(uintptr_t)v; i; i = ix->next[i - 1])
		if (same_entry(o, ps->rows[i - 1].key, e))
			return &ps->rows[i - 1];
	return NULL;
}

static int match_file(struct pair_set *ps, struct row_index *ix, size_t f, bool baseline_only)
{
	const struct hist *h = ps->hists[f];
	size_t i;

	for (i = 0; i < h->nr_entries; i++) {
		const struct hist_entry *e = h->created[i];
		uint64_t hash = entry_hash(&h->o, e);
		struct pair_row *r = index_find(ps, ix, hash, &h->o, e);

		if (!r && !baseline_only) {
			/* perf's hists__link: a dummy baseline entry stands for it */
			r = row_add(ps, e);
			if (r)
				r->key_file = f;
			if (!r || index_add(ix, hash, ps->nr_rows - 1))
				return -ENOMEM;
		}
		if (r && !r->cols[f])
			r->cols[f] = e;
	}
	return 0;
}

static bool has_pairs(const struct pair_set *ps, const struct pair_row *r)
{
	size_t i;

	for (i = 1; i < ps->nr_files; i++)
		if (r->cols[i])
			return true;
	return false;
}

int pair_set_build(struct pair_set *ps, const struct hist **hists, size_t nr, bool baseline_only)
{
	struct row_index ix = { .first = HASHMAP_INIT };
	size_t i, f;
	int err = -ENOMEM;

	memset(ps, 0, sizeof(*ps));
	ps->nr_files = nr;
	ps->hists = calloc(nr, sizeof(*ps->hists));
	ps->totals = calloc(nr, sizeof(*ps->totals));
	if (!ps->hists || !ps->totals)
		goto out;
	for (f = 0; f < nr; f++) {
		ps->hists[f] = hists[f];
		ps->totals[f] = hists[f] ? hists[f]->total_period : 0;
	}
	for (i = 0; hists[0] && i < hists[0]->nr_entries; i++) {
		const struct hist_entry *e = hists[0]->created[i];
		struct pair_row *r = row_add(ps, e);

		if (!r || index_add(&ix, entry_hash(&hists[0]->o, e), ps->nr_rows - 1))
			goto out;
		r->cols[0] = e;
	}
	for (f = 1; f < nr; f++)
		if (hists[f] && match_file(ps, &ix, f, baseline_only))
			goto out;
	if (baseline_only) {
		size_t w = 0;

		for (i = 0; i < ps->nr_rows; i++) {
			if (has_pairs(ps, &ps->rows[i])) {
				ps->rows[w++] = ps->rows[i];
				continue;
			}
			free(ps->rows[i].cols);
			free(ps->rows[i].delta);
			free(ps->rows[i].ratio);
			free(ps->rows[i].wdiff);
		}
		ps->nr_rows = w;
	}
	for (i = 0; i < ps->nr_rows; i++)
		ps->shown_total0 += ps->rows[i].cols[0] ? ps->rows[i].cols[0]->self : 0;
	err = 0;
out:
	hashmap_release(&ix.first);
	free(ix.next);
	return err;
}

double pair_percent(const struct pair_set *ps, size_t i, const struct hist_entry *e)
{
	if (!e || !ps->totals[i])
		return 0.0;
	return e->self * 100.0 / (double)ps->totals[i];
}

double pair_shown_percent(const struct pair_set *ps, const struct hist_entry *base)
{
	if (!base || !ps->shown_total0)
		return 0.0;
	return base->self * 100.0 / (double)ps->shown_total0;
}

static void compute_row(struct pair_set *ps, struct pair_row *r)
{
	size_t i;

	for (i = 1; i < ps->nr_files; i++) {
		uint64_t old = r->cols[0] ? r->cols[0]->self : 0;
		uint64_t new = r->cols[i] ? r->cols[i]->self : 0;

		if (!r->cols[i])
			continue;
		r->delta[i] = pair_percent(ps, i, r->cols[i]) - pair_percent(ps, 0, r->cols[0]);
		r->ratio[i] = (double)new / (double)(old ? old : 1);
		r->wdiff[i] = (int64_t) new * ps->w2 - (int64_t)old * ps->w1;
	}
}

static int cmp_value(const struct pair_set *ps, const struct pair_row *a, const struct pair_row *b,
		     size_t i)
{
	double x, y;

	switch (ps->compute) {
	case PAIR_DELTA:
		x = a->delta[i], y = b->delta[i];
		break;
	case PAIR_DELTA_ABS:
		x = fabs(a->delta[i]), y = fabs(b->delta[i]);
		break;
	case PAIR_RATIO:
		x = a->ratio[i], y = b->ratio[i];
		break;
	default:
		return a->wdiff[i] > b->wdiff[i] ? -1 : a->wdiff[i] < b->wdiff[i];
	}
	return x > y ? -1 : x < y;
}

/* perf's hist_entry__cmp_compute_idx: rows with a value for file i first, dummies after
 * (except for deltas, which a dummy has), then by value, largest first. */
static int cmp_order(const struct pair_set *ps, const struct pair_row *a, const struct pair_row *b,
		     size_t i)
{
	if (!a->cols[i] || !b->cols[i])
		return !a->cols[i] - !b->cols[i];
	if (ps->compute != PAIR_DELTA && ps->compute != PAIR_DELTA_ABS &&
	    (!a->cols[0] || !b->cols[0]))
		return !a->cols[0] - !b->cols[0];
	return cmp_value(ps, a, b, i);
}

/* perf's hist_entry__cmp_compute: rows with any pair first, then with one in file i. */
static int cmp_column(const struct pair_set *ps, const struct pair_row *a, const struct pair_row *b,
		      size_t i)
{
	bool pa = has_pairs(ps, a), pb = has_pairs(ps, b);

	if (!pa || !pb)
		return pb - pa;
	if (!a->cols[i] || !b->cols[i])
		return !a->cols[i] - !b->cols[i];
	return cmp_value(ps, a, b, i);
}

struct sort_ctx {
	const struct pair_set *ps;
	size_t order_idx;
};

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
	const struct sort_ctx *sc = ctx;
	const struct pair_row *a = pa, *b = pb;
	const struct pair_set *ps = sc->ps;
	uint64_t sa = a->cols[0] ? a->cols[0]->self : 0, sb = b->cols[0] ? b->cols[0]->self : 0;
	const struct hist_opts *o = &ps->hists[0]->o;
	size_t i;
	int c;

	if (sc->order_idx && (c = cmp_order(ps, a, b, sc->order_idx)))
		return c;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	for (i = 1; i < ps->nr_files; i++)
		if ((c = cmp_column(ps, a, b, i)))
			return c;
	for (i = 0; i < o->nr_keys; i++)
		if ((c = hist_entry_cmp_key(a->key, b->key, o->keys[i])))
			return c;
	/* a full tie (two functions of one name, C++ overloads) keeps perf's order: its
	 * entries' tree, by address */
	if (a->key->sym && b->key->sym && a->key->sym->start != b->key->sym->start)
		return a->key->sym->start < b->key->sym->start ? -1 : 1;
	return 0;
}

int pair_set_sort(struct pair_set *ps, enum pair_compute c, int64_t w1, int64_t w2,
		  size_t order_idx)
{
	struct sort_ctx sc = { ps, order_idx < ps->nr_files ? order_idx : 0 };
	size_t i;

	ps->compute = c;
	ps->w1 = w1;
	ps->w2 = w2;
	for (i = 0; i < ps->nr_rows; i++)
		compute_row(ps, &ps->rows[i]);
	if (!ps->hists[0] || !ps->nr_rows)
		return 0;
	qsort_r(ps->rows, ps->nr_rows, sizeof(*ps->rows), cmp_rows, &sc);
	return 0;
}

void pair_set_release(struct pair_set *ps)
{
	size_t i;

	for (i = 0; i < ps->nr_rows; i++) {
		free(ps->rows[i].cols);
		free(ps->rows[i].delta);
		free(ps->rows[i].ratio);
		free(ps->rows[i].wdiff);
	}
	free(ps->rows);
	free(ps->hists);
	free(ps->totals);
	memset(ps, 0, sizeof(*ps));
}
