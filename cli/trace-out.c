// SPDX-License-Identifier: GPL-2.0
/*
 * flare trace's output: perf trace 6.1's lines, built from the BPF side's enter and exit
 * records, and its summary tables, built from the statistics the kernel counted.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli/opt.h"
#include "cli/trace.h"
#include "lib/base/strbuf.h"

#define ARGS_ALIGN 69 /* perf's column for " = ret" after the arguments */

struct pending {
	struct st_rec rec; /* the enter record, data truncated to what it used */
	bool printed;	   /* shown already with "..." */
};

const struct sysfmt *trace_fmt(struct trace *t, int nr)
{
	static struct sysfmt unknown;
	struct sysfmt *f;
	const char *name;

	if (nr < 0 || nr >= SYSNAMES_MAX) {
		unknown.name = "unknown";
		return &unknown;
	}
	if (t->fmts[nr])
		return t->fmts[nr];
	f = calloc(1, sizeof(*f));
	if (!f) {
		unknown.name = "unknown";
		return &unknown;
	}
	name = sysname(nr);
	if (!name || sysfmt_load(t->tracefs, name, f) < 0) {
		memset(f, 0, sizeof(*f));
		f->name = name ? name : "unknown";
		f->len_arg = -1;
	}
	t->fmts[nr] = f;
	return f;
}

static const char *comm_of(void *ctx, int tid)
{
	struct trace *t = ctx;
	void *c;

	return hashmap_get(&t->comms, (uint64_t)tid, &c) ? c : NULL;
}

static const char *fd_path_of(void *ctx, const struct st_rec *r, int fd)
{
	struct trace *t = ctx;

	return fdpath_get(&t->fds, (int)r->pid, (int)r->tid, fd);
}

void trace_init_hooks(struct trace *t, bool live)
{
	fdpath_init(&t->fds, live,
		    fdpath_mode(t->sel, SYSNAMES_MAX, t->failure || t->duration_ms > 0));
	t->hooks.comm = comm_of;
	t->hooks.fd_path = fd_path_of;
	t->hooks.ctx = t;
}

static void note_comm(struct trace *t, const struct st_rec *r)
{
	void **slot = hashmap_slot(&t->comms, r->tid);

	if (!slot)
		return;
	if (!*slot)
		*slot = calloc(1, 16);
	if (*slot)
		memcpy(*slot, r->comm, 15);
}

/* "     0.993 ( 0.014 ms): ls/23966 " */
static void head_of(struct trace *t, struct strbuf *sb, uint64_t ts, uint64_t dur, bool timed,
		    const char *comm, uint32_t tid)
{
	if (!t->base_ts)
		t->base_ts = ts;
	if (!ts)
		strbuf_addf(sb, "%10s ", "?");
	else if (t->abs_time)
		strbuf_addf(sb, "%10.3f ", ts / 1e6);
	else
		strbuf_addf(sb, "%10.3f ", (ts - t->base_ts) / 1e6);
	if (timed)
		strbuf_addf(sb, "(%6.3f ms): ", dur / 1e6);
	else
		strbuf_adds(sb, "(         ): ");
	strbuf_addf(sb, "%.16s/%u ", comm, tid);
}

static void head(struct trace *t, struct strbuf *sb, uint64_t ts, uint64_t dur, bool timed,
		 const struct st_rec *r)
{
	head_of(t, sb, ts, dur, timed, r->comm, r->tid);
}

/* The line being built: the buffer of the last line, kept to save an allocation per line */
static struct strbuf line_begin(struct trace *t)
{
	struct strbuf sb = t->line;

	t->line = (struct strbuf)STRBUF_INIT;
	strbuf_reset(&sb);
	return sb;
}

static void line_end(struct trace *t, struct strbuf *sb)
{
	strbuf_release(&t->line);
	t->line = *sb;
}

static void emit(struct trace *t, struct strbuf *sb)
{
	fwrite(sb->buf, 1, sb->len, t->out);
	t->nr_printed++;
	if (t->max_events && t->nr_printed >= t->max_events)
		t->done = true;
}

/* "name(args) ..." for an enter whose exit has not come when another thread shows up */
static void print_interrupted(struct trace *t)
{
	struct strbuf sb;
	struct pending *p;
	void *v;
	size_t mark;

	if (!t->current || !hashmap_get(&t->pending, (uint64_t)t->current, &v))
		return;
	p = v;
	if (p->printed || t->failure || t->duration_ms > 0)
		return;
	sb = line_begin(t);
	head(t, &sb, p->rec.ts, 0, false, &p->rec);
	mark = sb.len;
	sysfmt_args(&sb, trace_fmt(t, p->rec.id), &p->rec, NULL, &t->hooks);
	strbuf_addf(&sb, ")%*s ...\n",
		    sb.len - mark < ARGS_ALIGN ? (int)(ARGS_ALIGN - (sb.len - mark)) : 0, "");
	emit(t, &sb);
	line_end(t, &sb);
	p->printed = true;
}

static void pad_ret(struct strbuf *sb, size_t mark)
{
	size_t used = sb->len - mark;

	strbuf_addf(sb, ")%*s= ", used < ARGS_ALIGN ? (int)(ARGS_ALIGN - used) : 1, " ");
}

static void on_enter(struct trace *t, const struct st_rec *r, size_t size)
{
	const struct sysfmt *f = trace_fmt(t, r->id);
	struct pending *p;
	void **slot;

	if (t->current != (int)r->tid)
		print_interrupted(t);
	t->current = r->tid;
	if (f->noreturn) {
		struct strbuf sb = line_begin(t);
		size_t mark;

		head(t, &sb, r->ts, 0, false, r);
		mark = sb.len;
		sysfmt_args(&sb, f, r, NULL, &t->hooks);
		pad_ret(&sb, mark);
		strbuf_adds(&sb, "?\n");
		emit(t, &sb);
		line_end(t, &sb);
		return;
	}
	slot = hashmap_slot(&t->pending, r->tid);
	if (!slot)
		return;
	if (!*slot)
		*slot = malloc(sizeof(struct pending));
	p = *slot;
	if (!p)
		return;
	memcpy(&p->rec, r, size < sizeof(*r) ? size : sizeof(*r));
	p->printed = false;
}

static void on_exit_rec(struct trace *t, const struct st_rec *r)
{
	const struct sysfmt *f = trace_fmt(t, r->id);
	struct strbuf sb = line_begin(t);
	struct pending *p = NULL;
	bool timed = r->dur != ~0ULL;
	size_t mark;
	void *v;

	if (hashmap_get(&t->pending, r->tid, &v) && ((struct pending *)v)->rec.id == r->id)
		p = v;
	if (p && p->printed) {
		head(t, &sb, r->ts - (timed ? r->dur : 0), r->dur, timed, r);
		mark = sb.len;
		strbuf_addf(&sb, " ... [continued]: %s()", f->name);
	} else if (p || timed) {
		head(t, &sb, r->ts - (timed ? r->dur : 0), r->dur, timed, r);
		mark = sb.len;
		sysfmt_args(&sb, f, p ? &p->rec : NULL, r, &t->hooks);
	} else {
		head(t, &sb, 0, 0, false, r);
		mark = sb.len;
		strbuf_addf(&sb, " ... [continued]: %s()", f->name);
	}
	pad_ret(&sb, mark);
	sysfmt_ret(&sb, f, r->ret, &t->hooks);
	strbuf_addch(&sb, '\n');
	emit(t, &sb);
	line_end(t, &sb);
	fdpath_note_exit(&t->fds, f, p ? &p->rec : NULL, r);
	if (p) {
		hashmap_del(&t->pending, r->tid);
		free(p);
	}
}

int trace_on_rec(void *ctx, const struct st_rec *r, size_t size)
{
	struct trace *t = ctx;

	if (t->done)
		return 0;
	if (!t->base_ts) /* perf's times are since its first event */
		t->base_ts = r->ts;
	note_comm(t, r);
	if (r->type == ST_REC_ENTER)
		on_enter(t, r, size);
	else if (r->type == ST_REC_EXIT)
		on_exit_rec(t, r);
	return 0;
}

/* perf trace's fault line: "minfault [sym+0x1c] => /lib/libc.so.6@0x1ab70 (d.)" */
int trace_on_fault(void *ctx, const struct st_fault *f)
{
	struct trace *t = ctx;
	struct fault_count *fc;
	struct strbuf sb;
	void **slot;

	slot = hashmap_slot(&t->faults, f->tid);
	if (slot && !*slot)
		*slot = calloc(1, sizeof(struct fault_count));
	fc = slot ? *slot : NULL;
	if (fc) {
		fc->maj += f->major;
		fc->min += !f->major;
		memcpy(fc->comm, f->comm ? f->comm : "", sizeof(fc->comm) - 1);
	}
	if (t->done || t->summary_only || !(t->pf & (f->major ? TRACE_PF_MAJ : TRACE_PF_MIN)))
		return 0;
	if (!t->base_ts)
		t->base_ts = f->time;
	sb = line_begin(t);
	head_of(t, &sb, f->time, 0, true, f->comm ? f->comm : ":?", f->tid);
	strbuf_addf(&sb, "%sfault [", f->major ? "maj" : "min");
	/* perf prints the address, not the ip, when no map holds the ip */
	if (f->ip_sym)
		strbuf_addf(&sb, "%s+0x%llx", f->ip_sym, (unsigned long long)f->ip_off);
	else
		strbuf_addf(&sb, "0x%llx",
			    (unsigned long long)(f->ip_mapped ? f->ip_addr : f->addr));
	strbuf_adds(&sb, "] => ");
	if (f->dso)
		strbuf_addf(&sb, "%s@", f->dso);
	strbuf_addf(&sb, "0x%llx (%c%c)\n", (unsigned long long)f->addr, f->dso ? 'd' : '?',
		    f->level);
	emit(t, &sb);
	line_end(t, &sb);
	return 0;
}

void trace_flush_pending(struct trace *t)
{
	size_t iter = 0;
	uint64_t key;
	void *v;

	while (hashmap_next(&t->pending, &iter, &key, &v)) {
		struct pending *p = v;

		if (!p->printed && !t->done) {
			t->current = (int)key;
			print_interrupted(t);
		}
	}
}

/* ---- summary ---- */

struct sc_row {
	int id;
	struct st_stat s;
};

struct thread_sum {
	int tid;
	char comm[16];
	uint64_t events;
	uint64_t majfaults, minfaults;
	struct sc_row *rows;
	size_t nr, alloc;
	struct errrow {
		int id, err;
		uint64_t n;
	} * errs;
	size_t nr_errs, alloc_errs;
};

struct summary {
	struct thread_sum *th;
	size_t nr, alloc;
	uint64_t events;
};

static struct thread_sum *thread_get(struct summary *s, int tid)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->th[i].tid == tid)
			return &s->th[i];
	if (s->nr == s->alloc) {
		size_t n = s->alloc ? s->alloc * 2 : 16;
		void *p = realloc(s->th, n * sizeof(*s->th));

		if (!p)
			return NULL;
		s->th = p;
		s->alloc = n;
	}
	memset(&s->th[s->nr], 0, sizeof(s->th[0]));
	s->th[s->nr].tid = tid;
	return &s->th[s->nr++];
}

static int collect_stat(void *ctx, const struct st_stat_key *k, const struct st_stat *st)
{
	struct summary *s = ctx;
	struct thread_sum *th = thread_get(s, (int)k->tid);

	if (!th)
		return -ENOMEM;
	if (th->nr == th->alloc) {
		size_t n = th->alloc ? th->alloc * 2 : 16;
		void *p = realloc(th->rows, n * sizeof(*th->rows));

		if (!p)
			return -ENOMEM;
		th->rows = p;
		th->alloc = n;
	}
	th->rows[th->nr].id = (int)k->id;
	th->rows[th->nr++].s = *st;
	if (!th->comm[0] || !strcmp(sysname((int)k->id) ?: "", "execve"))
		memcpy(th->comm, st->comm, 15);
	th->events += 2 * st->calls - st->untimed + st->noreturn;
	s->events += 2 * st->calls - st->untimed + st->noreturn;
	return 0;
}

static int collect_err(void *ctx, const struct st_err_key *k, uint64_t n)
{
	struct summary *s = ctx;
	struct thread_sum *th = thread_get(s, (int)k->tid);

	if (!th)
		return -ENOMEM;
	if (th->nr_errs == th->alloc_errs) {
		size_t m = th->alloc_errs ? th->alloc_errs * 2 : 8;
		void *p = realloc(th->errs, m * sizeof(*th->errs));

		if (!p)
			return -ENOMEM;
		th->errs = p;
		th->alloc_errs = m;
	}
	th->errs[th->nr_errs].id = (int)k->id;
	th->errs[th->nr_errs].err = (int)k->err;
	th->errs[th->nr_errs++].n = n;
	return 0;
}

/* page faults count as events of their thread, as perf counts them */
static int collect_faults(struct trace *t, struct summary *s)
{
	size_t iter = 0;
	uint64_t key;
	void *v;

	while (hashmap_next(&t->faults, &iter, &key, &v)) {
		const struct fault_count *fc = v;
		struct thread_sum *th = thread_get(s, (int)key);

		if (!th)
			return -ENOMEM;
		if (!th->comm[0])
			memcpy(th->comm, fc->comm, 15);
		th->majfaults = fc->maj;
		th->minfaults = fc->min;
		th->events += fc->maj + fc->min;
		s->events += fc->maj + fc->min;
	}
	return 0;
}

static double row_msecs(const struct st_stat *s)
{
	return s->total / 1e6;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct sc_row *x = a, *y = b;
	double dx = row_msecs(&x->s), dy = row_msecs(&y->s);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return x->id - y->id;
}

/* perf 6.1's order: its threads live in 256 trees by tid & 255, each sorted by event count
 * (fewest first) and printed tree after tree */
static int cmp_threads(const void *a, const void *b)
{
	const struct thread_sum *x = a, *y = b;

	if ((x->tid & 255) != (y->tid & 255))
		return (x->tid & 255) - (y->tid & 255);
	if (x->events != y->events)
		return x->events < y->events ? -1 : 1;
	return x->tid - y->tid;
}

static int cmp_errs(const void *a, const void *b)
{
	const struct errrow *x = a, *y = b;

	return x->err - y->err;
}

/* perf's stddev column: the standard error of the mean, in percent of the mean */
static double rel_stddev(const struct st_stat *s)
{
	double n = (double)s->calls, mean, sq, var;

	if (s->calls < 2 || !s->total)
		return 0;
	mean = (double)s->total / n;
	sq = ldexp((double)s->sq_hi, 64) + (double)s->sq_lo;
	var = (sq - n * mean * mean) / (n - 1);
	if (var < 0)
		var = 0;
	return 100.0 * sqrt(var / n) / mean;
}

static void print_thread(struct trace *t, const struct thread_sum *th, uint64_t all)
{
	FILE *o = t->out;
	size_t i, j;

	fprintf(o, " %s (%d), %llu events, %.1f%%", th->comm, th->tid,
		(unsigned long long)th->events, all ? 100.0 * th->events / all : 0.0);
	if (th->majfaults)
		fprintf(o, ", %llu majfaults", (unsigned long long)th->majfaults);
	if (th->minfaults)
		fprintf(o, ", %llu minfaults", (unsigned long long)th->minfaults);
	fprintf(o, "\n");
	fprintf(o,
		"\n   syscall            calls  errors  total       min       avg       max       stddev\n");
	fprintf(o,
		"                                     (msec)    (msec)    (msec)    (msec)        (%%)\n");
	fprintf(o,
		"   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
	for (i = 0; i < th->nr; i++) {
		const struct st_stat *s = &th->rows[i].s;
		double avg = s->calls ? s->total / 1e6 / s->calls : 0;

		if (!s->calls) /* exit_group: entered, never returned */
			continue;
		fprintf(o, "   %-15s %8llu %6llu %9.3f %9.3f %9.3f", sysname(th->rows[i].id) ?: "?",
			(unsigned long long)s->calls, (unsigned long long)s->errors, row_msecs(s),
			s->min == ~0ULL ? 0.0 : s->min / 1e6, avg);
		fprintf(o, " %9.3f %9.2f%%\n", s->max / 1e6, rel_stddev(s));
		if (!t->errno_summary || !s->errors)
			continue;
		for (j = 0; j < th->nr_errs; j++)
			if (th->errs[j].id == th->rows[i].id)
				fprintf(o, "\t\t\t\t%s: %llu\n",
					strerrorname_np(th->errs[j].err) ?: "E?",
					(unsigned long long)th->errs[j].n);
	}
	fprintf(o, "\n\n");
}

static void print_hist(struct trace *t)
{
	uint64_t b[ST_HIST_BUCKETS], max;
	int nr, i, last, w;

	for (nr = 0; nr < SYSNAMES_MAX; nr++) {
		if (!t->sel[nr] || systrace_hist(t->st, nr, b))
			continue;
		for (last = -1, max = 0, i = 0; i < ST_HIST_BUCKETS; i++) {
			if (b[i])
				last = i;
			if (b[i] > max)
				max = b[i];
		}
		if (last < 0)
			continue;
		fprintf(t->out, " %s latency (usecs):\n", sysname(nr));
		fprintf(t->out, "   %21s : %-10s distribution\n", "usecs", "count");
		for (i = 0; i <= last; i++) {
			unsigned long lo = i ? 1UL << (i - 1) : 0, hi = (1UL << i) - 1;

			w = (int)(max ? b[i] * 40 / max : 0);
			fprintf(t->out, "   %10lu -> %-8lu : %-10llu |%-40.*s|\n", lo, hi,
				(unsigned long long)b[i], w,
				"****************************************");
		}
		fprintf(t->out, "\n");
	}
}

int trace_print_summary(struct trace *t)
{
	struct summary s = { 0 };
	size_t i;
	int err;

	err = systrace_for_each_stat(t->st, collect_stat, &s);
	if (!err)
		err = collect_faults(t, &s);
	if (!err && t->errno_summary)
		err = systrace_for_each_err(t->st, collect_err, &s);
	if (!err && (t->summary_only || t->with_summary)) {
		if (s.nr)
			qsort(s.th, s.nr, sizeof(*s.th), cmp_threads);
		fprintf(t->out, "\n Summary of events:\n\n");
		for (i = 0; i < s.nr; i++) {
			if (s.th[i].nr)
				qsort(s.th[i].rows, s.th[i].nr, sizeof(s.th[i].rows[0]), cmp_rows);
			if (s.th[i].nr_errs)
				qsort(s.th[i].errs, s.th[i].nr_errs, sizeof(s.th[i].errs[0]),
				      cmp_errs);
			print_thread(t, &s.th[i], s.events);
		}
	}
	if (!err && t->hist)
		print_hist(t);
	for (i = 0; i < s.nr; i++) {
		free(s.th[i].rows);
		free(s.th[i].errs);
	}
	free(s.th);
	return err;
}

void trace_release(struct trace *t)
{
	size_t iter = 0, i;
	uint64_t key;
	void *v;

	while (hashmap_next(&t->pending, &iter, &key, &v))
		free(v);
	hashmap_release(&t->pending);
	iter = 0;
	while (hashmap_next(&t->comms, &iter, &key, &v))
		free(v);
	hashmap_release(&t->comms);
	strbuf_release(&t->line);
	iter = 0;
	while (hashmap_next(&t->faults, &iter, &key, &v))
		free(v);
	hashmap_release(&t->faults);
	fdpath_release(&t->fds);
	for (i = 0; i < SYSNAMES_MAX; i++)
		free(t->fmts[i]);
	systrace_free(t->st);
	t->st = NULL;
}
