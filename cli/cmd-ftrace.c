// SPDX-License-Identifier: GPL-2.0
/*
 * flare ftrace: perf ftrace 6.1's options (function and function_graph tracers, -p/-a/-C,
 * -T/-N/-G/-g, --func-opts/--graph-opts, -m, --inherit, -D, a workload) plus events
 * (-e SUBSYS[:EVENT] with --filter and --trigger), trace knobs (--clock, --cpumask,
 * --tracing-thresh, --stacktrace) and 'record' into a file. Everything is set in a tracefs
 * instance of flare's own (lib/trace/tfs.h) and the instance's raw per-CPU buffers are read
 * (ftrace-stream.c), formatted as the kernel's trace file; whatever ends the run, tracefs is
 * put back.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/ftrace.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"
#include "lib/event/workload.h"
#include "lib/trace/tfs.h"
#include "lib/trace/tp.h"

#define MAX_TRIGGERS 8

struct ev_arg {
	char *sys, *name; /* name NULL: the whole system */
	const char *filter;
	const char *triggers[MAX_TRIGGERS];
	int nr_triggers;
};

struct ftrace_opts {
	const char *tracer, *pid, *cpus, *buffer_size, *clock, *cpumask, *output;
	struct opt_strlist funcs, notrace, graph_funcs, nograph_funcs, tracer_opts;
	const char *func_opts, *graph_opts, *list_glob, *cmd;
	int all_cpus, inherit, delay, thresh, stacktrace, list, record, verbose;
	VEC(struct ev_arg) events;
};

static volatile sig_atomic_t stop_sig, child_done;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_done = 1;
	else
		stop_sig = sig;
}

static int event_cb(const struct opt *opt, const char *arg, int unset)
{
	struct ftrace_opts *o = opt->value;
	struct ev_arg e = { 0 };
	const char *colon = strpbrk(arg, ":/");

	if (colon) {
		e.sys = strndup(arg, (size_t)(colon - arg));
		e.name = strdup(colon + 1);
		if (!*e.name) {
			free(e.name);
			e.name = NULL;
		}
	} else {
		e.sys = strdup(arg);
	}
	if (!e.sys || !*e.sys || vec_push(&o->events, e)) {
		free(e.sys);
		free(e.name);
		pr_err("bad event '%s': want SUBSYS or SUBSYS:EVENT (globs allowed)", arg);
		return -1;
	}
	return 0;
}

static int filter_cb(const struct opt *opt, const char *arg, int unset)
{
	struct ftrace_opts *o = opt->value;

	if (!o->events.nr) {
		pr_err("--filter '%s' must follow the -e it filters", arg);
		return -1;
	}
	o->events.items[o->events.nr - 1].filter = arg;
	return 0;
}

static int trigger_cb(const struct opt *opt, const char *arg, int unset)
{
	struct ftrace_opts *o = opt->value;
	struct ev_arg *e;

	if (!o->events.nr) {
		pr_err("--trigger '%s' must follow the -e it is for", arg);
		return -1;
	}
	e = &o->events.items[o->events.nr - 1];
	if (e->nr_triggers == MAX_TRIGGERS) {
		pr_err("too many triggers on one event (at most %d)", MAX_TRIGGERS);
		return -1;
	}
	e->triggers[e->nr_triggers++] = arg;
	return 0;
}

static int funcs_cb(const struct opt *opt, const char *arg, int unset)
{
	struct ftrace_opts *o = opt->value;

	o->list = 1;
	o->list_glob = arg;
	return 0;
}

static int count_one(const char *sys, const char *name, void *arg)
{
	return 0;
}

/* Prints perf ftrace latency's log2 histogram of the durations in a function_graph trace. */
static void latency_print(FILE *trace)
{
	unsigned long hist[22] = { 0 };
	char line[1024];
	int i;

	rewind(trace);
	while (fgets(line, sizeof(line), trace)) {
		char *bar = strchr(line, '|'), *us;
		double d;

		if (!bar || !(us = strstr(line, " us")) || us > bar)
			continue;
		while (us > line && us[-1] != ' ' && us[-1] != '!' && us[-1] != '+')
			us--;
		d = strtod(us, NULL);
		for (i = 0; i < 21 && d >= (double)(1UL << i); i++)
			;
		hist[i]++;
	}
	printf("#   DURATION     |      COUNT | GRAPH                                          |\n");
	for (i = 0; i < 22; i++) {
		if (i == 0)
			printf("     0 - %-4d us | %10lu |\n", 1, hist[i]);
		else
			printf("%6lu - %-4lu us | %10lu |\n", 1UL << (i - 1), 1UL << i, hist[i]);
	}
}

static void events_free(struct ftrace_opts *o)
{
	size_t i;

	for (i = 0; i < o->events.nr; i++) {
		free(o->events.items[i].sys);
		free(o->events.items[i].name);
	}
	vec_free(&o->events);
}

/* "512K", "4M" -> kilobytes for buffer_size_kb. -1 when malformed. */
static long size_kb(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		return -1;
	switch (*end) {
	case 'B':
	case 'b':
		v = (v + 1023) / 1024;
		break;
	case 'K':
	case 'k':
		break;
	case 'M':
	case 'm':
		v *= 1024;
		break;
	case 'G':
	case 'g':
		v *= 1024 * 1024;
		break;
	default:
		return -1;
	}
	if (end[1] || !v || v > (1ULL << 31))
		return -1;
	return (long)v;
}

/* "0,2-3" -> the hex mask tracing_cpumask takes (32-bit groups joined by commas). 0, or -1
 * when the list is malformed or names a CPU past max. */
static int cpulist_mask(const char *list, char *out, size_t size)
{
	uint32_t words[128] = { 0 };
	const char *p = list;
	int top = 0, w, n = 0;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			return -1;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return -1;
		}
		if (b >= 128 * 32)
			return -1;
		for (; a <= b; a++) {
			words[a / 32] |= 1U << (a % 32);
			if (a / 32 > top)
				top = (int)(a / 32);
		}
		if (*end && *end != ',')
			return -1;
		p = *end ? end + 1 : end;
	}
	for (w = top; w >= 0; w--) {
		int k = snprintf(out + n, size - (size_t)n, w == top ? "%x" : ",%08x", words[w]);

		if (k < 0 || (size_t)k >= size - (size_t)n)
			return -1;
		n += k;
	}
	return 0;
}

/* perf ftrace's choice: -G/-g or an explicit tracer decide; -T/-N alone mean function. */
static const char *pick_tracer(const struct ftrace_opts *o)
{
	if (o->tracer)
		return o->tracer;
	if (o->graph_funcs.nr || o->nograph_funcs.nr || o->graph_opts)
		return "function_graph";
	if (o->funcs.nr || o->notrace.nr || o->func_opts)
		return "function";
	return o->events.nr ? NULL : "function_graph";
}

/* Writes each of list into file of the instance (appending after the first). */
static int set_list(struct tfs *t, const char *tracer, const char *file,
		    const struct opt_strlist *l)
{
	char *path;
	size_t i;
	int err = 0;

	if (!l->nr)
		return 0;
	path = tfs_path(t, false, file);
	if (!path)
		return -ENOMEM;
	for (i = 0; i < l->nr && !err; i++) {
		FILE *f = fopen(path, i ? "a" : "w");

		if (!f) {
			err = -errno;
			break;
		}
		if (fprintf(f, "%s\n", l->items[i]) < 0 || fclose(f))
			err = -errno ? -errno : -EIO;
	}
	free(path);
	if (err) {
		char action[128];

		snprintf(action, sizeof(action), "writing %s", file);
		return ftrace_refused(tracer, action, err);
	}
	return 0;
}

/* One comma-separated list of tracer options, each mapped onto an options/ file or a
 * top-level knob. Returns 0 or the exit status after saying what failed. */
static int set_tracer_opts(struct tfs *t, const char *list, bool graph)
{
	char *dup = strdup(list ? list : ""), *save = NULL, *tok;
	int err = 0;

	if (!dup)
		return 1;
	for (tok = strtok_r(dup, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		if (!graph && !strcmp(tok, "call-graph"))
			err = tfs_set(t, "options/func_stack_trace", "1");
		else if (!graph && !strcmp(tok, "irq-info"))
			err = tfs_set(t, "options/irq-info", "1");
		else if (graph && !strcmp(tok, "nosleep-time"))
			err = tfs_set(t, "options/sleep-time", "0");
		else if (graph && !strcmp(tok, "noirqs"))
			err = tfs_set(t, "options/funcgraph-irqs", "0");
		else if (graph && !strcmp(tok, "verbose"))
			err = tfs_set(t, "options/funcgraph-proc", "1");
		else if (graph && !strncmp(tok, "thresh=", 7))
			err = tfs_set_top(t, "tracing_thresh", tok + 7);
		else if (graph && !strncmp(tok, "depth=", 6))
			err = tfs_set_top(t, "max_graph_depth", tok + 6);
		else {
			pr_err("unknown %s option '%s' (see 'flare ftrace -h')",
			       graph ? "--graph-opts" : "--func-opts", tok);
			free(dup);
			return 1;
		}
		if (err)
			pr_err("cannot set tracer option '%s': %s", tok, err_str(err));
	}
	free(dup);
	return err ? 1 : 0;
}

/* --tracer-option NAME[=0|1]: any file of the instance's options/ directory. */
static int set_generic_opts(struct tfs *t, const struct opt_strlist *l)
{
	char file[256];
	size_t i;
	int err;

	for (i = 0; i < l->nr; i++) {
		const char *eq = strchr(l->items[i], '=');
		const char *val = eq ? eq + 1 : "1";
		int n = (int)(eq ? (size_t)(eq - l->items[i]) : strlen(l->items[i]));

		if (strchr(l->items[i], '/') || n == 0) {
			pr_err("bad --tracer-option '%s': want NAME[=0|1]", l->items[i]);
			return 1;
		}
		snprintf(file, sizeof(file), "options/%.*s", n, l->items[i]);
		err = tfs_set(t, file, val);
		if (err) {
			pr_err("cannot set tracer option '%s': %s (the names are in %s)",
			       l->items[i], err_str(err), "trace_options");
			return 1;
		}
	}
	return 0;
}

static int setup_events(struct tfs *t, const struct ftrace_opts *o)
{
	size_t i;
	int j, err;

	for (i = 0; i < o->events.nr; i++) {
		const struct ev_arg *e = &o->events.items[i];
		const char *what = "enable";

		err = 0;
		if (e->filter) {
			what = "filter";
			err = tfs_event_write(t, e->sys, e->name, "filter", e->filter);
		}
		for (j = 0; j < e->nr_triggers && !err; j++) {
			what = "trigger";
			err = tfs_event_write(t, e->sys, e->name, "trigger", e->triggers[j]);
		}
		if (!err) {
			what = "enable";
			err = tfs_event_enable(t, e->sys, e->name);
		}
		if (err) {
			pr_err("cannot %s %s:%s: %s%s",
			       !strcmp(what, "enable")	 ? "enable"
			       : !strcmp(what, "filter") ? "set the filter of"
							 : "set the trigger of",
			       e->sys, e->name ? e->name : "*", err_str(err),
			       err == -EINVAL ? " (the kernel's reason is in tracefs error_log)"
					      : "");
			return 1;
		}
	}
	return 0;
}

static int setup_tracer(struct tfs *t, const struct ftrace_opts *o, const char *tracer)
{
	int err, rc;

	if (!tracer)
		return 0;
	if (strcmp(tracer, "function") && strcmp(tracer, "function_graph") &&
	    strcmp(tracer, "nop")) {
		pr_err("unknown tracer '%s' (use function or function_graph)", tracer);
		return 1;
	}
	rc = set_list(t, tracer, "set_ftrace_filter", &o->funcs);
	if (!rc)
		rc = set_list(t, tracer, "set_ftrace_notrace", &o->notrace);
	if (!rc)
		rc = set_list(t, tracer, "set_graph_function", &o->graph_funcs);
	if (!rc)
		rc = set_list(t, tracer, "set_graph_notrace", &o->nograph_funcs);
	if (rc)
		return rc;
	err = tfs_set(t, "current_tracer", tracer);
	if (err && strcmp(tracer, "nop")) {
		/* an instance may lack what the top level has: try there, journalled */
		int top = tfs_set_top(t, "current_tracer", tracer);

		if (!top) {
			pr_err("the %s tracer works only at top level here; not supported yet",
			       tracer);
			return 1;
		}
		return ftrace_refused(tracer,
				      "writing current_tracer, in flare's instance and at "
				      "top level",
				      err);
	}
	if (err)
		return ftrace_refused(tracer, "writing current_tracer", err);
	if (o->func_opts && set_tracer_opts(t, o->func_opts, false))
		return 1;
	if (o->graph_opts && set_tracer_opts(t, o->graph_opts, true))
		return 1;
	return 0;
}

static int write_pids(struct tfs *t, const char *file, const char *pids, pid_t child)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int err;

	if (child)
		strbuf_addf(&sb, "%d", (int)child);
	for (p = pids; p && *p; p++)
		strbuf_addch(&sb, *p == ',' ? ' ' : *p);
	err = tfs_set(t, file, sb.buf);
	strbuf_release(&sb);
	return err;
}

/* Everything but tracing_on: buffer, clock, cpus, pids, options, events, tracer. */
static int setup(struct tfs *t, const struct ftrace_opts *o, pid_t child)
{
	const char *tracer = pick_tracer(o);
	char buf[64];
	int err = 0;

	if (tfs_set(t, "tracing_on", "0"))
		return 1;
	if (o->buffer_size) {
		snprintf(buf, sizeof(buf), "%ld", size_kb(o->buffer_size));
		if ((err = tfs_set(t, "buffer_size_kb", buf)))
			pr_err("cannot set the buffer size to %s: %s", o->buffer_size,
			       err_str(err));
	}
	if (!err && o->clock && (err = tfs_set(t, "trace_clock", o->clock)))
		pr_err("cannot use clock '%s': %s (this kernel's clocks are in trace_clock)",
		       o->clock, err_str(err));
	if (!err && (o->cpumask || o->cpus)) {
		char mask[1200];

		if (o->cpumask)
			snprintf(mask, sizeof(mask), "%s", o->cpumask);
		else
			cpulist_mask(o->cpus, mask, sizeof(mask)); /* checked at parse */
		if ((err = tfs_set(t, "tracing_cpumask", mask)))
			pr_err("cannot trace cpus '%s': %s", o->cpumask ? o->cpumask : o->cpus,
			       err_str(err));
	}
	if (!err && (child || o->pid)) {
		if ((err = write_pids(t, "set_event_pid", o->pid, child)))
			pr_err("cannot trace pid '%s': %s", o->pid ? o->pid : "", err_str(err));
		if (!err && o->inherit && (err = tfs_set(t, "options/event-fork", "1")))
			pr_err("cannot set --inherit: %s", err_str(err));
	}
	/* system-wide: flare's own reads and writes are not what the user asked to see */
	if (!err && !child && !o->pid) {
		snprintf(buf, sizeof(buf), "%d", (int)getpid());
		if ((err = tfs_set(t, "set_event_notrace_pid", buf)))
			pr_err("cannot leave flare itself out of the trace: %s", err_str(err));
	}
	if (!err && o->stacktrace && (err = tfs_set(t, "options/stacktrace", "1")))
		pr_err("cannot set --stacktrace: %s", err_str(err));
	/* marker lines written to the top level show in our stream (kernel 6.17+) */
	if (!err)
		tfs_set(t, "options/copy_trace_marker", "1");
	if (!err && o->thresh >= 0) {
		snprintf(buf, sizeof(buf), "%d", o->thresh);
		if ((err = tfs_set_top(t, "tracing_thresh", buf)))
			pr_err("cannot set tracing_thresh: %s", err_str(err));
	}
	if (err)
		return 1;
	if (set_generic_opts(t, &o->tracer_opts) || setup_events(t, o))
		return 1;
	if (tracer && (child || o->pid)) {
		err = write_pids(t, "set_ftrace_pid", o->pid, child);
		if (err)
			return ftrace_refused(tracer, "writing set_ftrace_pid", err);
	}
	return setup_tracer(t, o, tracer);
}

/* Every -e matches an event and asks for triggers the kernel has. 0, or 1 after saying. */
static int check_events(const struct ftrace_opts *o)
{
	size_t i;

	for (i = 0; i < o->events.nr; i++) {
		struct ev_arg *e = &o->events.items[i];
		int j, n = tp_for_each(e->sys, e->name, 0, count_one, NULL);

		if (n == -ERR_NO_TRACEFS) {
			pr_err("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
			return 1;
		}
		if (n <= 0) {
			pr_err("no event matches '%s:%s' (see 'flare list tracepoint')", e->sys,
			       e->name ? e->name : "*");
			return 1;
		}
		for (j = 0; j < e->nr_triggers; j++)
			if (ftrace_check_trigger(e->sys, e->name, e->triggers[j]))
				return 1;
	}
	return 0;
}

static const char *const ftrace_usage[] = {
	"flare ftrace [<options>] [<command>]",
	"flare ftrace [<options>] -- <command> [<options>]",
	"flare ftrace {trace|record|latency} [<options>] [-- <command>]",
	"flare ftrace {show|report|marker|snapshot} ...",
	NULL,
};

enum ftrace_mode { MODE_TRACE, MODE_RECORD, MODE_LATENCY };

static int run(int argc, char **argv, enum ftrace_mode mode)
{
	struct ftrace_opts o = { .thresh = -1 };
	bool record = mode == MODE_RECORD;
	struct workload w = WORKLOAD_INIT;
	struct sigaction sa = { 0 };
	struct tfs *t = NULL;
	FILE *out = stdout;
	char *tmp = NULL;
	int rc = 1, err;
	const struct opt opts[] = {
		OPT_STRING('t', "tracer", &o.tracer, "tracer",
			   "tracer to use: function_graph (default without -e) or function"),
		OPT_CALLBACK_OPTARG('F', "funcs", &o, "[FILTER]",
				    "show available functions to filter", funcs_cb),
		OPT_STRING('p', "pid", &o.pid, "pid", "trace on existing process id"),
		OPT_BOOL('a', "all-cpus", &o.all_cpus, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o.cpus, "cpu",
			   "list of cpus to monitor (a tracing_cpumask)"),
		OPT_STRLIST('T', "trace-funcs", &o.funcs, "func",
			    "trace given functions using function tracer"),
		OPT_STRLIST('N', "notrace-funcs", &o.notrace, "func",
			    "do not trace given functions"),
		OPT_STRING(0, "func-opts", &o.func_opts, "options",
			   "function tracer options, available options: call-graph,irq-info"),
		OPT_STRLIST('G', "graph-funcs", &o.graph_funcs, "func",
			    "trace given functions using function_graph tracer"),
		OPT_STRLIST('g', "nograph-funcs", &o.nograph_funcs, "func",
			    "set nograph filter on given functions"),
		OPT_STRING(
			0, "graph-opts", &o.graph_opts, "options",
			"graph tracer options, available options: nosleep-time,noirqs,verbose,thresh=<n>,depth=<n>"),
		OPT_STRLIST(0, "tracer-option", &o.tracer_opts, "name[=0|1]",
			    "set a file of the instance's options/ directory"),
		OPT_STRING('m', "buffer-size", &o.buffer_size, "size",
			   "size of per cpu buffer, needs to use a B, K, M or G suffix"),
		OPT_BOOL(0, "inherit", &o.inherit, "trace children processes"),
		OPT_INT('D', "delay", &o.delay, "n",
			"number of milliseconds to wait before starting tracing after program start"),
		OPT_CALLBACK('e', "event", &o, "subsys[:event]", "trace events (globs allowed)",
			     event_cb),
		OPT_CALLBACK(0, "filter", &o, "expr",
			     "filter for the last -e (the kernel's syntax)", filter_cb),
		OPT_CALLBACK(
			0, "trigger", &o, "trigger",
			"trigger for the last -e: traceon, traceoff, stacktrace, ...[:count][ if expr]",
			trigger_cb),
		OPT_BOOL(0, "stacktrace", &o.stacktrace, "a kernel stack trace after each event"),
		OPT_STRING(0, "clock", &o.clock, "clock",
			   "trace clock (one of those in trace_clock)"),
		OPT_STRING(0, "cpumask", &o.cpumask, "hex", "tracing_cpumask of the trace"),
		OPT_INT(0, "tracing-thresh", &o.thresh, "usecs",
			"tracing_thresh (latency tracers)"),
		OPT_STRING('o', "output", &o.output, "file",
			   "record: the file to write (default flare.ftrace)"),
		OPT_COUNT('v', "verbose", &o.verbose, "be more verbose"),
		OPT_END(),
	};

	argc = opt_parse(argc, argv, opts, ftrace_usage, OPT_STOP_AT_NON_OPTION);
	if (o.list) {
		rc = ftrace_list_funcs(o.list_glob);
		goto out;
	}
	if (mode == MODE_LATENCY) {
		if (o.funcs.nr != 1)
			opt_usage_error(opts, ftrace_usage, "latency needs one function (-T FUNC)");
		o.graph_funcs = o.funcs;
		memset(&o.funcs, 0, sizeof(o.funcs));
		o.tracer = "function_graph";
		o.graph_opts = "depth=1";
		out = tmpfile();
		if (!out) {
			pr_err("cannot make a temporary file: %s", strerror(errno));
			out = stdout;
			goto out;
		}
	}
	if (o.buffer_size && size_kb(o.buffer_size) < 0)
		opt_usage_error(opts, ftrace_usage,
				"bad buffer size '%s': want a number with a "
				"B, K, M or G suffix",
				o.buffer_size);
	if (o.cpus) {
		char mask[1200];

		if (cpulist_mask(o.cpus, mask, sizeof(mask)))
			opt_usage_error(opts, ftrace_usage, "bad cpu list '%s': want e.g. 0,2-3",
					o.cpus);
	}
	if (o.pid && argc)
		opt_usage_error(opts, ftrace_usage, "-p and a command cannot go together");
	if (check_events(&o))
		goto out;
	if (record) {
		const char *file = o.output ? o.output : "flare.ftrace";

		if (asprintf(&tmp, "%s.tmp", file) < 0 || !(out = fopen(tmp, "we"))) {
			pr_err("cannot write '%s': %s", file, strerror(errno));
			out = stdout;
			goto out;
		}
	}
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	o.cmd = argc ? argv[0] : NULL;
	if (argc && (err = workload_prepare(&w, argv))) {
		pr_err("cannot run '%s': %s", argv[0], err_str(err));
		goto out;
	}
	err = tfs_open(&t);
	if (err) {
		pr_err("cannot make a tracefs instance: %s", err_str(err));
		goto out;
	}
	rc = setup(t, &o, w.pid);
	if (!rc && !stop_sig) {
		struct ftrace_run r = { record, o.delay, o.cmd, &stop_sig, &child_done };

		rc = ftrace_stream(t, &w, &r, out);
	}
out:
	err = tfs_close(t);
	if (err) {
		pr_err("cannot put tracefs back: %s", err_str(err));
		rc = 1;
	}
	if (w.pid && !rc) {
		int st = workload_wait(&w, NULL);

		(void)st;
	}
	workload_release(&w);
	if (mode == MODE_LATENCY && out != stdout) {
		if (!rc)
			latency_print(out);
		fclose(out);
		out = stdout;
	}
	if (out != stdout) {
		const char *file = o.output ? o.output : "flare.ftrace";

		if (fclose(out) || rc || rename(tmp, file)) {
			if (!rc)
				pr_err("cannot write '%s': %s", file, strerror(errno));
			unlink(tmp);
			rc = 1;
		}
	}
	free(tmp);
	events_free(&o);
	opt_strlist_free(&o.funcs);
	opt_strlist_free(&o.notrace);
	opt_strlist_free(&o.graph_funcs);
	opt_strlist_free(&o.nograph_funcs);
	opt_strlist_free(&o.tracer_opts);
	return rc;
}

int cmd_ftrace(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "trace"))
		return run(argc - 1, argv + 1, MODE_TRACE);
	if (!strcmp(sub, "record"))
		return run(argc - 1, argv + 1, MODE_RECORD);
	if (!strcmp(sub, "latency"))
		return run(argc - 1, argv + 1, MODE_LATENCY);
	if (!strcmp(sub, "show"))
		return ftrace_show(argc - 1, argv + 1);
	if (!strcmp(sub, "marker"))
		return ftrace_marker(argc - 1, argv + 1);
	if (!strcmp(sub, "snapshot"))
		return ftrace_snapshot(argc - 1, argv + 1);
	if (!strcmp(sub, "report"))
		return ftrace_report(argc - 1, argv + 1);
	return run(argc, argv, MODE_TRACE);
}
