// SPDX-License-Identifier: GPL-2.0
/*
 * flare trace: strace's detail at a fraction of its cost, in perf trace 6.1's shapes. A BPF
 * program (lib/systrace) times and counts syscalls in the kernel and sends the lines' records
 * with the strings and buffers the calls passed; this file parses the options, picks the
 * threads, runs the command and the poll loop. trace-out.c prints.
 */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/trace.h"
#include "lib/base/err.h"
#include "lib/event/target.h"
#include "lib/event/workload.h"
#include "lib/data/reader.h"
#include "lib/record/drain-sched.h"
#include "lib/systrace/replay.h"
#include "lib/trace/tp.h"

static const char *const trace_usage[] = {
	"flare trace [<options>] [<command>]",
	"flare trace [<options>] -- <command> [<options>]",
	"flare trace record [<options>] [<command>]",
	"flare trace record [<options>] -- <command> [<options>]",
	NULL,
};

static volatile sig_atomic_t trace_stop;
static volatile sig_atomic_t child_gone;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_gone = 1;
	else
		trace_stop = 1;
}

/* -F maj|min|all into TRACE_PF_*; -1 when it is none of those */
static int parse_pf(const char *s)
{
	if (!s)
		return 0;
	if (!strcmp(s, "all"))
		return TRACE_PF_MAJ | TRACE_PF_MIN;
	if (!strcmp(s, "maj"))
		return TRACE_PF_MAJ;
	if (!strcmp(s, "min"))
		return TRACE_PF_MIN;
	return -1;
}

/* flare trace [-F ..] record ARGS: as perf trace record, flare record of the raw_syscalls
 * tracepoints with perf trace's settings (-R -m 1024 -c 1), flare's own calls filtered out in
 * the kernel, the page fault events -F asks for (with their addresses: -d), then ARGS: a
 * perf.data that flare trace -i and perf trace -i replay. */
static int trace_record(int argc, char **argv, int pf)
{
	const char *pre[16] = { "record", "-R", "-m", "1024", "-c", "1" };
	size_t npre = 6, i;
	char filter[64], **rec_argv = calloc(16 + (size_t)argc, sizeof(char *));
	int rc;

	if (!rec_argv) {
		pr_err("out of memory");
		return 1;
	}
	if (pf) {
		pre[npre++] = "-d";
		if (pf & TRACE_PF_MAJ) {
			pre[npre++] = "-e";
			pre[npre++] = "major-faults";
		}
		if (pf & TRACE_PF_MIN) {
			pre[npre++] = "-e";
			pre[npre++] = "minor-faults";
		}
	}
	/* last, so that --filter applies to these two only */
	pre[npre++] = "-e";
	pre[npre++] = "raw_syscalls:sys_enter,raw_syscalls:sys_exit";
	pre[npre++] = "--filter";
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	for (i = 0; i < npre; i++)
		rec_argv[i] = (char *)pre[i];
	rec_argv[npre++] = filter;
	for (i = 1; i < (size_t)argc; i++)
		rec_argv[npre++] = argv[i];
	/* the command table's entry, as git runs a builtin: trace record is record's job */
	rc = cmd_record((int)npre, rec_argv);
	free(rec_argv);
	return rc;
}

static int bad_syscall(const char *name)
{
	const char *near[4];
	size_t n = sysnames_closest(name, near, 4), i;
	struct strbuf sb = STRBUF_INIT;

	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", near[i]);
	if (n)
		pr_err("unknown syscall '%s' in -e (did you mean %s?)", name, sb.buf);
	else
		pr_err("unknown syscall '%s' in -e (see /usr/include/asm/unistd_64.h for names)",
		       name);
	strbuf_release(&sb);
	return 1;
}

/* Joins the -e arguments into the one list perf trace reads ("!" only at the front). */
static int pick_syscalls(struct trace *t)
{
	struct strbuf sb = STRBUF_INIT;
	const char *bad = NULL;
	size_t i;
	int err;

	for (i = 0; i < t->exprs->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", t->exprs->items[i]);
	err = sysnames_select(sb.len ? sb.buf : NULL, t->sel, &bad);
	strbuf_release(&sb);
	if (err == -ENOENT)
		return bad_syscall(bad);
	if (err) {
		pr_err("cannot parse -e: %s", err_str(err));
		return 1;
	}
	return 0;
}

static int parse_uid(const char *s, unsigned int *uid)
{
	struct passwd *pw;
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s && !*end) {
		*uid = (unsigned int)v;
		return 0;
	}
	pw = getpwnam(s);
	if (!pw)
		return -ENOENT;
	*uid = pw->pw_uid;
	return 0;
}

/* Where sched_process_fork keeps the child's pid on this kernel, for following forks. */
static int fork_child_offset(const char *tracefs)
{
	struct strbuf sb = STRBUF_INIT;
	char path[512];
	int off;

	snprintf(path, sizeof(path), "%s/events/sched/sched_process_fork/format", tracefs);
	off = strbuf_read_file(&sb, path) < 0 ? -ENOENT : sysfmt_field_offset(sb.buf, "child_pid");
	strbuf_release(&sb);
	return off;
}

static int build_config(struct trace *t, struct target *tg, bool workload, struct st_config *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->uid = (uint32_t)-1;
	c->lines = !t->summary_only;
	c->enter_recs = !(t->failure || t->duration_ms > 0);
	c->stats = t->summary_only || t->with_summary || t->errno_summary || t->hist;
	c->errno_summary = t->errno_summary;
	c->hist = t->hist;
	c->failure_only = t->failure;
	c->strsize = t->strsize > 0 && t->strsize < ST_PIECE_MAX ? t->strsize : ST_PIECE_MAX - 1;
	c->min_dur_ns = (uint64_t)(t->duration_ms * 1e6);
	c->execve_nr = sysnr("execve");
	if (t->comm)
		strncpy(c->comm, t->comm, sizeof(c->comm) - 1);
	if (t->uid) {
		unsigned int uid;

		if (parse_uid(t->uid, &uid)) {
			pr_err("unknown user '%s' for -u (give a name from /etc/passwd or a number)",
			       t->uid);
			return 1;
		}
		c->uid = uid;
	}
	c->mode = ST_MODE_ALL;
	if (workload || tg->tasks.nr) {
		int off = fork_child_offset(t->tracefs);

		c->mode = ST_MODE_TASKS;
		c->follow = !tg->per_thread && off >= 0;
		c->fork_child_off = off >= 0 ? (uint32_t)off : 0;
		if (off < 0 && !tg->per_thread)
			pr_warn("cannot read sched_process_fork's format: children are not followed");
	}
	for (i = 0; i < tg->cpus.nr && !tg->tasks.nr && !workload; i++)
		if (tg->cpus.ids[i] >= 0 && tg->cpus.ids[i] < 256)
			c->cpu_mask[tg->cpus.ids[i] >> 6] |= 1ULL << (tg->cpus.ids[i] & 63);
	return 0;
}

static int setup_target(struct trace *t, struct target *tg)
{
	int bad = 0, err;

	if (t->pids && (err = target_add_pids(tg, t->pids, &bad))) {
		pr_err(err == -ESRCH ? "no process %d for -p (check the pid with ps)"
				     : "bad -p list at offset %d",
		       bad);
		return 1;
	}
	if (t->tids && (err = target_add_tids(tg, t->tids, &bad))) {
		pr_err(err == -ESRCH ? "no thread %d for -t (check the tid in /proc/PID/task)"
				     : "bad -t list at offset %d",
		       bad);
		return 1;
	}
	if (t->cpus && (err = target_set_cpus(tg, t->cpus, &bad))) {
		pr_err("bad -C '%s': cpu %d is not online (see /sys/devices/system/cpu/online)",
		       t->cpus, bad);
		return 1;
	}
	return 0;
}

static int program_kernel(struct trace *t, const struct target *tg, const struct workload *w)
{
	struct idlist skip = { 0 };
	int nr, err = 0, bad;
	size_t i;

	for (nr = 0; nr < SYSNAMES_MAX && !err; nr++) {
		struct st_sysconf sc = { 0 };

		if (!t->sel[nr])
			continue;
		if (!t->summary_only)
			sysfmt_bpf_conf(trace_fmt(t, nr), &sc);
		else if (!strcmp(sysname(nr), "exit") || !strcmp(sysname(nr), "exit_group"))
			sc.flags |= ST_SC_NORETURN;
		sc.flags |= ST_SC_TRACE;
		err = systrace_set_syscall(t->st, nr, &sc);
	}
	if (w->pid)
		err = err ?: systrace_add_task(t->st, w->pid, ST_TASK_WAIT_EXEC);
	for (i = 0; i < tg->tasks.nr && !err; i++)
		err = systrace_add_task(t->st, tg->tasks.ids[i], ST_TASK_ACTIVE);
	if (!t->input)
		err = err ?: systrace_skip_pid(t->st, getpid());
	if (!err && t->filter_pids) {
		if (idlist_parse(t->filter_pids, &skip, &bad)) {
			pr_err("bad --filter-pids '%s' at offset %d (give pids like 12,34)",
			       t->filter_pids, bad);
			return 1;
		}
		for (i = 0; i < skip.nr && !err; i++)
			err = systrace_skip_pid(t->st, skip.ids[i]);
		idlist_release(&skip);
	}
	if (err) {
		pr_err("cannot set up the BPF maps: %s", err_str(err));
		return 1;
	}
	return 0;
}

static bool targets_alive(const struct target *tg)
{
	size_t i;

	for (i = 0; i < tg->pids.nr; i++)
		if (!kill(tg->pids.ids[i], 0) || errno != ESRCH)
			return true;
	for (i = 0; i < tg->tasks.nr && !tg->pids.nr; i++)
		if (!kill(tg->tasks.ids[i], 0) || errno != ESRCH)
			return true;
	return false;
}

/* A wait that finds records at once lets no signal in: let pending ones in here. */
static void let_signals_in(const sigset_t *wait_mask)
{
	sigset_t pending, old;

	if (sigpending(&pending) ||
	    (!sigismember(&pending, SIGINT) && !sigismember(&pending, SIGTERM) &&
	     !sigismember(&pending, SIGCHLD)))
		return;
	sigprocmask(SIG_SETMASK, wait_mask, &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Polls until the command exits, the targets are gone, Ctrl-C or --max-events. */
static int run_loop(struct trace *t, const struct target *tg, struct workload *w,
		    const sigset_t *wait_mask)
{
	bool by_tasks = !w->pid && tg->tasks.nr;
	struct drain_sched ds = { 0 };
	int status = 0, n;

	/* lines: a reader the workload cannot starve, or the ring overflows under a burst */
	if ((!t->summary_only || systrace_bpf_refused(t->st)) && t->realtime > 0)
		drain_sched_raise(&ds, t->realtime, false);

	while (!trace_stop && !t->done) {
		n = systrace_poll(t->st, t->summary_only && !systrace_bpf_refused(t->st) ? 100 : 10,
				  wait_mask, trace_on_rec, t);
		if (n < 0 && n != -EINTR) {
			pr_err("cannot read the ring buffer: %s", err_str(n));
			drain_sched_restore(&ds);
			return 1;
		}
		let_signals_in(wait_mask);
		if (w->pid && child_gone) {
			pid_t r = waitpid(w->pid, &status, WNOHANG);

			if (r == w->pid) {
				w->pid = 0;
				break;
			}
			child_gone = 0;
		}
		if (by_tasks && !targets_alive(tg))
			break;
	}
	systrace_drain(t->st, trace_on_rec, t);
	drain_sched_restore(&ds);
	return 0;
}

static void report_lost(struct trace *t)
{
	uint64_t ring = systrace_lost(t->st, 0), maps = systrace_lost(t->st, 1);

	if (ring)
		pr_warn("LOST %llu events: the ring buffer was full (give it more room with -m)",
			(unsigned long long)ring);
	if (maps)
		pr_warn("%llu syscalls not counted: the kernel's tables were full (too many threads)",
			(unsigned long long)maps);
}

static int start(struct trace *t, struct target *tg, struct workload *w, int argc, char **argv)
{
	struct st_config cfg;
	sigset_t block;
	size_t i;
	int err;

	if (setup_target(t, tg) || build_config(t, tg, argc > 0, &cfg))
		return 1;
	if (argc > 0 && (err = workload_prepare(w, argv))) {
		pr_err("cannot start '%s': %s", argv[0], err_str(err));
		return 1;
	}
	/* the fds the targets have before the trace: the paths no open will show */
	for (i = 0; i < tg->pids.nr; i++)
		fdpath_snapshot(&t->fds, tg->pids.ids[i], false);
	if (w->pid)
		fdpath_snapshot(&t->fds, w->pid, true);
	/* after the fork (the command keeps flare's mask): the signals that end the loop
	 * arrive only while it waits, never just before */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	cfg.wakeup_bytes = (uint32_t)((size_t)t->mmap_pages * 4096 / 16);
	err = systrace_open(&cfg, (size_t)t->mmap_pages * 4096, t->no_bpf ? SYSTRACE_NO_BPF : 0,
			    &t->st);
	if (err) {
		pr_err("cannot trace syscalls: %s%s", err_str(err),
		       err == -EPERM || err == -EACCES
			       ? " (run as root, or with CAP_PERFMON and perf_event_paranoid <= 1)"
			       : "");
		return 1;
	}
	err = systrace_bpf_refused(t->st);
	if (err && !t->no_bpf && !t->summary_only)
		pr_warn("the kernel refused the BPF program (%s): arguments are shown as pointers, "
			"without strings or buffers",
			err_str(err));
	else if (err && !t->no_bpf)
		pr_warn("the kernel refused the BPF program (%s): counting in user space",
			err_str(err));
	if (program_kernel(t, tg, w))
		return 1;
	err = systrace_attach(t->st);
	if (err) {
		pr_err("cannot attach to raw_syscalls tracepoints: %s", err_str(err));
		return 1;
	}
	if (argc > 0 && (err = workload_start(w))) {
		pr_err("cannot run '%s': %s", argv[0], err_str(err));
		return err == -ENOENT ? 255 : 1;
	}
	return 0;
}

/* -i FILE: the recording's syscalls through the same records and statistics as live */
static int replay(struct trace *t, int argc)
{
	struct st_replay_stats rs = { 0 };
	struct target tg = { 0 };
	struct workload w = WORKLOAD_INIT;
	struct st_config cfg;
	char msg[320];
	int err;

	if (argc > 0 || t->pids || t->tids || t->cpus || t->uid || t->all_cpus) {
		pr_err("-i replays a recording: give no command, -p, -t, -a, -C or -u with it");
		return 1;
	}
	if (build_config(t, &tg, false, &cfg))
		return 1;
	err = systrace_open(&cfg, 0, SYSTRACE_REPLAY, &t->st);
	if (err) {
		pr_err("cannot replay: %s", err_str(err));
		return 1;
	}
	if (program_kernel(t, &tg, &w))
		return 1;
	msg[0] = '\0';
	err = systrace_replay(t->st, t->input, t->force ? PD_FORCE : 0, trace_on_rec,
			      trace_on_fault, t, &rs, msg, sizeof(msg));
	if (err) {
		pr_err("cannot read '%s': %s", t->input, msg[0] ? msg : err_str(err));
		return 1;
	}
	if (rs.lost)
		pr_warn("the recording lost %llu samples: calls are missing from it",
			(unsigned long long)rs.lost);
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	struct opt_strlist exprs = { 0 };
	struct trace t = { .exprs = &exprs,
			   .mmap_pages = 4096,
			   .strsize = 32,
			   .realtime = 10,
			   .line = STRBUF_INIT };
	struct target tg = { 0 };
	struct workload w = WORKLOAD_INIT;
	const char *pf = NULL;
	const struct opt opts[] = {
		OPT_STRLIST('e', "expr", &exprs, "syscall[,..]",
			    "syscalls to trace: names, globs, a leading ! for all but those"),
		OPT_STRING('p', "pid", &t.pids, "pid", "trace events on existing process id"),
		OPT_STRING('t', "tid", &t.tids, "tid", "trace events on existing thread id"),
		OPT_BOOL('a', "all-cpus", &t.all_cpus, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &t.cpus, "cpu", "list of cpus to monitor"),
		OPT_STRING('u', "uid", &t.uid, "user", "user to profile"),
		OPT_STRING(0, "filter-pids", &t.filter_pids, "CSV list of pids",
			   "pids to filter (by the kernel)"),
		OPT_STRING(0, "comm", &t.comm, "comm", "only threads of this name"),
		OPT_BOOL('s', "summary", &t.summary_only,
			 "Show only syscall summary with statistics"),
		OPT_BOOL('S', "with-summary", &t.with_summary,
			 "Show all syscalls and summary with statistics"),
		OPT_BOOL(0, "errno-summary", &t.errno_summary,
			 "Show errno stats per syscall, use with -s or -S"),
		OPT_BOOL(0, "hist", &t.hist, "per-syscall latency histograms (log2 microseconds)"),
		OPT_DOUBLE(0, "duration", &t.duration_ms, "float",
			   "show only events with duration > N.M ms"),
		OPT_BOOL(0, "failure", &t.failure, "Show only syscalls that failed"),
		OPT_U64(0, "max-events", &t.max_events, "number",
			"Set the maximum number of events to print"),
		OPT_BOOL('T', "time", &t.abs_time,
			 "Show full timestamp, not time relative to first start"),
		OPT_STRING('o', "output", &t.output, "file", "output file name"),
		OPT_STRING('i', "input", &t.input, "file", "Analyze events in file"),
		OPT_STRING('F', "pf", &pf, "all|maj|min", "Trace pagefaults"),
		OPT_BOOL('f', "force", &t.force, "don't complain, do it"),
		OPT_INT(0, "strsize", &t.strsize, "n",
			"bytes of strings and buffers to show (strace's -s, max 511)"),
		OPT_INT('m', "mmap-pages", &t.mmap_pages, "pages",
			"ring buffer size in 4 KiB pages"),
		OPT_INT('r', "realtime", &t.realtime, "prio",
			"read the ring at SCHED_FIFO prio (default 10, 0: normal policy)"),
		OPT_BOOL(0, "no-bpf", &t.no_bpf,
			 "raw_syscalls tracepoints without BPF (no strings, counted in user space)"),
		OPT_COUNT('v', "verbose", &t.verbose, "be more verbose"),
		OPT_END(),
	};
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t wait_mask;
	int rc = 1, err;

	argc = opt_parse(argc, argv, opts, trace_usage, OPT_STOP_AT_NON_OPTION);
	t.pf = parse_pf(pf);
	if (t.pf < 0)
		opt_usage_error(opts, trace_usage, "-F takes maj, min or all");
	if (argc >= 1 && !strcmp(argv[0], "record")) {
		opt_strlist_free(&exprs);
		return trace_record(argc, argv, t.pf);
	}
	if (t.pf && !t.input) {
		pr_err("-F: page faults are shown from recordings for now: flare trace -F %s record "
		       "<command>, then flare trace -i perf.data",
		       pf);
		opt_strlist_free(&exprs);
		return 1;
	}
	if (t.input) /* perf trace -i shows every fault the file has */
		t.pf = TRACE_PF_MAJ | TRACE_PF_MIN;
	out_verbose = t.verbose;
	out_init_log();
	if (t.summary_only && t.with_summary)
		t.with_summary = 0;
	if (argc == 0 && !t.pids && !t.tids && !t.cpus && !t.uid && !t.input)
		t.all_cpus = 1;
	if (t.mmap_pages <= 0 || t.strsize < 0)
		opt_usage_error(opts, trace_usage, "-m and --strsize take positive numbers");
	if (pick_syscalls(&t))
		goto out;
	if ((err = tp_tracefs_dir(&t.tracefs))) {
		pr_err("cannot find tracefs: %s (mount it: mount -t tracefs nodev /sys/kernel/tracing)",
		       err_str(err));
		goto out;
	}
	trace_init_hooks(&t, !t.input);
	t.out = stdout;
	if (t.output && !(t.out = fopen(t.output, "we"))) {
		pr_err("cannot open '%s' for -o: %s", t.output, strerror(errno));
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sigprocmask(SIG_SETMASK, NULL, &wait_mask);
	if (t.input) {
		rc = replay(&t, argc);
	} else {
		rc = start(&t, &tg, &w, argc, argv);
		if (!rc)
			rc = run_loop(&t, &tg, &w, &wait_mask);
	}
	sigprocmask(SIG_SETMASK, &wait_mask, NULL);
	if (t.st && !rc) {
		trace_flush_pending(&t);
		if (trace_print_summary(&t))
			pr_err("cannot read the kernel's statistics");
		report_lost(&t);
	}
out:
	workload_release(&w);
	trace_release(&t);
	target_release(&tg);
	opt_strlist_free(&exprs);
	if (t.out && t.out != stdout && fclose(t.out)) {
		pr_err("cannot write '%s': %s", t.output, strerror(errno));
		rc = 1;
	}
	return rc;
}
