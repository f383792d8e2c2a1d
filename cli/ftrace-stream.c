// SPDX-License-Identifier: GPL-2.0
/*
 * The running part of 'flare ftrace' and 'flare ftrace record': tracing on, the workload
 * started, the instance's per-CPU raw buffers read page by page (lib/trace/rawbuf.h) until
 * the workload ends or a signal comes, tracing off, the buffers drained. Live, the pages
 * become the kernel's trace lines (lib/trace/rawtrace.h); recorded, they are written as they
 * are with their formats (lib/trace/ftfile.h), for 'flare ftrace report'. The kernel's
 * count of lost events is said at the end.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tracefs.h>
#include "cli/ftrace.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/event/workload.h"
#include "lib/sym/sym.h"
#include "lib/trace/ftfile.h"
#include "lib/trace/rawbuf.h"
#include "lib/trace/rawtrace.h"
#include "lib/trace/tfs.h"

/* Pages read from each CPU before the loop looks at its signals again. */
#define PAGES_PER_ROUND 256

struct stream {
	struct tfs *t;
	const char *dir; /* the instance's directory */
	FILE *out;
	bool record;
	struct rawbuf *rb;
	struct rawtrace *rt; /* live only */
	struct symtab *syms; /* live only: names kernel addresses */
};

static int put_line(void *ctx, const char *line, size_t len)
{
	struct stream *s = ctx;

	return fwrite(line, 1, len, s->out) == len ? 0 : -EIO;
}

static int put_page(void *ctx, int cpu, const void *page, size_t size)
{
	struct stream *s = ctx;

	if (s->record)
		return ftfile_write(s->out, FTFILE_PAGE, cpu, page, size);
	return rawtrace_add_page(s->rt, cpu, page, size);
}

static int put_format(void *ctx, const char *sys, const char *text, size_t len)
{
	struct stream *s = ctx;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!s->record) {
		rawtrace_add_format(s->rt, sys, text, len); /* unparsed: shown as unknown */
		return 0;
	}
	strbuf_addf(&sb, "%s\n", sys);
	strbuf_add(&sb, text, len);
	ret = ftfile_write(s->out, FTFILE_FORMAT, ftfile_format_sum(sb.buf, sb.len), sb.buf,
			   sb.len);
	strbuf_release(&sb);
	return ret;
}

/* saved_cmdlines, the kernel's pid -> comm cache (top level: instances share it). */
static int cmdlines(struct stream *s, struct strbuf *sb)
{
	char *path = tfs_path(s->t, true, "saved_cmdlines");
	int ret = path ? strbuf_read_file(sb, path) : -ENOMEM;

	free(path);
	return ret;
}

/* Formats (live) or writes (record) what the buffers hold now; 0 or -errno. */
static int drain(struct stream *s, long max_pages)
{
	struct strbuf sb = STRBUF_INIT;
	long n = rawbuf_read(s->rb, max_pages, put_page, s);

	if (n < 0)
		return (int)n;
	if (s->record || !n)
		return 0;
	if (!cmdlines(s, &sb))
		rawtrace_add_cmdlines(s->rt, sb.buf, sb.len);
	strbuf_release(&sb);
	n = rawtrace_flush(s->rt, put_line, s);
	if (!n && fflush(s->out))
		n = -EIO;
	return (int)n;
}

static void sleep_ms(int ms, volatile sig_atomic_t *stop)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR && !*stop)
		;
}

/* The formats and options the pages need: into rt (live) or the file (record). */
static int prepare(struct stream *s)
{
	char *meta = NULL;
	int err = ftfile_meta(s->dir, &meta);

	if (!err && s->record)
		err = ftfile_write_magic(s->out);
	if (!err && s->record)
		err = ftfile_write(s->out, FTFILE_META, 0, meta, strlen(meta));
	if (!err && !s->record)
		ftfile_meta_apply(s->rt, meta, strlen(meta));
	free(meta);
	if (!err)
		err = ftfile_formats(s->dir, put_format, s);
	return err;
}

/* The end of a recording: the names of the tasks and what the kernel lost. */
static int finish_record(struct stream *s, unsigned long long lost)
{
	struct strbuf sb = STRBUF_INIT;
	char num[32];
	int err = cmdlines(s, &sb);

	if (!err)
		err = ftfile_write(s->out, FTFILE_CMDLINES, 0, sb.buf, sb.len);
	strbuf_release(&sb);
	snprintf(num, sizeof(num), "%llu", lost);
	if (!err)
		err = ftfile_write(s->out, FTFILE_LOST, 0, num, strlen(num));
	return err;
}

static int run_loop(struct stream *s, struct workload *w, const struct ftrace_run *r)
{
	int err;

	if ((err = tfs_set(s->t, "tracing_on", "1"))) {
		pr_err("cannot turn tracing on: %s", err_str(err));
		return 1;
	}
	if (w->pid) {
		if (r->delay > 0)
			sleep_ms(r->delay, r->stop);
		err = workload_start(w);
		if (err) {
			pr_err("cannot run '%s': %s", r->cmd, err_str(err));
			tfs_set(s->t, "tracing_on", "0");
			return 1;
		}
	}
	while (!*r->stop && !(w->pid && *r->child_done)) {
		err = rawbuf_wait(s->rb, 200);
		if (err == -EINTR)
			err = 0;
		if (!err)
			err = drain(s, PAGES_PER_ROUND);
		if (err)
			break;
	}
	tfs_set(s->t, "tracing_on", "0");
	if (!err)
		err = drain(s, LONG_MAX);
	if (err) {
		pr_err("cannot copy the trace: %s", err_str(err));
		return 1;
	}
	return 0;
}

int ftrace_stream(struct tfs *t, struct workload *w, const struct ftrace_run *r, FILE *out)
{
	struct stream s = { .t = t, .out = out, .record = r->record };
	unsigned long long lost = 0;
	char *dir = tracefs_instance_get_dir(tfs_instance(t));
	int rc = 1, err;

	s.dir = dir;
	err = dir ? rawbuf_open(dir, &s.rb) : -ENOMEM;
	if (err) {
		pr_err("cannot open the raw buffers of instance %s: %s", tfs_name(t), err_str(err));
		goto out;
	}
	if (!s.record && (err = rawtrace_new((int)sizeof(long), false, &s.rt))) {
		pr_err("cannot trace: %s", err_str(err));
		goto out;
	}
	if (!s.record && !symtab_new(NULL, &s.syms))
		rawtrace_set_symtab(s.rt, s.syms); /* else addresses show in hex */
	if ((err = prepare(&s))) {
		pr_err("cannot read the event formats of instance %s: %s", tfs_name(t),
		       err_str(err));
		goto out;
	}
	rc = run_loop(&s, w, r);
	rawbuf_lost(dir, &lost); /* no stats file: nothing to say */
	if (!rc && s.record && (err = finish_record(&s, lost))) {
		pr_err("cannot write the end of the recording: %s", err_str(err));
		rc = 1;
	}
	if (lost)
		pr_warn("%llu events lost: the buffer was full (a bigger -m helps)", lost);
out:
	rawtrace_free(s.rt);
	symtab_free(s.syms);
	rawbuf_close(s.rb);
	tracefs_put_tracing_file(dir);
	return rc;
}
