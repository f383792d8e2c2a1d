// SPDX-License-Identifier: GPL-2.0
/*
 * flare record: perf record's options, output and exit codes over lib/record.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/events.h"
#include "cli/exit-status.h"
#include "cli/flamegraph.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/event/live.h"
#include "lib/event/names.h"
#include "lib/event/open.h"
#include "lib/event/pmu.h"
#include "lib/event/target.h"
#include "lib/event/workload.h"
#include "lib/record/record.h"

#define DEFAULT_FREQ 4000
#define DEFAULT_MMAP_KB 512
#define DEFAULT_DWARF_SIZE 8192
#define DEFAULT_RT_PRIO 1 /* the drain's SCHED_FIFO priority when -r is not given */

struct record_cli {
	struct evlist evlist;
	size_t last_e;	/* the first evsel of the last -e */
	char **filters; /* per evsel, owned */
	size_t nr_filters;
	const char *pids, *tids, *cpus, *output, *freq, *mmap, *callgraph, *clockid;
	uint64_t period;
	int realtime;	/* -r, -1 when not given */
	int comp_level; /* -z */
	int all_cpus, no_inherit, quiet, g, sample_cpu, raw_samples;
	int no_buildid_cache; /* -N */
	int no_buildid;	      /* -B */
	int timestamp;	      /* -T, 1 unless --no-timestamp */
	int period_bit, data, no_bpf_event, all_user, all_kernel, stat, switch_events;
	int no_samples;
	int delay; /* -D ms, -1: never enabled */
};

static const char *const record_usage[] = {
	"flare record [<options>] [<command>]",
	"flare record [<options>] -- <command> [<options>]",
	NULL,
};

static int opt_event(const struct opt *o, const char *arg, int unset)
{
	struct record_cli *c = o->value;

	c->last_e = c->evlist.nr;
	return cli_add_events(&c->evlist, arg) < 0 ? -1 : 0;
}

/* One filter slot per evsel. */
static int grow_filters(struct record_cli *c)
{
	char **f;

	if (c->nr_filters >= c->evlist.nr)
		return 0;
	f = realloc(c->filters, c->evlist.nr * sizeof(*f));
	if (!f)
		return -ENOMEM;
	memset(f + c->nr_filters, 0, (c->evlist.nr - c->nr_filters) * sizeof(*f));
	c->filters = f;
	c->nr_filters = c->evlist.nr;
	return 0;
}

/* As perf 6.1: a filter joins the one already there, "(old) && (new)". */
static int append_filter(struct record_cli *c, size_t i, const char *arg)
{
	char *f;

	if (grow_filters(c))
		return -1;
	if (c->filters[i] ? asprintf(&f, "(%s) && (%s)", c->filters[i], arg) < 0
			  : !(f = strdup(arg)))
		return -1;
	free(c->filters[i]);
	c->filters[i] = f;
	return 0;
}

/* --filter on the events of the last -e (perf: all of them). */
static int opt_filter(const struct opt *o, const char *arg, int unset)
{
	struct record_cli *c = o->value;
	size_t i;

	if (!c->evlist.nr) {
		fprintf(stderr, "--filter option should follow a -e tracepoint option\n");
		return -1;
	}
	for (i = c->last_e; i < c->evlist.nr; i++)
		if (append_filter(c, i, arg))
			return -1;
	return 0;
}

/* -z / --compression-level[=N]: zstd level N (1 alone, or 0), as perf's. */
static int opt_comp_level(const struct opt *o, const char *arg, int unset)
{
	int *level = o->value;
	char *end;
	long v;

	if (unset) {
		*level = 0;
		return 0;
	}
	if (!arg) {
		*level = 1;
		return 0;
	}
	v = strtol(arg, &end, 10);
	if (end == arg || *end) {
		fprintf(stderr,
			"  Error: invalid compression level '%s' (give 1 (fastest) to 22 "
			"(smallest))\n",
			arg);
		return -1;
	}
	/* as perf: 0 is the default level, more than the maximum is the maximum */
	*level = v < 1 ? 1 : v > 22 ? 22 : (int)v;
	return 0;
}

/* --exclude-perf: the last -e's tracepoints leave out flare's own process, as perf's. */
static int opt_exclude_perf(const struct opt *o, const char *arg, int unset)
{
	struct record_cli *c = o->value;
	char f[64];
	size_t i;

	snprintf(f, sizeof(f), "common_pid != %d", (int)getpid());
	for (i = c->last_e; i < c->evlist.nr; i++)
		if (c->evlist.evsels[i].attr.type != PERF_TYPE_TRACEPOINT)
			break;
	if (!c->evlist.nr || i < c->evlist.nr) {
		fprintf(stderr, "--exclude-perf option should follow a -e tracepoint option\n");
		return -1;
	}
	for (i = c->last_e; i < c->evlist.nr; i++)
		if (append_filter(c, i, f))
			return -1;
	return 0;
}

/* -m: pages, or a size with B/K/M/G; rounded up to a power of two pages. As perf, no more
 * than UINT_MAX bytes' worth of pages (a larger count doubled past 2^63 and never ended). */
static int parse_mmap(const char *s, size_t *pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), p = 1;
	unsigned long long v, unit = 0, max = UINT_MAX / page, n;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || !v || errno || *s == '-')
		return -EINVAL;
	switch (*end) {
	case 0:
		unit = 0;
		break;
	case 'B':
	case 'b':
		unit = 1;
		break;
	case 'K':
	case 'k':
		unit = 1ULL << 10;
		break;
	case 'M':
	case 'm':
		unit = 1ULL << 20;
		break;
	case 'G':
	case 'g':
		unit = 1ULL << 30;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1])
		return -EINVAL;
	if (unit && v > ULLONG_MAX / unit)
		return -EINVAL;
	n = unit ? (v * unit + page - 1) / page : v;
	if (n > max)
		return -EINVAL;
	while (p < n)
		p <<= 1;
	*pages = p;
	return 0;
}

/* -k: perf's clock names (and their short forms) or a number. */
static int parse_clockid(const char *s, int *id)
{
	static const struct {
		const char *name;
		int id;
	} clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC },
		{ "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME },
		{ "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME },
		{ "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	const char *n = strncasecmp(s, "CLOCK_", 6) ? s : s + 6;
	size_t i;
	char *end;
	long v;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(n, clocks[i].name)) {
			*id = clocks[i].id;
			return 0;
		}
	v = strtol(s, &end, 10);
	if (end == s || *end || v < 0)
		return -EINVAL;
	*id = (int)v;
	return 0;
}

static int callgraph_mode(const char *s, struct record_opts *ro)
{
	char *end;

	if (!strcmp(s, "fp")) {
		ro->callgraph = RECORD_CG_FP;
		return 0;
	}
	if (!strncmp(s, "dwarf", 5) && (!s[5] || s[5] == ',')) {
		ro->callgraph = RECORD_CG_DWARF;
		ro->dwarf_stack_size = DEFAULT_DWARF_SIZE;
		if (s[5] == ',') {
			unsigned long v = strtoul(s + 6, &end, 0);

			if (end == s + 6 || *end || !v || v > 65528)
				return -EINVAL;
			ro->dwarf_stack_size = (uint32_t)((v + 7) & ~7UL);
		}
		return 0;
	}
	return -EINVAL;
}

/* --call-graph lbr needs a CPU PMU with a branch stack (Intel's LBR: the cpu PMU's
 * caps/branches); without one perf fails as the kernel refuses branch stack sampling. */
static int refuse_lbr(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/cpu/caps/branches", "r");
	int depth = 0;

	if (f) {
		if (fscanf(f, "%d", &depth) != 1)
			depth = 0;
		fclose(f);
	}
	if (depth > 0)
		pr_err("--call-graph lbr: flare does not record LBR call stacks (use "
		       "--call-graph dwarf, or fp for code built with frame pointers)");
	else
		pr_err("--call-graph lbr: this machine has no LBR (no hardware branch stack: %s; "
		       "use --call-graph dwarf, or fp for code built with frame pointers)",
		       have_hw_pmu() ? "the cpu PMU has no caps/branches" : "no hardware PMU");
	return EXIT_STATUS_PERF_ERR;
}

/* A cpu-clock or task-clock given with -e counts in msec (scale 1e-6), which perf records
 * as EVENT_UPDATE records of the event; its own default event has no unit. */
static void mark_clock_units(struct evlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		struct evsel *e = &l->evsels[i];

		if (e->attr.type == PERF_TYPE_SOFTWARE &&
		    (e->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		     e->attr.config == PERF_COUNT_SW_TASK_CLOCK) &&
		    !e->unit[0]) {
			snprintf(e->unit, sizeof(e->unit), "msec");
			e->scale = 1e-6;
		}
	}
}

/* perf record's default event: precise cycles of the host only, but of guests too on AMD,
 * where precise cycles go through IBS, which cannot filter (perf's
 * arch_evsel__fixup_new_cycles). */
static int default_event(struct evlist *l)
{
	struct perf_event_attr a = { 0 };
	unsigned int family, model, stepping;
	char vendor[13];

	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.precise_ip = 3;
	a.exclude_guest = cpu_id(vendor, &family, &model, &stepping) ||
			  strcmp(vendor, "AuthenticAMD");
	return evlist_add(l, &a, "cycles:P") ? 0 : -ENOMEM;
}

static uint64_t max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	unsigned long long v = 0;

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static int config_rate(struct record_cli *c, struct record_opts *ro)
{
	uint64_t max = max_sample_rate();
	char *end;

	ro->freq = DEFAULT_FREQ;
	if (c->period) {
		ro->period = c->period;
		ro->user_period = true;
		return 0;
	}
	if (c->freq) {
		ro->user_freq = true;
		if (!strcmp(c->freq, "max")) {
			ro->freq = max ? max : DEFAULT_FREQ;
		} else {
			ro->freq = strtoull(c->freq, &end, 10);
			if (end == c->freq || *end || !ro->freq) {
				pr_err("invalid frequency '%s' for -F (a number of Hz, or 'max')",
				       c->freq);
				return -1;
			}
		}
	}
	if (max && ro->freq > max) {
		pr_warn("-F %llu is above the kernel's limit; lowering it to %llu Hz "
			"(raise /proc/sys/kernel/perf_event_max_sample_rate for more)",
			(unsigned long long)ro->freq, (unsigned long long)max);
		ro->freq = max;
	}
	return 0;
}

/* 0, or the exit status for a bad target: perf's where it names one (a -p, -t or -C that
 * names nothing), else 1. */
static int config_target(struct record_cli *c, struct target *t)
{
	int bad = 0, err;

	if (c->pids && (err = target_add_pids(t, c->pids, &bad))) {
		if (err == -ESRCH)
			pr_err("no process %d for -p (check the pid with ps)", bad);
		else
			pr_err("invalid pid list '%s' for -p", c->pids);
		return EXIT_STATUS_ENOMEM; /* perf's status (-ENOMEM) for any -p it cannot use */
	}
	if (c->tids && (err = target_add_tids(t, c->tids, &bad))) {
		if (err == -ESRCH)
			pr_err("no thread %d for -t (check the tid in /proc/PID/task)", bad);
		else
			pr_err("invalid thread list '%s' for -t", c->tids);
		/* as perf: -1, or a usage error */
		return err == -ESRCH ? EXIT_STATUS_PERF_ERR : EXIT_STATUS_USAGE;
	}
	if (c->cpus && (err = target_set_cpus(t, c->cpus, &bad))) {
		if (err == -ENODEV)
			pr_err("cpu %d of -C '%s' is not online (see /sys/devices/system/cpu/online)",
			       bad, c->cpus);
		else
			pr_err("invalid cpu list '%s' for -C", c->cpus);
		/* as perf: -ENODEV, or a usage error */
		return err == -ENODEV ? EXIT_STATUS_ENODEV : EXIT_STATUS_USAGE;
	}
	if (c->all_cpus && !c->cpus && target_set_all_cpus(t)) {
		pr_err("cannot list the online CPUs");
		return 1;
	}
	return 0;
}

/* -D: perf's two lines around the delay; ctx is the record_cli */
static void on_enable(void *ctx, bool enabled)
{
	const struct record_cli *c = ctx;

	if (!c->quiet)
		fprintf(stderr, "%s\n", enabled ? "Events enabled" : "Events disabled");
}

/* --all-user, --all-kernel: an event counts in that mode only (perf's evsel__config). */
static void config_mode(const struct record_cli *c, struct perf_event_attr *a)
{
	if (c->all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	} else if (c->all_kernel) {
		a->exclude_kernel = 0;
		a->exclude_user = 1;
	}
}

/* -D: the side-band records come with a dummy event that follows the workload from its
 * exec, while the sampled events wait for the delay (perf's "dummy:HG"). */
static int add_dummy(struct record_cli *c)
{
	struct perf_event_attr a = { 0 };
	char name[32];

	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_period = 1;
	config_mode(c, &a);
	ev_mods_from_attr(&a, name + 5, sizeof(name) - 5);
	memcpy(name, "dummy", 5);
	return evlist_add(&c->evlist, &a, name) ? 0 : -ENOMEM;
}

static void print_result(const struct record_opts *ro, const struct record_stats *st)
{
	double mb = (double)st->bytes / 1024.0 / 1024.0;
	const char *P = out_progname; /* "perf" under that name, for scripts reading this */

	fprintf(stderr, "[ %s record: Woken up %llu times to write data ]\n", P,
		(unsigned long long)st->wakeups);
	if (out_verbose && st->rt_prio)
		fprintf(stderr, "[ %s record: drained at real-time priority %d ]\n", P,
			st->rt_prio);
	else if (out_verbose)
		fprintf(stderr, "[ %s record: drained at the normal priority%s ]\n", P,
			st->short_slice ? ", short slice" : "");
	if (ro->comp_level && st->comp_out)
		/* perf says no sample count here, and the ratio of what went through zstd */
		fprintf(stderr,
			"[ %s record: Captured and wrote %.3f MB %s, compressed (original "
			"%.3f MB, ratio is %.3f) ]\n",
			P, mb, ro->output, (double)st->comp_in / 1024.0 / 1024.0,
			(double)st->comp_in / (double)st->comp_out);
	else if (!strcmp(ro->output, "-"))
		fprintf(stderr, "[ %s record: Captured and wrote %.3f MB - ]\n", P, mb);
	else if (st->lost)
		fprintf(stderr,
			"[ %s record: Captured and wrote %.3f MB %s (%llu samples, "
			"%llu lost) ]\n",
			P, mb, ro->output, (unsigned long long)st->samples,
			(unsigned long long)st->lost);
	else
		fprintf(stderr, "[ %s record: Captured and wrote %.3f MB %s (%llu samples) ]\n", P,
			mb, ro->output, (unsigned long long)st->samples);
	if (strcmp(ro->output, "-") && st->samples && ro->callgraph != RECORD_CG_NONE)
		fprintf(stderr, FLAMEGRAPH_HINT_FMT "\n", ro->output);
}

/* The exit status once the recording ended: the workload's (perf's), else 128 + the signal
 * that stopped it (perf dies of it after writing). */
static int end_status(struct workload *wl, const struct live_signals *sig)
{
	int err;

	if (wl->started && (wl->pid > 0 || wl->status >= 0)) {
		if (sig->signo && wl->pid > 0)
			kill(wl->pid, SIGTERM);
		err = workload_wait(wl, NULL);
		return err >= 0 ? err : 0;
	}
	return sig->signo ? 128 + sig->signo : 0;
}

/* Runs the recording; returns the exit status. */
static int record(struct record_cli *c, struct record_opts *ro, int argc, char **argv)
{
	struct workload wl = WORKLOAD_INIT;
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct record_stats st = { 0 };
	char errbuf[512];
	int err, record_err, status = 0;

	/* with -p, -t, -a or -C the command only says how long to record, as in perf */
	bool profile_cmd = argc && !ro->target->tasks.nr && !ro->target->system_wide;

	/* from here on a Ctrl-C or SIGTERM ends in a finished file (see live.h) */
	err = live_signals_block(&sig);
	if (err) {
		pr_err("cannot set up the signals: %s", strerror(-err));
		return 1;
	}
	ro->pipe_fd = STDOUT_FILENO;
	if (!strcmp(ro->output, "-")) {
		/* stdout carries the data: the workload's output goes to stderr, as perf does */
		fflush(stdout);
		ro->pipe_fd = dup(STDOUT_FILENO);
		if (ro->pipe_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			pr_err("cannot set up standard output for the pipe format: %s",
			       strerror(errno));
			status = 1;
			goto out;
		}
	}
	if (argc) {
		err = workload_prepare(&wl, argv);
		if (!err && profile_cmd)
			err = target_set_workload(ro->target, wl.pid);
		if (err) {
			pr_err("cannot start '%s': %s", argv[0], strerror(-err));
			status = EXIT_STATUS_PERF_ERR;
			goto out;
		}
		ro->has_workload = profile_cmd;
		ro->workload = &wl;
	}
	if (!ro->target->cpus.nr && cpus_online(&ro->target->cpus)) {
		pr_err("cannot list the online CPUs (is /sys mounted?)");
		status = 1;
		goto out;
	}
	ro->sig = &sig;
	err = record_run(ro, &st, errbuf, sizeof(errbuf));
	record_err = err;
	live_signals_poll(&sig);
	if (err && sig.signo) {
		/* Ctrl-C or SIGTERM before the events were on (a workload it reached first died
		 * before flare could attach): nothing was recorded and nothing is left behind */
		pr_err("%s came before the recording started: nothing was recorded",
		       sig.signo == SIGINT ? "Ctrl-C (SIGINT)" : "SIGTERM");
		status = 128 + sig.signo;
	} else if (err && ro->has_workload && !errbuf[0]) {
		pr_err("cannot run '%s': %s (check the command name and PATH)", argv[0],
		       strerror(-err));
		status = EXIT_STATUS_PERF_ERR;
	} else if (err) {
		pr_err("%s", errbuf);
		status = 1;
	}
	live_signals_poll(&sig);
	if (!status)
		status = end_status(&wl, &sig);
	if (!record_err && st.cache_err < 0)
		pr_warn("cannot add the recording's objects to the build-id cache: %s "
			"(use -N not to)",
			err_str(st.cache_err));
	if (!record_err && !c->quiet)
		print_result(ro, &st);
out:
	workload_release(&wl);
	if (ro->pipe_fd != STDOUT_FILENO && ro->pipe_fd >= 0)
		close(ro->pipe_fd);
	live_signals_release(&sig);
	return status;
}

/* The options that only set flags of the recording. */
static void record_opts_flags(struct record_cli *c, struct record_opts *ro)
{
	ro->no_timestamp = !c->timestamp;
	ro->sample_period = c->period_bit;
	ro->sample_addr = c->data;
	ro->no_bpf_event = c->no_bpf_event;
	ro->switch_events = c->switch_events;
	ro->inherit_stat = c->stat;
	ro->no_samples = c->no_samples;
	ro->no_buildid = c->no_buildid;
	ro->buildid_cache = !c->no_buildid_cache && !c->no_buildid;
	ro->delay_ms = c->delay;
	ro->dummy_tracking = c->delay != 0;
	ro->on_enable = on_enable;
	ro->on_enable_ctx = c;
}

int cmd_record(int argc, char **argv)
{
	struct record_cli c = { .evlist = { 0 }, .realtime = -1, .timestamp = 1 };
	struct target t = { 0 };
	struct record_opts ro = { 0 };
	const struct opt opts[] = {
		OPT_CALLBACK('e', "event", &c, "event",
			     "event selector. use 'flare list' to list "
			     "available events",
			     opt_event),
		OPT_CALLBACK(0, "filter", &c, "filter", "event filter (for the last -e tracepoint)",
			     opt_filter),
		OPT_CALLBACK_OPTARG('z', "compression-level", &c.comp_level, "n",
				    "Compress records using specified level (default: 1 - fastest "
				    "compression, 22 - greatest compression)",
				    opt_comp_level),
		OPT_STRING('p', "pid", &c.pids, "pid", "record events on existing process id"),
		OPT_STRING('t', "tid", &c.tids, "tid", "record events on existing thread id"),
		OPT_BOOL('a', "all-cpus", &c.all_cpus, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &c.cpus, "cpu", "list of cpus to monitor"),
		OPT_STRING('F', "freq", &c.freq, "freq or 'max'", "profile at this frequency"),
		OPT_U64('c', "count", &c.period, "n", "event period to sample"),
		OPT_STRING('m', "mmap-pages", &c.mmap, "pages",
			   "number of mmap data pages "
			   "(or a size: 512K, 4M)"),
		OPT_BOOL('g', NULL, &c.g, "enables call-graph recording (frame pointers)"),
		OPT_STRING(0, "call-graph", &c.callgraph, "record_mode[,record_size]",
			   "setup and enables call-graph recording: fp, dwarf[,size]"),
		OPT_STRING('o', "output", &c.output, "file", "output file name ('-': stdout)"),
		OPT_BOOL('i', "no-inherit", &c.no_inherit, "child tasks do not inherit counters"),
		OPT_BOOL('R', "raw-samples", &c.raw_samples,
			 "collect raw sample records from all opened counters"),
		OPT_BOOL(0, "sample-cpu", &c.sample_cpu, "record the sample cpu"),
		OPT_STRING('k', "clockid", &c.clockid, "clockid",
			   "clockid to use for events, "
			   "see clock_gettime(): monotonic, monotonic_raw, realtime, boottime, tai"),
		OPT_INT('r', "realtime", &c.realtime, "n",
			"collect data with this RT SCHED_FIFO "
			"priority (default 1 when permitted, 0: none)"),
		OPT_BOOL('N', "no-buildid-cache", &c.no_buildid_cache,
			 "do not update the "
			 "buildid cache"),
		OPT_BOOL('B', "no-buildid", &c.no_buildid, "do not collect buildids in perf.data"),
		OPT_BOOL('T', "timestamp", &c.timestamp,
			 "Record the sample timestamps "
			 "(--no-timestamp: without them)"),
		OPT_BOOL('P', "period", &c.period_bit, "Record the sample period"),
		OPT_BOOL('d', "data", &c.data, "Record the sample addresses"),
		OPT_BOOL(0, "no-bpf-event", &c.no_bpf_event, "do not record bpf events"),
		OPT_BOOL(0, "all-user", &c.all_user,
			 "Configure all used events to run in user "
			 "space."),
		OPT_BOOL(0, "all-kernel", &c.all_kernel,
			 "Configure all used events to run in "
			 "kernel space."),
		OPT_INT('D', "delay", &c.delay, "n",
			"ms to wait before starting measurement after "
			"program start (-1: start with events disabled)"),
		OPT_CALLBACK_NOARG(0, "exclude-perf", &c, "don't record events from flare itself",
				   opt_exclude_perf),
		OPT_BOOL('s', "stat", &c.stat, "per thread counts"),
		OPT_BOOL(0, "switch-events", &c.switch_events, "Record context switch events"),
		OPT_BOOL('n', "no-samples", &c.no_samples, "don't sample"),
		OPT_BOOL('q', "quiet", &c.quiet, "don't print any message"),
		OPT_COUNT('v', "verbose", &out_verbose, "be more verbose"),
		OPT_END(),
	};
	char **full = calloc((size_t)argc + 2, sizeof(char *));
	int status, full_argc = argc + 1;

	if (!full) {
		pr_err("out of memory");
		return 1;
	}
	/* the CMDLINE feature holds flare's whole command line, as perf's holds its own */
	full[0] = (char *)"flare";
	memcpy(full + 1, argv, (size_t)argc * sizeof(char *));
	argc = opt_parse(argc, argv, opts, record_usage, OPT_STOP_AT_NON_OPTION);
	/* no command and no target: the whole system until Ctrl-C, as perf records it */
	if (!argc && !c.pids && !c.tids && !c.all_cpus && !c.cpus)
		c.all_cpus = 1;
	ro.raw_samples = c.raw_samples;
	ro.output = c.output ? c.output : "perf.data";
	ro.mmap_pages = DEFAULT_MMAP_KB * 1024 / (size_t)sysconf(_SC_PAGESIZE);
	if (c.mmap && parse_mmap(c.mmap, &ro.mmap_pages))
		opt_usage_error(opts, record_usage,
				"invalid -m '%s': a number of pages or a "
				"size such as 512K",
				c.mmap);
	if (c.g)
		ro.callgraph = RECORD_CG_FP;
	if (c.callgraph && !strcmp(c.callgraph, "lbr")) {
		free(full);
		return refuse_lbr();
	}
	if (c.callgraph && callgraph_mode(c.callgraph, &ro))
		opt_usage_error(opts, record_usage,
				"invalid --call-graph '%s': use fp or "
				"dwarf[,SIZE]",
				c.callgraph);
	if (c.clockid && parse_clockid(c.clockid, &ro.clockid))
		opt_usage_error(opts, record_usage,
				"invalid clockid '%s': use monotonic, "
				"monotonic_raw, realtime, boottime, tai or a number",
				c.clockid);
	ro.use_clockid = c.clockid != NULL;
	if (c.realtime < -1 || c.realtime > 99)
		opt_usage_error(opts, record_usage,
				"invalid -r %d: a SCHED_FIFO priority from 1 "
				"to 99, or 0 for none",
				c.realtime);
	ro.rt_prio = c.realtime < 0 ? DEFAULT_RT_PRIO : c.realtime;
	ro.rt_required = c.realtime > 0;
	if (c.all_user && c.all_kernel)
		opt_usage_error(opts, record_usage,
				"--all-kernel cannot be used with --all-user "
				"(give one of them)");
	if (c.delay < -1)
		opt_usage_error(opts, record_usage,
				"invalid -D %d: a delay in ms, or -1 to start "
				"with the events disabled",
				c.delay);
	status = 1;
	mark_clock_units(&c.evlist);
	if (!c.evlist.nr && default_event(&c.evlist))
		goto out;
	for (size_t i = 0; i < c.evlist.nr; i++)
		config_mode(&c, &c.evlist.evsels[i].attr);
	cli_fallback_cycles(&c.evlist,
			    c.evlist.nr == 1 && !strcmp(c.evlist.evsels[0].name, "cycles:P"));
	if (config_rate(&c, &ro)) {
		status = EXIT_STATUS_EINVAL; /* for -F 0, as perf */
		goto out;
	}
	if ((status = config_target(&c, &t)))
		goto out;
	status = 1;
	if (c.nr_filters && grow_filters(&c))
		goto out;
	if (c.delay && add_dummy(&c))
		goto out;
	/* perf: "Compression enabled, disabling build id collection at the end of the session"
	 * (no BUILD_ID feature, no build-id cache), as with -B */
	if (c.comp_level)
		c.no_buildid = 1;
	record_opts_flags(&c, &ro);
	ro.evlist = &c.evlist;
	ro.target = &t;
	ro.filters = (const char *const *)c.filters;
	ro.no_inherit = c.no_inherit;
	ro.comp_level = c.comp_level;
	ro.sample_cpu = c.sample_cpu || t.system_wide;
	ro.argc = full_argc;
	ro.argv = full;
	status = record(&c, &ro, argc, argv);
out:
	free(full);
	for (size_t i = 0; i < c.nr_filters; i++)
		free(c.filters[i]);
	free(c.filters);
	evlist_release(&c.evlist);
	target_release(&t);
	return status;
}
