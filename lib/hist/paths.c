// SPDX-License-Identifier: GPL-2.0
/*
 * paths: the replay trie of distinct call chains (see hist.h). A sample only walks the trie:
 * one lookup per frame, most of them answered by the child the previous walk took. The
 * entries are counted once per distinct chain (hist_collapse), the entry of each trie node
 * looked up once; the call-graph trees of the entries that print one are built from the same
 * chains (hist_build_trees). Chains are replayed in the order of their first sample, so
 * entries and tree nodes are made in the order a per-sample replay would make them.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist/hist-int.h"
#include "lib/sym/srcline.h"

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

static uint64_t frame_hash(bool addr_key, const struct hist_frame *f)
{
	if (!addr_key && f->sym)
		return hist_mix((uintptr_t)f->dso, (uintptr_t)f->sym);
	return hist_mix((uintptr_t)f->dso, f->ip ^ 0x5555);
}

/* A tree node searches its first children in its list (paths.c's NARROW rule). */
#define TREE_NARROW 8

static int index_tree_children(struct hist *h, struct cg_node *parent)
{
	struct htab *t = &h->nodes;
	struct cg_node *c;

	for (c = parent->child; c; c = c->next) {
		uint64_t hash = hist_mix((uintptr_t)parent, frame_hash(h->o.addr_key, &c->f));
		size_t i;

		for (i = htab_first(t, hash); t->s[i].node; i = htab_step(t, i))
			;
		if (htab_put(t, i, hash, c))
			return -ENOMEM;
	}
	return 0;
}

static struct cg_node *node_child(struct hist *h, struct cg_node *parent,
				  const struct hist_frame *f)
{
	struct htab *t = &h->nodes;
	uint64_t hash = 0;
	struct cg_node *n;
	size_t i = 0;

	if (parent->nr_child <= TREE_NARROW) {
		for (n = parent->child; n; n = n->next)
			if (frame_eq(h, &n->f, f))
				return n;
	} else {
		hash = hist_mix((uintptr_t)parent, frame_hash(h->o.addr_key, f));
		for (i = htab_first(t, hash); t->s[i].node; i = htab_step(t, i)) {
			n = t->s[i].node;
			if (t->s[i].hash == hash && n->parent == parent && frame_eq(h, &n->f, f))
				return n;
		}
	}
	n = pool_alloc(&h->tree_pool, sizeof(*n));
	if (!n)
		return NULL;
	n->parent = parent;
	n->f = *f;
	n->next = parent->child;
	parent->child = n;
	if (++parent->nr_child == TREE_NARROW + 1) {
		if (index_tree_children(h, parent))
			return NULL;
	} else if (parent->nr_child > TREE_NARROW + 1 && htab_put(t, i, hash, n)) {
		return NULL;
	}
	return n;
}

/* Adds len frames of the chain v (leaf first) below root, from v[start] toward the leaf
 * (down) or toward the root. */
static int tree_add(struct hist *h, struct cg_node **root, struct path_node *const *v, size_t start,
		    size_t len, bool down, uint64_t period, uint64_t count)
{
	struct cg_node *cur, *p;
	size_t i;

	/* made for the entries that print a graph only: most never get one */
	if (!*root && !(*root = pool_alloc(&h->tree_pool, sizeof(**root))))
		return -ENOMEM;
	cur = *root;
	for (i = 0; i < len; i++) {
		cur = node_child(h, cur, &v[down ? start - i : start + i]->f);
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

/* ---- the trie ---- */

static bool key_used(const struct hist *h, enum hist_key k)
{
	size_t i;

	for (i = 0; i < h->o.nr_keys; i++)
		if (h->o.keys[i] == k)
			return true;
	return false;
}

static bool ctx_match(const struct hist *h, const struct path_ctx *c, const struct hist_sample *s,
		      bool leaf_only)
{
	return c->leaf_only == leaf_only &&
	       (!key_used(h, HK_COMM) || hist_str_eq(c->comm, s->comm)) &&
	       (!key_used(h, HK_PID) || c->tid == s->tid) &&
	       (!key_used(h, HK_CPU) || c->cpu == s->cpu) &&
	       (!key_used(h, HK_TRACE) || hist_str_eq(c->trace, s->trace));
}

static struct path_ctx *ctx_get(struct hist *h, const struct hist_sample *s, bool leaf_only)
{
	bool comm = key_used(h, HK_COMM), pid = key_used(h, HK_PID), cpu = key_used(h, HK_CPU);
	bool trace = key_used(h, HK_TRACE);
	uint64_t hash;
	struct path_ctx *c = h->last_ctx;
	void **slot;

	/* consecutive samples mostly come from one thread: same comm pointer, same tid */
	if (c && !trace && c->comm == s->comm && ctx_match(h, c, s, leaf_only))
		return c;
	hash = hist_mix(hist_mix(comm ? hash_str(s->comm ? s->comm : "") : 0, pid ? s->tid : 0),
			hist_mix(cpu ? s->cpu : 0, trace ? hash_str(s->trace ? s->trace : "") : 0));
	hash ^= leaf_only;
	slot = hashmap_slot(&h->ctxs, hash);
	if (!slot)
		return NULL;
	for (c = *slot; c; c = c->hnext)
		if (ctx_match(h, c, s, leaf_only))
			break;
	if (!c) {
		c = arena_zalloc(&h->arena, sizeof(*c));
		if (!c)
			return NULL;
		*c = (struct path_ctx){ s->comm, s->pid, s->tid, s->cpu, NULL, leaf_only, *slot };
		if (s->trace && !(c->trace = arena_strdup(&h->arena, s->trace)))
			return NULL;
		*slot = c;
	}
	if (!trace && c->comm == s->comm)
		h->last_ctx = c;
	return c;
}

static bool frame_same(const struct hist_frame *a, const struct hist_frame *b)
{
	return a->ip == b->ip && a->dso == b->dso && a->sym == b->sym && a->level == b->level &&
	       a->dso_ip == b->dso_ip;
}

static uint64_t path_hash_of(const struct path_node *parent, const struct hist_frame *f)
{
	return hist_mix((uintptr_t)parent, hist_mix(f->ip, (uintptr_t)f->dso));
}

/* A node keeps its first children in a list; past this many they are also in h->paths. */
#define NARROW 8

/* Puts the children of a node that just grew wide into h->paths. */
static int index_children(struct hist *h, struct path_node *parent)
{
	struct htab *t = &h->paths;
	struct path_node *c;

	for (c = parent->child; c; c = c->sibling) {
		uint64_t hash = path_hash_of(parent, &c->f);
		size_t i;

		for (i = htab_first(t, hash); t->s[i].node; i = htab_step(t, i))
			;
		if (htab_put(t, i, hash, c))
			return -ENOMEM;
	}
	return 0;
}

/* The child of parent (ctx->root: a chain's first frame) for frame f, made if new. A node
 * with few children is searched in its list, which a new node has empty: a walk that made
 * one node makes the rest without a lookup. Only wide nodes' children go through the hash
 * table. */
static struct path_node *path_child(struct hist *h, struct path_ctx *ctx, struct path_node *parent,
				    const struct hist_frame *f)
{
	struct htab *t = &h->paths;
	struct path_node *n;
	uint64_t hash = 0;
	size_t i = 0;

	if (parent == &ctx->root && ctx->mru && frame_same(&ctx->mru->f, f))
		return ctx->mru;
	if (parent->nr_child <= NARROW) {
		for (n = parent->child; n; n = n->sibling)
			if (frame_same(&n->f, f))
				goto out;
	} else {
		hash = path_hash_of(parent, f);
		for (i = htab_first(t, hash); t->s[i].node; i = htab_step(t, i)) {
			n = t->s[i].node;
			if (t->s[i].hash == hash && n->parent == parent && frame_same(&n->f, f))
				goto out;
		}
	}
	n = pool_alloc(&h->pool, sizeof(*n));
	if (!n)
		return NULL;
	*n = (struct path_node){ .parent = parent, .f = *f, .sibling = parent->child };
	parent->child = n;
	if (++parent->nr_child == NARROW + 1) {
		if (index_children(h, parent))
			return NULL;
	} else if (parent->nr_child > NARROW + 1 && htab_put(t, i, hash, n)) {
		return NULL;
	}
out:
	if (parent == &ctx->root)
		ctx->mru = n;
	return n;
}

static int end_add(struct hist *h, struct path_node *p, const struct hist_sample *s)
{
	if (h->nr_ends >= UINT32_MAX - 1)
		return -ENOMEM; /* node->end is 32 bits */
	if (h->nr_ends == h->ends_alloc) {
		size_t na = h->ends_alloc ? h->ends_alloc * 2 : 256;
		struct path_end *v = realloc(h->ends, na * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->ends = v;
		h->ends_alloc = na;
	}
	h->ends[h->nr_ends++] = (struct path_end){
		.node = p, .comm = s->comm, .pid = s->pid, .tid = s->tid, .cpu = s->cpu
	};
	p->end = (uint32_t)h->nr_ends;
	return 0;
}

/* The last chain each thread (by tid, in a few slots) walked, root first, with the trie
 * nodes it reached: a thread's next sample mostly shares a long prefix with it, which is then
 * compared in one sequential run instead of walked node by node through the trie. */
struct chain_memo {
	const struct path_ctx *ctx;
	uint32_t tid;
	size_t n, alloc;
	struct hist_frame *f;
	struct path_node **node;
};

#define MEMO_SLOTS 64

static int memo_reserve(struct chain_memo *m, size_t n)
{
	struct hist_frame *f;
	struct path_node **v;

	if (n <= m->alloc)
		return 0;
	m->n = 0;
	f = realloc(m->f, n * 2 * sizeof(*f));
	if (!f)
		return -ENOMEM;
	m->f = f;
	v = realloc(m->node, n * 2 * sizeof(*v));
	if (!v)
		return -ENOMEM;
	m->node = v;
	m->alloc = n * 2;
	return 0;
}

/* Walks the n frames of s from the root; returns the last node (NULL: -ENOMEM). */
static struct path_node *walk_chain(struct hist *h, struct path_ctx *ctx,
				    const struct hist_sample *s, size_t n)
{
	struct path_node *p = &ctx->root;
	struct chain_memo *m;
	size_t k = 0, j;

	if (!h->memo && !(h->memo = calloc(MEMO_SLOTS, sizeof(*h->memo))))
		return NULL;
	m = &h->memo[s->tid % MEMO_SLOTS];
	if (m->ctx == ctx && m->tid == s->tid) {
		size_t lim = n < m->n ? n : m->n;

		while (k < lim && frame_same(&m->f[k], &s->frames[n - 1 - k]))
			k++;
		if (k)
			p = m->node[k - 1];
	}
	if (memo_reserve(m, n))
		return NULL;
	m->ctx = ctx;
	m->tid = s->tid;
	m->n = k;
	for (j = k; j < n; j++) {
		const struct hist_frame *f = &s->frames[n - 1 - j];

		p = path_child(h, ctx, p, f);
		if (!p)
			return NULL;
		m->f[j] = *f;
		m->node[j] = p;
		m->n = j + 1;
	}
	return p;
}

void hist_paths_release(struct hist *h)
{
	size_t i;

	if (!h->memo)
		return;
	for (i = 0; i < MEMO_SLOTS; i++) {
		free(h->memo[i].f);
		free(h->memo[i].node);
	}
	free(h->memo);
	h->memo = NULL;
}

/* A sample's own frame, past the inline entries at its leaf (see self_entry()). */
static struct hist_frame own_frame(const struct hist_frame *v, size_t n)
{
	struct hist_frame f = v[0];
	size_t i;

	if (!f.inl)
		return f;
	for (i = 0; i < n && v[i].inl && v[i].ip == v[0].ip; i++)
		;
	if (i < n && v[i].ip == v[0].ip)
		return v[i];
	f.sym = srcline_inline_base(f.sym);
	f.inl = false;
	return f;
}

int hist_add(struct hist *h, const struct hist_sample *s)
{
	static const struct hist_frame none = { .level = '.' };
	size_t n = s->no_chain ? 0 : s->nr_frames;
	/* a sample counted by its leaf alone: a discarded chain, no chain, or nothing that
	 * needs the callers (neither children nor call graphs) */
	bool leaf_only = !n || (!h->o.children && !h->o.callchain);
	struct path_ctx *ctx;
	struct path_node *p;
	struct path_end *pe;
	int err;

	h->nr_samples++;
	h->total_period += s->period;
	h->collapsed = false;
	ctx = ctx_get(h, s, leaf_only);
	if (!ctx)
		return -ENOMEM;
	if (leaf_only) {
		struct hist_frame own = s->nr_frames ? own_frame(s->frames, s->nr_frames) : none;

		p = path_child(h, ctx, &ctx->root, &own);
	} else
		p = walk_chain(h, ctx, s, n);
	if (!p)
		return -ENOMEM;
	if (!p->end && (err = end_add(h, p, s)))
		return err;
	pe = &h->ends[p->end - 1];
	pe->hit += s->period;
	pe->count += s->count ? s->count : 1;
	return 0;
}

/* ---- replay of the distinct chains ---- */

void hist_paths_init(struct hist *h)
{
	htab_init(&h->paths);
	htab_init(&h->nodes);
}

/* One distinct chain being replayed: its end, ctx, nodes (leaf first) and the hash of its
 * sample's key fields (made when an entry is first looked up). */
struct replay {
	const struct path_end *pe;
	const struct path_ctx *ctx;
	struct path_node **v;
	size_t n;
	uint64_t sh;
	bool sh_done;
};

/* The nodes of r's chain into h->chain, leaf first, and its ctx (the root above them).
 * 0 or -ENOMEM. */
static int end_chain(struct hist *h, struct replay *r)
{
	struct path_node *p;
	size_t n = 0;

	for (p = r->pe->node; p->parent; p = p->parent)
		n++;
	r->ctx = (const struct path_ctx *)((const char *)p - offsetof(struct path_ctx, root));
	if (n > h->chain_alloc) {
		struct path_node **v = realloc(h->chain, n * 2 * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->chain = v;
		h->chain_alloc = n * 2;
	}
	n = 0;
	for (p = r->pe->node; p->parent; p = p->parent)
		h->chain[n++] = p;
	r->v = h->chain;
	r->n = n;
	return 0;
}

/* Entries recently found by (ctx, frame): the same function turns up under many trie nodes
 * (a kernel path under each user address that entered it), and this answers most of them
 * without the hash lookup of hist_entry_get(). A frame's entry is the same whichever chain
 * it is found through: only the ctx's key fields and the frame decide it. */
struct ecache {
	const struct path_ctx *ctx;
	const struct dso *dso;
	const struct symbol *sym;
	uint64_t ip;
	struct hist_entry *e;
};

#define ECACHE_SLOTS 16384

static struct ecache *ecache_slot(struct hist *h, const struct path_ctx *ctx,
				  const struct hist_frame *f)
{
	uint64_t x = (uintptr_t)ctx ^ (uintptr_t)f->dso * 31 ^ (uintptr_t)f->sym * 7 ^
		     (f->sym ? 0 : f->dso_ip);

	return &h->ecache[hash_u64(x) & (ECACHE_SLOTS - 1)];
}

/*
 * In children mode perf counts a sample into its callers' entries through the call-chain
 * cursor, whose entries name an unresolved frame by its raw address, while the sample's own
 * entry names it by its address in the dso: there the two are different entries (perf report
 * shows "0x000055f1c438fd47" with no self share beside "0x0000000000163d47"), one per process
 * of a PIE. A frame with a symbol, or whose two addresses agree, has one entry.
 */
static bool caller_entry_differs(const struct path_node *p)
{
	return !p->f.sym && p->f.ip != p->f.dso_ip;
}

/* The entry a node's frame counts into as a caller (cum) or as the sample's own. */
static struct hist_entry *node_cached(const struct path_node *p, bool cum)
{
	return cum && caller_entry_differs(p) ? p->cum_entry : p->entry;
}

/*
 * The entry of node p of the replayed chain, looked up once per role. A caller's frame outside
 * any mapping takes the level mark of the frame before it in the cursor (lvl), as perf's does:
 * its fill_callchain_info() leaves the level of such a frame as the last one set.
 */
/* The entry of frame f under ctx, through the entry cache. */
static struct hist_entry *frame_entry(struct hist *h, struct replay *r, const struct path_ctx *ctx,
				      const struct hist_frame *f)
{
	uint64_t ip = f->sym ? 0 : f->dso_ip;
	struct ecache *c = ecache_slot(h, ctx, f);
	struct hist_sample s;
	struct hist_entry *e;

	/* a srcline or srcfile key tells apart the addresses of one symbol: no cache then */
	if (c->e && c->ctx == ctx && c->dso == f->dso && c->sym == f->sym && c->ip == ip &&
	    !h->o.frame_text)
		return c->e;
	s = (struct hist_sample){ .comm = r->pe->comm,
				  .pid = r->pe->pid,
				  .tid = r->pe->tid,
				  .cpu = r->pe->cpu,
				  .trace = ctx->trace };
	if (!r->sh_done) {
		r->sh = hist_sample_hash(h, &s);
		r->sh_done = true;
	}
	e = hist_entry_get(h, &s, f, r->sh);
	if (e)
		*c = (struct ecache){ ctx, f->dso, f->sym, ip, e };
	return e;
}

static struct hist_entry *node_entry(struct hist *h, struct replay *r, struct path_node *p,
				     bool cum, char lvl)
{
	struct hist_frame f = p->f;
	struct hist_entry **slot = &p->entry;

	if (cum && caller_entry_differs(p)) {
		f.dso_ip = f.ip;
		slot = &p->cum_entry;
	}
	if (cum && !f.dso)
		f.level = lvl;
	if (!*slot)
		*slot = frame_entry(h, r, r->ctx, &f);
	return *slot;
}

/*
 * The samples' own entry: their leaf frame's, past the inline entries at the leaf's address
 * to the frame of the symbol itself. When all of them are inline (a function whose DWARF
 * name is not its symbol's), the symbol's entry is the one they stand within, as perf's
 * entry is the sample's symbol whatever its chain shows.
 */
static struct hist_entry *self_entry(struct hist *h, struct replay *r)
{
	struct path_node *leaf = r->v[0];
	struct hist_frame f;
	size_t i;

	for (i = 0; i < r->n && r->v[i]->f.inl && r->v[i]->f.ip == leaf->f.ip; i++)
		;
	if (!leaf->f.inl || (i < r->n && r->v[i]->f.ip == leaf->f.ip))
		return node_entry(h, r, r->v[i < r->n ? i : 0], false, 0);
	f = leaf->f;
	f.sym = srcline_inline_base(f.sym);
	f.inl = false;
	return frame_entry(h, r, r->ctx, &f);
}

static int replay_init(struct hist *h, struct replay *r, const struct path_end *pe)
{
	*r = (struct replay){ .pe = pe };
	return end_chain(h, r);
}

/* Counts one distinct chain into its entries, as each of its samples would: the leaf's entry
 * gets self and total, in children mode every caller's entry total (once per chain). */
static int collapse_one(struct hist *h, struct path_end *pe, uint64_t hit, uint64_t count)
{
	struct hist_entry *e;
	struct replay r;
	size_t i, n;
	char lvl;
	int err;

	if ((err = replay_init(h, &r, pe)))
		return err;
	n = r.n;
	h->stamp++;
	if (!(e = pe->self = self_entry(h, &r)))
		return -ENOMEM;
	e->stamp = h->stamp;
	e->self += hit;
	e->total += hit;
	if (r.v[0]->f.level == 'k')
		e->self_sys += hit;
	else if (r.v[0]->f.level == '.')
		e->self_usr += hit;
	e->nr_self += count;
	e->nr_total += count;
	if (r.ctx->leaf_only)
		return 0;
	if (n > e->max_depth)
		e->max_depth = (uint32_t)n;
	if (!h->o.children)
		return 0;
	/* the chain's frames (the sample's own too), in cursor order; each entry counts a
	 * sample once */
	for (i = 0, lvl = r.v[0]->f.level; i < n; i++) {
		size_t fi = h->o.caller_order ? n - 1 - i : i;
		size_t d = h->o.caller_order ? fi + 1 : n - fi;

		if (r.v[fi]->f.dso)
			lvl = r.v[fi]->f.level;
		if (!(e = node_entry(h, &r, r.v[fi], true, lvl)))
			return -ENOMEM;
		if (e->stamp == h->stamp)
			continue;
		e->stamp = h->stamp;
		e->total += hit;
		e->nr_total += count;
		if (d > e->max_depth)
			e->max_depth = (uint32_t)d;
	}
	return 0;
}

int hist_collapse(struct hist *h)
{
	size_t i;
	int err = 0;

	if (h->collapsed)
		return 0;
	h->ecache = calloc(ECACHE_SLOTS, sizeof(*h->ecache));
	if (!h->ecache)
		return -ENOMEM;
	/* samples added after a collapse: only what each chain got since is counted */
	for (i = 0; i < h->nr_ends; i++) {
		struct path_end *pe = &h->ends[i];
		uint64_t hit = pe->hit - pe->done_hit, count = pe->count - pe->done_count;

		if (!hit && !count)
			continue;
		if ((err = collapse_one(h, pe, hit, count)))
			break;
		pe->done_hit = pe->hit;
		pe->done_count = pe->count;
	}
	free(h->ecache);
	h->ecache = NULL;
	if (err)
		return err;
	h->collapsed = true;
	return 0;
}

/* The trees of the wanted entries of one distinct chain (those whose period reaches min). */
static int trees_one(struct hist *h, const struct path_end *pe, uint64_t min, uint64_t hit,
		     uint64_t count)
{
	bool caller = h->o.caller_order;
	struct hist_entry *e;
	struct replay r;
	size_t i, n;
	int err;

	if ((err = replay_init(h, &r, pe)))
		return err;
	if (r.ctx->leaf_only)
		return 0;
	n = r.n;
	h->stamp++;
	e = pe->self;
	e->stamp = h->stamp;
	if ((h->o.children ? e->total : e->self) >= min &&
	    (err = tree_add(h, &e->root, r.v, caller ? n - 1 : 0, n, caller, hit, count)))
		return err;
	if (!h->o.children)
		return 0;
	for (i = 0; i < n; i++) {
		size_t fi = caller ? n - 1 - i : i;

		e = node_cached(r.v[fi], true);
		if (e->stamp == h->stamp)
			continue;
		e->stamp = h->stamp;
		/* the entry's chain: from its frame toward the far end */
		if (e->total >= min &&
		    (err = tree_add(h, &e->root, r.v, fi, caller ? fi + 1 : n - fi, caller, hit,
				    count)))
			return err;
	}
	return 0;
}

int hist_build_trees(struct hist *h, uint64_t min)
{
	size_t i;
	int err;

	if (h->trees_built || !h->o.callchain)
		return 0;
	if ((err = hist_collapse(h)))
		return err;
	h->trees_built = true;
	for (i = 0; i < h->nr_ends; i++) {
		struct path_end *pe = &h->ends[i];

		if ((err = trees_one(h, pe, min, pe->hit, pe->count)))
			return err;
		pe->tree_hit = pe->hit;
		pe->tree_count = pe->count;
	}
	return 0;
}

int hist_update_trees(struct hist *h)
{
	size_t i;
	int err;

	if (!h->o.callchain)
		return 0;
	if ((err = hist_collapse(h)))
		return err;
	if (!h->trees_built)
		return hist_build_trees(h, 0);
	for (i = 0; i < h->nr_ends; i++) {
		struct path_end *pe = &h->ends[i];
		uint64_t hit = pe->hit - pe->tree_hit;
		uint64_t count = pe->count - pe->tree_count;

		if (!hit && !count)
			continue;
		if ((err = trees_one(h, pe, 0, hit, count)))
			return err;
		pe->tree_hit = pe->hit;
		pe->tree_count = pe->count;
	}
	/* the orders hist_sort_callchains() made are made again */
	arena_release(&h->tree_arena);
	return 0;
}
