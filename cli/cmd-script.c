// SPDX-License-Identifier: GPL-2.0
/*
 * flare script: prints each sample of a perf.data file as `perf script` does: comm, tid, cpu,
 * time, period, event, then the ip/sym+off/dso of the sample or its call chain indented
 * below; tracepoints with their fields formatted by the event's print fmt. -F picks the
 * fields by perf's names, --ns prints nanoseconds, -D dumps the raw records.
 */
#include <errno.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cmds.h"
#include "cli/exit-status.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/read-opts.h"
#include "cli/script.h"
#include "lib/trace/tpfmt.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/data/features.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"
#include "lib/sym/srcline.h"
#include "lib/unwind/unwind.h"

static const char *const script_usage[] = {
	"flare script [<options>]",
	NULL,
};

static const char *const field_names[SF_NR] = {
	[SF_COMM] = "comm",	[SF_TID] = "tid",	[SF_PID] = "pid",
	[SF_TIME] = "time",	[SF_CPU] = "cpu",	[SF_EVENT] = "event",
	[SF_IP] = "ip",		[SF_SYM] = "sym",	[SF_SYMOFF] = "symoff",
	[SF_DSO] = "dso",	[SF_PERIOD] = "period",	[SF_TRACE] = "trace",
	[SF_ADDR] = "addr",	[SF_SRCLINE] = "srcline",
};

#define F(x) (1u << (x))
#define DEFAULT_FIELDS (F(SF_COMM) | F(SF_TID) | F(SF_CPU) | F(SF_TIME) | F(SF_PERIOD) | \
			F(SF_EVENT) | F(SF_IP) | F(SF_SYM) | F(SF_SYMOFF) | F(SF_DSO))
#define TP_FIELDS (F(SF_COMM) | F(SF_TID) | F(SF_CPU) | F(SF_TIME) | F(SF_EVENT) | F(SF_TRACE))
#define IP_FIELDS (F(SF_IP) | F(SF_SYM) | F(SF_SYMOFF) | F(SF_DSO))

static int field_by_name(const char *s, size_t len)
{
	int i;

	for (i = 0; i < SF_NR; i++)
		if (strlen(field_names[i]) == len && !strncmp(field_names[i], s, len))
			return i;
	if (len == 7 && !strncmp(s, "evname", 6))
		return SF_EVENT;
	return -1;
}

/* Parses -F: "f1,f2", "type:f1,f2", "+f" / "-f" to adjust the defaults. */
int script_parse_fields(const char *arg, struct script_opts *o, char *err, size_t errlen)
{
	const char *p = arg, *colon = strchr(arg, ':');
	bool first = true;

	if (colon && !strchr(colon + 1, ':') && colon < arg + strcspn(arg, ","))
		p = colon + 1;	/* "sw:comm,ip": flare applies the list to every event type */
	o->fields_add = o->fields_del = o->fields = 0;
	o->fields_set = false;
	while (*p) {
		size_t len = strcspn(p, ",");
		char mod = 0;
		int f;

		if (*p == '+' || *p == '-') {
			mod = *p++;
			len--;
		}
		f = field_by_name(p, len);
		if (f < 0) {
			snprintf(err, errlen, "'%.*s' in -F is not a field (fields: comm, tid, pid, "
				 "time, cpu, event, ip, sym, symoff, dso, period, trace, addr, "
				 "srcline)",
				 (int)len, p);
			return -1;
		}
		if (mod == '+')
			o->fields_add |= F(f);
		else if (mod == '-')
			o->fields_del |= F(f);
		else {
			o->fields |= F(f);
			o->fields_set = true;
		}
		if (first && mod && o->fields_set) {
			snprintf(err, errlen, "-F '%s' mixes +/- fields with plain ones (use one kind)",
				 arg);
			return -1;
		}
		first = false;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int opt_fields(const struct opt *opt, const char *arg, int unset)
{
	struct script_opts *o = opt->value;
	char err[256];

	if (script_parse_fields(arg, o, err, sizeof(err))) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

/* ---- per-event output setup ---- */

static int event_setup(struct script_ctx *c, const struct pd_attr *a, struct script_event *ev)
{
	uint64_t st = a->attr.sample_type;
	bool tp = a->attr.type == PERF_TYPE_TRACEPOINT;
	bool cc = (st & PERF_SAMPLE_CALLCHAIN) != 0;
	unsigned int f;

	if (c->o->fields_set)
		f = c->o->fields;
	else
		f = (tp ? TP_FIELDS : DEFAULT_FIELDS) | c->o->fields_add;
	if (!c->o->fields_set && !c->o->fields_add && !c->o->fields_del) {
		/* perf's defaults: the call chain of tracepoints (not with -G), what the file
		 * records */
		if (tp && cc && !c->o->hide_callchain)
			f |= IP_FIELDS;
		if (!(st & PERF_SAMPLE_CPU))
			f &= ~F(SF_CPU);
		if (!(st & PERF_SAMPLE_TIME))
			f &= ~F(SF_TIME);
	}
	if (!c->o->fields_set && (c->o->fields_add || c->o->fields_del)) {
		if (!(st & PERF_SAMPLE_CPU) && !(c->o->fields_add & F(SF_CPU)))
			f &= ~F(SF_CPU);
		if (!(st & PERF_SAMPLE_TIME) && !(c->o->fields_add & F(SF_TIME)))
			f &= ~F(SF_TIME);
	}
	f &= ~c->o->fields_del;
	if ((f & F(SF_CPU)) && !(st & PERF_SAMPLE_CPU)) {
		pr_err("samples of '%s' in '%s' have no CPU (record with -a or -C to have "
		       "it, or leave 'cpu' out of -F)", a->name, c->o->input);
		return -EINVAL;
	}
	if ((f & F(SF_TIME)) && !(st & PERF_SAMPLE_TIME)) {
		pr_err("samples of '%s' in '%s' have no time stamps (leave 'time' out of -F)",
		       a->name, c->o->input);
		return -EINVAL;
	}
	if ((f & F(SF_ADDR)) && !(st & PERF_SAMPLE_ADDR)) {
		pr_err("samples of '%s' in '%s' have no data address (record with -d to have "
		       "it, or leave 'addr' out of -F)", a->name, c->o->input);
		return -EINVAL;
	}
	ev->fields = f;
	ev->callchain = cc && !c->o->hide_callchain;
	ev->ready = true;
	return 0;
}

static struct script_event *event_of(struct script_ctx *c, const struct pd_attr *a)
{
	size_t idx = a ? (size_t)a->idx : 0;

	if (idx >= c->nr_events) {
		size_t n = idx + 8;
		struct script_event *p = realloc(c->events, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + c->nr_events, 0, (n - c->nr_events) * sizeof(*p));
		c->events = p;
		c->nr_events = n;
	}
	return &c->events[idx];
}

static int name_width(const struct perf_data *pd)
{
	size_t i;
	int w = 0;

	for (i = 0; i < pd->nr_attrs; i++) {
		int l = pd->attrs[i].name ? (int)strlen(pd->attrs[i].name) : 0;

		if (l > w)
			w = l;
	}
	return w;
}

/* ---- printing ---- */

/* sym(+off), (dso), srcline and the inline mark of one entry, as perf 6.1 prints them */
static void print_srcline(FILE *out, const struct script_ctx *c, const struct frame *f,
			  const struct inline_entry *e)
{
	const char *s;

	if (e) {
		fprintf(out, "\n  %s", e->srcline);
	} else if (f->dso) {
		s = session_frame_srcline(c->sess, f);
		/* perf names the object and address where addr2line knew no function either (the
		 * kernel, whose lines are not read, a PLT stub); an unknown line is shown for the
		 * frames perf looked up inline frames for */
		if (!strcmp(s, "??:0") && (f->dso->kind != DSO_USER || srcline_no_function(f->sym)))
			fprintf(out, "\n  %s[%" PRIx64 "]", f->dso->short_name, f->addr);
		else if (strcmp(s, "??:0") || (c->o->inline_frames && f->unwound))
			fprintf(out, "\n  %s", s);
	}
}

static void print_entry(FILE *out, const struct script_ctx *c, const struct frame *f,
			const struct inline_entry *e, unsigned int fl)
{
	char buf[1024];

	if (fl & F(SF_SYM)) {
		fputc(' ', out);
		if (fl & F(SF_SYMOFF))
			frame_symoff(f, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%s", frame_sym_name(f));
		fputs(buf, out);
	}
	if ((fl & F(SF_DSO)) && !(e && e->inlined))
		fprintf(out, " (%s)", frame_dso_long(f));
	if (fl & F(SF_SRCLINE))
		print_srcline(out, c, f, e);
	if (e && e->inlined)
		fputs(" (inlined)", out);
}

/* One frame of a chain: its inline entries in its place when perf shows them. */
static void print_chain_frame(FILE *out, const struct script_ctx *c, const struct frame *f,
			      unsigned int fl)
{
	const struct inline_entry *e = NULL;
	size_t i, n = c->o->inline_frames ? session_frame_inlines(c->sess, f, &e) : 0;
	struct frame g = *f;

	for (i = 0; i < n; i++) {
		g.sym = e[i].sym;
		fprintf(out, "\t%16" PRIx64, f->addr);
		print_entry(out, c, &g, &e[i], fl);
		fputc('\n', out);
	}
	if (!n) {
		fprintf(out, "\t%16" PRIx64, f->addr);
		print_entry(out, c, f, NULL, fl);
		fputc('\n', out);
	}
}

static void print_ip(FILE *out, const struct script_ctx *c, const struct script_event *ev,
		     const struct resolved_sample *rs)
{
	unsigned int fl = ev->fields;
	bool chain = ev->callchain && rs->s->callchain && rs->nr_frames;
	size_t i, max = c->o->max_stack > 0 ? (size_t)c->o->max_stack : 0;

	fputc(chain ? '\n' : ' ', out);
	if (!chain) {
		fprintf(out, "%16" PRIx64, rs->s->ip);
		if (rs->nr_frames)
			print_entry(out, c, &rs->frames[0], NULL, fl);
		return;
	}
	/* the session keeps --max-stack frames of the chain (and as many unwound ones) */
	for (i = 0; i < rs->nr_frames && max && !sample_chain_dropped(rs->s); i++)
		print_chain_frame(out, c, &rs->frames[i], fl);
}

static void print_time(FILE *out, const struct script_opts *o, uint64_t t)
{
	uint64_t secs = t / 1000000000ULL;

	if (o->ns) {
		fprintf(out, "%5" PRIu64 ".%09" PRIu64 ": ", secs, (uint64_t)(t % 1000000000ULL));
	} else {
		char buf[40];

		snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, secs,
			 (uint64_t)((t / 1000ULL) % 1000000ULL));
		fprintf(out, "%12s: ", buf);
	}
}

/* --reltime: since the first record printed with a time; --deltatime: since the one before,
 * as perf's perf_sample__fprintf_start(). */
static uint64_t script_time_shift(struct script_ctx *c, uint64_t t)
{
	uint64_t d;

	if (c->o->reltime) {
		if (!c->initial_time)
			c->initial_time = t;
		return t - c->initial_time;
	}
	if (!c->o->deltatime)
		return t;
	d = c->previous_time ? t - c->previous_time : 0;
	c->previous_time = t;
	return d;
}

/* The columns perf prints before a sample or a record: comm, pid/tid, cpu, time. */
void script_print_start(struct script_ctx *c, const struct script_event *ev, const char *comm,
			uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t time)
{
	unsigned int fl = ev->fields;
	FILE *out = stdout;

	if (fl & F(SF_COMM)) {
		if ((fl & F(SF_IP)) && ev->callchain)
			fprintf(out, "%s ", comm);
		else
			fprintf(out, "%16s ", comm);
	}
	/* signed, as perf prints them: a sample of no task has pid and tid -1 */
	if ((fl & F(SF_PID)) && (fl & F(SF_TID)))
		fprintf(out, "%5d/%-5d ", (int32_t)pid, (int32_t)tid);
	else if (fl & F(SF_PID))
		fprintf(out, "%5d ", (int32_t)pid);
	else if (fl & F(SF_TID))
		fprintf(out, "%5d ", (int32_t)tid);
	if (fl & F(SF_CPU))
		fprintf(out, "[%03" PRIu32 "] ", cpu);
	if (fl & F(SF_TIME))
		print_time(out, c->o, script_time_shift(c, time));
}

int script_event_of(struct script_ctx *c, const struct pd_attr *a, struct script_event **ret)
{
	struct script_event *ev = event_of(c, a);
	int err;

	if (!ev)
		return -ENOMEM;
	if (!ev->ready && (err = event_setup(c, a, ev)))
		return err;
	*ret = ev;
	return 0;
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct script_ctx *c = ctx;
	const struct perf_sample *s = rs->s;
	struct script_event *ev;
	FILE *out = stdout;
	unsigned int fl;
	int err;

	if ((err = script_event_of(c, rs->attr, &ev)))
		return err;
	if (!script_filter_sample(c, rs))
		return 0;
	fl = ev->fields;
	script_print_start(c, ev, rs->thread->comm, rs->thread->pid, rs->thread->tid, s->cpu,
			   s->time);
	if (fl & F(SF_PERIOD))
		fprintf(out, "%10" PRIu64 " ", s->period);
	if (fl & F(SF_EVENT))
		fprintf(out, "%*s: ", c->name_width, rs->attr && rs->attr->name ? rs->attr->name :
			"[unknown]");
	if ((fl & F(SF_TRACE)) && s->raw)
		fputs(tpfmt_sample(&c->tt, c->sess, s), out);
	if (fl & F(SF_ADDR))
		fprintf(out, "%16" PRIx64 " ", s->addr);
	if (fl & F(SF_IP))
		print_ip(out, c, ev, rs);
	fputc('\n', out);
	return 0;
}

/*
 * --header, --header-only, -I: the header as perf report --header-only prints it. A pipe's
 * features come in its stream, and perf prints them as they come: all with --header, those
 * alone with -I, none with --header-only (it stops before reading the stream).
 */
static int print_header(struct script_ctx *c)
{
	static const char pipe_end[] = "# ========\n#\n";
	struct strbuf sb = STRBUF_INIT;
	int err = pd_header_render(c->sess->pd, c->o->show_info, &sb);
	char *text = sb.buf, *p = strstr(sb.buf, pipe_end);

	if (err) {
		pr_err("cannot print the header of '%s': %s", c->o->input, err_str(err));
	} else {
		if (c->sess->pd->is_pipe && p && c->o->header_only)
			p[sizeof(pipe_end) - 1] = 0;
		else if (c->sess->pd->is_pipe && p && !c->o->header)
			text = p + sizeof(pipe_end) - 1;
		fputs(text, stdout);
	}
	strbuf_release(&sb);
	return err;
}

/* After the file is open: checks the filters, prints the header and the samples. */
static int script_run(struct script_ctx *c)
{
	int err;

	c->name_width = name_width(c->sess->pd);
	err = script_filter_setup(c);
	if (err < 0)
		return err;
	out_pager_start();
	if (c->o->header || c->o->header_only || (c->o->show_info && c->sess->pd->is_pipe)) {
		err = print_header(c);
		if (err || c->o->header_only)
			return err;
	}
	err = session_process(c->sess, on_sample, script_show_events(c->o) ? script_on_record :
			      NULL, c);
	if (err < 0 && err != -EINVAL)
		pr_err("cannot read '%s': %s", c->o->input,
		       c->sess->pd->err_msg[0] ? c->sess->pd->err_msg : err_str(err));
	return err;
}

int cmd_script(int argc, char **argv)
{
	struct script_opts o = { .input = "perf.data", .max_stack = 127, .demangle = 1,
				  .inline_frames = 1 };
	const struct opt opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_CALLBACK('F', "fields", &o, "str",
			     "comma separated output fields prepend with 'type:'. +field to add "
			     "and -field to remove. Fields: comm,tid,pid,time,cpu,event,ip,sym,"
			     "symoff,dso,period,trace,addr", opt_fields),
		OPT_BOOL(0, "ns", &o.ns, "use 9 decimal places when displaying time"),
		OPT_BOOL('G', "hide-call-graph", &o.hide_callchain, "when printing symbols do not display call chain"),
		OPT_BOOL('D', "dump-raw-trace", &o.dump, "dump raw trace in ASCII"),
		OPT_STRING('C', "cpu", &o.cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &o.time_str, "str", "Time span of interest (start,stop)"),
		OPT_STRING('S', "symbols", &o.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING(0, "comm", &o.comm, "comm[,comm...]", "only display events for these comms"),
		OPT_STRING(0, "pid", &o.pid, "pid[,pid...]", "only display events for these pids"),
		OPT_STRING(0, "tid", &o.tid, "tid[,tid...]", "only display events for these tids"),
		OPT_BOOL(0, "show-task-events", &o.show_task, "Show the fork/comm/exit events"),
		OPT_BOOL(0, "show-mmap-events", &o.show_mmap, "Show the mmap events"),
		OPT_BOOL(0, "show-switch-events", &o.show_switch,
			 "Show context switch events (if recorded)"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_BOOL(0, "demangle", &o.demangle, "Enable symbol demangling"),
		OPT_BOOL(0, "inline", &o.inline_frames, "Show inline function"),
		OPT_BOOL(0, "reltime", &o.reltime, "Show time stamps relative to start"),
		OPT_BOOL(0, "deltatime", &o.deltatime, "Show time stamps relative to previous event"),
		OPT_INT(0, "max-stack", &o.max_stack, "n",
			"Set the maximum stack depth when parsing the callchain, anything beyond "
			"the specified depth will be ignored."),
		OPT_BOOL(0, "header", &o.header, "Show data header."),
		OPT_BOOL(0, "header-only", &o.header_only, "Show only data header."),
		OPT_BOOL('I', "show-info", &o.show_info,
			 "display extended information from perf.data file"),
		OPT_COUNT('v', "verbose", &o.verbose, "be more verbose"),
		OPT_END(),
	};
	struct script_ctx c = { .o = &o };
	struct session_opts so = { 0 };
	char errbuf[512];
	int err;

	argc = opt_parse(argc, argv, opts, script_usage, 0);
	if (argc > 0)
		opt_usage_error(opts, script_usage, "unexpected argument '%s'", argv[0]);
	out_verbose = o.verbose;
	if (o.max_stack < 0)
		opt_usage_error(opts, script_usage, "--max-stack %d: give 0 or more frames",
				o.max_stack);
	if (o.reltime && o.deltatime) {
		pr_err("--reltime and --deltatime cannot be used together (use one of them)");
		return EXIT_STATUS_PERF_ERR;
	}
	if (o.dump) {
		out_pager_start();
		err = script_dump(&c);
		/* perf's statuses: -1 for a file it cannot open, -EINVAL for one that breaks off */
		return err == -ENOENT ? EXIT_STATUS_PERF_ERR : err < 0 ? EXIT_STATUS_EINVAL : 0;
	}
	so.open_flags = o.force ? PD_FORCE : 0;
	so.symfs = o.symfs;
	so.kallsyms = o.kallsyms;
	so.no_demangle = !o.demangle;
	if (!read_opts_kallsyms_readable(o.kallsyms))
		return EXIT_STATUS_PERF_ERR;
	err = session_open(o.input, &so, &c.sess, errbuf, sizeof(errbuf));
	if (err < 0) {
		if (err == -ENOENT)
			pr_err("cannot open '%s': %s (record a profile first with 'flare record')",
			       o.input, errbuf);
		else
			pr_err("cannot read '%s': %s", o.input, errbuf);
		return EXIT_STATUS_PERF_ERR;	/* a file it cannot read */
	}
	session_set_max_stack(c.sess, (unsigned int)o.max_stack, false);
	err = script_run(&c);
	if (unwind_stats_summary(session_unwind_stats(c.sess), errbuf, sizeof(errbuf)) > 0)
		pr_warn("DWARF unwinding: %s", errbuf);
	/* what was read is printed; the status is still perf's for a file that breaks off */
	if (!err && c.sess->pd->cut_short)
		err = -ERR_TRUNCATED;
	tpfmt_release(&c.tt);
	free(c.events);
	sample_filter_release(&c.filter);
	session_free(c.sess);
	/* perf's statuses: -EINVAL for a file that breaks off or is corrupt and for a --time
	 * that is no range, -1 for an option the file cannot serve (-F cpu, -C without CPUs),
	 * -ENOMEM */
	if (err == -ERR_TRUNCATED || err == -ERR_FORMAT || err == -ERANGE)
		return EXIT_STATUS_EINVAL;
	if (err == -EINVAL)
		return EXIT_STATUS_PERF_ERR;
	return err == -ENOMEM ? EXIT_STATUS_ENOMEM : err < 0 ? EXIT_STATUS_FAIL : 0;
}
