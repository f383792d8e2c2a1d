// SPDX-License-Identifier: GPL-2.0
/*
 * flare stat: run a command (or watch PIDs, TIDs, CPUs) and print counter totals in perf
 * 6.1's shapes. Options and the run loop; counting is in stat-run.c, printing in stat-out.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/events.h"
#include "cli/exit-status.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/stat.h"
#include "lib/base/err.h"
#include "lib/base/outfile.h"
#include "lib/event/live.h"
#include "lib/event/pmu.h"
#include "lib/event/workload.h"

struct stat_opts {
	struct evlist evlist;
	const char *pids, *tids, *cpus, *csv_sep, *output;
	int all_cpus, no_inherit, detailed, json, no_aggr, per_core, per_socket, null_run;
	int per_die, per_node, per_thread, no_merge;
	int repeat, interval, interval_count, delay, verbose, append, big_num;
	int group, sync, all_kernel, all_user, quiet, timeout, log_fd, scale, summary, table;
	int interval_clear, csv_summary;
	const char *pre, *post;
	const char **filters; /* per evsel, from --filter */
	size_t nr_filters;
	size_t last_e; /* first evsel of the last -e, for --filter */
};

static const char *const stat_usage[] = {
	"flare stat [<options>] [<command>]",
	NULL,
};

static int opt_event(const struct opt *o, const char *arg, int unset)
{
	struct stat_opts *so = o->value;

	so->last_e = so->evlist.nr;
	return cli_add_events(&so->evlist, arg) < 0 ? -1 : 0;
}

/* --filter applies to the events of the -e before it, as perf's does. */
static int opt_filter(const struct opt *o, const char *arg, int unset)
{
	struct stat_opts *so = o->value;
	const char **f;
	size_t i;

	if (so->last_e >= so->evlist.nr) {
		fprintf(stderr, "--filter should follow a -e tracepoint option\n");
		return -1;
	}
	f = realloc(so->filters, so->evlist.nr * sizeof(*f));
	if (!f)
		return -1;
	memset(f + so->nr_filters, 0, (so->evlist.nr - so->nr_filters) * sizeof(*f));
	so->filters = f;
	so->nr_filters = so->evlist.nr;
	for (i = so->last_e; i < so->evlist.nr; i++) {
		if (so->evlist.evsels[i].attr.type != PERF_TYPE_TRACEPOINT) {
			fprintf(stderr, "--filter can only follow a tracepoint (not '%s')\n",
				so->evlist.evsels[i].name);
			return -1;
		}
		f[i] = arg;
	}
	return 0;
}

/* perf's default set, and -d / -dd / -ddd's cache events. */
static int add_defaults(struct evlist *l, bool system_wide, int detailed)
{
	static const char *const base[] = { "context-switches", "cpu-migrations", "page-faults",
					    "cycles",		"instructions",	  "branches",
					    "branch-misses" };
	static const char *const d1[] = { "L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads",
					  "LLC-load-misses" };
	static const char *const d2[] = { "L1-icache-loads", "L1-icache-load-misses",
					  "dTLB-loads",	     "dTLB-load-misses",
					  "iTLB-loads",	     "iTLB-load-misses" };
	static const char *const d3[] = { "L1-dcache-prefetches", "L1-dcache-prefetch-misses" };
	size_t i;
	int r;

	r = evlist_add_spec(l, system_wide ? "cpu-clock" : "task-clock", NULL);
	for (i = 0; !r && i < sizeof(base) / sizeof(base[0]); i++)
		r = evlist_add_spec(l, base[i], NULL);
	for (i = 0; !r && detailed >= 1 && i < sizeof(d1) / sizeof(d1[0]); i++)
		r = evlist_add_spec(l, d1[i], NULL);
	for (i = 0; !r && detailed >= 2 && i < sizeof(d2) / sizeof(d2[0]); i++)
		r = evlist_add_spec(l, d2[i], NULL);
	for (i = 0; !r && detailed >= 3 && i < sizeof(d3) / sizeof(d3[0]); i++)
		r = evlist_add_spec(l, d3[i], NULL);
	return r;
}

/* perf counts a command system-wide on the PMU's CPUs when every event is of a PMU that
 * counts CPUs rather than tasks (power/energy-pkg/, uncore): the CPU list, or NULL. */
static const char *cpu_pmus_only(const struct evlist *l, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!l->evsels[i].pmu_name || pmu_cpumask(l->evsels[i].pmu_name, buf, len))
			return NULL;
	return l->nr ? buf : NULL;
}

/* perf 6.1 calls a run of nothing but tool events (duration_time...) system wide. */
static bool tools_only(const struct evlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!l->evsels[i].tool)
			return false;
	return l->nr > 0;
}

static void describe_target(struct stat_cfg *c, const struct stat_opts *o, int argc, char **argv)
{
	size_t n = 0, sz = sizeof(c->target_desc);
	char mask[256];
	int i;

	if (o->all_cpus || (!argc && !o->pids && !o->tids && !o->cpus) || tools_only(&o->evlist) ||
	    (!o->pids && !o->tids && !o->cpus && cpu_pmus_only(&o->evlist, mask, sizeof(mask)))) {
		snprintf(c->target_desc, sz, "'system wide'");
	} else if (o->cpus) {
		snprintf(c->target_desc, sz, "'CPU(s) %s'", o->cpus);
	} else if (o->pids) {
		snprintf(c->target_desc, sz, "process id '%s'", o->pids);
	} else if (o->tids) {
		snprintf(c->target_desc, sz, "thread id '%s'", o->tids);
	} else {
		n = snprintf(c->target_desc, sz, "'%s", argv[0]);
		for (i = 1; i < argc && n < sz; i++)
			n += snprintf(c->target_desc + n, sz - n, " %s", argv[i]);
		if (n < sz - 1)
			snprintf(c->target_desc + n, sz - n, "'");
		else
			c->target_desc[sz - 2] = '\'';
	}
}

/* 0, an exit status (> 0) for a bad -p, -t or -C, or -errno. */
static int setup_target(struct target *t, const struct stat_opts *o, int argc)
{
	char mask[256];
	int bad, r;

	/* the exit statuses are perf's: -EINVAL for a list it cannot use, -1 for a -t
	 * thread that is not there */
	if (o->pids) {
		r = target_add_pids(t, o->pids, &bad);
		if (r == -EINVAL)
			pr_err("invalid PID list '%s' (give PIDs as 123 or 123,456)", o->pids);
		else if (r == -ESRCH)
			pr_err("no process with PID %d (check the PID with ps)", bad);
		if (r)
			return r == -EINVAL || r == -ESRCH ? EXIT_STATUS_EINVAL : 1;
	}
	if (o->tids) {
		r = target_add_tids(t, o->tids, &bad);
		if (r == -EINVAL)
			pr_err("invalid TID list '%s' (give TIDs as 123 or 123,456)", o->tids);
		else if (r == -ESRCH)
			pr_err("no thread with TID %d (list threads with ps -L)", bad);
		if (r)
			return r == -EINVAL  ? EXIT_STATUS_EINVAL
			       : r == -ESRCH ? EXIT_STATUS_PERF_ERR
					     : 1;
	}
	if (o->cpus) {
		r = target_set_cpus(t, o->cpus, &bad);
		if (r == -EINVAL)
			pr_err("invalid CPU list '%s' at '%s' (give CPUs as 0-1,3)", o->cpus,
			       o->cpus + bad);
		else if (r == -ENODEV)
			pr_err("CPU %d is not online (see /sys/devices/system/cpu/online)", bad);
		return r == -EINVAL ? EXIT_STATUS_EINVAL : r ? 1 : 0;
	}
	if (o->per_thread && o->all_cpus) {
		/* every thread of the system, each followed on any CPU */
		t->system_wide = true;
		return target_add_all_threads(t);
	}
	if (o->all_cpus || (!argc && !o->pids && !o->tids))
		return target_set_all_cpus(t);
	if (!o->pids && !o->tids && cpu_pmus_only(&o->evlist, mask, sizeof(mask)))
		return target_set_cpus(t, mask, &bad);
	return 0;
}

static bool targets_alive(const struct target *t)
{
	size_t i;

	for (i = 0; i < t->tasks.nr; i++)
		if (!kill(t->tasks.ids[i], 0) || errno == EPERM)
			return true;
	return false;
}

struct run {
	struct stat_cfg *cfg;
	struct stat_state *s;
	const struct stat_opts *o;
	struct target *t;
	struct live_signals *sig; /* blocked for the whole command */
	bool workload;
	bool timed_out; /* --timeout stopped the workload: exit 0, as perf */
	uint64_t last;	/* the end of the previous interval (ns) */
	int printed;	/* intervals printed */
};

/* -D: like perf, the whole delay is waited out (even past the workload's end). */
static int run_enable(void *ctx)
{
	struct run *rn = ctx;

	stat_enable(rn->s, 1);
	fprintf(stderr, "Events enabled\n");
	return 0;
}

/* -I: the counts of the interval that just ended; > 0 after --interval-count of them. */
static int run_tick(void *ctx, uint64_t now, uint64_t t0)
{
	struct run *rn = ctx;
	int r;

	rn->s->wall_ns = (double)(now - rn->last);
	r = stat_read(rn->s, true, false);
	if (r)
		return r;
	rn->last = now;
	stat_print_counters(rn->cfg, rn->s, (double)(now - t0) / 1e9);
	if (rn->o->interval_count && ++rn->printed >= rn->o->interval_count)
		return 1;
	return 0;
}

/* Without a workload, the run ends when every target task is gone. */
static bool run_over(void *ctx)
{
	struct run *rn = ctx;

	return !rn->workload && rn->t->tasks.nr && !targets_alive(rn->t);
}

static const struct live_sink stat_sink = {
	.enable = run_enable,
	.tick = run_tick,
	.over = run_over,
};

/* --pre, --post: the shell command runs with the signals as flare found them. */
static int run_shell(struct live_signals *sig, const char *cmd)
{
	sigset_t cur;
	int r;

	live_signals_poll(sig);
	sigprocmask(SIG_SETMASK, &sig->old, &cur);
	r = system(cmd);
	sigprocmask(SIG_SETMASK, &cur, NULL);
	return r;
}

/* Before a run: sync, --pre, the workload forked and stopped, the counters opened. 0 or -1
 * after saying why. */
static int run_setup(struct run *rn, struct workload *w, int argc, char **argv, bool own_task)
{
	struct stat_run_opts ro = { rn->t,	  rn->cfg->aggr, own_task, rn->o->no_inherit,
				    rn->o->delay, rn->o->filters };
	char msg[320];
	int r;

	if (rn->o->sync)
		sync();
	if (rn->o->pre && (r = run_shell(rn->sig, rn->o->pre))) {
		pr_err("--pre command '%s' failed (status %d)", rn->o->pre, r);
		return -1;
	}
	if (argc) {
		r = workload_prepare(w, argv);
		if (r) {
			pr_err("cannot start '%s': %s", argv[0], err_str(r));
			return -1;
		}
		if (own_task) {
			idlist_release(&rn->t->tasks);
			target_set_workload(rn->t, w->pid);
		}
	}
	r = stat_open(rn->s, &ro, msg, sizeof(msg));
	if (r) {
		pr_err("%s", msg);
		workload_release(w);
		return -1;
	}
	return 0;
}

/* Waits for the end of the run in the live loop: the workload's exit, a signal, the
 * targets gone, --timeout, --interval-count; printing every -I interval and enabling after
 * -D. Counters on the workload's own task start at its exec (enable_on_exec); counters on
 * CPUs or other tasks (-a, -C, -p, -t: the command only sets the duration) start now.
 * 0, 1 when --interval-count ended it, 255 when the command could not run, or < 0. */
static int run_wait(struct run *rn, struct workload *w, char **argv, bool own_task, uint64_t *t0)
{
	struct live_opts lo = { 0 };
	struct live_result res;
	uint64_t now;
	int r;

	lo.sig = rn->sig;
	lo.workload = rn->workload ? w : NULL;
	lo.delay_ms = rn->o->delay > 0 ? rn->o->delay : 0;
	lo.delay_holds = true;
	lo.interval_ms = rn->o->interval;
	lo.timeout_ms = rn->o->timeout;
	lo.max_wait_ms = 50;
	if (!own_task && !rn->o->delay)
		stat_enable(rn->s, 1);
	rn->printed = 0;
	rn->timed_out = false;
	rn->last = live_now_ns();
	r = live_run(&lo, &stat_sink, rn, &res);
	*t0 = res.t0_ns;
	if (r && r == res.workload_err) {
		pr_err("cannot run '%s': %s", argv[0], strerror(-r));
		return EXIT_STATUS_PERF_ERR;
	}
	if (r < 0)
		return r;
	/* --timeout: stop the workload and print what it counted */
	if (res.end == LIVE_END_TIMEOUT && w->pid > 0 && !kill(w->pid, SIGTERM))
		rn->timed_out = true;
	if (res.end == LIVE_END_SINK && rn->o->interval_count)
		return 1;
	if (rn->o->interval) {
		now = live_now_ns();
		r = run_tick(rn, now, *t0);
		if (r < 0)
			return r;
	}
	return 0;
}

/* One run: start, wait, read. Returns the exit status to report, or < 0. */
static int run_once(struct run *rn, int argc, char **argv, bool accumulate)
{
	struct workload w = WORKLOAD_INIT;
	bool own_task = argc && !rn->t->system_wide && !rn->o->pids && !rn->o->tids;
	int r = 0, status = 0;
	uint64_t t0;

	if (run_setup(rn, &w, argc, argv, own_task))
		return -1;
	if (rn->o->delay)
		fprintf(stderr, "Events disabled\n");
	rn->workload = argc > 0;
	r = run_wait(rn, &w, argv, own_task, &t0);
	rn->s->wall_ns = (double)(live_now_ns() - t0);
	if (r == EXIT_STATUS_PERF_ERR) {
		stat_close(rn->s);
		workload_release(&w);
		return r;
	}
	if (argc) {
		status = workload_wait(&w, NULL);
		if (rn->timed_out && status == 128 + SIGTERM)
			status = 0;
		if (!rn->o->interval)
			rn->s->wall_ns = (double)(live_now_ns() - t0);
		rn->s->user_s = w.ru.ru_utime.tv_sec + w.ru.ru_utime.tv_usec / 1e6;
		rn->s->sys_s = w.ru.ru_stime.tv_sec + w.ru.ru_stime.tv_usec / 1e6;
	}
	welford_add(&rn->s->wall, rn->s->wall_ns);
	if (rn->s->run_ns)
		rn->s->run_ns[rn->s->nr_runs++] = rn->s->wall_ns;
	if ((!rn->o->interval || rn->o->summary) && r >= 0)
		r = stat_read(rn->s, false, accumulate);
	if (r < 0) {
		pr_err("cannot read the counters: %s", err_str(r));
		status = 1;
	}
	stat_close(rn->s);
	workload_release(&w);
	if (rn->o->post && run_shell(rn->sig, rn->o->post))
		pr_warn("--post command '%s' failed", rn->o->post);
	return status;
}

/* Counting many threads or CPUs takes many fds: use what the hard limit allows, as perf. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static FILE *open_output(const struct stat_opts *o)
{
	struct outfile of;
	int err;
	FILE *f;
	time_t now = time(NULL);

	if (o->log_fd > 0) {
		f = fdopen(dup(o->log_fd), "a");
		if (!f)
			pr_err("cannot write to --log-fd %d: %s", o->log_fd, strerror(errno));
		return f;
	}
	if (!o->output)
		return stderr;
	if (o->append) {
		f = fopen(o->output, "a");
		err = f ? 0 : -errno;
	} else {
		/* as every -o (lib/base/outfile.h), written as it goes, as perf's */
		err = outfile_open(&of, o->output, 0666, OUTFILE_SALVAGE);
		f = err ? NULL : fdopen(of.fd, "w");
		if (!err && !f) {
			err = -errno;
			outfile_abort(&of);
		} else if (f) {
			of.fd = -1; /* the FILE closes it */
			outfile_commit(&of);
		}
	}
	if (!f) {
		pr_err("cannot write '%s': %s (check the path)", o->output, strerror(-err));
		return NULL;
	}
	fprintf(f, "# started on %s\n", ctime(&now));
	return f;
}

static int check_opts(const struct stat_opts *o, const struct opt *opts, int argc)
{
	if (o->interval && o->interval < 10)
		opt_usage_error(opts, stat_usage, "print interval must be >= 10ms, not %d",
				o->interval);
	if (o->repeat < 0)
		opt_usage_error(opts, stat_usage, "-r needs a number of runs (0: until Ctrl-C)");
	if ((o->repeat > 1 || !o->repeat) && !argc)
		opt_usage_error(opts, stat_usage, "-r needs a command to run");
	if (o->interval_count && !o->interval)
		opt_usage_error(opts, stat_usage, "--interval-count needs -I");
	if (o->delay < 0)
		opt_usage_error(opts, stat_usage, "-D needs a positive delay in ms");
	if (o->timeout && (o->timeout < 10 || o->interval))
		opt_usage_error(opts, stat_usage,
				"--timeout needs at least 10 ms and cannot go with -I");
	if ((o->no_aggr || o->per_core || o->per_socket || o->per_die || o->per_node) &&
	    !o->all_cpus && !o->cpus)
		opt_usage_error(
			opts, stat_usage,
			"-A, --per-core, --per-die, --per-socket and --per-node need -a or -C");
	if (o->per_thread && !o->all_cpus && !o->pids && !o->tids)
		opt_usage_error(opts, stat_usage,
				"--per-thread needs -p, -t or -a (the threads to count)");
	return 0;
}

/* -g, --all-user, --all-kernel: the same change to every event. */
static void adjust_events(struct stat_opts *o)
{
	size_t i;

	for (i = 0; i < o->evlist.nr; i++) {
		struct evsel *e = &o->evlist.evsels[i];

		if (o->all_user || o->all_kernel) {
			e->attr.exclude_kernel = o->all_user;
			e->attr.exclude_user = o->all_kernel;
		}
		if (o->group) {
			e->group_idx = 0;
			e->is_leader = i == 0;
			e->nr_members = i ? 0 : (int)o->evlist.nr;
		}
	}
}

static int build_state(struct stat_state *s, struct stat_opts *o, struct target *t,
		       enum stat_aggr aggr)
{
	struct stat_run_opts ro = { .target = t, .aggr = aggr };
	size_t i;
	int r;

	if (!o->evlist.nr && !o->null_run) {
		r = add_defaults(&o->evlist, t->system_wide, o->detailed);
		if (r) {
			pr_err("cannot set up the default events: %s", err_str(r));
			return r;
		}
	}
	if (o->nr_filters < o->evlist.nr) {
		const char **f = realloc(o->filters, (o->evlist.nr + 1) * sizeof(*f));

		if (!f)
			return -ENOMEM;
		memset(f + o->nr_filters, 0, (o->evlist.nr + 1 - o->nr_filters) * sizeof(*f));
		o->filters = f;
		o->nr_filters = o->evlist.nr;
	}
	adjust_events(o);
	s->no_scale = !o->scale;
	s->nr_ctrs = o->evlist.nr;
	s->ctrs = calloc(s->nr_ctrs + 1, sizeof(*s->ctrs));
	if (!s->ctrs)
		return -ENOMEM;
	for (i = 0; i < s->nr_ctrs; i++)
		s->ctrs[i].ev = &o->evlist.evsels[i];
	r = stat_units(s, &ro);
	if (r)
		pr_err("out of memory");
	return r;
}

/* The totals of all runs (means and noise with -r); the statistics start over after. */
static void print_results(struct stat_cfg *cfg, struct stat_state *s, const struct stat_opts *o)
{
	size_t u, c;

	if ((o->interval && !o->summary) || o->quiet)
		return;
	cfg->summary = o->interval && o->csv_summary;
	for (u = 0; u < s->nr_units; u++)
		for (c = 0; c < s->nr_ctrs; c++)
			if (o->repeat > 1)
				stat_val_at(s, u, c)->val = stat_val_at(s, u, c)->w.mean;
	s->wall_ns = s->wall.mean;
	stat_print_header(cfg);
	stat_print_counters(cfg, s, -1);
	stat_print_footer(cfg, s);
	for (u = 0; u < s->nr_units * s->nr_ctrs; u++)
		memset(&s->vals[u].w, 0, sizeof(s->vals[u].w));
	memset(&s->wall, 0, sizeof(s->wall));
	s->nr_runs = 0;
}

static int stat_main(struct stat_opts *o, const struct opt *opts, int argc, char **argv)
{
	struct stat_cfg cfg = { .csv_sep = o->csv_sep,
				.json = o->json,
				.big_num = o->big_num,
				.run_count = o->repeat,
				.interval_ms = o->interval };
	struct stat_state s = { 0 };
	struct target t = { 0 };
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct run rn = { .cfg = &cfg, .s = &s, .o = o, .t = &t, .sig = &sig };
	int status = 0, i;

	cfg.aggr = o->per_thread   ? AGGR_THREAD
		   : o->no_aggr	   ? AGGR_CPU
		   : o->per_core   ? AGGR_CORE
		   : o->per_die	   ? AGGR_DIE
		   : o->per_socket ? AGGR_SOCKET
		   : o->per_node   ? AGGR_NODE
				   : AGGR_GLOBAL;
	describe_target(&cfg, o, argc, argv);
	if ((status = setup_target(&t, o, argc)) || build_state(&s, o, &t, cfg.aggr)) {
		status = status > 0 ? status : 1;
		goto out;
	}
	cfg.show_ru = argc > 0 && o->repeat <= 1 && !t.system_wide && !o->pids && !o->tids &&
		      !tools_only(&o->evlist);
	cfg.skip_zero_threads = t.system_wide;
	cfg.out = open_output(o);
	if (!cfg.out) {
		status = 1;
		goto out;
	}
	cfg.table = o->table && o->repeat > 1;
	cfg.interval_clear = o->interval_clear;
	s.run_ns = cfg.table ? calloc(o->repeat, sizeof(*s.run_ns)) : NULL;
	if ((i = live_signals_block(&sig))) {
		pr_err("cannot set up the signals: %s", strerror(-i));
		status = 1;
		goto out_close;
	}
	/* -r 0: run forever (until Ctrl-C), printing after every run, as perf */
	for (i = 0; (i < o->repeat || !o->repeat) && !live_signals_poll(&sig); i++) {
		status = run_once(&rn, argc, argv, true);
		if (status < 0) {
			status = 1;
			goto out_close;
		}
		if (status == EXIT_STATUS_PERF_ERR || (status && !argc))
			goto out_close;
		if (!o->repeat)
			print_results(&cfg, &s, o);
	}
	if (o->repeat)
		print_results(&cfg, &s, o);
out_close:
	if (cfg.out != stderr && fclose(cfg.out)) {
		pr_err("cannot write '%s': %s", o->output, strerror(errno));
		status = status ? status : 1;
	} else if (cfg.out == stderr && (fflush(stderr) || ferror(stderr))) {
		/* the counts went nowhere (2>/dev/full, a closed pipe): no message can reach
		 * the user there either, but the status says so */
		status = status ? status : 1;
	}
out:
	live_signals_release(&sig);
	stat_state_release(&s);
	target_release(&t);
	return status;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { .repeat = 1, .big_num = 1, .scale = 1, .csv_summary = 1 };
	const struct opt opts[] = {
		OPT_CALLBACK('e', "event", &o, "event",
			     "event selector. use 'flare list' to list available events",
			     opt_event),
		OPT_BOOL('i', "no-inherit", &o.no_inherit, "child tasks do not inherit counters"),
		OPT_STRING('p', "pid", &o.pids, "pid", "stat events on existing process id"),
		OPT_STRING('t', "tid", &o.tids, "tid", "stat events on existing thread id"),
		OPT_BOOL('a', "all-cpus", &o.all_cpus, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o.cpus, "cpu", "list of cpus to monitor in system-wide"),
		OPT_COUNT('d', "detailed", &o.detailed,
			  "detailed run - start a lot of events (-dd, -ddd: more)"),
		OPT_INT('r', "repeat", &o.repeat, "n",
			"repeat command and print average + stddev (forever: 0)"),
		OPT_BOOL('n', "null", &o.null_run, "null run - dont start any counters"),
		OPT_BOOL('B', "big-num", &o.big_num,
			 "print large numbers with thousands' separators"),
		OPT_BOOL('A', "no-aggr", &o.no_aggr, "disable CPU count aggregation"),
		OPT_BOOL(0, "per-core", &o.per_core,
			 "aggregate counts per physical processor core"),
		OPT_BOOL(0, "per-socket", &o.per_socket, "aggregate counts per processor socket"),
		OPT_BOOL(0, "per-die", &o.per_die, "aggregate counts per processor die"),
		OPT_BOOL(0, "per-node", &o.per_node, "aggregate counts per numa node"),
		OPT_BOOL(0, "per-thread", &o.per_thread, "aggregate counts per thread"),
		OPT_BOOL(0, "no-merge", &o.no_merge, "Do not merge identical named events"),
		OPT_STRING('x', "field-separator", &o.csv_sep, "separator",
			   "print counts with custom separator"),
		OPT_BOOL('j', "json-output", &o.json, "print counts in JSON format"),
		OPT_STRING('o', "output", &o.output, "file", "output file name"),
		OPT_BOOL(0, "append", &o.append, "append to the output file"),
		OPT_INT('I', "interval-print", &o.interval, "n",
			"print counts at regular interval in ms (>= 10)"),
		OPT_INT(0, "interval-count", &o.interval_count, "n",
			"print counts for fixed number of times"),
		OPT_INT('D', "delay", &o.delay, "n",
			"ms to wait before starting measurement after program start"),
		OPT_COUNT('v', "verbose", &o.verbose,
			  "be more verbose (show counter open errors, etc)"),
		OPT_CALLBACK(0, "filter", &o, "filter", "event filter (after a tracepoint -e)",
			     opt_filter),
		OPT_BOOL('g', "group", &o.group, "put the counters into a counter group"),
		OPT_BOOL('S', "sync", &o.sync, "call sync() before starting a run"),
		OPT_BOOL(0, "all-kernel", &o.all_kernel,
			 "Configure all used events to run in kernel space."),
		OPT_BOOL(0, "all-user", &o.all_user,
			 "Configure all used events to run in user space."),
		OPT_BOOL(0, "quiet", &o.quiet, "don't print any output, messages or warnings"),
		OPT_BOOL(0, "summary", &o.summary, "print summary for interval mode"),
		OPT_BOOL(0, "csv-summary", &o.csv_summary,
			 "Use --no-csv-summary to drop the 'summary' field of -x lines"),
		OPT_BOOL(0, "table", &o.table,
			 "display details about each run (only with -r option)"),
		OPT_BOOL(0, "interval-clear", &o.interval_clear,
			 "clear screen in between new interval"),
		OPT_INT(0, "timeout", &o.timeout, "n",
			"stop workload and print counts after a timeout period in ms (>= 10ms)"),
		OPT_STRING(0, "pre", &o.pre, "command",
			   "command to run prior to the measured command"),
		OPT_STRING(0, "post", &o.post, "command",
			   "command to run after to the measured command"),
		OPT_INT(0, "log-fd", &o.log_fd, "n", "log output to fd, instead of stderr"),
		OPT_BOOL(0, "scale", &o.scale,
			 "Use --no-scale to disable counter scaling for multiplexing"),
		OPT_END(),
	};
	int status;

	argc = opt_parse(argc, argv, opts, stat_usage, OPT_STOP_AT_NON_OPTION);
	raise_fd_limit();
	out_verbose = o.verbose;
	check_opts(&o, opts, argc);
	status = stat_main(&o, opts, argc, argv);
	free(o.filters);
	evlist_release(&o.evlist);
	return status;
}
