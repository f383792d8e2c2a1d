// SPDX-License-Identifier: GPL-2.0
/* The sample filter (lib/session/filter.c): perf's --time grammar, cpu lists, the lists of
 * --comm and friends, and the chain rule. */
#include <errno.h>
#include "tests/unit/unit.h"
#include "lib/session/filter.h"

#define S 1000000000ULL

TEST(time_absolute)
{
	struct time_ranges tr = { 0 };

	CHECK(time_ranges_parse(&tr, "2175.6,2175.7", 0, 0) == 0);
	CHECK(tr.nr == 1 && tr.v[0].start == 2175 * S + 600000000 &&
	      tr.v[0].end == 2175 * S + 700000000);
	CHECK(!time_ranges_skip(&tr, 2175 * S + 600000000)); /* both ends inclusive */
	CHECK(!time_ranges_skip(&tr, 2175 * S + 700000000));
	CHECK(time_ranges_skip(&tr, 2175 * S + 700000001));
	CHECK(time_ranges_skip(&tr, 2175 * S + 599999999));
	CHECK(!time_ranges_skip(&tr, 0)); /* a sample without a time is kept */
	/* nine digits of fraction at most, either end open */
	CHECK(time_ranges_parse(&tr, "1.000000001,", 0, 0) == 0);
	CHECK(tr.v[0].start == S + 1 && tr.v[0].end == 0);
	CHECK(!time_ranges_skip(&tr, 100 * S));
	CHECK(time_ranges_parse(&tr, ",3", 0, 0) == 0);
	CHECK(tr.v[0].start == 0 && tr.v[0].end == 3 * S && time_ranges_skip(&tr, 4 * S));
	CHECK(time_ranges_parse(&tr, "1.0000000001,", 0, 0) == -EINVAL);
	time_ranges_release(&tr);
	CHECK(tr.nr == 0 && !tr.v);
}

TEST(time_several)
{
	struct time_ranges tr = { 0 };

	CHECK(time_ranges_parse(&tr, "1,2 3,4", 0, 0) == 0);
	CHECK(tr.nr == 2 && tr.v[1].start == 3 * S && tr.v[1].end == 4 * S);
	CHECK(!time_ranges_skip(&tr, 1 * S + 5));
	CHECK(time_ranges_skip(&tr, 2 * S + 5));
	CHECK(!time_ranges_skip(&tr, 4 * S));
	CHECK(time_ranges_skip(&tr, 5 * S));
	/* overlapping or out of order ranges, an end before its start: refused */
	CHECK(time_ranges_parse(&tr, "1,3 2,4", 0, 0) == -EINVAL);
	CHECK(time_ranges_parse(&tr, "2,1", 0, 0) == -EINVAL);
	CHECK(time_ranges_parse(&tr, "1", 0, 0) == -EINVAL);
	CHECK(time_ranges_parse(&tr, "a,b", 0, 0) == -EINVAL);
	CHECK(time_ranges_parse(&tr, "1,2,3", 0, 0) == -EINVAL);
	time_ranges_release(&tr);
}

TEST(time_percent)
{
	struct time_ranges tr = { 0 };
	uint64_t first = 10 * S, last = 20 * S;

	/* "10%/2": the second tenth; its end one ns short of the next slice */
	CHECK(time_ranges_parse(&tr, "10%/2", first, last) == 0);
	CHECK(tr.nr == 1 && tr.v[0].start == 11 * S && tr.v[0].end == 12 * S - 1);
	/* "50%": the first half */
	CHECK(time_ranges_parse(&tr, "50%", first, last) == 0);
	CHECK(tr.v[0].start == 10 * S && tr.v[0].end == 15 * S - 1);
	/* a slice reaching the end keeps the last sample */
	CHECK(time_ranges_parse(&tr, "0%-10%,90%-100%", first, last) == 0);
	CHECK(tr.nr == 2 && tr.v[1].start == 19 * S && tr.v[1].end == last);
	CHECK(!time_ranges_skip(&tr, last) && time_ranges_skip(&tr, 15 * S));
	CHECK(time_ranges_parse(&tr, "120%", first, last) == -EINVAL);
	CHECK(time_ranges_parse(&tr, "0%/1", first, last) == -EINVAL);
	CHECK(time_ranges_parse(&tr, "10%-x", first, last) == -EINVAL);
	time_ranges_release(&tr);
}

TEST(filter_time_reltime)
{
	struct sample_filter f = { 0 };
	struct perf_sample s = { .time = 12 * S, .cpu = 0 };

	/* --reltime: relative to the first sample */
	CHECK(sample_filter_set_time(&f, "1.5,3", 10 * S, 20 * S, true) == 0);
	CHECK(f.times.v[0].start == 11 * S + 500000000 && f.times.v[0].end == 13 * S);
	CHECK(sample_filter_when(&f, &s));
	s.time = 11 * S;
	CHECK(!sample_filter_when(&f, &s));
	/* as perf, an open end moves too (to the first sample) */
	CHECK(sample_filter_set_time(&f, "1.5,", 10 * S, 20 * S, true) == 0);
	CHECK(f.times.v[0].end == 10 * S);
	sample_filter_release(&f);
}

TEST(cpu_lists)
{
	struct sample_filter f = { 0 };
	struct perf_sample s = { .cpu = 2 };
	uint64_t bits[FILTER_MAX_CPUS / 64];

	CHECK(filter_cpu_list("0,2-3", bits) == 0);
	CHECK(bits[0] == 0xd);
	CHECK(filter_cpu_list("0x1,4", bits) == 0 && bits[0] == 0x12); /* strtoul base 0 */
	CHECK(filter_cpu_list("1,1", bits) == -EINVAL);
	CHECK(filter_cpu_list("3-1", bits) == -EINVAL);
	CHECK(filter_cpu_list("x", bits) == -EINVAL);
	CHECK(filter_cpu_list("4096", bits) == -EINVAL);
	CHECK(sample_filter_cpu(&f, 77)); /* no -C: every CPU */
	CHECK(sample_filter_set_cpus(&f, "1-2") == 0);
	CHECK(sample_filter_cpu(&f, 1) && !sample_filter_cpu(&f, 0) &&
	      !sample_filter_cpu(&f, 5000));
	CHECK(sample_filter_when(&f, &s));
	s.cpu = 3;
	CHECK(!sample_filter_when(&f, &s));
	sample_filter_release(&f);
	CHECK(!f.cpus);
}

TEST(lists_and_what)
{
	struct thread t = { .pid = 10, .tid = 11, .comm = "worker" };
	struct dso d = { .short_name = "[kernel.kallsyms]", .long_name = "/boot/vmlinux" };
	struct symbol sym = { .name = "schedule" };
	struct frame fr = { .dso = &d, .sym = &sym };
	struct perf_sample s = { 0 };
	struct resolved_sample rs = { .s = &s, .thread = &t, .frames = &fr, .nr_frames = 1 };
	struct sample_filter f = { 0 };

	CHECK(filter_list_has("a,worker,b", "worker"));
	CHECK(!filter_list_has("a,worker2", "worker"));
	CHECK(!filter_list_has("worker", NULL));
	CHECK(filter_list_has_num("9,11", 11) && !filter_list_has_num("111", 11));
	CHECK(sample_filter_what(&f, &rs));
	f.comm = "x,worker";
	f.pid = "10";
	f.tid = "11";
	f.dso = "/boot/vmlinux"; /* the long name counts too */
	f.symbols = "schedule";
	CHECK(sample_filter_what(&f, &rs));
	f.symbols = "other";
	CHECK(!sample_filter_what(&f, &rs));
	f.symbols = NULL;
	f.tid = "10";
	CHECK(!sample_filter_what(&f, &rs));
	f.tid = NULL;
	fr.sym = NULL;
	f.symbols = "schedule"; /* a frame without a symbol matches no -S */
	CHECK(!sample_filter_what(&f, &rs));
}

TEST(chain_rule)
{
	uint64_t ok[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL, PERF_CONTEXT_USER, 0x401000 };
	uint64_t bad[] = { PERF_CONTEXT_KERNEL, 1, PERF_CONTEXT_GUEST_KERNEL, 2 };
	struct perf_sample s = { .callchain = ok, .nr_callchain = 4 };

	CHECK(!sample_chain_dropped(&s));
	s.callchain = bad;
	CHECK(sample_chain_dropped(&s));
	s.callchain = NULL;
	CHECK(!sample_chain_dropped(&s));
	CHECK(chain_marker_mode(PERF_CONTEXT_HV) == PERF_RECORD_MISC_HYPERVISOR);
	CHECK(chain_marker_mode(PERF_CONTEXT_GUEST) == 0);
}

int main(void)
{
	RUN(time_absolute);
	RUN(time_several);
	RUN(time_percent);
	RUN(filter_time_reltime);
	RUN(cpu_lists);
	RUN(lists_and_what);
	RUN(chain_rule);
	return unit_done();
}
