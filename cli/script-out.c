// SPDX-License-Identifier: GPL-2.0
/*
 * script-out: how `flare script` prints a sample and the columns it starts a record with:
 * each event's fields (perf's defaults or -F), comm, pid/tid, cpu, time (--ns, --reltime,
 * --deltatime), period, event, tracepoint fields, then the ip/sym+off/dso of the sample or
 * its call chain indented below. Used by the sample loop, --show-*-events and -D alike.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/out.h"
#include "cli/script.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"
#include "lib/sym/srcline.h"
#include "lib/trace/tpfmt.h"

#define F(x) (1u << (x))
#define DEFAULT_FIELDS                                                                             \
	(F(SF_COMM) | F(SF_TID) | F(SF_CPU) | F(SF_TIME) | F(SF_PERIOD) | F(SF_EVENT) | F(SF_IP) | \
	 F(SF_SYM) | F(SF_SYMOFF) | F(SF_DSO))
#define TP_FIELDS (F(SF_COMM) | F(SF_TID) | F(SF_CPU) | F(SF_TIME) | F(SF_EVENT) | F(SF_TRACE))
#define IP_FIELDS (F(SF_IP) | F(SF_SYM) | F(SF_SYMOFF) | F(SF_DSO))

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
		       "it, or leave 'cpu' out of -F)",
		       a->name, c->o->input);
		return -EINVAL;
	}
	if ((f & F(SF_TIME)) && !(st & PERF_SAMPLE_TIME)) {
		pr_err("samples of '%s' in '%s' have no time stamps (leave 'time' out of -F)",
		       a->name, c->o->input);
		return -EINVAL;
	}
	if ((f & F(SF_ADDR)) && !(st & PERF_SAMPLE_ADDR)) {
		pr_err("samples of '%s' in '%s' have no data address (record with -d to have "
		       "it, or leave 'addr' out of -F)",
		       a->name, c->o->input);
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

int script_name_width(const struct perf_data *pd)
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

int script_print_sample(void *ctx, const struct resolved_sample *rs)
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
		fprintf(out, "%*s: ", c->name_width,
			rs->attr && rs->attr->name ? rs->attr->name : "[unknown]");
	if ((fl & F(SF_TRACE)) && s->raw)
		fputs(tpfmt_sample(&c->tt, c->sess, s), out);
	if (fl & F(SF_ADDR))
		fprintf(out, "%16" PRIx64 " ", s->addr);
	if (fl & F(SF_IP))
		print_ip(out, c, ev, rs);
	fputc('\n', out);
	return 0;
}
