/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist: aggregation of resolved samples into histogram entries, as perf report does it.
 * Entries are keyed by a list of sort keys (comm, pid/tid, dso, sym, cpu, trace); each holds
 * its self period and, in children mode, the period of every sample whose call chain passes
 * through it. Each entry can keep a call-graph tree of the samples that built it.
 *
 * Built for millions of samples: a sample only walks a trie of the distinct call chains
 * (paths.c); entries are counted from the trie once per distinct chain, and trees built only
 * for the entries that print one. Nodes live in the hist's pool, entries in its arena, so
 * adding a sample allocates nothing once its chain was seen. The hist owns every entry and
 * node; hist_release() releases all. The strings and dso/symbol pointers it is given must
 * outlive it (they belong to the session).
 */
#ifndef FLARE_HIST_HIST_H
#define FLARE_HIST_HIST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/base/arena.h"
#include "lib/base/hashmap.h"
#include "lib/hist/htab.h"
#include "lib/hist/pool.h"
#include "lib/sym/sym.h"

enum hist_key { HK_COMM, HK_PID, HK_DSO, HK_SYM, HK_CPU, HK_TRACE, HK_SRCLINE, HK_SRCFILE, HK_NR };
#define HIST_MAX_KEYS 8

/* One frame of a sample's call chain as hist sees it. */
struct hist_frame {
	uint64_t ip;		  /* raw address (for printing an unresolved frame) */
	uint64_t dso_ip;	  /* address in the dso (for an unresolved symbol column) */
	struct dso *dso;	  /* NULL: no mapping */
	const struct symbol *sym; /* NULL: no symbol */
	char level;		  /* '.' user, 'k' kernel, ... as perf prints it in [.] */
	bool inl;		  /* an inline entry of the chain ("name (inlined)", sym made by
				 * lib/sym/srcline): the sample's own entry is its symbol's */
};

struct hist_sample {
	const char *comm;
	uint32_t pid, tid, cpu;
	uint64_t period;
	const char *trace;		 /* tracepoint text for HK_TRACE (copied) */
	const struct hist_frame *frames; /* leaf first */
	size_t nr_frames;
	bool no_chain;	/* count the leaf only: no tree, no callers (a discarded chain) */
	uint64_t count; /* samples this stands for (0 means 1) */
};

/* A call-graph node: a run of frames ("val" in perf) without a branch or an end inside it. */
struct cg_node {
	struct cg_node *parent, *child, *next; /* child list, unsorted while adding */
	uint64_t hit, children_hit;	       /* period ending here / below */
	uint32_t count, children_count;	       /* samples ending here / below */
	uint32_t nr_child;
	struct hist_frame f;
	/* after hist_sort_callchains(): children in output order, and the run merged into it */
	struct cg_node **sorted;
	size_t nr_sorted;
	struct cg_node *run_next; /* the next frame of this node's run (merged child) */
};

static inline uint64_t cg_cumul(const struct cg_node *n)
{
	return n->hit + n->children_hit;
}

struct hist_entry {
	/* key fields; only those in the hist's key list are significant */
	const char *comm;
	uint32_t pid, tid, cpu;
	struct dso *dso;
	const struct symbol *sym;
	uint64_t ip; /* dso_ip of an unresolved sym */
	char level;
	bool inl; /* made from an inline frame (children mode) */
	const char *trace;
	const char *src;	 /* HK_SRCLINE or HK_SRCFILE text (one of the two keys at most) */
	const char *thread_comm; /* the thread's last name, for the pid key (set by the user) */
	/* values */
	uint64_t self, total; /* period: own samples, and with callers' share (children) */
	uint64_t nr_self, nr_total;
	uint64_t self_sys, self_usr; /* the self period of kernel- and user-mode samples */
	struct cg_node *root; /* call graph (NULL: none built): root->child are the first frames */
	struct hist_entry *hnext;
	uint64_t hash;
	uint64_t stamp;	    /* last sample that touched it (children dedup) */
	uint32_t max_depth; /* longest chain recorded for it (perf's tie break) */
};

enum cg_mode { CG_GRAPH_ABS, CG_GRAPH_REL, CG_FLAT, CG_FOLDED, CG_NONE };

/*
 * A node of the replay trie: every distinct call chain seen, root first. Entries and trees
 * are built from these, once per distinct chain; the entry of a node's frame is looked up
 * once and kept in it. Nodes are the bulk of a report's memory (millions on a large -a -g
 * file): what the samples ending on a node add up lives in its path_end, and the ctx in the
 * root above its chain, so that a node holds its links, its entries and its frame only.
 */
struct path_node {
	struct path_node *parent; /* a chain's first frame: its ctx's root; the root: NULL */
	struct hist_entry *entry;
	struct hist_entry *cum_entry;	   /* as a caller, when that is another entry (paths.c) */
	struct path_node *child, *sibling; /* children, a list while few (paths.c) */
	struct hist_frame f;		   /* zero in a ctx's root */
	uint32_t end; /* 1 + the index in h->ends of the chain ending here; 0: none */
	uint32_t nr_child;
};

/* The sample attributes a path of the replay trie was recorded under (the key fields). */
struct path_ctx {
	const char *comm;
	uint32_t pid, tid, cpu;
	const char *trace;
	bool leaf_only; /* samples counted by their leaf only: no callers, no tree */
	struct path_ctx *hnext;
	struct path_node *mru; /* the first node the last walk took */
	struct path_node root; /* the parent of every chain's first node */
};

/* A distinct chain, in the order of its first sample, with that sample's thread (the entries
 * it creates take their comm, pid, tid and cpu from it, as perf's take its first sample's),
 * and the period and samples of all the samples with that chain. */
struct path_end {
	struct path_node *node;
	const char *comm;
	uint32_t pid, tid, cpu;
	uint64_t hit, count;
	struct hist_entry *self; /* the samples' own entry (set by the collapse) */
	/* what of hit and count the entries, and the trees, hold already: a hist still being
	 * added to (top) counts only what came since */
	uint64_t done_hit, done_count, tree_hit, tree_count;
};

struct hist_opts {
	enum hist_key keys[HIST_MAX_KEYS];
	size_t nr_keys;
	bool children;	   /* accumulate callers (perf's --children) */
	bool callchain;	   /* keep call-graph trees */
	bool caller_order; /* trees start at the outermost caller */
	bool addr_key;	   /* tree nodes by address instead of by function */
	/* The text of a frame for HK_SRCLINE / HK_SRCFILE (perf's srcline, srcfile), asked
	 * once per entry made; its result is copied. Needed with those keys. */
	const char *(*frame_text)(void *ctx, enum hist_key k, const struct hist_frame *f);
	void *frame_text_ctx;
};

struct hist {
	struct hist_opts o;
	struct arena arena;
	struct pool pool;	    /* trie nodes */
	struct pool tree_pool;	    /* call-graph tree nodes */
	struct arena tree_arena;    /* their sorted child arrays (hist_update_trees() drops them) */
	struct hashmap entries;	    /* hash -> struct hist_entry chain */
	struct hashmap canon_dsos;  /* hash(short name) -> struct canon_dso chain */
	struct hashmap canon_syms;  /* hash(dso, start, end) -> struct canon_sym chain */
	struct htab nodes;	    /* hash(parent, frame) -> struct cg_node */
	struct hist_entry **sorted; /* after hist_sort() */
	struct hist_entry **created; /* in the order they were made */
	size_t nr_entries, created_alloc;
	uint64_t total_period, nr_samples;
	uint64_t stamp;
	struct path_node **chain; /* a replayed chain, leaf first */
	size_t chain_alloc;
	struct hashmap ctxs;	   /* hash -> struct path_ctx chain */
	struct path_ctx *last_ctx; /* the previous sample's */
	struct chain_memo *memo;   /* each thread's last chain (paths.c) */
	struct ecache *ecache;	   /* entries by frame, while counting (paths.c) */
	struct htab paths;	   /* hash(parent, frame) -> struct path_node */
	struct path_end *ends;	   /* distinct chains, by first sample */
	size_t nr_ends, ends_alloc;
	bool collapsed; /* entries counted from the ends */
	bool trees_built;
};

/* Parses "comm,dso,sym" into o->keys. Returns 0 or -EINVAL with the bad key in bad. */
int hist_parse_sort(const char *s, struct hist_opts *o, char *bad, size_t badlen);
/* The name perf gives a key ("comm", "pid", "dso", "sym", "cpu", "trace"). */
const char *hist_key_name(enum hist_key k);

int hist_init(struct hist *h, const struct hist_opts *o);
void hist_release(struct hist *h);

/* Adds one sample (its leaf decides the entry; in children mode every caller gets it too).
 * Call chains are kept in a trie of distinct chains; the entries are counted from it by
 * hist_collapse() and their call-graph trees built by hist_sort_callchains(), only for the
 * entries whose graph can print anything. */
int hist_add(struct hist *h, const struct hist_sample *s);

/* Counts the entries from the distinct chains (hist_sort() calls it; later calls do nothing).
 * h->nr_entries and the entries are valid after it. 0 or -ENOMEM. */
int hist_collapse(struct hist *h);

/* Builds the call-graph trees of the entries whose period (children or self) reaches min,
 * from the distinct chains (hist_sort_callchains() calls it). 0 or -ENOMEM. */
int hist_build_trees(struct hist *h, uint64_t min);

/* For a hist still being added to: adds the samples that came since the trees were built
 * to them (every entry's, whatever its period), and lets hist_sort_callchains() order them
 * again. 0 or -ENOMEM. */
int hist_update_trees(struct hist *h);

/* Sorts the entries for output: by children then self period (or self), ties by the keys. */
int hist_sort(struct hist *h);

/*
 * Orders each entry's tree for printing in mode: children by cumulated period (flat and
 * folded: the nodes with own hits, by hit), dropping what is under min_percent of the
 * reference (graph: of total; fractal: of the parent). Fills node->sorted / run_next.
 * For flat and folded the selected nodes are returned in e->root->sorted.
 */
int hist_sort_callchains(struct hist *h, enum cg_mode mode, double min_percent, uint64_t total);
/* The same for the first n sorted entries only (those top prints). */
int hist_sort_callchains_n(struct hist *h, enum cg_mode mode, double min_percent, uint64_t total,
			   size_t n);

/*
 * hist_sort() and hist_sort_callchains() in one, on two CPUs: after hist_collapse(), a second
 * thread builds the trees (hist_build_trees()) while this one sorts the entries; then the
 * trees are ordered. The same result as the two calls in a row; 0 or -ENOMEM.
 */
int hist_finish(struct hist *h, enum cg_mode mode, double min_percent, uint64_t total);

/* Compares two entries by key k (< 0, 0, > 0 in output order). */
int hist_entry_cmp_key(const struct hist_entry *a, const struct hist_entry *b, enum hist_key k);

#endif
