// SPDX-License-Identifier: GPL-2.0
/*
 * flare sched timehist: perf sched timehist's lines (one per context switch: wait time,
 * scheduling delay and run time of the task leaving the CPU), its wakeup and migration lines,
 * and its summary (lib/sched/timehist).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/sched.h"
#include "lib/session/filter.h"
#include "lib/data/features.h"
#include "lib/sched/timehist.h"

static const char *const timehist_usage[] = {
	"flare sched timehist [<options>]",
	NULL,
};

struct th_opts {
	const char *input, *cpu_list, *pid_list, *tid_list, *time_str;
	int summary, with_summary, wakeups, migrations, cpu_visual, next, state, force, idle_hist;
	int callchain, max_stack;
};

struct th_run {
	const struct th_opts *o;
	struct sched_th th;
	struct session *sess;
	int comm_width;
	uint32_t max_cpu;
	bool started;
	size_t nr_idle_cpus;	  /* perf's idle_max_cpu */
	unsigned char cpus[1024]; /* -C */
	uint64_t hist_start, hist_end;
	struct hashmap ppid;	   /* tid -> parent tid + 1, from FORK records */
	struct hashmap exited;	   /* tids an EXIT record named (perf's "Terminated tasks") */
	struct hashmap pid0;	   /* tid -> the pid perf made its thread with (0: at a wakeup) */
	struct hashmap pids, tids; /* -p, -t: the tasks shown (keys) */
	uint64_t win_end;	   /* --time's end (0: none); its start is th.win_start */
	uint64_t skipped;	   /* events -p/-t left out (perf's skipped_samples) */
	uint32_t idle_last[1024];  /* -I: per cpu, tid + 1 of the last task switched out */
};

static void usec_str(char buf[32], uint64_t ns)
{
	sched_usec_str(buf, ns);
}

static void sched_time(uint64_t ns, int width)
{
	printf("%*" PRIu64 ".%03" PRIu64 " ", width, ns / 1000000, ns % 1000000 / 1000);
}

/* The name of a task as perf 6.1 knows it: the replay's, "<idle>" for a CPU's idle task */
static const char *task_comm(const struct th_task *t, const struct thread *thr, char own[16])
{
	if (t && t->idle)
		return "<idle>";
	/* a placeholder handed down by a fork is the child's own ":tid" in perf */
	if (thr->comm[0] == ':') {
		snprintf(own, 16, ":%d", (int)thr->tid);
		return own;
	}
	return thr->comm;
}

/* perf's timehist_get_commstr(): "comm", "comm[tid]" or "comm[tid/pid]"; widens the column */
static const char *commstr(struct th_run *r, const char *comm, uint32_t pid, uint32_t tid)
{
	static char str[32];
	int n;

	void *v;

	/* perf keeps the pid a thread was made with: 0 when a wakeup made it */
	if (hashmap_get(&r->pid0, tid, &v))
		pid = (uint32_t)(uintptr_t)v;
	if (!pid)
		n = snprintf(str, sizeof(str), "%s", comm);
	else if (tid != pid)
		n = snprintf(str, sizeof(str), "%s[%d/%d]", comm, (int)tid, (int)pid);
	else
		n = snprintf(str, sizeof(str), "%s[%d]", comm, (int)tid);
	if (n > (int)sizeof(str) - 1)
		n = (int)sizeof(str) - 1;
	if (n > r->comm_width)
		r->comm_width = n;
	return str;
}

/* perf's thread__is_filtered(): -p and -t judge a task by the pid perf made it with */
static bool task_filtered(struct th_run *r, uint32_t tid)
{
	const struct thread *thr;
	uint32_t pid = 0;
	void *v;

	if (!r->o->pid_list && !r->o->tid_list)
		return false;
	if (hashmap_get(&r->pid0, tid, &v))
		pid = (uint32_t)(uintptr_t)v;
	else if ((thr = session_thread(r->sess, tid)))
		pid = thr->pid;
	if ((r->o->pid_list && !hashmap_get(&r->pids, pid, NULL)) ||
	    (r->o->tid_list && !hashmap_get(&r->tids, tid, NULL))) {
		r->skipped++;
		return true;
	}
	return false;
}

static bool cpu_shown(const struct th_run *r, uint32_t cpu)
{
	return !r->o->cpu_list || (cpu < sizeof(r->cpus) && r->cpus[cpu]);
}

static void header(struct th_run *r)
{
	const struct th_opts *o = r->o;
	uint32_t ncpus = r->max_cpu + 1, i;
	static const char dots[] = "-----------------------------------------------------------"
				   "------------------------------------------------------------";

	printf("%15s %6s ", "time", "cpu");
	if (o->cpu_visual) {
		printf(" ");
		for (i = 0; i < ncpus; i++)
			printf("%x", i % 16);
		printf(" ");
	}
	printf(" %-*s", r->comm_width, "task name");
	printf("  %9s  %9s  %9s", "wait time", "sch delay", "run time");
	if (o->state)
		printf("  %s", "state");
	printf("\n");
	printf("%15s %-6s ", "", "");
	if (o->cpu_visual)
		printf(" %*s ", ncpus, "");
	printf(" %-*s", r->comm_width, "[tid/pid]");
	printf("  %9s  %9s  %9s", "(msec)", "(msec)", "(msec)");
	if (o->state)
		printf("  %5s", "");
	printf("\n");
	printf("%.15s %.6s ", dots, dots);
	if (o->cpu_visual)
		printf(" %.*s ", ncpus, dots);
	printf(" %.*s", r->comm_width, dots);
	printf("  %.9s  %.9s  %.9s", dots, dots, dots);
	if (o->state)
		printf("  %.5s", dots);
	printf("\n");
}

static void start(struct th_run *r)
{
	struct pd_features *f = NULL;

	r->started = true;
	if (!pd_features_read(r->sess->pd, &f) && f && f->has_nrcpus)
		r->max_cpu = f->nr_cpus_online;
	pd_features_free(f);
	if (!r->max_cpu)
		r->max_cpu = 4;
	r->nr_idle_cpus = r->max_cpu;
	if (!r->o->summary)
		header(r);
}

static char state_char(const struct th_task *t, int64_t state)
{
	static const char chars[] = "RSDTtZXxKWP";
	unsigned int bit = state ? (unsigned int)ffsll(state) : 0;

	if (t->idle || !t->tid)
		return 'I';
	return bit < sizeof(chars) - 1 ? chars[bit] : '?';
}

/* perf 6.1's one-line chain: the raw entries up to max_stack + 2 addresses, the scheduler's
 * own functions left out; a context marker it does not know empties the chain. */
static void print_chain(struct th_run *r, const struct resolved_sample *rs)
{
	const struct perf_sample *s = rs->s;
	size_t want = (size_t)r->o->max_stack + 2, got = 0, i, nr = 0;
	const char *names[256];
	uint8_t mode = PERF_RECORD_MISC_KERNEL;

	printf("  ");
	for (i = 0; i < s->nr_callchain && got < want; i++) {
		uint64_t ip = s->callchain[i];
		struct frame f;

		if (ip >= PERF_CONTEXT_MAX) {
			mode = chain_marker_mode(ip);
			if (!mode)
				return; /* a marker perf does not know: it drops the chain */
			continue;
		}
		got++;
		/* user frames stay unknown: perf 6.1's timehist reads MMAP but not MMAP2 */
		if (mode == PERF_RECORD_MISC_KERNEL && session_kernel_addr(r->sess, ip, &f) &&
		    f.sym) {
			if (!strcmp(f.sym->name, "schedule") ||
			    !strcmp(f.sym->name, "__schedule") ||
			    !strcmp(f.sym->name, "preempt_schedule"))
				continue;
			names[nr++] = f.sym->name;
		} else {
			names[nr++] = "[unknown]";
		}
		if (nr == sizeof(names) / sizeof(names[0]))
			break;
	}
	for (i = 0; i < nr; i++)
		printf("%s %s", i ? " <-" : "", names[i]);
}

static void print_switch(struct th_run *r, const struct sched_rec *sr,
			 const struct resolved_sample *rs, struct th_task *t, uint64_t time)
{
	const struct th_opts *o = r->o;
	uint32_t cpu = rs->s->cpu, i;
	const char *name;
	char ts[32], own[16];

	if (!cpu_shown(r, cpu))
		return;
	usec_str(ts, time);
	printf("%15s [%04u] ", ts, cpu);
	if (o->cpu_visual) {
		printf(" ");
		for (i = 0; i <= r->max_cpu; i++)
			putchar(i == cpu ? (t->idle ? 'i' : 's') : ' ');
		printf(" ");
	}
	name = t->idle ? "<idle>"
		       : commstr(r, task_comm(t, rs->thread, own), rs->thread->pid,
				 rs->thread->tid);
	printf(" %-*s ", r->comm_width, name);
	sched_time(t->dt_sleep + t->dt_iowait + t->dt_preempt, 6);
	sched_time(t->dt_delay, 6);
	sched_time(t->dt_run, 6);
	if (o->state)
		printf(" %5c ", state_char(t, (int64_t)sr->prev_state));
	if (o->next) {
		char nstr[48];

		snprintf(nstr, sizeof(nstr), "next: %s[%u]", sr->next_comm, sr->next_pid);
		printf(" %-*s", r->comm_width, nstr);
	}
	if (o->wakeups && !o->next)
		printf("  %-*s", r->comm_width, "");
	if (o->callchain && !t->idle && rs->s->callchain)
		print_chain(r, rs);
	printf("\n");
}

static const char *other_commstr(struct th_run *r, uint32_t tid)
{
	const struct thread *thr = session_thread(r->sess, tid);
	char own[16];

	if (!thr) { /* perf makes it with pid 0 */
		snprintf(own, sizeof(own), ":%d", (int)tid);
		return commstr(r, own, 0, tid);
	}
	return commstr(r, task_comm(NULL, thr, own), thr->pid, thr->tid);
}

static void print_event_line(struct th_run *r, const struct resolved_sample *rs, char mark,
			     const char *what, uint32_t tid, const struct sched_rec *sr)
{
	uint32_t cpu = rs->s->cpu, i;
	char ts[32], other[48], own[16];

	usec_str(ts, rs->s->time);
	printf("%15s [%04u] ", ts, cpu);
	if (r->o->cpu_visual && mark == 'm') {
		printf("  ");
		for (i = 0; i <= r->max_cpu; i++)
			putchar(i == cpu ? 'm' : ' ');
		printf("  ");
	} else if (r->o->cpu_visual) {
		printf(" %*s ", r->max_cpu + 1, "");
	}
	snprintf(other, sizeof(other), "%s", other_commstr(r, tid));
	printf(" %-*s ", r->comm_width,
	       commstr(r, task_comm(NULL, rs->thread, own), rs->thread->pid, rs->thread->tid));
	printf("  %9s  %9s  %9s ", "", "", "");
	printf("%s: %s", what, other);
	if (mark == 'm')
		printf(" cpu %u => %u", sr->orig_cpu, sr->dest_cpu);
	printf("\n");
}

/* A switch outside --time: before its start, after a CPU's previous switch past its end, or
 * (as perf 6.1 does when the window has an end) the first switch seen on its CPU */
static bool switch_outside(struct th_run *r, uint64_t t, uint64_t tprev)
{
	if (r->th.win_start && r->th.win_start > t)
		return true;
	return r->win_end && (!tprev || tprev > r->win_end);
}

/* -I: the idle time that ends at t on cpu is charged to the task that last left the CPU (its
 * run-time statistics count idle time), as perf does. 0, 1 when no task is there to charge,
 * or -ENOMEM. */
static int charge_idle(struct th_run *r, uint64_t t, uint32_t cpu)
{
	struct th_task *last;
	int err;

	if (cpu >= 1024 || !r->idle_last[cpu])
		return 1;
	last = sched_th_task(&r->th, r->idle_last[cpu] - 1, 0);
	if (!last)
		return -ENOMEM;
	err = sched_th_switch(&r->th, last, t, cpu, true);
	if (err)
		return err;
	/* perf zeroes its deltas: only the totals and run statistics matter here */
	last->dt_delay = last->dt_sleep = last->dt_iowait = last->dt_preempt = last->dt_run = 0;
	r->idle_last[cpu] = 0;
	return 0;
}

static int on_switch(struct th_run *r, const struct sched_rec *sr, const struct resolved_sample *rs)
{
	const struct perf_sample *s = rs->s;
	uint64_t time = s->time;
	struct th_task *t;
	int err;

	if (sr->prev_pid == 0) {
		t = sched_th_idle(&r->th, s->cpu);
		if (s->cpu >= r->nr_idle_cpus) { /* perf grows its array to a power of 2 */
			size_t n = 1;

			while (n < s->cpu + 1)
				n *= 2;
			r->nr_idle_cpus = n;
		}
	} else
		t = sched_th_task(&r->th, s->tid ? s->tid : s->pid, s->pid);
	if (!t)
		return -ENOMEM;
	/* -I: perf notes, on every switch, the task the CPU's idle time will be charged to */
	if (r->o->idle_hist && !t->idle && s->cpu < 1024)
		r->idle_last[s->cpu] = t->tid + 1;
	/* perf moves the CPU's time on past a skipped switch; the task's only when -p/-t
	 * did not filter it. -I skips the switches that neither leave nor enter idle. */
	if (task_filtered(r, t->idle ? 0 : t->tid) ||
	    (r->o->idle_hist && sr->prev_pid && sr->next_pid)) {
		sched_th_switch_done(&r->th, NULL, s->time, s->cpu, 0);
		goto out;
	}
	if (switch_outside(r, time, sched_th_cpu_prev(&r->th, s->cpu))) {
		sched_th_switch_done(&r->th, t, s->time, s->cpu, (int64_t)sr->prev_state);
		goto out;
	}
	if (r->win_end && time > r->win_end)
		time = r->win_end;
	if (!r->o->idle_hist || t->idle) {
		err = sched_th_switch(&r->th, t, time, s->cpu, cpu_shown(r, s->cpu));
		if (err)
			return err;
	}
	if (r->o->idle_hist && t->idle) {
		err = charge_idle(r, time, s->cpu);
		if (err < 0)
			return err;
		if (err) { /* no task to charge: perf prints nothing */
			sched_th_switch_done(&r->th, t, s->time, s->cpu, (int64_t)sr->prev_state);
			goto out;
		}
	}
	if (!r->o->summary)
		print_switch(r, sr, rs, t, time);
	sched_th_switch_done(&r->th, t, s->time, s->cpu, (int64_t)sr->prev_state);
out:
	if (!r->hist_start && time >= r->th.win_start)
		r->hist_start = time;
	if (!r->win_end || time <= r->win_end)
		r->hist_end = time;
	return 0;
}

/* The task a wakeup or migration names, noting a pid the session never saw (perf shows it
 * as pid 0). NULL on -ENOMEM. */
static struct th_task *event_task(struct th_run *r, uint32_t pid)
{
	if (!session_thread(r->sess, pid) && !hashmap_get(&r->pid0, pid, NULL) &&
	    hashmap_put(&r->pid0, pid, NULL))
		return NULL;
	return sched_th_task(&r->th, pid, 0);
}
/* perf shows a wakeup or migration unless -p/-t filter both tasks it names */
static bool shown_pair(struct th_run *r, uint32_t tid, uint32_t other)
{
	bool a = task_filtered(r, tid);

	return !(a && task_filtered(r, other));
}

static bool in_window(const struct th_run *r, uint64_t t)
{
	return !(r->th.win_start && t < r->th.win_start) && !(r->win_end && t > r->win_end);
}

static int on_event(void *ctx, const struct sched_rec *sr, const struct resolved_sample *rs)
{
	struct th_run *r = ctx;
	struct th_task *t;

	if (!r->started)
		start(r);
	if (!hashmap_get(&r->pid0, rs->thread->tid, NULL) &&
	    hashmap_put(&r->pid0, rs->thread->tid, (void *)(uintptr_t)rs->s->pid))
		return -ENOMEM;
	if (rs->s->cpu > r->max_cpu)
		r->max_cpu = rs->s->cpu;
	switch (sr->kind) {
	case SEV_SWITCH:
		return on_switch(r, sr, rs);
	case SEV_WAKEUP:
	case SEV_WAKING:
	case SEV_WAKEUP_NEW:
		t = event_task(r, sr->pid);
		if (!t)
			return -ENOMEM;
		sched_th_wakeup(t, rs->s->time);
		if (r->o->wakeups && !r->o->summary && !r->o->idle_hist &&
		    in_window(r, rs->s->time) && shown_pair(r, rs->thread->tid, sr->pid))
			print_event_line(r, rs, 'w', "awakened", sr->pid, sr);
		return 0;
	case SEV_MIGRATE:
		if (!r->o->migrations) /* perf 6.1 counts them only with -M */
			return 0;
		t = event_task(r, sr->pid);
		if (!t)
			return -ENOMEM;
		sched_th_migrate(t, rs->s->time);
		if (r->o->migrations && !r->o->summary && !r->o->idle_hist &&
		    shown_pair(r, rs->thread->tid, sr->pid))
			print_event_line(r, rs, 'm', "migrated", sr->pid, sr);
		return 0;
	default:
		return 0;
	}
}

static int on_other(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	struct th_run *r = ctx;

	/* perf replaces a thread when a FORK names its tid again */
	if (ev->type == PERF_RECORD_FORK) {
		const uint32_t *p = (const uint32_t *)(ev + 1); /* pid, ppid, tid, ptid */

		sched_th_exit(&r->th, p[2]);
		hashmap_del(&r->exited, p[2]);
		hashmap_del(&r->pid0, p[2]);
		if (hashmap_put(&r->ppid, p[2], (void *)(uintptr_t)(p[3] + 1ULL)))
			return -ENOMEM;
	} else if (ev->type == PERF_RECORD_EXIT) {
		const uint32_t *p = (const uint32_t *)(ev + 1);

		/* perf marks a thread it knows; an EXIT of one it never met is lost */
		if ((session_thread(r->sess, p[2]) || hashmap_get(&r->pid0, p[2], NULL)) &&
		    hashmap_put(&r->exited, p[2], NULL))
			return -ENOMEM;
	}
	return 0;
}

static int ppid_of(const struct th_run *r, uint32_t tid)
{
	void *v;

	return hashmap_get(&r->ppid, tid, &v) ? (int)((uintptr_t)v - 1) : -1;
}

struct row {
	struct th_task *t;
};

/* perf 6.1 walks its threads in 256 buckets by tid, each sorted by tid */
static int cmp_row(const void *a, const void *b)
{
	const struct th_task *x = ((const struct row *)a)->t, *y = ((const struct row *)b)->t;
	uint32_t bx = x->tid % 256, by = y->tid % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	/* the tree compares tids as pid_t: -1 first in its bucket */
	return (int)x->tid < (int)y->tid ? -1 : (int)x->tid > (int)y->tid;
}

static void summary_row(struct th_run *r, struct th_task *t)
{
	const struct thread *thr = session_thread(r->sess, t->tid);
	char own[16];
	const char *name;

	if (thr)
		name = commstr(r, task_comm(NULL, thr, own), thr->pid, thr->tid);
	else
		name = commstr(r, (snprintf(own, sizeof(own), ":%d", (int)t->tid), own), 0, t->tid);
	printf("%*s   %5d  %9" PRIu64 " ", r->comm_width, name, ppid_of(r, t->tid), t->run.n);
	sched_time(t->total_run, 8);
	if (r->o->state) {
		sched_time(t->total_sleep, 6);
		printf(" ");
		sched_time(t->total_iowait, 6);
		printf(" ");
		sched_time(t->total_preempt, 6);
		printf(" ");
		sched_time(t->total_delay, 6);
	} else {
		sched_time(t->run.min, 6);
		printf(" ");
		sched_time((uint64_t)t->run.mean, 6);
		printf(" ");
		sched_time(t->run.max, 6);
		printf("  ");
		printf("%5.2f", (float)th_stats_rel_stddev(&t->run));
		printf("   %5" PRIu64, t->migrations);
	}
	printf("\n");
}

static int print_summary(struct th_run *r)
{
	static const char dots[] = "-----------------------------------------------------------"
				   "------------------------------------------------------------";
	uint64_t span = r->hist_end - r->hist_start, tasks = 0, switches = 0, run = 0;
	struct row *rows;
	size_t i = 0, n = 0, k;
	uint64_t key;
	void *v;
	int pass;

	rows = malloc((r->th.tasks.nr ? r->th.tasks.nr : 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	while (hashmap_next(&r->th.tasks, &i, &key, &v))
		rows[n++].t = v;
	qsort(rows, n, sizeof(*rows), cmp_row);
	if (r->o->idle_hist) {
		printf("\nIdle-time summary\n");
		printf("%*s  parent  sched-out  ", r->comm_width, "comm");
		printf("  idle-time   min-idle    avg-idle    max-idle  stddev  migrations\n");
	} else if (r->o->state) {
		printf("\nWait-time summary\n");
		printf("%*s  parent   sched-in  ", r->comm_width, "comm");
		printf("   run-time      sleep      iowait     preempt       delay\n");
	} else {
		printf("\nRuntime summary\n");
		printf("%*s  parent   sched-in  ", r->comm_width, "comm");
		printf("   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	}
	printf("%*s            (count)  ", r->comm_width, "");
	printf("     (msec)     (msec)      (msec)      (msec)       %s\n",
	       r->o->state ? "(msec)" : "%");
	printf("%.117s\n", dots);
	for (pass = 0; pass < 2; pass++) {
		uint64_t shown = 0;

		if (pass)
			printf("\nTerminated tasks:\n");
		for (k = 0; k < n; k++) {
			struct th_task *t = rows[k].t;

			if (!t->run.n || hashmap_get(&r->exited, t->tid, &v) != pass)
				continue;
			shown++;
			switches += t->run.n;
			run += t->total_run;
			summary_row(r, t);
		}
		if (!shown)
			printf(pass ? "<no terminated tasks>\n" : "<no still running tasks>\n");
		tasks += shown;
	}
	free(rows);
	/* perf tracks no idle time when -p/-t left samples out (unless -I) */
	if (r->skipped && !r->o->idle_hist)
		return 0;
	printf("\nIdle stats:\n");
	for (k = 0; k < r->nr_idle_cpus; k++) {
		struct th_task *t = k < r->th.nr_cpus ? r->th.idle[k] : NULL;

		if (!cpu_shown(r, (uint32_t)k))
			continue;
		if (t && t->run.n) {
			switches += t->run.n;
			printf("    CPU %2zu idle for ", k);
			sched_time(t->total_run, 6);
			printf(" msec  (%6.2f%%)\n", 100.0 * (double)t->total_run / (double)span);
		} else {
			printf("    CPU %2zu idle entire time window\n", k);
		}
	}
	printf("\n    Total number of unique tasks: %" PRIu64 "\n"
	       "Total number of context switches: %" PRIu64 "\n",
	       tasks, switches);
	printf("           Total run time (msec): ");
	sched_time(run, 2);
	printf("\n");
	printf("    Total scheduling time (msec): ");
	sched_time(span, 2);
	printf(" (x %u)\n", r->max_cpu);
	return 0;
}

static int parse_cpus(struct th_run *r, const char *list)
{
	char *dup = strdup(list), *tok, *save = NULL, *end;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long a = strtoul(tok, &end, 10), b = a;

		if (end == tok)
			goto bad;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (*end || b < a || b >= sizeof(r->cpus))
			goto bad;
		for (; a <= b; a++)
			r->cpus[a] = 1;
	}
	free(dup);
	return 0;
bad:
	free(dup);
	return -EINVAL;
}

/* "123,456" into the keys of m. 0, or -EINVAL on anything else. */
static int parse_ids(struct hashmap *m, const char *list)
{
	const char *p = list;

	while (*p) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || v > UINT32_MAX || (*end && *end != ','))
			return -EINVAL;
		if (hashmap_put(m, v, NULL))
			return -ENOMEM;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* "sec[.frac]" in ns (empty: 0). 0 or -EINVAL. */
static int parse_sec(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0;
	int digits = 0;

	*ns = 0;
	if (!len)
		return 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	if (!i || sec > UINT64_MAX / 1000000000ULL - 1)
		return -EINVAL;
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9' && digits < 9; i++, digits++)
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (i != len)
		return -EINVAL;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

/* perf's --time "start,stop" (either may be empty). 0 or -EINVAL. */
static int parse_window(const char *str, uint64_t *start, uint64_t *end)
{
	const char *comma = strchr(str, ',');

	if (!comma)
		return parse_sec(str, strlen(str), start) || (*end = 0, 0);
	if (parse_sec(str, (size_t)(comma - str), start) ||
	    parse_sec(comma + 1, strlen(comma + 1), end))
		return -EINVAL;
	return *end && *start > *end ? -EINVAL : 0;
}

int sched_timehist(int argc, char **argv, struct sched_common *c)
{
	struct th_opts o = { .callchain = 1, .max_stack = 5 };
	const struct opt opts[] = {
		OPT_STRING('C', "cpu", &o.cpu_list, "cpu", "list of cpus to profile"),
		OPT_BOOL('M', "migrations", &o.migrations, "Show migration events"),
		OPT_BOOL('n', "next", &o.next, "Show next task"),
		OPT_BOOL('s', "summary", &o.summary, "Show only syscall summary with statistics"),
		OPT_BOOL('S', "with-summary", &o.with_summary,
			 "Show all syscalls and summary with statistics"),
		OPT_BOOL('V', "cpu-visual", &o.cpu_visual, "Add CPU visual"),
		OPT_BOOL('w', "wakeups", &o.wakeups, "Show wakeup events"),
		OPT_BOOL(0, "state", &o.state, "Show task state when sched-out"),
		OPT_BOOL('g', "call-graph", &o.callchain,
			 "Display call chains if present (default on)"),
		OPT_INT(0, "max-stack", &o.max_stack, "n",
			"Maximum number of functions to display backtrace."),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_STRING('p', "pid", &o.pid_list, "pid[,pid...]",
			   "analyze events only for given process id(s)"),
		OPT_STRING('t', "tid", &o.tid_list, "tid[,tid...]",
			   "analyze events only for given thread id(s)"),
		OPT_STRING(0, "time", &o.time_str, "str", "Time span for analysis (start,stop)"),
		OPT_BOOL('I', "idle-hist", &o.idle_hist, "Show idle events only"),
		OPT_END(),
	};
	struct th_run r = { .o = &o, .comm_width = 30 };
	char bad = 0;
	int ret;

	argc = opt_parse(argc, argv, opts, timehist_usage, 0);
	if (argc > 0)
		opt_usage_error(opts, timehist_usage, "unexpected argument '%s'", argv[0]);
	if (o.input)
		c->input = o.input;
	c->force |= o.force;
	if (o.cpu_list && parse_cpus(&r, o.cpu_list))
		opt_usage_error(opts, timehist_usage, "-C %s: give CPUs as 0,2-3 (below 1024)",
				o.cpu_list);
	if (o.max_stack < 0)
		opt_usage_error(opts, timehist_usage, "--max-stack %d: give 0 or more frames",
				o.max_stack);
	c->want_callchain = o.callchain && !o.summary;
	if (o.summary && o.with_summary)
		opt_usage_error(opts, timehist_usage, "-s and -S cannot be used together");
	sched_th_init(&r.th);
	if (o.pid_list && parse_ids(&r.pids, o.pid_list))
		bad = 'p';
	else if (o.tid_list && parse_ids(&r.tids, o.tid_list))
		bad = 't';
	if (bad) {
		sched_th_free(&r.th);
		hashmap_release(&r.pids);
		hashmap_release(&r.tids);
		opt_usage_error(opts, timehist_usage, "-%c %s: give ids as 123,456", bad,
				bad == 'p' ? o.pid_list : o.tid_list);
	}
	if (o.time_str && parse_window(o.time_str, &r.th.win_start, &r.win_end)) {
		/* perf's words and status (-EINVAL) */
		pr_err("Invalid time string (give start,stop in seconds, e.g. 12.5,13)");
		sched_th_free(&r.th);
		hashmap_release(&r.pids);
		hashmap_release(&r.tids);
		return 234;
	}
	out_pager_start();
	ret = sched_replay(c, &r.sess, on_event, on_other, &r);
	if (!ret && (o.summary || o.with_summary) && print_summary(&r)) {
		pr_err("out of memory");
		ret = 1;
	}
	sched_th_free(&r.th);
	hashmap_release(&r.ppid);
	hashmap_release(&r.exited);
	hashmap_release(&r.pid0);
	hashmap_release(&r.pids);
	hashmap_release(&r.tids);
	session_free(r.sess);
	return ret;
}
