// SPDX-License-Identifier: GPL-2.0
/* The event model: spec parsing, cache names, modifiers, target lists, workload start. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/unit.h"
#include "lib/base/err.h"
#include "lib/event/evlist.h"
#include "lib/event/names.h"
#include "lib/event/open.h"
#include "lib/event/pmu.h"
#include "lib/event/target.h"
#include "lib/event/workload.h"
#include "lib/trace/tp.h"

static int parse(struct evlist *l, const char *spec, struct evparse_err *e)
{
	return evlist_add_spec(l, spec, e);
}

TEST(spec_symbolic)
{
	struct evlist l = { 0 };
	struct evparse_err e;

	CHECK(parse(&l, "cycles,cpu-cycles,cs,faults,task-clock,branches,ref-cycles", &e) == 0);
	CHECK(l.nr == 7);
	CHECK(l.evsels[0].attr.type == PERF_TYPE_HARDWARE);
	CHECK(l.evsels[0].attr.config == PERF_COUNT_HW_CPU_CYCLES);
	CHECK(l.evsels[1].attr.config == PERF_COUNT_HW_CPU_CYCLES);
	CHECK(l.evsels[2].attr.type == PERF_TYPE_SOFTWARE);
	CHECK(l.evsels[2].attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES);
	CHECK_STR(l.evsels[2].name, "cs");
	CHECK(l.evsels[3].attr.config == PERF_COUNT_SW_PAGE_FAULTS);
	CHECK(l.evsels[5].attr.config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	CHECK(l.evsels[6].attr.config == PERF_COUNT_HW_REF_CPU_CYCLES);
	CHECK(l.evsels[0].group_idx == -1);
	CHECK(l.evsels[0].attr.size == sizeof(struct perf_event_attr));
	CHECK(parse(&l, "duration_time,user_time:u", &e) == 0);
	CHECK(l.evsels[7].tool == EV_TOOL_DURATION && l.evsels[8].tool == EV_TOOL_USER);
	CHECK(l.evsels[7].attr.type == PERF_TYPE_SOFTWARE && !l.evsels[0].tool);
	evlist_release(&l);
}

TEST(spec_modifiers)
{
	struct evlist l = { 0 };
	struct evparse_err e;

	CHECK(parse(&l, "cycles:u,cs:k,instructions:ppp,task-clock:uk,faults:D", &e) == 0);
	CHECK(l.evsels[0].attr.exclude_kernel && !l.evsels[0].attr.exclude_user);
	CHECK(l.evsels[0].attr.exclude_hv && l.evsels[0].attr.exclude_guest);
	CHECK_STR(l.evsels[0].name, "cycles:u");
	CHECK(l.evsels[1].attr.exclude_user && !l.evsels[1].attr.exclude_kernel);
	/* perf 6.1: only u and p exclude the guest of a modified event (cycles:k is cpu-clock:k
	 * after the fallback, not cpu-clock:kH) */
	CHECK(!l.evsels[1].attr.exclude_guest && !l.evsels[1].attr.exclude_host);
	CHECK(l.evsels[2].attr.exclude_guest);
	CHECK(!l.evsels[4].attr.exclude_guest && l.evsels[4].attr.pinned);
	CHECK(l.evsels[2].attr.precise_ip == 3);
	CHECK(!l.evsels[3].attr.exclude_user && !l.evsels[3].attr.exclude_kernel);
	CHECK(l.evsels[3].attr.exclude_hv);
	CHECK(l.evsels[4].attr.pinned);
	CHECK(parse(&l, "cs:z", &e) == -ERR_EVENT_SYNTAX);
	CHECK(e.pos == 3);
	CHECK(parse(&l, "cycles:pppp", &e) == -ERR_EVENT_SYNTAX);
	CHECK(parse(&l, "cs:uku", &e) == -ERR_EVENT_SYNTAX && e.pos == 5);
	CHECK(parse(&l, "{cs:S,faults}:SS", &e) == -ERR_EVENT_SYNTAX);
	CHECK(l.nr == 5);
	evlist_release(&l);
}

TEST(spec_cache)
{
	struct evlist l = { 0 };
	struct evparse_err e;
	uint64_t c;
	char buf[64];
	size_t i;

	CHECK(ev_cache_parse("L1-dcache-load-misses", &c) == 0);
	CHECK(c == (PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
		    PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	CHECK(ev_cache_parse("l1d-stores", &c) == 0 && c == (PERF_COUNT_HW_CACHE_OP_WRITE << 8));
	CHECK(ev_cache_parse("LLC", &c) == 0 && c == PERF_COUNT_HW_CACHE_LL);
	CHECK(ev_cache_parse("dTLB-misses", &c) == 0);
	CHECK(c == (PERF_COUNT_HW_CACHE_DTLB | PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	CHECK(ev_cache_parse("branch-loads", &c) == 0 && c == PERF_COUNT_HW_CACHE_BPU);
	CHECK(ev_cache_parse("L1-icache-stores", &c) == -EINVAL);
	CHECK(ev_cache_parse("L1-dcache-bogus", &c) == -ENOENT);
	CHECK(ev_cache_parse("iTLB-speculative-read", &c) == -EINVAL);
	for (i = 0; ev_cache_name(i, buf, sizeof(buf), &c) == 0; i++) {
		uint64_t back;

		CHECK(ev_cache_parse(buf, &back) == 0 && back == c);
	}
	CHECK(i == 32);
	CHECK(parse(&l, "L1-dcache-loads,LLC-load-misses:u,node-stores", &e) == 0);
	CHECK(l.evsels[1].attr.type == PERF_TYPE_HW_CACHE);
	evlist_release(&l);
}

TEST(spec_raw_pmu_bp)
{
	struct evlist l = { 0 };
	struct evparse_err e;

	CHECK(parse(&l, "r01c4,r1234:u", &e) == 0);
	CHECK(l.evsels[0].attr.type == PERF_TYPE_RAW && l.evsels[0].attr.config == 0x1c4);
	CHECK(parse(&l, "mem:0x1000/8:rw,mem:0x2000:x,mem:4096", &e) == 0);
	CHECK(l.evsels[2].attr.type == PERF_TYPE_BREAKPOINT);
	CHECK(l.evsels[2].attr.bp_addr == 0x1000 && l.evsels[2].attr.bp_len == 8);
	CHECK(l.evsels[2].attr.bp_type == 3);
	CHECK(l.evsels[3].attr.bp_type == 4 && l.evsels[3].attr.bp_len == sizeof(long));
	CHECK(l.evsels[4].attr.bp_len == 4 && l.evsels[4].attr.bp_type == 3);
	CHECK(parse(&l, "mem:0x1000/3", &e) == -ERR_EVENT_SYNTAX);
	CHECK(parse(&l, "mem:0x1000:rz", &e) == -ERR_EVENT_SYNTAX && e.pos == 11);
	CHECK(parse(&l, "mem:0x1000:rr", &e) == -ERR_EVENT_SYNTAX && e.pos == 12);
	CHECK(parse(&l, "mem:0x1000:w:u,mem:0x2000:k", &e) == 0);
	CHECK(l.evsels[l.nr - 2].attr.bp_type == 2 && l.evsels[l.nr - 2].attr.exclude_kernel);
	CHECK(l.evsels[l.nr - 1].attr.bp_type == 3 && l.evsels[l.nr - 1].attr.exclude_user);
	l.nr -= 2;
	free(l.evsels[l.nr].name);
	free((char *)l.evsels[l.nr].pmu_name);
	free(l.evsels[l.nr + 1].name);
	free((char *)l.evsels[l.nr + 1].pmu_name);
	if (access("/sys/bus/event_source/devices/msr/format/event", F_OK) == 0) {
		CHECK(parse(&l, "msr/tsc/,msr/event=0x4/u,msr/event=0x4,name=smi2/", &e) == 0);
		CHECK(l.evsels[5].attr.config == 0 && l.evsels[6].attr.config == 4);
		CHECK_STR(l.evsels[5].name, "msr/tsc/");
		CHECK_STR(l.evsels[7].name, "smi2");
		CHECK(l.evsels[6].attr.exclude_kernel);
		CHECK(parse(&l, "msr/foo/", &e) == -ERR_EVENT_UNKNOWN && e.pos == 4);
		CHECK(parse(&l, "msr/event=tsc/", &e) == 0);
		CHECK(l.evsels[l.nr - 1].attr.type == l.evsels[5].attr.type);
		CHECK(parse(&l, "msr/event=nosuch/", &e) == -ERR_EVENT_UNKNOWN && e.pos == 10);
		CHECK(parse(&l, "msr/event=tsc=1/", &e) == -ERR_EVENT_SYNTAX);
	}
	CHECK(parse(&l, "nopmu/event=1/", &e) == -ERR_EVENT_UNKNOWN && e.pos == 0);
	evlist_release(&l);
}

TEST(spec_groups)
{
	struct evlist l = { 0 };
	struct evparse_err e;

	CHECK(parse(&l, "cs,{task-clock,faults}:S,{cycles,instructions}:u", &e) == 0);
	CHECK(l.nr == 5);
	CHECK(l.evsels[0].group_idx == -1);
	CHECK(l.evsels[1].is_leader && l.evsels[1].nr_members == 2 && l.evsels[1].group_idx == 1);
	CHECK(l.evsels[2].group_idx == 1 && !l.evsels[2].is_leader && l.evsels[2].sample_read);
	CHECK_STR(l.evsels[2].name, "faults");
	CHECK(l.evsels[4].group_idx == 3 && l.evsels[4].attr.exclude_kernel);
	CHECK(parse(&l, "{cs,{faults}}", &e) == -ERR_EVENT_SYNTAX);
	CHECK(parse(&l, "{cs,faults", &e) == -ERR_EVENT_SYNTAX);
	CHECK(parse(&l, "cs,,faults", &e) == -ERR_EVENT_SYNTAX && e.pos == 3);
	CHECK(parse(&l, "cyclez", &e) == -ERR_EVENT_UNKNOWN && e.pos == 0);
	CHECK(strstr(e.hint, "cycles") != NULL);
	CHECK(l.nr == 5);
	evlist_release(&l);
}

TEST(spec_tracepoints)
{
	struct evlist l = { 0 };
	struct evparse_err e;
	const char *dir;
	size_t i;

	if (tp_tracefs_dir(&dir)) {
		SKIP(spec_tracepoints, "no tracefs");
		unit_failed_now = -1;
		return;
	}
	CHECK(parse(&l, "sched:sched_switch,syscalls:sys_enter_open*", &e) == 0);
	CHECK(l.nr >= 3);
	CHECK(l.evsels[0].attr.type == PERF_TYPE_TRACEPOINT && l.evsels[0].attr.config > 0);
	CHECK_STR(l.evsels[0].tp_sys, "sched");
	CHECK_STR(l.evsels[0].tp_name, "sched_switch");
	for (i = 1; i < l.nr; i++)
		CHECK(!strncmp(l.evsels[i].name, "syscalls:sys_enter_open", 23));
	CHECK(parse(&l, "sched:nosuch", &e) == -ERR_EVENT_UNKNOWN && e.pos == 0);
	CHECK(parse(&l, "sched:sched_switch:u", &e) == 0);
	CHECK_STR(l.evsels[l.nr - 1].name, "sched:sched_switch:u");
	CHECK(parse(&l, "sched:sched_switch//,sched:sched_switch/name=sw/k", &e) == 0);
	CHECK_STR(l.evsels[l.nr - 2].name, "sched:sched_switch");
	CHECK_STR(l.evsels[l.nr - 1].name, "sw");
	CHECK(l.evsels[l.nr - 1].attr.exclude_user && l.evsels[l.nr - 1].tp_name);
	CHECK(parse(&l, "sched:nosuch/name=x/", &e) == -ERR_EVENT_UNKNOWN && e.pos == 0);
	CHECK(parse(&l, "sched_switch", &e) == -ERR_EVENT_UNKNOWN);
	CHECK(strstr(e.hint, "did you mean the tracepoint 'sched:sched_switch'?") != NULL);
	evlist_release(&l);
}

TEST(spec_named_terms)
{
	struct evlist l = { 0 };
	struct evparse_err e;

	CHECK(parse(&l, "cpu-clock/period=1000/u,cs/name=sw/,L1-dcache-loads/freq=99/", &e) == 0);
	CHECK(l.nr == 3);
	CHECK_STR(l.evsels[0].name, "cpu-clock/period=1000/u");
	CHECK(l.evsels[0].attr.type == PERF_TYPE_SOFTWARE);
	CHECK(l.evsels[0].attr.sample_period == 1000 && !l.evsels[0].attr.freq);
	CHECK(l.evsels[0].attr.exclude_kernel && !l.evsels[0].attr.exclude_user);
	CHECK_STR(l.evsels[1].name, "sw");
	CHECK(l.evsels[1].attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES);
	CHECK(l.evsels[2].attr.type == PERF_TYPE_HW_CACHE && l.evsels[2].attr.freq);
	CHECK(l.evsels[2].attr.sample_freq == 99);
	CHECK(parse(&l, "cs,cpu-clock/nosuch-term=1/", &e) == -ERR_EVENT_UNKNOWN && e.pos == 13);
	CHECK(parse(&l, "cpu-clock/call-graph=lbr/", &e) == -ERR_EVENT_SYNTAX);
	CHECK(parse(&l, "cpu-clock/period=x/", &e) == -ERR_EVENT_SYNTAX && e.pos == 10);
	CHECK(parse(&l, "nosuch/period=1/", &e) == -ERR_EVENT_UNKNOWN && strstr(e.msg, "pmu"));
	CHECK(l.nr == 3);
	evlist_release(&l);
}

TEST(target_lists)
{
	struct idlist l = { 0 };
	struct target t = { 0 };
	int bad;

	CHECK(idlist_parse("0-2,5,1", &l, &bad) == 0);
	CHECK(l.nr == 4 && l.ids[0] == 0 && l.ids[3] == 5);
	idlist_release(&l);
	CHECK(idlist_parse("0-x", &l, &bad) == -EINVAL && bad == 2);
	idlist_release(&l);
	CHECK(idlist_parse("3-1", &l, &bad) == -EINVAL);
	idlist_release(&l);
	CHECK(idlist_parse("1,", &l, &bad) == -EINVAL);
	idlist_release(&l);
	CHECK(target_set_cpus(&t, "0", &bad) == 0 && target_nr_cpus(&t) == 1);
	CHECK(target_set_cpus(&t, "4000", &bad) == -ENODEV && bad == 4000);
	CHECK(target_add_pids(&t, "999999999", &bad) == -EINVAL);
	CHECK(target_add_pids(&t, "4194000", &bad) == -ESRCH && bad == 4194000);
	CHECK(target_add_pids(&t, "1", &bad) == 0 && t.tasks.nr >= 1);
	CHECK(target_task(&t, 0) >= 1 && target_cpu(&t, 0) == 0);
	target_release(&t);
}

TEST(workload_run)
{
	struct workload w = WORKLOAD_INIT;
	char *ok[] = { (char *)"sh", (char *)"-c", (char *)"exit 7", NULL };
	char *sig[] = { (char *)"sh", (char *)"-c", (char *)"kill -9 $$", NULL };
	char *missing[] = { (char *)"/nonexistent/flare-nothing", NULL };

	CHECK(workload_prepare(&w, ok) == 0 && w.pid > 0);
	CHECK(workload_start(&w) == 0);
	CHECK(workload_wait(&w, NULL) == 7);
	workload_release(&w);
	CHECK(workload_prepare(&w, sig) == 0);
	CHECK(workload_start(&w) == 0);
	CHECK(workload_wait(&w, NULL) == 128 + 9);
	workload_release(&w);
	CHECK(workload_prepare(&w, missing) == 0);
	CHECK(workload_start(&w) == -ENOENT);
	workload_release(&w);
	CHECK(workload_prepare(&w, ok) == 0);
	workload_release(&w); /* never started: killed and reaped */
	CHECK(w.pid == 0);
}

TEST(open_reason)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a) };
	char buf[256];
	int r = event_probe(&a);

	if (!have_hw_pmu()) {
		CHECK(r < 0);
		CHECK_STR(event_open_reason(&a, r, buf, sizeof(buf)),
			  "no hardware PMU: this is a VM guest");
	}
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	CHECK(event_probe(&a) == 0);
	CHECK(strstr(event_open_reason(&a, -EACCES, buf, sizeof(buf)), "paranoid"));
}

TEST(open_read_counts)
{
	struct perf_event_attr a = { .size = sizeof(a),
				     .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_TASK_CLOCK,
				     .disabled = 1,
				     .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
						    PERF_FORMAT_TOTAL_TIME_RUNNING };
	struct target t = { 0 };
	struct evfds f = { 0 };
	struct counts c;
	volatile unsigned long x = 0;
	unsigned long i;

	CHECK(target_set_workload(&t, getpid()) == 0);
	CHECK(target_nr_tasks(&t) == 1 && target_nr_cpus(&t) == 1 && target_cpu(&t, 0) == -1);
	CHECK(evfds_open(&f, &a, &t, NULL) == 0 && f.fd[0] >= 0);
	CHECK(evfds_read(&f, 0, &c) == 0 && c.val == 0);
	CHECK(evfds_enable(&f, 1) == 0);
	for (i = 0; i < 3000000; i++)
		x += i;
	CHECK(evfds_enable(&f, 0) == 0);
	CHECK(evfds_read(&f, 0, &c) == 0);
	CHECK(c.val > 0 && c.run > 0 && c.ena >= c.run);
	/* a filter on a software event is refused by the kernel */
	CHECK(evfds_set_filter(&f, "common_pid == 1") < 0);
	evfds_close(&f);
	CHECK(f.fd == NULL);
	evfds_close(&f); /* twice is fine */
	target_release(&t);
}

TEST(cpus_and_threads)
{
	struct idlist on = { 0 };
	struct target t = { 0 };
	char mask[64];
	int s, d, c;

	CHECK(cpus_online(&on) == 0 && on.nr >= 1 && on.ids[0] == 0);
	cpu_topology(0, &s, &d, &c);
	CHECK(s >= 0 && d >= 0 && c >= 0);
	CHECK(cpu_node(0) >= 0);
	idlist_release(&on);
	CHECK(target_add_all_threads(&t) == 0 && t.tasks.nr > 1);
	target_release(&t);
	CHECK(pmu_cpumask("software", mask, sizeof(mask)) == -ENOENT);
	CHECK(pmu_cpumask("../..", mask, sizeof(mask)) == -ENOENT);
}

int main(void)
{
	RUN(spec_symbolic);
	RUN(spec_modifiers);
	RUN(spec_cache);
	RUN(spec_raw_pmu_bp);
	RUN(spec_groups);
	RUN(spec_tracepoints);
	RUN(spec_named_terms);
	RUN(target_lists);
	RUN(workload_run);
	RUN(open_reason);
	RUN(open_read_counts);
	RUN(cpus_and_threads);
	return unit_done();
}
