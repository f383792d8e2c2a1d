// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lib/hist: entries by keys, children accumulation, call-graph trees. */
#include <errno.h>
#include <string.h>
#include "tests/unit/unit.h"
#include "lib/hist/hist.h"

static struct dso dso_a = { .long_name = "/bin/a", .short_name = "a" };
static struct dso dso_libc = { .long_name = "/lib/libc.so.6", .short_name = "libc.so.6" };
static const struct symbol s_main = { 0x100, 0x200, "main" };
static const struct symbol s_f = { 0x200, 0x300, "f" };
static const struct symbol s_g = { 0x300, 0x400, "g" };
static const struct symbol s_start = { 0x1000, 0x1100, "__libc_start_main" };

static struct hist_frame fr(struct dso *d, const struct symbol *s)
{
	return (struct hist_frame){ s->start + 4, s->start + 4, d, s, '.' };
}

/* chain leaf first: g <- f <- main <- start */
static int add(struct hist *h, const char *comm, uint32_t tid, uint64_t period,
	       const struct symbol *const *syms, size_t n)
{
	struct hist_frame f[8];
	struct hist_sample s = { .comm = comm, .pid = tid, .tid = tid, .period = period };
	size_t i;

	for (i = 0; i < n; i++)
		f[i] = fr(syms[i] == &s_start ? &dso_libc : &dso_a, syms[i]);
	s.frames = f;
	s.nr_frames = n;
	return hist_add(h, &s);
}

static struct hist_entry *find(struct hist *h, const char *sym)
{
	size_t i;

	for (i = 0; i < h->nr_entries; i++)
		if (h->sorted[i]->sym && !strcmp(h->sorted[i]->sym->name, sym))
			return h->sorted[i];
	return NULL;
}

TEST(sort_keys_parse)
{
	struct hist_opts o = { 0 };
	char bad[32];

	CHECK(hist_parse_sort("comm,dso,sym", &o, bad, sizeof(bad)) == 0);
	CHECK(o.nr_keys == 3 && o.keys[0] == HK_COMM && o.keys[2] == HK_SYM);
	CHECK(hist_parse_sort("tid,cpu,symbol", &o, bad, sizeof(bad)) == 0);
	CHECK(o.keys[0] == HK_PID && o.keys[1] == HK_CPU && o.keys[2] == HK_SYM);
	CHECK(hist_parse_sort("comm,bogus", &o, bad, sizeof(bad)) == -EINVAL);
	CHECK_STR(bad, "bogus");
	CHECK(hist_parse_sort("", &o, bad, sizeof(bad)) == -EINVAL);
}

TEST(self_entries)
{
	const struct symbol *c1[] = { &s_g, &s_f, &s_main, &s_start };
	const struct symbol *c2[] = { &s_f, &s_main, &s_start };
	struct hist_opts o = { .keys = { HK_COMM, HK_DSO, HK_SYM }, .nr_keys = 3 };
	struct hist h;
	int i;

	CHECK(hist_init(&h, &o) == 0);
	for (i = 0; i < 6; i++)
		CHECK(add(&h, "w", 7, 10, c1, 4) == 0);
	for (i = 0; i < 3; i++)
		CHECK(add(&h, "w", 7, 10, c2, 3) == 0);
	CHECK(add(&h, "x", 8, 10, c2, 3) == 0);
	CHECK(hist_sort(&h) == 0);
	CHECK(h.nr_entries == 3);
	CHECK(h.total_period == 100 && h.nr_samples == 10);
	CHECK(h.sorted[0]->sym == &s_g && h.sorted[0]->self == 60 && h.sorted[0]->nr_self == 6);
	CHECK(h.sorted[1]->sym == &s_f && !strcmp(h.sorted[1]->comm, "w") &&
	      h.sorted[1]->self == 30);
	CHECK(!strcmp(h.sorted[2]->comm, "x"));
	hist_release(&h);
}

TEST(children_accumulate_once_per_sample)
{
	/* recursion: f appears twice in the chain, counted once */
	const struct symbol *c1[] = { &s_g, &s_f, &s_f, &s_main };
	const struct symbol *c2[] = { &s_main };
	struct hist_opts o = { .keys = { HK_SYM },
			       .nr_keys = 1,
			       .children = true,
			       .callchain = true,
			       .caller_order = true };
	struct hist h;
	struct hist_entry *e;

	CHECK(hist_init(&h, &o) == 0);
	CHECK(add(&h, "w", 1, 3, c1, 4) == 0);
	CHECK(add(&h, "w", 1, 1, c2, 1) == 0);
	CHECK(hist_sort(&h) == 0);
	CHECK(h.nr_entries == 3);
	e = find(&h, "main");
	CHECK(e && e->total == 4 && e->self == 1);
	e = find(&h, "f");
	CHECK(e && e->total == 3 && e->self == 0 && e->nr_total == 1);
	e = find(&h, "g");
	CHECK(e && e->total == 3 && e->self == 3);
	/* output order: by children period */
	CHECK(h.sorted[0]->sym == &s_main);
	hist_release(&h);
}

TEST(callchain_tree_graph)
{
	const struct symbol *c1[] = { &s_g, &s_f, &s_main };
	const struct symbol *c2[] = { &s_f, &s_main };
	struct hist_opts o = {
		.keys = { HK_SYM }, .nr_keys = 1, .callchain = true, .caller_order = true
	};
	struct hist h;
	struct hist_entry *e;
	struct cg_node *root;
	int i;

	CHECK(hist_init(&h, &o) == 0);
	for (i = 0; i < 3; i++)
		CHECK(add(&h, "w", 1, 1, c1, 3) == 0);
	CHECK(add(&h, "w", 1, 1, c2, 2) == 0);
	CHECK(hist_sort(&h) == 0);
	CHECK(hist_sort_callchains(&h, CG_GRAPH_ABS, 0.5, h.total_period) == 0);
	e = find(&h, "g");
	CHECK(e);
	/* one run main -> f -> g, no branches: merged */
	root = e->root->sorted[0];
	CHECK(e->root->nr_sorted == 1 && root->f.sym == &s_main && cg_cumul(root) == 3);
	CHECK(root->run_next && root->run_next->f.sym == &s_f);
	CHECK(root->run_next->run_next && root->run_next->run_next->f.sym == &s_g);
	e = find(&h, "f");
	CHECK(e && e->self == 1 && e->root->nr_sorted == 1);
	hist_release(&h);
}

TEST(callchain_branch_and_threshold)
{
	const struct symbol *c1[] = { &s_g, &s_main };
	const struct symbol *c2[] = { &s_f, &s_main };
	const struct symbol *c3[] = { &s_main };
	struct hist_opts o = {
		.keys = { HK_DSO }, .nr_keys = 1, .callchain = true, .caller_order = true
	};
	struct hist h;
	struct cg_node *m;
	int i;

	CHECK(hist_init(&h, &o) == 0);
	for (i = 0; i < 90; i++)
		CHECK(add(&h, "w", 1, 1, c1, 2) == 0);
	for (i = 0; i < 9; i++)
		CHECK(add(&h, "w", 1, 1, c2, 2) == 0);
	CHECK(add(&h, "w", 1, 1, c3, 1) == 0);
	CHECK(hist_sort(&h) == 0 && h.nr_entries == 1);
	CHECK(hist_sort_callchains(&h, CG_GRAPH_ABS, 5, h.total_period) == 0);
	m = h.sorted[0]->root->sorted[0];
	/* main ends a sample itself: not merged into a child; f (9%) kept, nothing under 5% */
	CHECK(m->f.sym == &s_main && m->hit == 1 && !m->run_next);
	CHECK(m->nr_sorted == 2 && m->sorted[0]->f.sym == &s_g && m->sorted[1]->f.sym == &s_f);
	hist_release(&h);
	CHECK(hist_init(&h, &o) == 0);
	for (i = 0; i < 90; i++)
		CHECK(add(&h, "w", 1, 1, c1, 2) == 0);
	for (i = 0; i < 9; i++)
		CHECK(add(&h, "w", 1, 1, c2, 2) == 0);
	CHECK(hist_sort(&h) == 0);
	/* perf's threshold is the share truncated to whole hits: 10% of 99 is 9, f's 9 stay */
	CHECK(hist_sort_callchains(&h, CG_GRAPH_ABS, 10, h.total_period) == 0);
	m = h.sorted[0]->root->sorted[0];
	CHECK(m->nr_sorted == 2 && m->sorted[1]->f.sym == &s_f);
	hist_release(&h);
	CHECK(hist_init(&h, &o) == 0);
	for (i = 0; i < 90; i++)
		CHECK(add(&h, "w", 1, 1, c1, 2) == 0);
	for (i = 0; i < 9; i++)
		CHECK(add(&h, "w", 1, 1, c2, 2) == 0);
	CHECK(hist_sort(&h) == 0);
	/* 11% of 99 is 10.89: 10 hits, f's 9 go */
	CHECK(hist_sort_callchains(&h, CG_GRAPH_ABS, 11, h.total_period) == 0);
	m = h.sorted[0]->root->sorted[0];
	CHECK(m->nr_sorted == 1 && m->sorted[0]->f.sym == &s_g);
	hist_release(&h);
}

TEST(flat_nodes_by_hit)
{
	const struct symbol *c1[] = { &s_g, &s_main };
	const struct symbol *c2[] = { &s_f, &s_main };
	struct hist_opts o = { .keys = { HK_COMM }, .nr_keys = 1, .callchain = true };
	struct hist h;
	struct hist_entry *e;
	int i;

	CHECK(hist_init(&h, &o) == 0);
	for (i = 0; i < 2; i++)
		CHECK(add(&h, "w", 1, 1, c1, 2) == 0);
	for (i = 0; i < 5; i++)
		CHECK(add(&h, "w", 1, 1, c2, 2) == 0);
	CHECK(hist_sort(&h) == 0);
	CHECK(hist_sort_callchains(&h, CG_FOLDED, 0, h.total_period) == 0);
	e = h.sorted[0];
	/* callee order: the trees start at the leaf */
	CHECK(e->root->nr_sorted == 2);
	CHECK(e->root->sorted[0]->hit == 5 && e->root->sorted[0]->f.sym == &s_main);
	CHECK(e->root->sorted[0]->parent->f.sym == &s_f);
	CHECK(e->root->sorted[1]->hit == 2);
	hist_release(&h);
}

TEST(many_samples_no_growth_per_sample)
{
	const struct symbol *c1[] = { &s_g, &s_f, &s_main, &s_start };
	struct hist_opts o = { .keys = { HK_COMM, HK_DSO, HK_SYM },
			       .nr_keys = 3,
			       .children = true,
			       .callchain = true,
			       .caller_order = true };
	struct hist h;
	size_t before;
	int i;

	CHECK(hist_init(&h, &o) == 0);
	CHECK(add(&h, "w", 1, 1, c1, 4) == 0);
	before = h.arena.total;
	for (i = 0; i < 200000; i++)
		CHECK(add(&h, "w", 1, 1, c1, 4) == 0);
	CHECK(h.arena.total == before);
	CHECK(hist_sort(&h) == 0 && h.nr_entries == 4);
	CHECK(h.sorted[0]->total == 200001);
	hist_release(&h);
}

int main(void)
{
	RUN(sort_keys_parse);
	RUN(self_entries);
	RUN(children_accumulate_once_per_sample);
	RUN(callchain_tree_graph);
	RUN(callchain_branch_and_threshold);
	RUN(flat_nodes_by_hit);
	RUN(many_samples_no_growth_per_sample);
	return unit_done();
}
