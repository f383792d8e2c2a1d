// SPDX-License-Identifier: GPL-2.0
/*
 * annotate: samples by symbol and address, and their percents (see annotate.h).
 */
#include <errno.h>
#include <string.h>
#include "lib/annotate/annotate.h"

int ann_hist_add(struct ann_hist *h, struct dso *dso, const struct symbol *sym, uint64_t dso_ip,
		 uint64_t period)
{
	struct ann_sym *s;
	struct ann_hits *hits;
	void **slot;

	h->total.nr++;
	h->total.period += period;
	if (!sym)
		return 0;
	/* perf: an address outside the symbol is -ERANGE, not counted for it */
	if ((dso_ip < sym->start || dso_ip >= sym->end) &&
	    (dso_ip != sym->end || sym->start != sym->end))
		return 0;
	slot = hashmap_slot(&h->syms, (uint64_t)(uintptr_t)sym);
	if (!slot)
		return -ENOMEM;
	s = *slot;
	if (!s) {
		s = arena_zalloc(&h->arena, sizeof(*s));
		if (!s)
			return -ENOMEM;
		s->dso = dso;
		s->sym = sym;
		*slot = s;
		if (h->last)
			h->last->next = s;
		else
			h->first = s;
		h->last = s;
	}
	slot = hashmap_slot(&s->offs, dso_ip - sym->start);
	if (!slot)
		return -ENOMEM;
	hits = *slot;
	if (!hits) {
		hits = arena_zalloc(&h->arena, sizeof(*hits));
		if (!hits)
			return -ENOMEM;
		*slot = hits;
	}
	hits->nr++;
	hits->period += period;
	s->total.nr++;
	s->total.period += period;
	return 0;
}

struct ann_sym *ann_hist_find(const struct ann_hist *h, const struct symbol *sym)
{
	void *v;

	if (!hashmap_get(&h->syms, (uint64_t)(uintptr_t)sym, &v))
		return NULL;
	return v;
}

void ann_hist_release(struct ann_hist *h)
{
	struct ann_sym *s;

	for (s = h->first; s; s = s->next)
		hashmap_release(&s->offs);
	hashmap_release(&h->syms);
	arena_release(&h->arena);
	memset(h, 0, sizeof(*h));
}

static const char *const percent_names[][2] = {
	[ANN_LOCAL_PERIOD] = { "local-period", "local period" },
	[ANN_GLOBAL_PERIOD] = { "global-period", "global period" },
	[ANN_LOCAL_HITS] = { "local-hits", "local hits" },
	[ANN_GLOBAL_HITS] = { "global-hits", "global hits" },
};

int ann_percent_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(percent_names) / sizeof(percent_names[0]); i++)
		if (!strcmp(s, percent_names[i][0]))
			return (int)i;
	return -1;
}

const char *ann_percent_str(enum ann_percent t)
{
	return percent_names[t][1];
}

double ann_percent(const struct ann_hits *hits, const struct ann_sym *s, const struct ann_hist *h,
		   enum ann_percent t)
{
	switch (t) {
	case ANN_LOCAL_PERIOD:
		return s->total.period ? 100.0 * hits->period / s->total.period : 0.0;
	case ANN_GLOBAL_PERIOD:
		return h->total.period ? 100.0 * hits->period / h->total.period : 0.0;
	case ANN_LOCAL_HITS:
		return s->total.nr ? 100.0 * hits->nr / s->total.nr : 0.0;
	case ANN_GLOBAL_HITS:
		/* perf 6.1 annotate divides by its hists' non-filtered sample count, which it
		 * never counts: every global-hits percent it prints is 0.00. Shown as perf. */
		(void)h;
		return 0.0;
	}
	return 0.0;
}

void ann_source_count(struct ann_source *src, const struct ann_sym *s)
{
	size_t i, j;

	for (i = 0; i < src->nr_lines; i++) {
		struct ann_line *l = &src->lines[i];
		uint64_t off, end = src->size;

		if (l->offset < 0)
			continue;
		l->hits = (struct ann_hits){ 0, 0 };
		for (j = i + 1; j < src->nr_lines; j++)
			if (src->lines[j].offset >= 0) {
				end = (uint64_t)src->lines[j].offset;
				break;
			}
		if (!s)
			continue;
		/* few samples per symbol: look each offset up when the range is short, else
		 * walk the samples */
		if (end - (uint64_t)l->offset <= 64 || s->offs.nr > end - (uint64_t)l->offset) {
			for (off = (uint64_t)l->offset; off < end; off++) {
				void *v;

				if (hashmap_get(&s->offs, off, &v)) {
					l->hits.nr += ((struct ann_hits *)v)->nr;
					l->hits.period += ((struct ann_hits *)v)->period;
				}
			}
		} else {
			uint64_t k;
			void *v;

			for (size_t it = 0; hashmap_next(&s->offs, &it, &k, &v);)
				if (k >= (uint64_t)l->offset && k < end) {
					l->hits.nr += ((struct ann_hits *)v)->nr;
					l->hits.period += ((struct ann_hits *)v)->period;
				}
		}
	}
}
