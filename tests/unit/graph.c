// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <unistd.h>
#include "tests/unit/unit.h"
#include "lib/base/err.h"
#include "lib/graph/collapse.h"
#include "lib/graph/diff.h"
#include "lib/graph/flame.h"
#include "lib/graph/folded.h"

TEST(folded_lines)
{
	struct fg_line l;

	CHECK(folded_parse_line("a;b 12", 6, &l) == 0);
	CHECK(l.len == 3 && !memcmp(l.stack, "a;b", 3) && l.c1 == 12 && !l.has2);
	CHECK(folded_parse_line("a;b 1 2", 7, &l) == 0);
	CHECK(l.len == 3 && l.has2 && l.c1 == 1 && l.c2 == 2);
	CHECK(folded_parse_line("a;b 1.5", 7, &l) == 0 && l.c1 == 1.5);
	CHECK(folded_parse_line("a;b  3", 6, &l) == 0 && l.len == 4); /* "a;b " */
	CHECK(folded_parse_line("a;b x", 5, &l) == -ERR_FORMAT);
	CHECK(folded_parse_line("a;b 3x", 6, &l) == -ERR_FORMAT);
	CHECK(folded_parse_line("123", 3, &l) == -ERR_FORMAT);
	CHECK(folded_parse_line("a;b 3 ", 6, &l) == -ERR_FORMAT);
}

TEST(folded_order)
{
	struct fg_line v[3] = {
		{ "a;b;c", 5, 1, 0, false },
		{ "a;b", 3, 1, 0, false },
		{ "a;b-c", 5, 1, 0, false },
	};

	/* whole-line order: "a;b-c 1" < "a;b 1"? no: ' ' (0x20) < '-' (0x2d) < ';' (0x3b) */
	qsort(v, 3, sizeof(v[0]), fg_line_cmp);
	CHECK(v[0].len == 3);
	CHECK(!memcmp(v[1].stack, "a;b-c", 5));
	CHECK(!memcmp(v[2].stack, "a;b;c", 5));
}

TEST(folded_order_unmarked)
{
	struct fg_line v[4] = {
		{ "a;f2_[k]", 8, 1, 0, false },
		{ "a;f_[k];g", 9, 1, 0, false },
		{ "a;f_[k]", 7, 1, 0, false },
		{ "a;f_[x]", 7, 1, 0, false },
	};

	/* as "a;f2", "a;f;g", "a;f" and "a;f_[x]" (not a mark) sort: "a;f" < "a;f2" <
	 * "a;f;g" < "a;f_[x]"; with the marks "a;f2_[k]" would come first */
	CHECK(fg_lines_sort_unmarked(v, 4) == 0);
	CHECK(v[0].len == 7 && !memcmp(v[0].stack, "a;f_[k]", 7));
	CHECK(v[1].len == 8);
	CHECK(v[2].len == 9);
	CHECK(!memcmp(v[3].stack, "a;f_[x]", 7));
	CHECK(fg_line_cmp(&v[1], &v[0]) < 0);
}

TEST(stackset_merge_sort)
{
	struct stackset s;
	struct strbuf out = STRBUF_INIT;
	int i;

	stackset_init(&s, true);
	for (i = 0; i < 1000; i++)
		CHECK(stackset_add(&s, i % 2 ? "m;b" : "m;a", 3, 2) == 0);
	CHECK(stackset_add(&s, "m", 1, 5) == 0);
	CHECK(s.ents.nr == 3 && s.total == 2005);
	CHECK(s.seq.nr == 1001); /* alternating: nothing to merge */
	CHECK(stackset_print(&s, &out) == 0);
	CHECK_STR(out.buf, "m 5\nm;a 1000\nm;b 1000\n");
	strbuf_release(&out);
	stackset_release(&s);
}

static char *fold(const char *text, size_t chunk, const struct collapse_opts *o)
{
	struct collapse *c;
	struct strbuf out = STRBUF_INIT;
	size_t i, n = strlen(text);

	if (collapse_new(o, &c))
		return NULL;
	for (i = 0; i < n; i += chunk)
		collapse_text(c, text + i, n - i < chunk ? n - i : chunk);
	collapse_text_end(c);
	stackset_print(collapse_stacks(c), &out);
	collapse_free(c);
	return strbuf_detach(&out);
}

static const char script[] =
	"# comment\n"
	"swapper     0 [000] 1.000001:     250 cpu-clock:pppH: \n"
	"\tffffffff8103ce3b native_safe_halt+0x1b ([kernel.kallsyms])\n"
	"\tffffffff81aebbfe start_kernel ([kernel.kallsyms].init.text)\n"
	"\n"
	"app 10/11 [001] 1.000002:          0 cpu-clock:pppH: \n"
	"\t    1234 leaf(int)+0x4 (/bin/app)\n"
	"\t    5678 [unknown] (/lib/libz.so.1)\n"
	"\t    9abc [unknown] ([unknown])\n"
	"\n"
	"app 10/11 [001] 1.000003: sched:sched_switch: prev_comm=app ==> next_comm=x\n"
	"\t    1234 leaf(int)+0x4 (/bin/app)\n"
	"\n";

TEST(collapse_script)
{
	struct collapse_opts o = { 0 };
	char *a, *b;

	a = fold(script, sizeof(script), &o);
	CHECK(a);
	/* a zero period counts 1; the tracepoint's line has no period and no event match */
	CHECK_STR(a, "app;[unknown];[libz.so.1];leaf 1\napp;leaf 1\n"
		     "swapper;start_kernel;native_safe_halt 250\n");
	/* fed a byte at a time it folds the same */
	b = fold(script, 1, &o);
	CHECK_STR(a, b);
	free(a);
	free(b);
	o.kernel = o.addrs = o.tid = true;
	a = fold(script, 7, &o);
	CHECK_STR(a, "app-10/11;[unknown <9abc>];[libz.so.1 <5678>];leaf 1\napp-10/11;leaf 1\n"
		     "swapper-?/0;start_kernel_[k];native_safe_halt_[k] 250\n");
	free(a);
}

TEST(collapse_filters)
{
	const char *comms[] = { "app" };
	const long tids[] = { 11 };
	struct collapse_opts o = { .comms = comms, .nr_comms = 1 };
	struct time_ranges tr = { 0 };
	char *a;

	a = fold(script, 64, &o);
	CHECK_STR(a, "app;[unknown];[libz.so.1];leaf 1\napp;leaf 1\n");
	free(a);
	CHECK(time_ranges_parse(&tr, "1.0000025,", 0, 0) == 0);
	o = (struct collapse_opts){ .tids = tids, .nr_tids = 1, .times = &tr };
	a = fold(script, 64, &o);
	CHECK_STR(a, "app;leaf 1\n");
	free(a);
	time_ranges_release(&tr);
}

TEST(collapse_sample_api)
{
	struct collapse_opts o = { .kernel = true };
	struct collapse *c;
	struct strbuf out = STRBUF_INIT;
	const char *blk;
	size_t len;
	static const char hdr[] = "java 5/6 [000] 2.000000:     100 cpu-clock: ";

	CHECK(collapse_new(&o, &c) == 0);
	CHECK(collapse_header(c, hdr, sizeof(hdr) - 1, 2.0) == 0);
	CHECK(collapse_active(c) && collapse_java(c));
	CHECK(collapse_frame_block(c, "7f01", "[unknown]", "/memfd:x (deleted)", &blk, &len) == 0);
	CHECK(len == 10 && !memcmp(blk, "[unknown] ", 10));
	CHECK(collapse_frame_block(c, "7f02", "Lcom/x/Y;.run(I)V", "/tmp/perf-5.map", &blk, &len) ==
	      0);
	CHECK(len == 12 && !memcmp(blk, "com/x/Y:.run", 12));
	CHECK(collapse_push_block(c, "again", 5) == 0);
	CHECK(collapse_end(c) == 0);
	CHECK(stackset_print(collapse_stacks(c), &out) == 0);
	CHECK_STR(out.buf, "java;again;com/x/Y:.run;[unknown]  100\n");
	strbuf_release(&out);
	collapse_free(c);
}

TEST(flame_layout)
{
	struct fg_line v[3] = {
		{ "a;c", 3, 1, 0, false },
		{ "a;b", 3, 2, 0, false },
		{ "a;b;tiny", 8, 0.0001, 0, false },
	};
	struct flame_opts o;
	struct flame f;
	size_t i;
	int seen = 0;

	flame_opts_default(&o);
	CHECK(flame_build(&f, v, 3, &o) == 0);
	CHECK(f.total > 3.0 && f.total < 3.001);
	CHECK(f.depthmax == 2); /* "tiny" is under 0.1 px: dropped */
	for (i = 0; i < f.nodes.nr; i++) {
		const struct fg_node *n = &f.nodes.items[i];

		if (n->len == 1 && n->name[0] == 'b')
			seen += n->stime == 0 && n->etime > 2.0 && n->etime < 2.01 && n->depth == 2;
		if (n->len == 1 && n->name[0] == 'c')
			seen += n->stime > 2.0 && n->depth == 2;
	}
	CHECK(seen == 2);
	flame_release(&f);
}

TEST(flame_counts)
{
	char buf[FLAME_COUNT_MAX], big[FLAME_COUNT_MAX];
	size_t i;

	CHECK_STR(flame_count_str(1234567, buf), "1,234,567");
	CHECK_STR(flame_count_str(999, buf), "999");
	CHECK_STR(flame_count_str(1000, buf), "1,000");
	CHECK_STR(flame_count_str(0, buf), "0");
	CHECK_STR(flame_count_str(-1234, buf), "-1,234");
	/* 39 digits grouped overflowed a 48-byte buffer once; the largest double has 309 */
	CHECK_STR(flame_count_str(0x1p127, buf),
		  "170,141,183,460,469,231,731,687,303,715,884,105,728");
	flame_count_str(-1.7976931348623157e308, big);
	CHECK(strlen(big) == 1 + 309 + 102);
	for (i = 1; big[i]; i++)
		CHECK(((strlen(big) - i) % 4 == 0) == (big[i] == ','));
	CHECK(flame_name_len("f_[k]", 5) == 1);
	CHECK(flame_name_len("f_[x]", 5) == 5);
}

TEST(diff_normalise)
{
	struct fg_line a[2] = { { "m;a", 3, 10, 0, false }, { "m;b", 3, 10, 0, false } };
	struct fg_line b[2] = { { "m;a", 3, 10, 0, false }, { "m;c", 3, 30, 0, false } };
	struct fg_diff d;
	size_t i;
	int ok = 0;

	CHECK(fg_diff_build(a, 2, b, 2, true, &d) == 0);
	CHECK(d.nr == 3 && d.total1 == 20 && d.total2 == 40);
	for (i = 0; i < d.nr; i++) {
		if (d.lines[i].stack[2] == 'a')
			ok += d.lines[i].c1 == 20 && d.lines[i].c2 == 10;
		if (d.lines[i].stack[2] == 'b')
			ok += d.lines[i].c1 == 20 && d.lines[i].c2 == 0;
		if (d.lines[i].stack[2] == 'c')
			ok += d.lines[i].c1 == 0 && d.lines[i].c2 == 30;
	}
	CHECK(ok == 3);
	fg_diff_release(&d);
}

TEST(palette_roundtrip)
{
	char path[] = "/tmp/flare-palette-XXXXXX";
	struct palette *p;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	CHECK(palette_load(path, &p) == 0);
	CHECK_STR(palette_color(p, "main", 4, "rgb(1,2,3)"), "rgb(1,2,3)");
	CHECK_STR(palette_color(p, "main", 4, "rgb(9,9,9)"), "rgb(1,2,3)");
	CHECK(palette_save(p, path) == 0);
	palette_free(p);
	CHECK(palette_load(path, &p) == 0);
	CHECK_STR(palette_color(p, "main", 4, "rgb(9,9,9)"), "rgb(1,2,3)");
	palette_free(p);
	unlink(path);
}

int main(void)
{
	RUN(folded_lines);
	RUN(folded_order);
	RUN(folded_order_unmarked);
	RUN(stackset_merge_sort);
	RUN(collapse_script);
	RUN(collapse_filters);
	RUN(collapse_sample_api);
	RUN(flame_layout);
	RUN(flame_counts);
	RUN(diff_normalise);
	RUN(palette_roundtrip);
	return unit_done();
}
