// SPDX-License-Identifier: GPL-2.0
/*
 * flare report: reads perf.data (flare's or Linux perf's) and prints the profile as
 * `perf report --stdio` does: per event, entries by sort keys with Children/Self or Overhead,
 * and the call graph under each entry.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cli/cmds.h"
#include "cli/exit-status.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/report.h"
#include "cli/read-opts.h"
#include "cli/tui.h"
#include "lib/trace/tpfmt.h"
#include "lib/base/config.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/data/features.h"
#include "lib/hist/feed.h"
#include "lib/hist/resolved.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"
#include "lib/sym/srcline.h"
#include "lib/event/live.h"
#include "lib/unwind/unwind.h"

static const char *const report_usage[] = {
	"flare report [<options>]",
	NULL,
};

struct report_ctx {
	struct report_opts *o;
	struct session *sess;
	struct report_event *events; /* by attr idx */
	size_t nr_events;
	struct hist_opts hopts;
	struct hist_frame *frames;
	size_t frames_alloc;
	struct tpfmt tt; /* tracepoint text for the trace key */
	bool need_trace;
	struct hist_feed *feed;	     /* counts the samples on a second thread (NULL: here) */
	struct sample_filter filter; /* -C, --time, --comm, --pid, --tid, --dso, -S */
	char src_buf[1100];	     /* frame_src_text()'s made text */
};

/* ---- samples ---- */

static int reserve_frames(struct report_ctx *c, size_t n)
{
	struct hist_frame *p;

	if (n <= c->frames_alloc)
		return 0;
	p = realloc(c->frames, n * 2 * sizeof(*p));
	if (!p)
		return -ENOMEM;
	c->frames = p;
	c->frames_alloc = n * 2;
	return 0;
}

/*
 * Appends f to the sample's hist frames, as its inline entries when perf 6.1 shows them (for
 * unwound frames): "mix (inlined)", "step (inlined)", "work". lib/hist finds the sample's
 * own entry past them.
 */
static int push_frame(struct report_ctx *c, const struct frame *f, size_t *nr)
{
	const struct inline_entry *e = NULL;
	size_t i, n = c->o->inline_frames ? session_frame_inlines(c->sess, f, &e) : 0;

	if (reserve_frames(c, *nr + (n ? n : 1)))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		c->frames[(*nr)++] = (struct hist_frame){ f->ip,    f->addr,	    f->dso,
							  e[i].sym, frame_level(f), e[i].inlined };
	if (!n)
		c->frames[(*nr)++] = (struct hist_frame){ f->ip, f->addr, f->dso, f->sym,
							  frame_level(f) };
	return 0;
}

/*
 * perf's srcline and srcfile of an entry: "file.c:42" and "file.c" from the line tables;
 * without a line, srcline is "??:0" in a function addr2line knows, else "sym+N" (N in
 * decimal) or "dso[address]"; srcfile "".
 */
static const char *frame_src_text(void *ctx, enum hist_key k, const struct hist_frame *f)
{
	struct report_ctx *c = ctx;
	struct srclines *sl = f->dso ? session_srclines(c->sess) : NULL;
	const char *s;

	if (!sl)
		return k == HK_SRCFILE ? "" : "??:0";
	if (k == HK_SRCFILE)
		return srcline_file(sl, f->dso, f->dso_ip);
	s = srcline_str(sl, f->dso, f->dso_ip);
	if (strcmp(s, "??:0") || (f->dso->kind == DSO_USER && !srcline_no_function(f->sym)))
		return s;
	if (f->sym)
		snprintf(c->src_buf, sizeof(c->src_buf), "%s+%" PRIu64, f->sym->name,
			 f->dso_ip - f->sym->start);
	else
		snprintf(c->src_buf, sizeof(c->src_buf), "%s[%" PRIx64 "]", f->dso->short_name,
			 f->dso_ip);
	return c->src_buf;
}

/* ---- -g ---- */

static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return !*end;
}

int report_parse_callgraph(struct report_opts *o, const char *arg, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		int mode;
	} modes[] = {
		{ "graph", CG_GRAPH_ABS }, { "fractal", CG_GRAPH_REL }, { "flat", CG_FLAT },
		{ "folded", CG_FOLDED },   { "none", CG_NONE },
	};
	char *dup = strdup(arg ? arg : ""), *tok, *save = NULL;
	int nums = 0, ret = 0;
	size_t i;

	if (!dup)
		return -1;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
			if (!strcmp(tok, modes[i].name))
				break;
		if (i < sizeof(modes) / sizeof(modes[0])) {
			o->cg_mode = modes[i].mode;
		} else if (!strcmp(tok, "caller") || !strcmp(tok, "callee")) {
			o->cg_caller = !strcmp(tok, "caller");
			o->cg_order_set = true;
		} else if (!strcmp(tok, "function") || !strcmp(tok, "address")) {
			o->cg_addr = tok[0] == 'a';
		} else if (!strcmp(tok, "percent")) {
			o->cg_value = CGV_PERCENT;
		} else if (!strcmp(tok, "period")) {
			o->cg_value = CGV_PERIOD;
		} else if (!strcmp(tok, "count")) {
			o->cg_value = CGV_COUNT;
		} else if (!strcmp(tok, "fp") || !strcmp(tok, "dwarf") || !strcmp(tok, "lbr") ||
			   !strcmp(tok, "branch") || !strcmp(tok, "nobranch")) {
			continue;
		} else if (is_number(tok) && nums < 2) {
			if (nums++ == 0)
				o->cg_min_percent = strtod(tok, NULL);
			else
				o->cg_print_limit = atoi(tok);
		} else {
			snprintf(
				err, errlen,
				"'%s' in -g '%s' is not a call-graph setting "
				"(use graph|flat|fractal|folded|none, caller|callee, function|address, "
				"percent|period|count and a threshold)",
				tok, arg);
			ret = -1;
			break;
		}
	}
	free(dup);
	return ret;
}

static int opt_callgraph(const struct opt *opt, const char *arg, int unset)
{
	struct report_opts *o = opt->value;
	char err[512];
	double before = o->cg_min_percent;

	o->cg_given = true;
	if (unset) {
		o->cg_mode = CG_NONE;
		return 0;
	}
	if (report_parse_callgraph(o, arg, err, sizeof(err))) {
		pr_err("%s", err);
		return -1;
	}
	if (o->cg_min_percent != before)
		o->percent_limit_cg_set = true;
	return 0;
}

static int opt_percent_limit(const struct opt *opt, const char *arg, int unset)
{
	struct report_opts *o = opt->value;
	char *end;

	o->percent_limit = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (*end || o->percent_limit < 0) {
		pr_err("--percent-limit '%s' is not a percentage (use a number such as 0.5)", arg);
		return -1;
	}
	if (!o->percent_limit_cg_set)
		o->cg_min_percent = o->percent_limit;
	return 0;
}

/* ---- replay ---- */

static struct report_event *event_of(struct report_ctx *c, const struct pd_attr *attr)
{
	size_t idx = attr ? (size_t)attr->idx : 0;

	/* the hists move: the feed's worker must be done with them */
	if (idx >= c->nr_events && c->feed && hist_feed_sync(c->feed))
		return NULL;
	return report_event_of(&c->events, &c->nr_events, attr, &c->hopts);
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct report_ctx *c = ctx;
	struct report_event *ev = event_of(c, rs->attr);
	struct hist_sample hs;
	size_t i, nr;

	if (!ev)
		return -ENOMEM;
	/* outside --time or -C a sample is not counted at all, as in perf; nor with -U one
	 * whose ip has no symbol */
	if (!sample_filter_when(&c->filter, rs->s) ||
	    (c->o->hide_unresolved && (!rs->nr_frames || !rs->frames[0].sym)))
		return 0;
	ev->nr_samples++;
	ev->total_period += rs->s->period;
	if (!sample_filter_what(&c->filter, rs))
		return 0;
	for (i = nr = 0; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];

		if (c->o->hide_unresolved && !f->sym)
			continue; /* -U: the chain's unresolved entries go too, as in perf */
		if (push_frame(c, f, &nr))
			return -ENOMEM;
	}
	hist_sample_from(rs, c->frames, nr, &hs);
	if (c->need_trace)
		hs.trace = tpfmt_sample(&c->tt, c->sess, rs->s);
	return c->feed ? hist_feed_add(c->feed, &ev->hist, &hs) : hist_add(&ev->hist, &hs);
}

/* ---- decisions perf makes from the file ---- */

static bool file_has_callchain(const struct perf_data *pd)
{
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++)
		if (pd->attrs[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/* perf 6.1's get_default_sort_order(): "trace" when every event of the file is a
 * tracepoint. The dummy event perf record adds for -a (and -C) is one that is not, so a
 * system-wide tracepoint recording by perf sorts by comm,dso,sym. */
static bool all_tracepoints(const struct perf_data *pd)
{
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++)
		if (pd->attrs[i].attr.type != PERF_TYPE_TRACEPOINT)
			return false;
	return pd->nr_attrs > 0;
}

static int setup_hist_opts(struct report_ctx *c, const struct perf_data *pd)
{
	struct report_opts *o = c->o;
	const char *sort = o->sort;
	bool chains = file_has_callchain(pd);
	char bad[64];

	if (o->cg_given && o->cg_mode != CG_NONE && !pd->is_pipe && !chains) {
		pr_err("'%s' has no call chains to show with -g (record with -g or --call-graph, "
		       "or leave -g out)",
		       o->input);
		return -1;
	}
	if (!sort)
		sort = !pd->is_pipe && all_tracepoints(pd) ? "trace" : "comm,dso,sym";
	if (hist_parse_sort(sort, &c->hopts, bad, sizeof(bad))) {
		pr_err("unknown --sort key '%s' (use comm, pid, tid, dso, sym, cpu, trace, srcline, srcfile or a "
		       "comma-separated list of them)",
		       bad);
		return -1;
	}
	o->sort_starts_with_sym = o->sort && !strncmp(o->sort, "sym", 3);
	/* as perf: children when the file has call chains (never for a pipe, whose attrs
	 * come too late for perf to decide) */
	c->hopts.children = !pd->is_pipe && chains && o->children != 0;
	c->hopts.callchain = o->cg_mode != CG_NONE && (chains || pd->is_pipe);
	if (o->cg_order_set)
		c->hopts.caller_order = o->cg_caller;
	else
		c->hopts.caller_order = o->children != 0 && (chains || pd->is_pipe);
	c->hopts.addr_key = o->cg_addr;
	c->need_trace = false;
	for (size_t i = 0; i < c->hopts.nr_keys; i++) {
		if (c->hopts.keys[i] == HK_TRACE)
			c->need_trace = true;
		if (c->hopts.keys[i] == HK_SRCLINE || c->hopts.keys[i] == HK_SRCFILE) {
			c->hopts.frame_text = frame_src_text;
			c->hopts.frame_text_ctx = c;
		}
	}
	return 0;
}

/* ---- output ---- */

static const char *const tips[] = {
	"For a higher level overview, try: flare report --sort comm,dso",
	"Show the number of samples of each entry with: flare report -n",
	"Draw the profile as a flame graph with: flare flamegraph",
	"Limit the entries to those above a share with: flare report --percent-limit 5",
	"Show the call graph as folded stacks with: flare report -g folded",
	"Show only the samples of some commands with: flare report --comm NAME[,NAME...]",
	"Print each sample with its call chain with: flare script",
};

static void print_elided(FILE *out, const struct report_opts *o)
{
	if (o->dso && *o->dso && !strchr(o->dso, ','))
		fprintf(out, "# dso: %s\n", o->dso);
	if (o->comm && *o->comm && !strchr(o->comm, ','))
		fprintf(out, "# comm: %s\n", o->comm);
	if (o->symbols && *o->symbols && !strchr(o->symbols, ','))
		fprintf(out, "# symbol: %s\n", o->symbols);
}

static int print_features(FILE *out, struct perf_data *pd, bool full)
{
	struct pd_features *f = NULL;
	struct strbuf sb = STRBUF_INIT;
	int err;

	err = pd_features_read(pd, &f);
	if (!err)
		err = pd_features_render(pd, f, full, &sb);
	if (!err)
		fprintf(out, "%s%s", sb.buf, pd->is_pipe ? "" : "#\n");
	strbuf_release(&sb);
	pd_features_free(f);
	return err;
}

/* The pid key shows each thread's last name: after the replay, the session's. */
static void name_threads(struct session *sess, struct hist *h)
{
	size_t i;

	for (i = 0; i < h->nr_entries; i++) {
		const struct thread *t = session_thread(sess, h->created[i]->tid);

		if (t)
			h->created[i]->thread_comm = t->comm;
	}
}

static int print_report(struct report_ctx *c)
{
	struct report_opts *o = c->o;
	struct session *sess = c->sess;
	FILE *out = stdout;
	bool chains = file_has_callchain(sess->pd);
	uint64_t all = 0;
	char unw[256];
	size_t i;
	int err;

	for (i = 0; i < c->nr_events; i++)
		all += c->events[i].nr_samples;
	if (!all && !o->header) {
		/* as perf: no table at all, and a status of 0 */
		if (!o->quiet)
			fputs("# To display the perf.data header info, please use "
			      "--header/--header-only options.\n#\n",
			      out);
		if (o->time_str)
			pr_err("'%s' has no samples in --time '%s' (see its span with "
			       "'flare report --header-only -i %s')",
			       o->input, o->time_str, o->input);
		else
			pr_err("'%s' has no samples", o->input);
		return 0;
	}
	all = 0;
	if (o->quiet) {
		/* -q: the entries only, as perf's */
	} else if (o->header) {
		err = print_features(out, sess->pd, o->show_info);
		if (err)
			return err;
	} else {
		fputs("# To display the perf.data header info, please use "
		      "--header/--header-only options.\n#\n",
		      out);
	}
	if (!o->quiet) {
		print_elided(out, o);
		fprintf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", sess->nr_lost);
		if (unwind_stats_summary(session_unwind_stats(sess), unw, sizeof(unw)) > 0)
			fprintf(out, "# DWARF unwinding: %s\n#\n", unw);
	}
	for (i = 0; i < c->nr_events; i++) {
		struct report_event *ev = &c->events[i];
		uint64_t n = ev->nr_samples;
		char unit = ' ';

		if (!ev->used || !n)
			continue;
		all += n;
		if (n > 1000) {
			n /= 1000;
			unit = 'K';
		}
		if (n > 1000) {
			n /= 1000;
			unit = 'M';
		}
		if (n > 1000) {
			n /= 1000;
			unit = 'G';
		}
		if (!o->quiet) {
			fprintf(out, "# Samples: %" PRIu64 "%c of event '%s'", n, unit, ev->name);
			if (o->time_str)
				fprintf(out, " (time slices: %s)", o->time_str);
			fputc('\n', out);
			fprintf(out, "# Event count (approx.): %" PRIu64 "\n#\n", ev->total_period);
		}
		err = hist_finish(&ev->hist, o->cg_mode, o->cg_min_percent, ev->total_period);
		if (!err)
			name_threads(sess, &ev->hist);
		if (err)
			return err;
		report_print_event(out, o, ev, chains || sess->pd->is_pipe);
	}
	if (o->quiet)
		return 0;
	/* a profile with call chains: the tip is how to see it as a flame graph */
	if (chains)
		fprintf(out,
			"#\n# (Tip: See the call graphs as a flame graph: flare flamegraph -i %s "
			"-o flame.svg)\n#\n",
			o->input);
	else
		fprintf(out, "#\n# (Tip: %s)\n#\n", tips[all % (sizeof(tips) / sizeof(tips[0]))]);
	return 0;
}

static void ctx_release(struct report_ctx *c)
{
	size_t i;

	hist_feed_free(c->feed);
	for (i = 0; i < c->nr_events; i++)
		hist_release(&c->events[i].hist);
	free(c->events);
	free(c->frames);
	tpfmt_release(&c->tt);
	sample_filter_release(&c->filter);
}

/* The sample filter from the options, -C and --time checked against the file. 0, or the exit
 * status with the reason said: perf's for a --time that is no range (-EINVAL). */
static int setup_filters(struct report_ctx *c)
{
	const struct report_opts *o = c->o;
	int err;

	if (o->time_str) {
		err = read_opts_time(&c->filter, c->sess->pd, o->input, o->time_str, false);
		if (err)
			return err == -ERANGE ? EXIT_STATUS_EINVAL : EXIT_STATUS_FAIL;
	}
	if (o->cpu_list && read_opts_cpus(&c->filter, c->sess->pd, o->input, o->cpu_list))
		return 1;
	c->filter.comm = o->comm;
	c->filter.pid = o->pid;
	c->filter.tid = o->tid;
	c->filter.dso = o->dso;
	c->filter.symbols = o->symbols;
	return 0;
}

/* Reads and resolves the samples here while a second thread counts them into the hists
 * (hist_feed); without that thread, counts them here. 0, or -1 with the message printed. */
static int replay(struct report_ctx *c)
{
	const char *in = c->o->input;
	int err, ferr = 0;

	if (hist_feed_new(&c->feed))
		c->feed = NULL;
	err = session_process(c->sess, on_sample, NULL, c);
	if (c->feed)
		ferr = hist_feed_finish(c->feed);
	if (err < 0) {
		pr_err("cannot read '%s': %s", in,
		       c->sess->pd->err_msg[0] ? c->sess->pd->err_msg : err_str(err));
		return -1;
	}
	if (ferr) {
		pr_err("report on '%s' failed: %s", in, err_str(ferr));
		return -1;
	}
	return 0;
}

/* perf's -g takes its argument as the next word too ("-g folded"). */
static void join_callgraph_arg(int *argc, char **argv)
{
	int i, j;

	for (i = 1; i + 1 < *argc; i++) {
		static char buf[32][256];
		static int used;

		if (strcmp(argv[i], "-g") && strcmp(argv[i], "--call-graph"))
			continue;
		if (argv[i + 1][0] == '-' || used == 32)
			continue;
		snprintf(buf[used], sizeof(buf[used]), "%s%s",
			 argv[i][1] == 'g' ? "-g" : "--call-graph=", argv[i + 1]);
		argv[i] = buf[used++];
		for (j = i + 1; j + 1 < *argc; j++)
			argv[j] = argv[j + 1];
		(*argc)--;
		argv[*argc] = NULL;
	}
}

static int open_session(struct report_opts *o, struct session **sess)
{
	struct session_opts so = { .open_flags = o->force ? PD_FORCE : 0,
				   .no_callchain = o->cg_mode == CG_NONE && !o->sort };
	char err[512];
	int ret;

	so.no_callchain = false;
	so.symfs = o->symfs;
	so.kallsyms = o->kallsyms;
	so.no_demangle = !o->demangle;
	if (!read_opts_kallsyms_readable(o->kallsyms))
		return -ENOENT;
	ret = session_open(o->input, &so, sess, err, sizeof(err));
	if (ret < 0) {
		if (ret == -ENOENT)
			pr_err("cannot open '%s': %s (record a profile first with 'flare record')",
			       o->input, err);
		else
			pr_err("cannot read '%s': %s", o->input, err);
	}
	return ret;
}

/* ---- the terminal browser ---- */

struct report_tui {
	struct report_ctx *c;
	struct tui_view built; /* the view the hists were made for */
	const char *user_sort, *user_tid, *user_dso;
	char tid[16];
	bool sorted;
};

/* The profile again for another sort or zoom: the file replayed with them. 0 or -1. */
static int tui_replay(struct report_tui *t, const struct tui_view *view)
{
	struct report_ctx *c = t->c;
	struct report_opts *o = c->o;
	struct session *sess;
	int err;

	ctx_release(c);
	session_free(c->sess);
	*c = (struct report_ctx){ .o = o };
	o->sort = view->sort[0] ? view->sort : t->user_sort;
	if (open_session(o, &sess) < 0)
		return -1;
	c->sess = sess;
	if (setup_hist_opts(c, sess->pd))
		return -1;
	session_set_max_stack(sess, (unsigned int)o->max_stack, c->hopts.caller_order);
	if ((err = setup_filters(c)))
		return -1;
	snprintf(t->tid, sizeof(t->tid), "%u", view->tid);
	c->filter.tid = view->zoom_thread ? t->tid : t->user_tid;
	c->filter.dso = view->dso[0] ? view->dso : t->user_dso;
	t->built = *view;
	t->sorted = false;
	return replay(c);
}

static int tui_build(void *ctx, const struct tui_view *view, struct tui_page *page, char *msg,
		     size_t len)
{
	struct report_tui *t = ctx;
	struct report_ctx *c = t->c;
	struct report_event *ev = NULL;
	struct hist_opts ho = { 0 };
	char bad[64];
	size_t i;
	int err = 0;

	if (view->sort[0] && hist_parse_sort(view->sort, &ho, bad, sizeof(bad))) {
		snprintf(msg, len, "unknown sort key '%s' (use comm, pid, dso, sym, cpu, trace)",
			 bad);
		return -1;
	}
	if (memcmp(view, &t->built, sizeof(*view)) && tui_replay(t, view)) {
		snprintf(msg, len, "cannot read '%s' again", c->o->input);
		return -1;
	}
	for (i = 0; i < c->nr_events && !ev; i++)
		if (c->events[i].used && c->events[i].nr_samples)
			ev = &c->events[i];
	if (!ev)
		return asprintf(&page->title, "no samples in '%s'", c->o->input) < 0 ? -1 : 0;
	if (!t->sorted) {
		err = hist_sort(&ev->hist);
		if (!err)
			name_threads(c->sess, &ev->hist);
		if (!err)
			err = hist_sort_callchains(&ev->hist, c->o->cg_mode, c->o->cg_min_percent,
						   ev->total_period);
		t->sorted = !err;
	}
	if (!err && asprintf(&page->title,
			     "Samples: %" PRIu64 " of event '%s', Event count "
			     "(approx.): %" PRIu64 ", lost: %" PRIu64,
			     ev->nr_samples, ev->name, ev->total_period, c->sess->nr_lost) < 0)
		err = -ENOMEM;
	if (!err)
		err = report_event_rows(c->o, ev,
					file_has_callchain(c->sess->pd) || c->sess->pd->is_pipe,
					&page->columns, tui_page_add_entry, page);
	if (err)
		snprintf(msg, len, "cannot show '%s': %s", c->o->input, err_str(err));
	return err ? -1 : 0;
}

static char *tui_info(void *ctx)
{
	struct report_tui *t = ctx;
	struct pd_features *f = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct perf_data *pd = t->c->sess->pd;

	if (pd_features_read(pd, &f) || pd_features_render(pd, f, true, &sb)) {
		strbuf_release(&sb);
		sb = (struct strbuf)STRBUF_INIT;
	}
	pd_features_free(f);
	return sb.buf && sb.buf[0] ? sb.buf : (strbuf_release(&sb), NULL);
}

/*
 * a in the browser: flare annotate of the entry's symbol in its dso, on the same file and
 * symbol options, paged, as perf report's annotate view. It runs in a child: annotate
 * prints and may exit, and the browser comes back when the pager ends.
 */
static int tui_annotate(void *ctx, const struct tui_row *row, char *msg, size_t len)
{
	struct report_tui *t = ctx;
	const struct report_opts *o = t->c->o;
	int status;
	pid_t pid;

	if (!row->dso || !strcmp(row->dso, "[unknown]")) {
		snprintf(msg, len, "annotate: %s has no object file to disassemble", row->sym);
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(msg, len, "annotate: cannot start: %s", err_str(-errno));
		return -1;
	}
	if (pid == 0) {
		const char *argv[16] = { "annotate", "--stdio", "-i", o->input, "-d", row->dso };
		int argc = 6;
		sigset_t all;

		sigfillset(&all);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		if (o->symfs) {
			argv[argc++] = "--symfs";
			argv[argc++] = o->symfs;
		}
		argv[argc++] = row->sym;
		/* a view, not a stream: paged by less (unless FLARE_PAGER says otherwise), kept
		 * on the screen until q even when it fits */
		setenv("FLARE_PAGER", "less", 0);
		setenv("LESS", "RSX", 1);
		out_pager_start();
		exit(cmd_annotate(argc, (char **)argv)); /* exit: the pager is waited for */
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(msg, len, "annotate of %s ended with status %d", row->sym,
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return -1;
	}
	return 0;
}

/* The browser over the replayed profile, until q. 0, or 1 (said). */
static int browse(struct report_ctx *c)
{
	struct live_signals sig = LIVE_SIGNALS_INIT;
	struct report_tui t = {
		.c = c, .user_sort = c->o->sort, .user_tid = c->o->tid, .user_dso = c->o->dso
	};
	struct tui_model m = {
		.build = tui_build, .info = tui_info, .annotate = tui_annotate, .ctx = &t
	};
	int err;

	/* SIGINT and SIGTERM end the browser through its loop, the terminal restored */
	if (!live_signals_block(&sig))
		m.sig = &sig;
	err = tui_browse(&m);
	live_signals_release(&sig);
	return err;
}

/* perf's config keys report honours (options on the command line win): report.children and
 * report.percent-limit. A file that does not parse is said once and ignored. */
static void apply_config(struct report_opts *o)
{
	struct config cfg = { 0 };
	const char *v;
	char err[256];
	bool b;

	if (config_load_default(&cfg, err, sizeof(err)))
		pr_warn("perfconfig ignored: %s", err);
	v = config_get(&cfg, "report.children");
	if (v && !config_bool(v, &b))
		o->children = b;
	v = config_get(&cfg, "report.percent-limit");
	if (v) {
		char *end;
		double d = strtod(v, &end);

		if (!*end && d >= 0) {
			o->percent_limit = d;
			o->cg_min_percent = d;
		}
	}
	config_free(&cfg);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .input = "perf.data",
				 .children = -1,
				 .cg_min_percent = 0.5,
				 .demangle = 1,
				 .max_stack = 127,
				 .inline_frames = 1,
				 .tui = -1 };
	const struct opt opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_BOOL(0, "stdio", &o.stdio, "use the stdio interface"),
		OPT_BOOL(0, "tui", &o.tui, "use the TUI interface (the default on a terminal)"),
		OPT_BOOL('n', "show-nr-samples", &o.show_nr,
			 "show a column with the number of samples"),
		OPT_STRING('s', "sort", &o.sort, "key[,key2...]",
			   "sort by key(s): comm, pid, tid, dso, sym, cpu, trace"),
		OPT_BOOL(0, "children", &o.children,
			 "accumulate callchains of children and show total overhead as well"),
		OPT_CALLBACK_OPTARG(
			'g', "call-graph", &o,
			"print_type,threshold[,print_limit],order,sort_key[,branch],value",
			"call graph: graph|flat|fractal|folded|none, threshold, caller|callee, function|address, percent|period|count",
			opt_callgraph),
		OPT_BOOL('G', "inverted", &o.inverted,
			 "alias for inverted call graph (caller first)"),
		OPT_INT(0, "max-stack", &o.max_stack, "n",
			"Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: 127"),
		OPT_CALLBACK(0, "percent-limit", &o, "percent",
			     "don't show entries under that percent", opt_percent_limit),
		OPT_STRING(0, "comm", &o.comm, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING(0, "time", &o.time_str, "str", "Time span of interest (start,stop)"),
		OPT_STRING('C', "cpu", &o.cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_BOOL(0, "demangle", &o.demangle, "Enable symbol demangling"),
		OPT_BOOL(0, "inline", &o.inline_frames, "Show inline function"),
		OPT_BOOL(0, "stats", &o.stats, "Display event stats"),
		OPT_BOOL(0, "tasks", &o.tasks, "Display recorded tasks"),
		OPT_BOOL(0, "show-total-period", &o.show_period,
			 "Show a column with the sum of periods"),
		OPT_BOOL(0, "show-cpu-utilization", &o.show_cpu_util,
			 "Show sample percentage for different cpu modes"),
		OPT_BOOL(0, "showcpuutilization", &o.show_cpu_util,
			 "Show sample percentage for different cpu modes"),
		OPT_BOOL('U', "hide-unresolved", &o.hide_unresolved,
			 "Only display entries resolved to a symbol"),
		OPT_STRING(0, "pid", &o.pid, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o.tid, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING('d', "dsos", &o.dso, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_STRING(0, "dso", &o.dso, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_STRING('S', "symbols", &o.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING(0, "symbol-filter", &o.symbol_filter, "filter",
			   "only show symbols that (partially) match with this filter"),
		OPT_BOOL(0, "header", &o.header, "show data header"),
		OPT_BOOL(0, "header-only", &o.header_only, "show only data header"),
		OPT_BOOL('I', "show-info", &o.show_info,
			 "display extended information about the perf.data file"),
		OPT_BOOL('q', "quiet", &o.quiet,
			 "print the entries only: no header or comment lines"),
		OPT_COUNT('v', "verbose", &o.verbose, "be more verbose"),
		OPT_END(),
	};
	struct report_ctx c = { .o = &o };
	struct session *sess = NULL;
	bool use_tui;
	int err;

	apply_config(&o);
	join_callgraph_arg(&argc, argv);
	argc = opt_parse(argc, argv, opts, report_usage, 0);
	if (argc > 0)
		opt_usage_error(opts, report_usage, "unexpected argument '%s'", argv[0]);
	out_verbose = o.verbose;
	if (o.max_stack < 0)
		opt_usage_error(opts, report_usage, "--max-stack %d: give 0 or more frames",
				o.max_stack);
	if (o.inverted && !o.cg_order_set) {
		o.cg_caller = true;
		o.cg_order_set = true;
	}
	if (o.stats)
		return report_stats(&o);
	if (o.tasks)
		return report_tasks(&o);
	if (open_session(&o, &sess) < 0)
		return EXIT_STATUS_PERF_ERR; /* a file it cannot read */
	c.sess = sess;
	if (o.header_only) {
		err = print_features(stdout, sess->pd, o.show_info);
		session_free(sess);
		if (err)
			pr_err("cannot print the header of '%s': %s", o.input, err_str(err));
		return err ? 1 : 0;
	}
	if (setup_hist_opts(&c, sess->pd)) {
		session_free(sess);
		return 1;
	}
	session_set_max_stack(sess, (unsigned int)o.max_stack, c.hopts.caller_order);
	if ((err = setup_filters(&c))) {
		ctx_release(&c);
		session_free(sess);
		return err;
	}
	/* the browser on a terminal, as perf (--stdio, --no-tui, -q, --header: text) */
	use_tui = !o.stdio && o.tui != 0 && !o.quiet && !o.header && tui_possible();
	if (!use_tui)
		out_pager_start();
	err = replay(&c);
	if (!err && use_tui) {
		err = browse(&c);
	} else if (!err) {
		err = print_report(&c);
		if (err)
			pr_err("report on '%s' failed: %s", o.input, err_str(err));
	}
	ctx_release(&c);
	session_free(c.sess);
	return err ? 1 : 0;
}
