// SPDX-License-Identifier: GPL-2.0
/*
 * hist: entries by sort keys, children accumulation, call-graph trees (see hist.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist/hist-int.h"

static const char *const key_names[HK_NR] = {
	[HK_COMM] = "comm",	  [HK_PID] = "pid",	    [HK_DSO] = "dso",
	[HK_SYM] = "sym",	  [HK_CPU] = "cpu",	    [HK_TRACE] = "trace",
	[HK_SRCLINE] = "srcline", [HK_SRCFILE] = "srcfile",
};

const char *hist_key_name(enum hist_key k)
{
	return k < HK_NR ? key_names[k] : "?";
}

static bool is_src_key(int k)
{
	return k == HK_SRCLINE || k == HK_SRCFILE;
}

static int key_by_name(const char *s, size_t len)
{
	static const struct {
		const char *name;
		enum hist_key k;
	} alias[] = {
		{ "comm", HK_COMM },	   { "pid", HK_PID },	  { "tid", HK_PID },
		{ "dso", HK_DSO },	   { "sym", HK_SYM },	  { "symbol", HK_SYM },
		{ "cpu", HK_CPU },	   { "trace", HK_TRACE }, { "srcline", HK_SRCLINE },
		{ "srcfile", HK_SRCFILE },
	};
	size_t i;

	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
		if (strlen(alias[i].name) == len && !strncmp(alias[i].name, s, len))
			return alias[i].k;
	return -1;
}

int hist_parse_sort(const char *s, struct hist_opts *o, char *bad, size_t badlen)
{
	const char *p = s;

	o->nr_keys = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		int k = key_by_name(p, len);
		size_t i;

		if (k < 0 || o->nr_keys == HIST_MAX_KEYS) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return -EINVAL;
		}
		for (i = 0; i < o->nr_keys; i++)
			if (o->keys[i] == (enum hist_key)k ||
			    (is_src_key(k) && is_src_key(o->keys[i])))
				break; /* one text per entry: srcline or srcfile, the first given */
		if (i == o->nr_keys)
			o->keys[o->nr_keys++] = k;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!o->nr_keys) {
		snprintf(bad, badlen, "%s", s);
		return -EINVAL;
	}
	return 0;
}

int hist_init(struct hist *h, const struct hist_opts *o)
{
	memset(h, 0, sizeof(*h));
	h->o = *o;
	hist_paths_init(h);
	return 0;
}

void hist_release(struct hist *h)
{
	if (!h)
		return;
	hist_paths_release(h);
	free(h->sorted);
	free(h->created);
	free(h->chain);
	free(h->ends);
	hashmap_release(&h->ctxs);
	htab_release(&h->paths);
	hashmap_release(&h->entries);
	hashmap_release(&h->canon_dsos);
	hashmap_release(&h->canon_syms);
	htab_release(&h->nodes);
	arena_release(&h->arena);
	pool_release(&h->pool);
	pool_release(&h->tree_pool);
	arena_release(&h->tree_arena);
	memset(h, 0, sizeof(*h));
}

/* ---- entries ---- */

/* The entry-side view of one frame of a sample; sh hashes the sample's own key fields; src
 * is the frame's srcline or srcfile text when a key asks for it. */
struct ekey {
	const struct hist_sample *s;
	const struct hist_frame *f;
	uint64_t sh;
	const char *src;
};

uint64_t hist_sample_hash(const struct hist *h, const struct hist_sample *s)
{
	uint64_t x = 0x1234;
	size_t i;

	for (i = 0; i < h->o.nr_keys; i++) {
		switch (h->o.keys[i]) {
		case HK_COMM:
			x = hist_mix(x, hash_str(s->comm ? s->comm : ""));
			break;
		case HK_PID:
			x = hist_mix(x, s->tid);
			break;
		case HK_CPU:
			x = hist_mix(x, s->cpu);
			break;
		case HK_TRACE:
			x = hist_mix(x, hash_str(s->trace ? s->trace : ""));
			break;
		default:
			break;
		}
	}
	return x;
}

static uint64_t ekey_hash(const struct hist *h, const struct ekey *k)
{
	uint64_t x = k->sh;
	size_t i;

	for (i = 0; i < h->o.nr_keys; i++) {
		if (h->o.keys[i] == HK_DSO)
			x = hist_mix(x, (uintptr_t)k->f->dso);
		else if (h->o.keys[i] == HK_SYM)
			x = hist_mix(x, k->f->sym ? (uintptr_t)k->f->sym : k->f->dso_ip);
		else if (is_src_key(h->o.keys[i]))
			x = hist_mix(x, hash_str(k->src ? k->src : ""));
	}
	return x;
}

bool hist_str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool ekey_match(const struct hist *h, const struct hist_entry *e, const struct ekey *k)
{
	size_t i;

	for (i = 0; i < h->o.nr_keys; i++) {
		switch (h->o.keys[i]) {
		case HK_COMM:
			if (!hist_str_eq(e->comm, k->s->comm))
				return false;
			break;
		case HK_PID:
			if (e->tid != k->s->tid)
				return false;
			break;
		case HK_CPU:
			if (e->cpu != k->s->cpu)
				return false;
			break;
		case HK_DSO:
			if (e->dso != k->f->dso)
				return false;
			break;
		case HK_SYM:
			if (e->sym != k->f->sym || (!e->sym && e->ip != k->f->dso_ip))
				return false;
			break;
		case HK_TRACE:
			if (!hist_str_eq(e->trace, k->s->trace))
				return false;
			break;
		case HK_SRCLINE:
		case HK_SRCFILE:
			if (!hist_str_eq(e->src, k->src))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

static struct hist_entry *entry_get(struct hist *h, const struct ekey *k)
{
	uint64_t hash = ekey_hash(h, k);
	void **slot = hashmap_slot(&h->entries, hash);
	struct hist_entry *e;

	if (!slot)
		return NULL;
	for (e = *slot; e; e = e->hnext)
		if (ekey_match(h, e, k))
			return e;
	e = arena_zalloc(&h->arena, sizeof(*e));
	if (!e)
		return NULL;
	e->comm = k->s->comm;
	e->pid = k->s->pid;
	e->tid = k->s->tid;
	e->cpu = k->s->cpu;
	e->dso = k->f->dso;
	e->sym = k->f->sym;
	e->ip = k->f->dso_ip;
	e->level = k->f->level;
	e->inl = k->f->inl;
	if (k->s->trace) {
		e->trace = arena_strdup(&h->arena, k->s->trace);
		if (!e->trace)
			return NULL;
	}
	if (k->src && !(e->src = arena_strdup(&h->arena, k->src)))
		return NULL;
	if (h->nr_entries == h->created_alloc) {
		size_t na = h->created_alloc ? h->created_alloc * 2 : 1024;
		struct hist_entry **v = realloc(h->created, na * sizeof(*v));

		if (!v)
			return NULL;
		h->created = v;
		h->created_alloc = na;
	}
	e->hash = hash;
	e->hnext = *slot;
	*slot = e;
	h->created[h->nr_entries++] = e;
	return e;
}

/*
 * perf tells entries apart by a dso's short name, not the object: two objects of one name (the
 * same program at /bin/sh and /usr/bin/sh, or two builds at different paths) are one dso for
 * the entries, and their symbols one where they start and end at the same addresses. The
 * first object and symbol of each stand for the others.
 */
struct canon_dso {
	struct dso *dso;
	struct canon_dso *next;
};

struct canon_sym {
	const struct dso *dso; /* the canonical dso */
	const struct symbol *sym;
	struct canon_sym *next;
};

static struct canon_dso *canon_dso(struct hist *h, struct dso *dso)
{
	void **slot = hashmap_slot(&h->canon_dsos, hash_str(dso->short_name));
	struct canon_dso *c;

	if (!slot)
		return NULL;
	for (c = *slot; c; c = c->next) {
		if (c->dso == dso || !strcmp(c->dso->short_name, dso->short_name))
			return c;
	}
	c = arena_zalloc(&h->arena, sizeof(*c));
	if (!c)
		return NULL;
	c->dso = dso;
	c->next = *slot;
	*slot = c;
	return c;
}

static const struct symbol *canon_sym(struct hist *h, const struct dso *dso,
				      const struct symbol *sym)
{
	void **slot = hashmap_slot(&h->canon_syms,
				   hist_mix(hist_mix((uintptr_t)dso, sym->start), sym->end));
	struct canon_sym *c;

	if (!slot)
		return NULL;
	for (c = *slot; c; c = c->next)
		if (c->dso == dso && c->sym->start == sym->start && c->sym->end == sym->end)
			return c->sym;
	c = arena_zalloc(&h->arena, sizeof(*c));
	if (!c)
		return NULL;
	*c = (struct canon_sym){ dso, sym, *slot };
	*slot = c;
	return sym;
}

/* f with perf's identity of its dso and symbol (every symbol is registered: the first
 * object of a name does not know yet whether a second will come); -ENOMEM. */
static int canon_frame(struct hist *h, struct hist_frame *f)
{
	struct canon_dso *c;

	if (!f->dso)
		return 0;
	if (!(c = canon_dso(h, f->dso)))
		return -ENOMEM;
	/* an inlined function is told apart by its name (perf's rule too): its symbol stays */
	if (f->sym && !f->inl && !(f->sym = canon_sym(h, c->dso, f->sym)))
		return -ENOMEM;
	f->dso = c->dso;
	return 0;
}

struct hist_entry *hist_entry_get(struct hist *h, const struct hist_sample *s,
				  const struct hist_frame *f, uint64_t sh)
{
	struct hist_frame cf = *f;
	struct ekey k = { s, &cf, sh, NULL };
	size_t i;

	for (i = 0; i < h->o.nr_keys && h->o.frame_text; i++)
		if (is_src_key(h->o.keys[i]))
			k.src = h->o.frame_text(h->o.frame_text_ctx, h->o.keys[i], f);
	if (canon_frame(h, &cf))
		return NULL;
	return entry_get(h, &k);
}

/* ---- ordering ---- */

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	return strcmp(a ? a : "", b ? b : "");
}

int hist_entry_cmp_key(const struct hist_entry *a, const struct hist_entry *b, enum hist_key k)
{
	switch (k) {
	case HK_COMM:
		return cmp_str(a->comm, b->comm);
	case HK_PID:
		return cmp_u64(a->tid, b->tid);
	case HK_CPU:
		return cmp_u64(a->cpu, b->cpu);
	case HK_DSO:
		if (a->dso == b->dso)
			return 0;
		if (!a->dso || !b->dso)
			return a->dso ? -1 : 1; /* no mapping ([unknown]) last, as perf */
		return cmp_str(a->dso->short_name, b->dso->short_name);
	case HK_SYM:
		if (a->sym == b->sym && a->sym)
			return 0;
		if (a->sym && b->sym)
			return strcmp(a->sym->name, b->sym->name);
		if (a->sym || b->sym)
			return a->sym ? -1 : 1; /* unresolved last */
		return cmp_u64(a->ip, b->ip);
	case HK_TRACE:
		return cmp_str(a->trace, b->trace);
	case HK_SRCLINE:
	case HK_SRCFILE:
		return cmp_str(a->src, b->src);
	default:
		return 0;
	}
}

/* An entry with its sort keys beside it: the merge sort reads these, not the entries. */
struct skey {
	uint64_t total, self;
	uint32_t tid, depth;
	struct hist_entry *e;
};

struct sort_ctx {
	const struct hist *h;
	bool by_total, by_depth, caller;
	struct skey *tmp;
};

static int skey_cmp(const struct sort_ctx *c, const struct skey *a, const struct skey *b)
{
	size_t i;
	int r;

	if (c->by_total && a->total != b->total)
		return a->total > b->total ? -1 : 1;
	/* perf puts callers above callees of equal share within a thread: by the length of
	 * the chains recorded for them, longer first in caller order, shorter in callee */
	if (c->by_depth && a->tid == b->tid && a->depth != b->depth)
		return c->caller ? cmp_u64(b->depth, a->depth) : cmp_u64(a->depth, b->depth);
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	for (i = 0; i < c->h->o.nr_keys; i++)
		if ((r = hist_entry_cmp_key(a->e, b->e, c->h->o.keys[i])))
			return r;
	return 0;
}

/*
 * Top-down merge sort, step for step the one glibc's qsort() runs (msort_with_tmp: halves
 * of n / 2 and the rest, the left element first unless it compares greater). skey_cmp does
 * not order every triple consistently (the per-thread depth rule), so the result depends on
 * the algorithm, and this keeps the order qsort() gave.
 */
static void msort(const struct sort_ctx *c, struct skey *b, size_t n)
{
	size_t n1 = n / 2, n2 = n - n1, k = 0;
	struct skey *b1 = b, *b2 = b + n1;

	if (n <= 1)
		return;
	msort(c, b1, n1);
	msort(c, b2, n2);
	while (n1 > 0 && n2 > 0) {
		if (skey_cmp(c, b1, b2) <= 0) {
			c->tmp[k++] = *b1++;
			n1--;
		} else {
			c->tmp[k++] = *b2++;
			n2--;
		}
	}
	if (n1 > 0)
		memcpy(c->tmp + k, b1, n1 * sizeof(*b1));
	memcpy(b, c->tmp, (n - n2) * sizeof(*b));
}

int hist_sort(struct hist *h)
{
	struct sort_ctx c = { h, h->o.children, h->o.children && h->o.callchain, h->o.caller_order,
			      NULL };
	size_t i, n;
	struct skey *v;
	int err = hist_collapse(h);

	if (err)
		return err;
	n = h->nr_entries;
	free(h->sorted);
	h->sorted = malloc((n ? n : 1) * sizeof(*h->sorted));
	v = malloc((n ? n : 1) * sizeof(*v));
	c.tmp = malloc((n ? n : 1) * sizeof(*v));
	if (!h->sorted || !v || !c.tmp) {
		err = -ENOMEM;
		goto out;
	}
	/* from the order the entries were made in, not the hash order: the tie breaks of
	 * skey_cmp do not order every pair, and its input order must not depend on addresses */
	for (i = 0; i < n; i++) {
		struct hist_entry *e = h->created[i];

		v[i] = (struct skey){ e->total, e->self, e->tid, e->max_depth, e };
	}
	msort(&c, v, n);
	for (i = 0; i < n; i++)
		h->sorted[i] = v[i].e;
out:
	free(v);
	free(c.tmp);
	return err;
}
