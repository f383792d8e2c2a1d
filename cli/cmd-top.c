// SPDX-License-Identifier: GPL-2.0
/*
 * flare top: a live profile of the system (or of -p/-t tasks, -C CPUs) as perf top shows
 * it, refreshed every -d seconds: in the terminal browser, or with --stdio as text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/events.h"
#include "cli/exit-status.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/top.h"
#include "cli/tui.h"
#include "lib/base/err.h"
#include "lib/event/live.h"
#include "lib/event/open.h"
#include "lib/event/target.h"

#define TOP_FREQ 4000
#define TOP_MMAP_KB 512

static const char *const top_usage[] = {
	"flare top [<options>]",
	NULL,
};

struct top_cli {
	struct evlist evlist;
	const char *pids, *tids, *cpus, *callgraph, *kallsyms;
	const char *comms, *dsos, *symbols, *sort;
	int all, g, children, stdio, tui, zero, hide_k, hide_u, show_nr, realtime, verbose;
	int delay, entries;
	const char *delay_str;
	uint64_t period, freq;
	double percent_limit;
};

static int opt_event(const struct opt *o, const char *arg, int unset)
{
	struct top_cli *c = o->value;

	return cli_add_events(&c->evlist, arg) < 0 ? -1 : 0;
}

/* perf top's default: precise cycles, or with no PMU cpu-clock (said in one line). */
static int default_event(struct evlist *l)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.precise_ip = 3;
	if (!evlist_add(l, &a, "cycles:P"))
		return -ENOMEM;
	cli_fallback_cycles(l, true);
	return 0;
}

/* The target, and its text in the header: "(all, 2 CPUs)", "(target_pid: 42)". 0, or the
 * exit status with the reason said. */
static int setup_target(const struct top_cli *c, struct target *t, struct top_view *v)
{
	int bad = 0, err;

	if (c->pids && (err = target_add_pids(t, c->pids, &bad))) {
		pr_err(err == -ESRCH ? "no process %d for -p (check the pid with ps)"
				     : "invalid pid list for -p",
		       bad);
		return EXIT_STATUS_FAIL;
	}
	if (c->tids && (err = target_add_tids(t, c->tids, &bad))) {
		pr_err(err == -ESRCH ? "no thread %d for -t (check the tid in /proc/PID/task)"
				     : "invalid thread list for -t",
		       bad);
		return EXIT_STATUS_FAIL;
	}
	if (c->cpus && (err = target_set_cpus(t, c->cpus, &bad))) {
		pr_err("cpu list '%s' for -C names no online CPU (see "
		       "/sys/devices/system/cpu/online)",
		       c->cpus);
		return EXIT_STATUS_FAIL;
	}
	if (!c->pids && !c->tids && !c->cpus && target_set_all_cpus(t)) {
		pr_err("cannot list the online CPUs");
		return EXIT_STATUS_FAIL;
	}
	if (!t->cpus.nr && cpus_online(&t->cpus)) {
		pr_err("cannot list the online CPUs");
		return EXIT_STATUS_FAIL;
	}
	if (c->pids)
		snprintf(v->target, sizeof(v->target), "(target_pid: %s)", c->pids);
	else if (c->tids)
		snprintf(v->target, sizeof(v->target), "(target_tid: %s)", c->tids);
	else if (c->cpus)
		snprintf(v->target, sizeof(v->target), "(all, CPU%s: %s)",
			 t->cpus.nr > 1 ? "s" : "", c->cpus);
	else
		snprintf(v->target, sizeof(v->target), "(all, %zu CPU%s)", t->cpus.nr,
			 t->cpus.nr > 1 ? "s" : "");
	return 0;
}

/* As perf top: without -E, the entries that fit the terminal under the header (its rows,
 * else $LINES, else 25). */
static int screen_entries(void)
{
	struct winsize ws;
	const char *env = getenv("LINES");
	int rows = 25;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row)
		rows = ws.ws_row;
	else if (env && atoi(env) > 0)
		rows = atoi(env);
	return rows > 8 ? rows - 7 : 1;
}

/* The display side: sort keys, call graphs, children, filters. 0 or -1 (said). */
static int setup_view(struct top_cli *c, struct top_view *v, bool chains)
{
	struct report_opts *o = &v->ro;
	char bad[64], err[512];

	o->quiet = 1; /* the rows only: perf top prints no column header */
	o->sort = c->sort;
	o->show_nr = c->show_nr;
	o->percent_limit = c->percent_limit;
	o->max_entries = c->entries ? c->entries : screen_entries();
	o->comm = c->comms;
	o->dso = c->dsos;
	o->symbols = c->symbols;
	o->cg_min_percent = 0.5;
	o->cg_mode = chains ? CG_GRAPH_ABS : CG_NONE;
	if (c->callgraph && report_parse_callgraph(o, c->callgraph, err, sizeof(err))) {
		pr_err("%s", err);
		return -1;
	}
	if (!chains)
		o->cg_mode = CG_NONE;
	if (hist_parse_sort(c->sort ? c->sort : "dso,sym", &v->hopts, bad, sizeof(bad))) {
		pr_err("unknown --sort key '%s' (use comm, pid, dso, sym, cpu, trace or a "
		       "comma-separated list of them)",
		       bad);
		return -1;
	}
	o->sort_starts_with_sym = c->sort && !strncmp(c->sort, "sym", 3);
	/* as perf top: with call chains, children unless --no-children */
	v->hopts.children = chains && c->children != 0;
	v->hopts.callchain = chains && o->cg_mode != CG_NONE;
	v->hopts.caller_order = o->cg_order_set ? o->cg_caller : v->hopts.children;
	v->hopts.addr_key = o->cg_addr;
	for (size_t i = 0; i < v->hopts.nr_keys; i++)
		v->need_trace |= v->hopts.keys[i] == HK_TRACE;
	v->filter.comm = c->comms;
	v->filter.dso = c->dsos;
	v->filter.symbols = c->symbols;
	v->hide_kernel = c->hide_k;
	v->hide_user = c->hide_u;
	v->zero = c->zero;
	v->delay_s = c->delay;
	return 0;
}

/* --stdio: the screen cleared and printed again every -d seconds, until the recording
 * ends (Ctrl-C, SIGTERM, the -p tasks gone). */
static int run_stdio(struct top_view *v)
{
	uint64_t next = live_now_ns() + (uint64_t)v->delay_s * 1000000000ULL;
	char *buf = NULL;
	size_t len = 0;
	int err = 0;

	while (!err && top_running(v->top)) {
		struct timespec ts = { 0, 50 * 1000000L };
		FILE *m;

		if (live_now_ns() < next) {
			nanosleep(&ts, NULL);
			continue;
		}
		next += (uint64_t)v->delay_s * 1000000000ULL;
		m = open_memstream(&buf, &len);
		if (!m)
			return -ENOMEM;
		fputs("\033[H\033[2J", m);
		err = top_view_render(v, m);
		fclose(m);
		if (!err && (fwrite(buf, 1, len, stdout) != len || fflush(stdout)))
			err = -EIO;
		free(buf);
		buf = NULL;
	}
	return err;
}

static void record_setup(struct top_cli *c, struct record_opts *ro, struct target *t,
			 struct top_view *v)
{
	const struct perf_event_attr *a;

	ro->evlist = &c->evlist;
	ro->target = t;
	ro->freq = c->freq ? c->freq : TOP_FREQ;
	ro->user_freq = c->freq != 0;
	ro->period = c->period;
	ro->user_period = c->period != 0;
	ro->mmap_pages = TOP_MMAP_KB * 1024 / (size_t)sysconf(_SC_PAGESIZE);
	ro->sample_cpu = true;
	ro->no_buildid = true;
	ro->rt_prio = c->realtime;
	ro->rt_required = c->realtime > 0;
	if (c->g || c->callgraph)
		ro->callgraph = c->callgraph && strstr(c->callgraph, "dwarf") ? RECORD_CG_DWARF
									      : RECORD_CG_FP;
	ro->dwarf_stack_size = 8192;
	/* the header shows the first event's rate as the kernel was given it */
	record_config(ro);
	a = &c->evlist.evsels[0].attr;
	snprintf(v->rate, sizeof(v->rate), "%llu%s ", (unsigned long long)a->sample_period,
		 a->freq ? "Hz" : "");
	v->ev_name = c->evlist.evsels[0].name;
}

static int run(struct top_cli *c, struct top_view *v, struct record_opts *ro)
{
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct top_opts to = { 0 };
	struct record_stats st;
	char msg[512];
	int err;

	if ((err = live_signals_block(&sig))) {
		pr_err("cannot block signals: %s", err_str(err));
		return EXIT_STATUS_FAIL;
	}
	ro->sig = &sig;
	to.rec = ro;
	to.sess.kallsyms = c->kallsyms;
	to.on_sample = top_view_sample;
	to.ctx = v;
	v->refresh_ns = live_now_ns();
	err = top_start(&to, &v->top, msg, sizeof(msg));
	if (err) {
		pr_err("%s", msg);
		live_signals_release(&sig);
		return EXIT_STATUS_FAIL;
	}
	err = c->stdio ? run_stdio(v) : top_tui(v);
	if (top_stop(v->top, &st, msg, sizeof(msg)) && !err)
		pr_err("%s", msg);
	else if (err && err != -EINVAL)
		pr_err("top stopped: %s", err_str(err));
	top_free(v->top);
	v->top = NULL;
	live_signals_release(&sig);
	return err ? EXIT_STATUS_FAIL : 0;
}

int cmd_top(int argc, char **argv)
{
	struct top_cli c = { .children = -1, .delay = 2 };
	const struct opt opts[] = {
		OPT_CALLBACK('e', "event", &c, "event",
			     "event selector. use 'flare list' to list "
			     "available events",
			     opt_event),
		OPT_U64('c', "count", &c.period, "n", "event period to sample"),
		OPT_U64('F', "freq", &c.freq, "n", "profile at this frequency"),
		OPT_STRING('p', "pid", &c.pids, "pid", "profile events on existing process id"),
		OPT_STRING('t', "tid", &c.tids, "tid", "profile events on existing thread id"),
		OPT_BOOL('a', "all-cpus", &c.all, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &c.cpus, "cpu", "list of cpus to monitor"),
		OPT_BOOL('K', "hide_kernel_symbols", &c.hide_k, "hide kernel symbols"),
		OPT_BOOL('U', "hide_user_symbols", &c.hide_u, "hide user symbols"),
		OPT_BOOL('g', NULL, &c.g, "enables call-graph recording and display"),
		OPT_STRING(0, "call-graph", &c.callgraph,
			   "record_mode[,record_size],print_type,threshold[,print_limit],order",
			   "setup and enables call-graph (stack chain/backtrace) recording"),
		OPT_BOOL(0, "children", &c.children,
			 "Accumulate callchains of children and show "
			 "total overhead as well"),
		OPT_STRING('s', "sort", &c.sort, "key[,key2...]",
			   "sort by key(s): comm, pid, dso, sym, cpu, trace"),
		OPT_STRING('d', "delay", &c.delay_str, "seconds",
			   "number of seconds to delay between "
			   "refreshes"),
		OPT_INT('E', "entries", &c.entries, "n", "display this many functions"),
		OPT_BOOL('z', "zero", &c.zero, "zero history across updates"),
		OPT_DOUBLE(0, "percent-limit", &c.percent_limit, "percent",
			   "Don't show entries under that percent"),
		OPT_STRING(0, "dsos", &c.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_STRING(0, "comms", &c.comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING(0, "symbols", &c.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_BOOL('n', "show-nr-samples", &c.show_nr,
			 "Show a column with the number of "
			 "samples"),
		OPT_BOOL(0, "stdio", &c.stdio, "Use the stdio interface"),
		OPT_BOOL(0, "tui", &c.tui, "Use the TUI interface"),
		OPT_INT('r', "realtime", &c.realtime, "priority",
			"collect data with this RT "
			"SCHED_FIFO priority"),
		OPT_STRING(0, "kallsyms", &c.kallsyms, "file", "kallsyms pathname"),
		OPT_COUNT('v', "verbose", &c.verbose, "be more verbose"),
		OPT_END(),
	};
	struct top_view v = { 0 };
	struct record_opts ro = { 0 };
	struct target t = { 0 };
	const char *delay;
	int status = 1;

	argc = opt_parse(argc, argv, opts, top_usage, 0);
	if (argc > 0)
		opt_usage_error(opts, top_usage,
				"unexpected argument '%s' (flare top watches the "
				"system, -p PID or -t TID; it runs no command)",
				argv[0]);
	out_verbose = c.verbose;
	delay = c.delay_str;
	if (delay) {
		char *end;
		long d = strtol(delay, &end, 10);

		if (end == delay || *end || d < 1 || d > 3600)
			opt_usage_error(opts, top_usage,
					"invalid -d '%s': whole seconds between "
					"refreshes, 1 or more",
					delay);
		c.delay = (int)d;
	}
	if (c.entries < 0)
		opt_usage_error(opts, top_usage, "invalid -E %d: a number of entries", c.entries);
	if (c.realtime < 0 || c.realtime > 99)
		opt_usage_error(opts, top_usage,
				"invalid -r %d: a SCHED_FIFO priority from 1 "
				"to 99",
				c.realtime);
	if (c.percent_limit < 0)
		opt_usage_error(opts, top_usage, "invalid --percent-limit: 0 or more");
	if (!c.stdio && !tui_possible())
		c.stdio = 1; /* no terminal to browse in: text, as perf falls back */
	if (!c.evlist.nr && default_event(&c.evlist))
		goto out;
	else if (c.evlist.nr)
		cli_fallback_cycles(&c.evlist, false);
	if ((status = setup_target(&c, &t, &v)))
		goto out;
	status = 1;
	record_setup(&c, &ro, &t, &v);
	if (setup_view(&c, &v, ro.callgraph != RECORD_CG_NONE))
		goto out;
	status = run(&c, &v, &ro);
out:
	top_view_release(&v);
	evlist_release(&c.evlist);
	target_release(&t);
	return status;
}
