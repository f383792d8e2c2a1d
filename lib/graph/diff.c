// SPDX-License-Identifier: GPL-2.0
/*
 * diff: difffolded.pl's merge of two folded profiles, and the "what changed" table.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/hashmap.h"
#include "lib/base/vec.h"
#include "lib/graph/diff.h"

struct slot_list {
	size_t idx;
	struct slot_list *next;
};

/* Index of stack in out (added when new); -1 on -ENOMEM. */
static long diff_index(struct hashmap *m, struct arena *a, struct fg_diff *d, size_t *cap,
		       const struct fg_line *l)
{
	void **slot = hashmap_slot(m, hash_bytes(l->stack, l->len));
	struct slot_list *s;

	if (!slot)
		return -1;
	for (s = *slot; s; s = s->next)
		if (d->lines[s->idx].len == l->len &&
		    !memcmp(d->lines[s->idx].stack, l->stack, l->len))
			return (long)s->idx;
	if (d->nr == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		struct fg_line *p = realloc(d->lines, n * sizeof(*p));

		if (!p)
			return -1;
		d->lines = p;
		*cap = n;
	}
	s = arena_alloc(a, sizeof(*s));
	if (!s)
		return -1;
	s->idx = d->nr;
	s->next = *slot;
	*slot = s;
	d->lines[d->nr] = (struct fg_line){ l->stack, l->len, 0, 0, true };
	return (long)d->nr++;
}

int fg_diff_build(const struct fg_line *before, size_t nb, const struct fg_line *after, size_t na,
		  bool normalize, struct fg_diff *out)
{
	struct hashmap m = HASHMAP_INIT;
	struct arena a = ARENA_INIT;
	size_t i, cap = 0;
	long k;
	int err = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nb + na; i++) {
		const struct fg_line *l = i < nb ? &before[i] : &after[i - nb];

		k = diff_index(&m, &a, out, &cap, l);
		if (k < 0) {
			err = -ENOMEM;
			break;
		}
		if (i < nb) {
			out->lines[k].c1 += l->c1;
			out->total1 += l->c1;
		} else {
			out->lines[k].c2 += l->c1;
			out->total2 += l->c1;
		}
	}
	hashmap_release(&m);
	arena_release(&a);
	if (err) {
		fg_diff_release(out);
		return err;
	}
	if (normalize && out->total1 != out->total2 && out->total1 > 0)
		for (i = 0; i < out->nr; i++)
			out->lines[i].c1 = trunc(out->lines[i].c1 * out->total2 / out->total1);
	return 0;
}

void fg_diff_release(struct fg_diff *d)
{
	if (!d)
		return;
	free(d->lines);
	d->lines = NULL;
	d->nr = 0;
}

struct fstat {
	const char *name;
	size_t len;
	double self[2], total[2];
	size_t seen; /* last line that counted this name in total (recursion counts once) */
	struct fstat *next;
};

struct ftab {
	struct hashmap map;
	struct arena arena;
	VEC(struct fstat *) all;
};

static struct fstat *ftab_get(struct ftab *t, const char *name, size_t len)
{
	void **slot = hashmap_slot(&t->map, hash_bytes(name, len));
	struct fstat *f;

	if (!slot)
		return NULL;
	for (f = *slot; f; f = f->next)
		if (f->len == len && !memcmp(f->name, name, len))
			return f;
	if (vec_reserve(&t->all, 1))
		return NULL;
	f = arena_zalloc(&t->arena, sizeof(*f));
	if (!f)
		return NULL;
	f->name = name;
	f->len = len;
	f->seen = (size_t)-1;
	f->next = *slot;
	*slot = f;
	t->all.items[t->all.nr++] = f;
	return f;
}

static int ftab_line(struct ftab *t, const struct fg_line *l, size_t line_no)
{
	size_t i = 0, j, end = l->len;
	struct fstat *f = NULL;

	while (i < end) {
		const char *p = memchr(l->stack + i, ';', end - i);

		j = p ? (size_t)(p - l->stack) : end;
		f = ftab_get(t, l->stack + i, j - i);
		if (!f)
			return -ENOMEM;
		if (f->seen != line_no) {
			f->total[0] += l->c1;
			f->total[1] += l->c2;
			f->seen = line_no;
		}
		i = j + 1;
	}
	if (f) {
		f->self[0] += l->c1;
		f->self[1] += l->c2;
	}
	return 0;
}

static int name_cmp(const struct fstat *x, const struct fstat *y)
{
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int by_self(const void *a, const void *b)
{
	const struct fstat *x = *(struct fstat *const *)a, *y = *(struct fstat *const *)b;
	double dx = fabs(x->self[1] - x->self[0]), dy = fabs(y->self[1] - y->self[0]);

	return dx < dy ? 1 : dx > dy ? -1 : name_cmp(x, y);
}

static int by_total(const void *a, const void *b)
{
	const struct fstat *x = *(struct fstat *const *)a, *y = *(struct fstat *const *)b;
	double dx = fabs(x->total[1] - x->total[0]), dy = fabs(y->total[1] - y->total[0]);

	return dx < dy ? 1 : dx > dy ? -1 : name_cmp(x, y);
}

static int table_part(struct ftab *t, const char *what, bool self, double total, size_t top,
		      struct strbuf *out)
{
	size_t i;
	int err;

	if (t->all.nr)
		qsort(t->all.items, t->all.nr, sizeof(*t->all.items), self ? by_self : by_total);
	err = strbuf_addf(out, "# %s\n# %12s %12s %12s %9s  %s\n", what, "before", "after", "delta",
			  "delta%", "function");
	for (i = 0; i < t->all.nr && i < top && !err; i++) {
		const struct fstat *f = t->all.items[i];
		const double *v = self ? f->self : f->total;

		if (v[0] == v[1])
			break;
		err = strbuf_addf(out, "  %12.0f %12.0f %+12.0f %+8.2f%%  %.*s\n", v[0], v[1],
				  v[1] - v[0], total > 0 ? 100 * (v[1] - v[0]) / total : 0.0,
				  (int)f->len, f->name);
	}
	return err ? err : strbuf_addch(out, '\n');
}

int fg_diff_table(const struct fg_diff *d, size_t top, struct strbuf *out)
{
	struct ftab t = { HASHMAP_INIT, ARENA_INIT, VEC_INIT };
	double total = 0;
	size_t i;
	int err = 0;

	for (i = 0; i < d->nr && !err; i++) {
		err = ftab_line(&t, &d->lines[i], i);
		total += d->lines[i].c2;
	}
	err = err ? err
		  : strbuf_addf(out,
				"# before: first profile%s; after: second profile; "
				"delta%% of the second profile's %.0f\n\n",
				d->total1 != d->total2 ? " scaled to the second's total" : "",
				total);
	err = err ? err
		  : table_part(&t, "self (samples in the function itself)", true, total, top, out);
	err = err ? err
		  : table_part(&t, "total (samples in the function and its callees)", false, total,
			       top, out);
	hashmap_release(&t.map);
	arena_release(&t.arena);
	vec_free(&t.all);
	return err;
}
