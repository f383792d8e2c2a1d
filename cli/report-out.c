// SPDX-License-Identifier: GPL-2.0
/*
 * report-out: `flare report --stdio` output in perf 6.1's shapes: the column header, one line
 * per entry, and the call graph under it (graph, fractal, flat, folded).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/report-fmt.h"
#include "cli/report.h"

#define MAX_COLS (HIST_MAX_KEYS + 6)

enum col_kind {
	COL_CHILDREN,
	COL_SELF,
	COL_OVERHEAD,
	COL_SYS,
	COL_USR,
	COL_SAMPLES,
	COL_PERIOD,
	COL_KEY
};

struct col {
	enum col_kind kind;
	enum hist_key key;
	int width;
};

struct layout {
	struct col cols[MAX_COLS];
	int nr;
	uint64_t total; /* period the percentages are of */
	const struct report_opts *o;
	bool children;
	const char *symbol_filter; /* --symbol-filter, where perf applies it */
};

/* perf's mark of an inline frame, after its name */
#define INLINED " (inlined)"
#define INLINED_LEN (sizeof(INLINED) - 1)

static const char *dso_name(const struct hist_entry *e)
{
	return e->dso && e->dso->short_name ? e->dso->short_name : "[unknown]";
}

/* perf's pid key names the thread as it was last called (a thread that exec'd 'ls' shows
 * as ls even for its samples of before), where the comm key has the name of the sample. */
static const char *pid_comm(const struct hist_entry *e)
{
	const char *c = e->thread_comm ? e->thread_comm : e->comm;

	return c ? c : "";
}

static const char *key_header(enum hist_key k)
{
	switch (k) {
	case HK_COMM:
		return "Command";
	case HK_PID:
		return "    Pid:Command";
	case HK_DSO:
		return "Shared Object";
	case HK_SYM:
		return "Symbol";
	case HK_CPU:
		return "CPU";
	case HK_TRACE:
		return "Trace output";
	case HK_SRCLINE:
		return "Source:Line";
	case HK_SRCFILE:
		return "Source File";
	default:
		return "?";
	}
}

static bool key_elided(const struct report_opts *o, enum hist_key k)
{
	const char *list = k == HK_COMM	 ? o->comm
			   : k == HK_DSO ? o->dso
			   : k == HK_SYM ? o->symbols
					 : NULL;

	return list && *list && !strchr(list, ',');
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* trace_known: perf formats an entry's trace output only when it compares it with another
 * (a second entry, or a second sample for it), so the lone entry of a histogram that had one
 * sample leaves the column as wide as its header, and the text is cut there. */
static void widen(struct layout *l, const struct hist_entry *e, bool trace_known)
{
	int i;

	for (i = 0; i < l->nr; i++) {
		struct col *c = &l->cols[i];
		int w = 0;

		if (c->kind != COL_KEY)
			continue;
		switch (c->key) {
		case HK_COMM:
			w = (int)strlen(e->comm ? e->comm : "");
			break;
		case HK_PID:
			w = (int)strlen(pid_comm(e)) + 8;
			break;
		case HK_DSO:
			w = (int)strlen(dso_name(e));
			break;
		case HK_SYM:
			w = e->sym ? (int)strlen(e->sym->name) + 4 + (e->inl ? INLINED_LEN : 0)
				   : 22;
			break;
		case HK_TRACE:
			w = trace_known ? (int)strlen(e->trace ? e->trace : "") : 0;
			break;
		case HK_SRCLINE:
		case HK_SRCFILE:
			w = (int)strlen(e->src ? e->src : "");
			break;
		default:
			break;
		}
		c->width = max_int(c->width, w);
	}
	/* an unresolved symbol widens the dso column to an address's width, as perf */
	if (!e->sym) {
		for (i = 0; i < l->nr; i++)
			if (l->cols[i].kind == COL_KEY && l->cols[i].key == HK_DSO && !l->o->dso)
				l->cols[i].width = max_int(l->cols[i].width, 16);
	}
}

/* --symbol-filter: an entry whose symbol does not hold the string is hidden, as perf hides
 * it (it still counts in the totals, and the columns are as wide as the entries shown).
 * perf applies it as it merges entries, which it does only when a sort key needs that
 * (comm, of flare's keys), and to the file's first event only: elsewhere the filter does
 * nothing, there as here. */
static const char *symbol_filter_of(const struct report_opts *o, const struct report_event *ev)
{
	const struct hist *h = &ev->hist;
	size_t i;

	for (i = 0; o->symbol_filter && ev->first && i < h->o.nr_keys; i++)
		if (h->o.keys[i] == HK_COMM)
			return o->symbol_filter;
	return NULL;
}

static bool entry_filtered(const struct layout *l, const struct hist_entry *e)
{
	return l->symbol_filter && (!e->sym || !strstr(e->sym->name, l->symbol_filter));
}

static void layout_init(struct layout *l, const struct report_opts *o, struct report_event *ev,
			bool children)
{
	const struct hist *h = &ev->hist;
	size_t i;

	memset(l, 0, sizeof(*l));
	l->o = o;
	l->children = children;
	l->symbol_filter = symbol_filter_of(o, ev);
	if (children) {
		l->cols[l->nr++] = (struct col){ COL_CHILDREN, 0, 8 };
		l->cols[l->nr++] = (struct col){ COL_SELF, 0, 8 };
	} else {
		l->cols[l->nr++] = (struct col){ COL_OVERHEAD, 0, 8 };
	}
	if (o->show_cpu_util) {
		l->cols[l->nr++] = (struct col){ COL_SYS, 0, 8 };
		l->cols[l->nr++] = (struct col){ COL_USR, 0, 8 };
	}
	if (o->show_nr)
		l->cols[l->nr++] = (struct col){ COL_SAMPLES, 0, 12 };
	if (o->show_period)
		l->cols[l->nr++] = (struct col){ COL_PERIOD, 0, 12 };
	for (i = 0; i < h->o.nr_keys; i++) {
		enum hist_key k = h->o.keys[i];

		if (key_elided(o, k))
			continue;
		l->cols[l->nr++] = (struct col){ COL_KEY, k, (int)strlen(key_header(k)) };
	}
	for (i = 0; i < h->nr_entries; i++) {
		/* top's -E: the columns fit the entries printed */
		if (o->max_entries > 0 && i == (size_t)o->max_entries)
			break;
		if (!entry_filtered(l, h->sorted[i]))
			widen(l, h->sorted[i], h->nr_entries > 1 || h->sorted[i]->nr_total > 1);
	}
}

static void put_dots(FILE *out, int n)
{
	while (n-- > 0)
		fputc('.', out);
}

static void print_header(FILE *out, const struct layout *l)
{
	int i;

	fputs("# ", out);
	for (i = 0; i < l->nr; i++) {
		const struct col *c = &l->cols[i];

		if (i)
			fputs("  ", out);
		switch (c->kind) {
		case COL_CHILDREN:
			fprintf(out, "%*s", c->width, "Children");
			break;
		case COL_SELF:
			fprintf(out, "%*s", c->width, "Self");
			break;
		case COL_OVERHEAD:
			fprintf(out, "%*s", c->width, "Overhead");
			break;
		case COL_SYS:
			fprintf(out, "%*s", c->width, "sys");
			break;
		case COL_USR:
			fprintf(out, "%*s", c->width, "usr");
			break;
		case COL_SAMPLES:
			fprintf(out, "%*s", c->width, "Samples");
			break;
		case COL_PERIOD:
			fprintf(out, "%*s", c->width, "Period");
			break;
		case COL_KEY:
			fprintf(out, "%-*s", c->width, key_header(c->key));
			break;
		}
	}
	fputs("\n# ", out);
	for (i = 0; i < l->nr; i++) {
		if (i)
			fputs("  ", out);
		put_dots(out, l->cols[i].width);
	}
	fputs("\n#\n", out);
}

static void print_key(struct lbuf *b, const struct col *c, const struct hist_entry *e, bool last)
{
	char tmp[32];
	int n;

	switch (c->key) {
	case HK_COMM:
		lb_left(b, e->comm ? e->comm : "", c->width);
		break;
	case HK_PID:
		lb_u64(b, e->tid, 7);
		lb_mem(b, ":", 1);
		lb_left(b, pid_comm(e), c->width - 8);
		break;
	case HK_DSO:
		lb_left(b, dso_name(e), c->width);
		break;
	case HK_SYM:
		/* perf pads the symbol only when a column follows it */
		tmp[0] = '[';
		tmp[1] = e->level;
		tmp[2] = ']';
		tmp[3] = ' ';
		lb_mem(b, tmp, 4);
		if (e->sym) {
			n = (int)strlen(e->sym->name);
			lb_mem(b, e->sym->name, (size_t)n);
			if (e->inl) {
				lb_mem(b, INLINED, INLINED_LEN);
				n += INLINED_LEN;
			}
			n += 4;
		} else {
			/* printf's '#' adds no 0x to a zero, and perf prints it so */
			lb_hex16(b, e->ip, e->ip != 0);
			n = e->ip ? 22 : 20;
		}
		if (!last && n < c->width)
			lb_fill(b, ' ', c->width - n);
		break;
	case HK_CPU:
		/* a file without PERF_SAMPLE_CPU has cpu -1, which perf prints as -001 */
		n = snprintf(tmp, sizeof(tmp), "%*.*d", c->width, c->width, (int)e->cpu);
		lb_mem(b, tmp, n > 0 ? (size_t)n : 0);
		break;
	case HK_TRACE:
		/* never padded, as perf; cut at the column's width ("%-.*s") */
		n = e->trace ? (int)strnlen(e->trace, (size_t)c->width) : 0;
		lb_mem(b, e->trace ? e->trace : "", (size_t)n);
		break;
	case HK_SRCLINE:
	case HK_SRCFILE:
		/* padded when a column follows, as the symbol */
		n = e->src ? (int)strnlen(e->src, (size_t)c->width) : 0;
		lb_mem(b, e->src ? e->src : "", (size_t)n);
		if (!last && n < c->width)
			lb_fill(b, ' ', c->width - n);
		break;
	default:
		break;
	}
}

static void print_entry_line(FILE *out, const struct layout *l, const struct hist_entry *e)
{
	struct lbuf b;
	int i;

	b.out = out;
	b.len = 0;
	lb_mem(&b, "  ", 2);
	for (i = 0; i < l->nr; i++) {
		const struct col *c = &l->cols[i];

		if (i)
			lb_mem(&b, "  ", 2);
		switch (c->kind) {
		case COL_CHILDREN:
			lb_percent(&b, e->total, l->total, c->width);
			break;
		case COL_SELF:
		case COL_OVERHEAD:
			lb_percent(&b, e->self, l->total, c->width);
			break;
		case COL_SYS:
			lb_percent(&b, e->self_sys, l->total, c->width);
			break;
		case COL_USR:
			lb_percent(&b, e->self_usr, l->total, c->width);
			break;
		case COL_SAMPLES:
			lb_u64(&b, e->nr_self, c->width);
			break;
		case COL_PERIOD:
			lb_u64(&b, e->self, c->width);
			break;
		case COL_KEY:
			print_key(&b, c, e, i == l->nr - 1);
			break;
		}
	}
	lb_mem(&b, "\n", 1);
	lb_flush(&b);
}

/* ---- call graphs ---- */

struct cgp {
	FILE *out;
	const struct report_opts *o;
	uint64_t total;
	size_t n; /* bytes-ish printed, to know whether anything was */
};

static void frame_name(const struct hist_frame *f, char *buf, size_t len)
{
	if (f->sym)
		snprintf(buf, len, "%s%s", f->sym->name, f->inl ? INLINED : "");
	else
		snprintf(buf, len, "%#" PRIx64, f->ip);
}

static void put_value(struct cgp *p, uint64_t period, uint64_t count, uint64_t total)
{
	switch (p->o->cg_value) {
	case CGV_PERIOD:
		fprintf(p->out, "%" PRIu64, period);
		break;
	case CGV_COUNT:
		fprintf(p->out, "%" PRIu64, count);
		break;
	default:
		fprintf(p->out, "%.2f%%", total ? (double)period * 100.0 / (double)total : 0.0);
		break;
	}
}

static void margin(struct cgp *p, int lm)
{
	fprintf(p->out, "%*s", 12 + lm, "");
	p->n++;
}

static bool bit(uint64_t mask, int i)
{
	return i < 64 && (mask >> i) & 1;
}

static uint64_t clear_bit(uint64_t mask, int i)
{
	return i >= 0 && i < 64 ? mask & ~(1ULL << i) : mask;
}

static uint64_t set_bit(uint64_t mask, int i)
{
	return i < 64 ? mask | (1ULL << i) : mask;
}

static void graph_line(struct cgp *p, int depth, uint64_t mask, int lm)
{
	int i;

	margin(p, lm);
	for (i = 0; i < depth; i++)
		fputs(bit(mask, i) ? "|          " : "           ", p->out);
	fputc('\n', p->out);
}

static void graph_entry(struct cgp *p, uint64_t period, uint64_t count, const char *name, int depth,
			uint64_t mask, int idx, uint64_t total, int lm)
{
	int i;

	margin(p, lm);
	for (i = 0; i < depth; i++) {
		fputc(bit(mask, i) ? '|' : ' ', p->out);
		if (!idx && i == depth - 1) {
			fputs("--", p->out);
			put_value(p, period, count, total);
			fputs("--", p->out);
		} else {
			fputs("          ", p->out);
		}
	}
	fprintf(p->out, "%s\n", name);
}

static const struct cg_node *run_end(const struct cg_node *n)
{
	while (n->run_next)
		n = n->run_next;
	return n;
}

static void graph_rec(struct cgp *p, struct cg_node **v, size_t nr, uint64_t total, int depth,
		      uint64_t mask, int lm)
{
	bool rel = p->o->cg_mode == CG_GRAPH_REL;
	uint64_t remaining = total, new_mask = mask, cumul_count = 0;
	size_t i, printed = 0;
	char name[1024];

	for (i = 0; i < nr; i++) {
		const struct cg_node *c = v[i], *x, *end = run_end(c);
		int idx = 0;

		remaining -= cg_cumul(c);
		cumul_count += c->count + c->children_count;
		if (i == nr - 1 && (!rel || !remaining))
			new_mask = clear_bit(new_mask, depth - 1);
		graph_line(p, depth, mask, lm);
		for (x = c; x; x = x->run_next) {
			frame_name(&x->f, name, sizeof(name));
			graph_entry(p, cg_cumul(c), c->count + c->children_count, name, depth,
				    new_mask, idx++, total, lm);
		}
		graph_rec(p, end->sorted, end->nr_sorted, rel ? end->children_hit : total,
			  depth + 1, set_bit(new_mask, depth), lm);
		if (++printed == (size_t)p->o->cg_print_limit)
			break;
	}
	if (rel && remaining && remaining != total) {
		new_mask = clear_bit(new_mask, depth - 1);
		graph_entry(p, remaining, 0, "[...]", depth, new_mask, 0, total, lm);
	}
}

static void print_graph(struct cgp *p, struct hist_entry *e, uint64_t parent_samples)
{
	struct cg_node **v = e->root ? e->root->sorted : NULL;
	size_t nr = e->root ? e->root->nr_sorted : 0, shown = 0;
	uint64_t total = p->total;
	char name[1024];
	int lm = 0;

	p->n = 0;
	if (nr == 1 && cg_cumul(v[0]) == parent_samples) {
		const struct cg_node *x, *end = run_end(v[0]);
		bool printed = false;
		int i = 0;

		for (x = v[0]; x; x = x->run_next) {
			if (!i++ && p->o->sort_starts_with_sym)
				continue;
			if (!printed) {
				margin(p, lm);
				fputs("|\n", p->out);
				margin(p, lm);
				fputs("---", p->out);
				lm += 3;
				printed = true;
			} else {
				margin(p, lm);
			}
			frame_name(&x->f, name, sizeof(name));
			fprintf(p->out, "%s\n", name);
			p->n++;
			if (++shown == (size_t)p->o->cg_print_limit)
				break;
		}
		v = end->sorted;
		nr = end->nr_sorted;
	}
	if (p->o->cg_mode == CG_GRAPH_REL)
		total = parent_samples;
	graph_rec(p, v, nr, total, 1, 1, lm);
	if (p->n)
		fputc('\n', p->out);
}

/* Frames from the tree root down to n, through the parent links. */
static void print_path(struct cgp *p, const struct cg_node *n, const char *pre, const char *sep,
		       bool *first)
{
	char name[1024];

	if (!n || !n->parent)
		return;
	print_path(p, n->parent, pre, sep, first);
	frame_name(&n->f, name, sizeof(name));
	fprintf(p->out, "%s%s%s", *first ? "" : sep, pre, name);
	*first = false;
}

static void print_flat(struct cgp *p, struct hist_entry *e, bool folded)
{
	size_t i;

	for (i = 0; e->root && i < e->root->nr_sorted; i++) {
		const struct cg_node *n = e->root->sorted[i];
		bool first = true;

		if (folded) {
			put_value(p, n->hit, n->count, p->total);
			fputc(' ', p->out);
			print_path(p, n, "", ";", &first);
			fputc('\n', p->out);
		} else {
			fputs("           ", p->out);
			put_value(p, cg_cumul(n), n->count + n->children_count, p->total);
			fputc('\n', p->out);
			print_path(p, n, "                ", "\n", &first);
			fputs("\n\n", p->out);
		}
		if (i + 1 == (size_t)p->o->cg_print_limit)
			break;
	}
}

struct report_event *report_event_of(struct report_event **events, size_t *nr,
				     const struct pd_attr *attr, const struct hist_opts *o)
{
	size_t idx = attr ? (size_t)attr->idx : 0;
	struct report_event *ev;

	if (idx >= *nr) {
		size_t n = idx + 8, i;
		struct report_event *p = realloc(*events, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + *nr, 0, (n - *nr) * sizeof(*p));
		for (i = *nr; i < n; i++)
			hist_init(&p[i].hist, o);
		*events = p;
		*nr = n;
	}
	ev = &(*events)[idx];
	if (!ev->used) {
		ev->used = true;
		ev->first = idx == 0;
		ev->name = attr && attr->name ? attr->name : "unknown";
	}
	return ev;
}

static bool entry_shown(const struct layout *l, const struct hist_entry *e)
{
	double pct;

	if (entry_filtered(l, e))
		return false;
	if (!l->o->percent_limit)
		return true;
	pct = l->total ? (double)(l->children ? e->total : e->self) * 100.0 / (double)l->total : 0;
	return pct >= l->o->percent_limit;
}

void report_print_event(FILE *out, const struct report_opts *o, struct report_event *ev,
			bool has_callchain)
{
	struct hist *h = &ev->hist;
	struct layout l;
	struct cgp p = { out, o, 0, 0 };
	size_t i, shown = 0;

	layout_init(&l, o, ev, h->o.children);
	l.total = ev->total_period;
	p.total = ev->total_period;
	if (!o->quiet)
		print_header(out, &l);
	for (i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = h->sorted[i];

		if (!entry_shown(&l, e))
			continue;
		if (o->max_entries > 0 && shown++ == (size_t)o->max_entries)
			break;
		print_entry_line(out, &l, e);
		if (!has_callchain || o->cg_mode == CG_NONE || !h->o.callchain)
			continue;
		if (o->cg_mode == CG_FLAT || o->cg_mode == CG_FOLDED)
			print_flat(&p, e, o->cg_mode == CG_FOLDED);
		else
			print_graph(&p, e, h->o.children ? e->total : e->self);
	}
	fputs("\n\n", out);
}

/* What a row stream was given: the printer's state between the entries. */
static char *mem_text(FILE *m, char **buf)
{
	fclose(m);
	return *buf;
}

/* An entry's graph, as --stdio prints it under the entry. */
static char *entry_graph(const struct report_opts *o, struct hist_entry *e, uint64_t total,
			 uint64_t parent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct cgp p = { m, o, total, 0 };

	if (!m)
		return NULL;
	if (o->cg_mode == CG_FLAT || o->cg_mode == CG_FOLDED)
		print_flat(&p, e, o->cg_mode == CG_FOLDED);
	else
		print_graph(&p, e, parent);
	return mem_text(m, &buf);
}

int report_event_rows(const struct report_opts *o, struct report_event *ev, bool has_callchain,
		      char **columns, report_row_cb fn, void *ctx)
{
	struct hist *h = &ev->hist;
	bool graphs = has_callchain && o->cg_mode != CG_NONE && h->o.callchain;
	struct layout l;
	char *buf = NULL, *graph;
	size_t i, len = 0, shown = 0;
	FILE *m;
	int err = 0;

	layout_init(&l, o, ev, h->o.children);
	l.total = ev->total_period;
	if (!(m = open_memstream(&buf, &len)))
		return -ENOMEM;
	print_header(m, &l);
	*columns = mem_text(m, &buf);
	/* the header's first line, without its "# " */
	if (*columns && strchr(*columns, '\n'))
		*strchr(*columns, '\n') = 0;
	if (*columns)
		memmove(*columns, *columns + 2, strlen(*columns + 2) + 1);
	for (i = 0; i < h->nr_entries && !err; i++) {
		struct hist_entry *e = h->sorted[i];

		if (!entry_shown(&l, e))
			continue;
		if (o->max_entries > 0 && shown++ == (size_t)o->max_entries)
			break;
		buf = NULL;
		if (!(m = open_memstream(&buf, &len)))
			return -ENOMEM;
		print_entry_line(m, &l, e);
		mem_text(m, &buf);
		if (buf && len && buf[len - 1] == '\n')
			buf[len - 1] = 0;
		graph = graphs ? entry_graph(o, e, ev->total_period,
					     h->o.children ? e->total : e->self)
			       : NULL;
		err = buf ? fn(ctx, e, buf, graph && *graph ? graph : NULL) : -ENOMEM;
		free(buf);
		free(graph);
	}
	return err;
}
