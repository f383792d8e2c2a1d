// SPDX-License-Identifier: GPL-2.0
/*
 * hist: entries by sort keys, children accumulation, call-graph trees (see hist.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist/hist.h"

static const char *const key_names[HK_NR] = {
	[HK_COMM] = "comm", [HK_PID] = "pid", [HK_DSO] = "dso",
	[HK_SYM] = "sym",   [HK_CPU] = "cpu", [HK_TRACE] = "trace",
};

const char *hist_key_name(enum hist_key k)
{
	return k < HK_NR ? key_names[k] : "?";
}

static int key_by_name(const char *s, size_t len)
{
	static const struct {
		const char *name;
		enum hist_key k;
	} alias[] = {
		{ "comm", HK_COMM }, { "pid", HK_PID }, { "tid", HK_PID }, { "dso", HK_DSO },
		{ "sym", HK_SYM },   { "symbol", HK_SYM }, { "cpu", HK_CPU }, { "trace", HK_TRACE },
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
			if (o->keys[i] == (enum hist_key)k)
				break;
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
	return 0;
}

void hist_release(struct hist *h)
{
	if (!h)
		return;
	free(h->sorted);
	free(h->scratch);
	free(h->chain);
	free(h->ends);
	hashmap_release(&h->ctxs);
	hashmap_release(&h->paths);
	hashmap_release(&h->entries);
	hashmap_release(&h->nodes);
	arena_release(&h->arena);
	memset(h, 0, sizeof(*h));
}

/* ---- entries ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* The entry-side view of one frame of a sample; sh hashes the sample's own key fields. */
struct ekey {
	const struct hist_sample *s;
	const struct hist_frame *f;
	uint64_t sh;
};

static uint64_t sample_hash(const struct hist *h, const struct hist_sample *s)
{
	uint64_t x = 0x1234;
	size_t i;

	for (i = 0; i < h->o.nr_keys; i++) {
		switch (h->o.keys[i]) {
		case HK_COMM:
			x = mix(x, hash_str(s->comm ? s->comm : ""));
			break;
		case HK_PID:
			x = mix(x, s->tid);
			break;
		case HK_CPU:
			x = mix(x, s->cpu);
			break;
		case HK_TRACE:
			x = mix(x, hash_str(s->trace ? s->trace : ""));
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
			x = mix(x, (uintptr_t)k->f->dso);
		else if (h->o.keys[i] == HK_SYM)
			x = mix(x, k->f->sym ? (uintptr_t)k->f->sym : k->f->dso_ip);
	}
	return x;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool ekey_match(const struct hist *h, const struct hist_entry *e, const struct ekey *k)
{
	size_t i;

	for (i = 0; i < h->o.nr_keys; i++) {
		switch (h->o.keys[i]) {
		case HK_COMM:
			if (!str_eq(e->comm, k->s->comm))
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
			if (!str_eq(e->trace, k->s->trace))
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
	if (k->s->trace) {
		e->trace = arena_strdup(&h->arena, k->s->trace);
		if (!e->trace)
			return NULL;
	}
	e->hash = hash;
	e->hnext = *slot;
	*slot = e;
	h->nr_entries++;
	return e;
}

/* ---- call-graph trees ---- */

static bool frame_eq(const struct hist *h, const struct hist_frame *a, const struct hist_frame *b)
{
	if (a->dso != b->dso)
		return false;
	if (!h->o.addr_key && a->sym && b->sym)
		return a->sym == b->sym;
	if (!h->o.addr_key && (a->sym || b->sym))
		return false;
	return a->ip == b->ip;
}

static uint64_t frame_hash(const struct hist *h, const struct hist_frame *f)
{
	if (!h->o.addr_key && f->sym)
		return mix((uintptr_t)f->dso, (uintptr_t)f->sym);
	return mix((uintptr_t)f->dso, f->ip ^ 0x5555);
}

static struct cg_node *node_child(struct hist *h, struct cg_node *parent,
				  const struct hist_frame *f)
{
	uint64_t hash = mix((uintptr_t)parent, frame_hash(h, f));
	void **slot = hashmap_slot(&h->nodes, hash);
	struct cg_node *n;

	if (!slot)
		return NULL;
	for (n = *slot; n; n = n->hnext)
		if (n->parent == parent && frame_eq(h, &n->f, f))
			return n;
	n = arena_zalloc(&h->arena, sizeof(*n));
	if (!n)
		return NULL;
	n->parent = parent;
	n->f = *f;
	n->hnext = *slot;
	*slot = n;
	n->next = parent->child;
	parent->child = n;
	return n;
}

/* Adds chain[0..n) below root with period. */
static int tree_add(struct hist *h, struct cg_node *root, const struct hist_frame *chain,
		    size_t n, uint64_t period, uint64_t count)
{
	struct cg_node *cur = root, *p;
	size_t i;

	for (i = 0; i < n; i++) {
		cur = node_child(h, cur, &chain[i]);
		if (!cur)
			return -ENOMEM;
	}
	cur->hit += period;
	cur->count += count;
	for (p = cur->parent; p; p = p->parent) {
		p->children_hit += period;
		p->children_count += count;
	}
	return 0;
}

static int scratch_fill(struct hist *h, const struct hist_sample *s)
{
	size_t i, n = s->nr_frames;

	if (n > h->scratch_alloc) {
		struct hist_frame *p = realloc(h->scratch, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->scratch = p;
		h->scratch_alloc = n;
	}
	for (i = 0; i < n; i++)
		h->scratch[i] = h->o.caller_order ? s->frames[n - 1 - i] : s->frames[i];
	return 0;
}

/* The chain an entry for frame fi (leaf = 0) records: from it toward the far end. */
static int add_entry_chain(struct hist *h, struct hist_entry *e, const struct hist_sample *s,
			   size_t fi, bool full)
{
	size_t n = s->nr_frames, start;

	if (!h->o.callchain || !n)
		return 0;
	if (full)
		return tree_add(h, &e->root, h->scratch, n, s->period, s->count);
	/* cursor position of frame fi */
	start = h->o.caller_order ? n - 1 - fi : fi;
	return tree_add(h, &e->root, h->scratch + start, n - start, s->period, s->count);
}

/* ---- the replay trie of distinct chains ---- */

static bool key_used(const struct hist *h, enum hist_key k)
{
	size_t i;

	for (i = 0; i < h->o.nr_keys; i++)
		if (h->o.keys[i] == k)
			return true;
	return false;
}

static struct path_ctx *ctx_get(struct hist *h, const struct hist_sample *s)
{
	bool comm = key_used(h, HK_COMM), pid = key_used(h, HK_PID), cpu = key_used(h, HK_CPU);
	bool trace = key_used(h, HK_TRACE);
	uint64_t hash = mix(mix(comm ? hash_str(s->comm ? s->comm : "") : 0, pid ? s->tid : 0),
			    mix(cpu ? s->cpu : 0, trace ? hash_str(s->trace ? s->trace : "") : 0));
	void **slot = hashmap_slot(&h->ctxs, hash);
	struct path_ctx *c;

	if (!slot)
		return NULL;
	for (c = *slot; c; c = c->hnext)
		if ((!comm || str_eq(c->comm, s->comm)) && (!pid || c->tid == s->tid) &&
		    (!cpu || c->cpu == s->cpu) && (!trace || str_eq(c->trace, s->trace)))
			return c;
	c = arena_zalloc(&h->arena, sizeof(*c));
	if (!c)
		return NULL;
	*c = (struct path_ctx){ s->comm, s->pid, s->tid, s->cpu, NULL, *slot };
	if (s->trace && !(c->trace = arena_strdup(&h->arena, s->trace)))
		return NULL;
	*slot = c;
	return c;
}

static bool frame_same(const struct hist_frame *a, const struct hist_frame *b)
{
	return a->ip == b->ip && a->dso == b->dso && a->sym == b->sym && a->level == b->level &&
	       a->dso_ip == b->dso_ip;
}

static struct path_node *path_child(struct hist *h, const struct path_ctx *ctx,
				    struct path_node *parent, const struct hist_frame *f)
{
	uint64_t hash = mix(parent ? (uintptr_t)parent : (uintptr_t)ctx, mix(f->ip,
			    (uintptr_t)f->dso));
	void **slot = hashmap_slot(&h->paths, hash);
	struct path_node *n;

	if (!slot)
		return NULL;
	for (n = *slot; n; n = n->hnext)
		if (n->parent == parent && n->ctx == ctx && frame_same(&n->f, f))
			return n;
	n = arena_alloc(&h->arena, sizeof(*n));
	if (!n)
		return NULL;
	*n = (struct path_node){ parent, *slot, ctx, *f, 0, 0 };
	*slot = n;
	return n;
}

static int path_add(struct hist *h, const struct hist_sample *s, size_t n)
{
	const struct path_ctx *ctx = ctx_get(h, s);
	struct path_node *p = NULL;
	size_t i;

	if (!ctx)
		return -ENOMEM;
	for (i = n; i-- > 0;) {
		p = path_child(h, ctx, p, &s->frames[i]);
		if (!p)
			return -ENOMEM;
	}
	if (!p->count) {
		if (h->nr_ends == h->ends_alloc) {
			size_t na = h->ends_alloc ? h->ends_alloc * 2 : 256;
			struct path_node **v = realloc(h->ends, na * sizeof(*v));

			if (!v)
				return -ENOMEM;
			h->ends = v;
			h->ends_alloc = na;
		}
		h->ends[h->nr_ends++] = p;
	}
	p->hit += s->period;
	p->count++;
	return 0;
}

/* Entries of one sample (pass 1, trees false) or the trees of the wanted entries of one
 * distinct chain (pass 2, trees true, only entries whose period reaches min). */
static int add_one(struct hist *h, const struct hist_sample *s, bool trees, uint64_t min)
{
	static const struct hist_frame none = { .level = '.' };
	struct ekey k = { s, s->nr_frames ? &s->frames[0] : &none, sample_hash(h, s) };
	uint64_t cnt = s->count ? s->count : 1;
	struct hist_entry *e;
	size_t i, n = s->no_chain ? 0 : s->nr_frames;
	int err = 0;

	h->stamp++;
	if (trees && (err = scratch_fill(h, s)))
		return err;
	e = entry_get(h, &k);
	if (!e)
		return -ENOMEM;
	e->stamp = h->stamp;
	if (!trees) {
		e->self += s->period;
		e->total += s->period;
		e->nr_self += cnt;
		e->nr_total += cnt;
		if (n > e->max_depth)
			e->max_depth = (uint32_t)n;
	} else if ((h->o.children ? e->total : e->self) >= min) {
		err = add_entry_chain(h, e, s, 0, true);
	}
	if (err || !h->o.children)
		return err;
	/* callers, in cursor order; each entry counts a sample once */
	for (i = 1; i < n; i++) {
		size_t fi = h->o.caller_order ? n - i : i;

		k.f = &s->frames[fi];
		e = entry_get(h, &k);
		if (!e)
			return -ENOMEM;
		if (e->stamp == h->stamp)
			continue;
		e->stamp = h->stamp;
		if (!trees) {
			size_t d = h->o.caller_order ? fi + 1 : n - fi;

			e->total += s->period;
			e->nr_total += cnt;
			if (d > e->max_depth)
				e->max_depth = (uint32_t)d;
		} else if (e->total >= min && (err = add_entry_chain(h, e, s, fi, false))) {
			return err;
		}
	}
	return 0;
}

int hist_add(struct hist *h, const struct hist_sample *s)
{
	size_t n = s->no_chain ? 0 : s->nr_frames;
	int err;

	h->nr_samples++;
	h->total_period += s->period;
	err = add_one(h, s, false, 0);
	if (!err && h->o.callchain && n)
		err = path_add(h, s, n);
	return err;
}

int hist_build_trees(struct hist *h, uint64_t min)
{
	size_t i;
	int err;

	if (h->trees_built || !h->o.callchain)
		return 0;
	h->trees_built = true;
	for (i = 0; i < h->nr_ends; i++) {
		const struct path_node *end = h->ends[i], *p;
		struct hist_sample s;
		size_t n = 0;

		for (p = end; p; p = p->parent)
			n++;
		if (n > h->chain_alloc) {
			struct hist_frame *v = realloc(h->chain, n * 2 * sizeof(*v));

			if (!v)
				return -ENOMEM;
			h->chain = v;
			h->chain_alloc = n * 2;
		}
		n = 0;
		for (p = end; p; p = p->parent)
			h->chain[n++] = p->f;
		s = (struct hist_sample){ .comm = end->ctx->comm, .pid = end->ctx->pid,
					  .tid = end->ctx->tid, .cpu = end->ctx->cpu,
					  .trace = end->ctx->trace, .period = end->hit,
					  .frames = h->chain, .nr_frames = n, .count = end->count };
		if ((err = add_one(h, &s, true, min)))
			return err;
	}
	return 0;
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
		return cmp_str(a->dso ? a->dso->short_name : NULL, b->dso ? b->dso->short_name : NULL);
	case HK_SYM:
		if (a->sym == b->sym && a->sym)
			return 0;
		if (a->sym && b->sym)
			return strcmp(a->sym->name, b->sym->name);
		if (a->sym || b->sym)
			return a->sym ? -1 : 1;	/* unresolved last */
		return cmp_u64(a->ip, b->ip);
	case HK_TRACE:
		return cmp_str(a->trace, b->trace);
	default:
		return 0;
	}
}

static const struct hist *sort_hist;

static int entry_cmp(const void *pa, const void *pb)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	size_t i;
	int c;

	if (sort_hist->o.children && (c = cmp_u64(b->total, a->total)))
		return c;
	/* perf puts callers above callees of equal share within a thread: by the length of
	 * the chains recorded for them, longer first in caller order, shorter in callee */
	if (sort_hist->o.children && sort_hist->o.callchain && a->tid == b->tid &&
	    a->max_depth != b->max_depth)
		return sort_hist->o.caller_order ? cmp_u64(b->max_depth, a->max_depth) :
						   cmp_u64(a->max_depth, b->max_depth);
	if ((c = cmp_u64(b->self, a->self)))
		return c;
	for (i = 0; i < sort_hist->o.nr_keys; i++)
		if ((c = hist_entry_cmp_key(a, b, sort_hist->o.keys[i])))
			return c;
	return 0;
}

int hist_sort(struct hist *h)
{
	size_t i = 0, it = 0;
	uint64_t key;
	void *val;

	free(h->sorted);
	h->sorted = calloc(h->nr_entries ? h->nr_entries : 1, sizeof(*h->sorted));
	if (!h->sorted)
		return -ENOMEM;
	while (hashmap_next(&h->entries, &it, &key, &val)) {
		struct hist_entry *e;

		for (e = val; e; e = e->hnext)
			h->sorted[i++] = e;
	}
	sort_hist = h;
	qsort(h->sorted, i, sizeof(*h->sorted), entry_cmp);
	sort_hist = NULL;
	return 0;
}
