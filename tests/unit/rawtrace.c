// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/trace/rawbuf.c's merge of raw ring-buffer pages and lib/trace/rawtrace.c's
 * lines, on pages built here in the kernel's layout (a u64 time stamp, a long commit word
 * whose top bits flag missed events, then events of a 32-bit header: 5 bits of length in
 * words, 27 bits of time delta).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/trace/rawbuf.h"
#include "lib/trace/rawtrace.h"
#include "tests/unit/unit.h"

#define PAGE 4096
#define MISSED (1ULL << 31)

/* A page of n events of 16 bytes (type 1, pid 42, val = vals[i]) at base + deltas[i]. */
static void make_page(unsigned char *page, uint64_t base, const uint32_t *deltas,
		      const int32_t *vals, int n, uint64_t flags)
{
	uint64_t commit = (uint64_t)n * 20;
	unsigned char *p = page + 16;
	int i;

	memset(page, 0, PAGE);
	memcpy(page, &base, 8);
	commit |= flags;
	memcpy(page + 8, &commit, 8);
	for (i = 0; i < n; i++) {
		uint32_t head = 4 | (deltas[i] << 5); /* 4 words of data */
		uint16_t type = 1;
		int32_t pid = 42;

		memcpy(p, &head, 4);
		memcpy(p + 4, &type, 2);
		memcpy(p + 8, &pid, 4);
		memcpy(p + 12, &vals[i], 4);
		p += 20;
	}
}

struct got {
	uint64_t ts[8];
	int cpu[8], val[8];
	long long missed[8];
	int n;
};

static int collect(void *ctx, const struct rawevent *ev)
{
	struct got *g = ctx;

	if (g->n < 8 && ev->size >= 12) {
		g->ts[g->n] = ev->ts;
		g->cpu[g->n] = ev->cpu;
		g->missed[g->n] = ev->missed;
		memcpy(&g->val[g->n], (char *)ev->data + 8, 4);
	}
	g->n++;
	return 0;
}

TEST(merge_orders_cpus_by_time)
{
	static unsigned char a[PAGE], b[PAGE];
	const uint32_t da[] = { 0, 20 }, db[] = { 0, 20 };
	const int32_t va[] = { 1, 3 }, vb[] = { 2, 4 };
	struct rawmerge *m;
	struct got g = { 0 };

	make_page(a, 1000, da, va, 2, 0);
	make_page(b, 1010, db, vb, 2, MISSED);
	CHECK(!rawmerge_new(8, false, &m));
	CHECK(!rawmerge_add(m, 0, a, PAGE));
	CHECK(!rawmerge_add(m, 1, b, PAGE));
	CHECK(!rawmerge_run(m, collect, &g));
	rawmerge_free(m);
	CHECK(g.n == 4);
	CHECK(g.ts[0] == 1000 && g.ts[1] == 1010 && g.ts[2] == 1020 && g.ts[3] == 1030);
	CHECK(g.val[0] == 1 && g.val[1] == 2 && g.val[2] == 3 && g.val[3] == 4);
	CHECK(g.cpu[0] == 0 && g.cpu[1] == 1);
	/* the lost-events flag of cpu 1's page comes with its first event only */
	CHECK(g.missed[0] == 0 && g.missed[1] == -1 && g.missed[3] == 0);
}

TEST(merge_refuses_a_page_claiming_more_than_it_holds)
{
	static unsigned char a[PAGE];
	const uint32_t d[] = { 0 };
	const int32_t v[] = { 1 };
	struct rawmerge *m;

	make_page(a, 1000, d, v, 1, 0);
	CHECK(!rawmerge_new(8, false, &m));
	CHECK(rawmerge_add(m, 0, a, 30) == -ERR_FORMAT); /* 16 + 20 bytes claimed */
	CHECK(rawmerge_add(m, 0, a, 8) == -ERR_FORMAT);	 /* not even a header */
	CHECK(rawmerge_add(m, -1, a, PAGE) == -ERR_FORMAT);
	rawmerge_free(m);
}

static const char header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char tst_format[] =
	"name: tst\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int val;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"val=%d\", REC->val\n";

struct text {
	char buf[512];
	size_t len;
};

static int add_text(void *ctx, const char *line, size_t len)
{
	struct text *t = ctx;

	if (t->len + len < sizeof(t->buf)) {
		memcpy(t->buf + t->len, line, len);
		t->len += len;
		t->buf[t->len] = '\0';
	}
	return 0;
}

TEST(lines_as_the_kernel_writes_them)
{
	static unsigned char a[PAGE];
	const uint32_t d[] = { 0, 1000 };
	const int32_t v[] = { 7, -1 };
	struct rawtrace *rt;
	struct text t = { { 0 }, 0 };

	make_page(a, 1234567890000ULL, d, v, 2, MISSED);
	CHECK(!rawtrace_new(8, false, &rt));
	CHECK(!rawtrace_add_format(rt, "header_page", header_page, strlen(header_page)));
	CHECK(!rawtrace_add_format(rt, "test", tst_format, strlen(tst_format)));
	CHECK(!rawtrace_add_page(rt, 3, a, PAGE));
	CHECK(!rawtrace_flush(rt, add_text, &t));
	CHECK_STR(t.buf, "CPU:3 [LOST EVENTS]\n"
			 "           <...>-42      [003] .....  1234.567890: tst: val=7\n"
			 "           <...>-42      [003] .....  1234.567891: tst: val=-1\n");
	/* a name from saved_cmdlines, and a clock that counts no nanoseconds */
	rawtrace_add_cmdlines(rt, "42 worker\n", 10);
	rawtrace_set_style(rt, false, false);
	make_page(a, 99, d, v, 1, 0);
	CHECK(!rawtrace_add_page(rt, 0, a, PAGE));
	t.len = 0;
	CHECK(!rawtrace_flush(rt, add_text, &t));
	CHECK_STR(t.buf, "          worker-42      [000]            99: tst: val=7\n");
	rawtrace_free(rt);
}

int main(void)
{
	RUN(merge_orders_cpus_by_time);
	RUN(merge_refuses_a_page_claiming_more_than_it_holds);
	RUN(lines_as_the_kernel_writes_them);
	return unit_done();
}
