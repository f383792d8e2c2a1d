// SPDX-License-Identifier: GPL-2.0
/*
 * flare stat's output: perf 6.1's text, CSV (-x) and JSON (-j) lines with the derived metrics
 * of stat-shadow (CPUs utilized, /sec rates, GHz, insn per cycle, miss ratios).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli/out.h"
#include "cli/stat.h"
#include "lib/event/names.h"

#define METRIC_LEN 35 /* " # " + value + " " + unit, padded */
#define NAME_LEN 32

struct metric {
	const char *fmt; /* NULL: no metric */
	double val;
	char unit[48];
};

static bool is(const struct evsel *e, uint32_t type, uint64_t config)
{
	return e->attr.type == type && e->attr.config == config;
}

static bool is_clock(const struct evsel *e)
{
	return is(e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
	       is(e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

static bool counted(const struct stat_ctr *c, const struct stat_val *v)
{
	return !c->err && v->run > 0;
}

/* The value of the first counted event of this type/config in unit u, or 0. */
static double find(const struct stat_state *s, size_t u, uint32_t type, uint64_t config)
{
	size_t i;

	for (i = 0; i < s->nr_ctrs; i++) {
		const struct stat_val *v = stat_val_at(s, u, i);

		if (is(s->ctrs[i].ev, type, config) && counted(&s->ctrs[i], v))
			return v->val;
	}
	return 0;
}

static double find_clock(const struct stat_state *s, size_t u)
{
	size_t i;

	for (i = 0; i < s->nr_ctrs; i++)
		if (is_clock(s->ctrs[i].ev) && counted(&s->ctrs[i], stat_val_at(s, u, i)))
			return stat_val_at(s, u, i)->val;
	return 0;
}

static void ratio(struct metric *m, double num, double den, const char *fmt, const char *unit)
{
	if (den <= 0)
		return;
	m->fmt = fmt;
	m->val = num / den;
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
}

/* Miss ratios of hardware cache events: "of all L1-dcache accesses" and the like. */
static void cache_metric(const struct stat_state *s, size_t u, const struct evsel *e, double v,
			 struct metric *m)
{
	static const char *const what[] = { "L1-dcache",  "L1-icache", "LL-cache", "dTLB cache",
					    "iTLB cache", "branch",    "node" };
	uint64_t cache = e->attr.config & 0xff, refs = e->attr.config & ~(0xffULL << 16);
	char unit[48];

	if ((e->attr.config >> 16) != PERF_COUNT_HW_CACHE_RESULT_MISS || cache >= 7)
		return;
	snprintf(unit, sizeof(unit), "of all %s accesses", what[cache]);
	ratio(m, v * 100, find(s, u, PERF_TYPE_HW_CACHE, refs), "%7.2f%%", unit);
}

static void compute_metric(const struct stat_state *s, size_t u, const struct evsel *e, double v,
			   double wall_ns, struct metric *m)
{
	double ns = find_clock(s, u), rate;
	const char *prefix = "";

	m->fmt = NULL;
	if (is_clock(e)) {
		ratio(m, v, wall_ns, "%8.3f", "CPUs utilized");
		return;
	}
	if (e->attr.type == PERF_TYPE_HARDWARE) {
		double cyc = find(s, u, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

		switch (e->attr.config) {
		case PERF_COUNT_HW_CPU_CYCLES:
			ratio(m, v, ns, "%8.3f", "GHz");
			return;
		case PERF_COUNT_HW_INSTRUCTIONS:
			ratio(m, v, cyc, "%7.2f ", "insn per cycle");
			return;
		case PERF_COUNT_HW_BRANCH_MISSES:
			ratio(m, v * 100,
			      find(s, u, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
			      "%7.2f%%", "of all branches");
			return;
		case PERF_COUNT_HW_CACHE_MISSES:
			ratio(m, v * 100,
			      find(s, u, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES),
			      "%8.3f %%", "of all cache refs");
			return;
		case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
			ratio(m, v * 100, cyc, "%7.2f%%", "frontend cycles idle");
			return;
		case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
			ratio(m, v * 100, cyc, "%7.2f%%", "backend cycles idle");
			return;
		default:
			break;
		}
	}
	if (e->attr.type == PERF_TYPE_HW_CACHE) {
		cache_metric(s, u, e, v, m);
		if (m->fmt)
			return;
	}
	if (ns <= 0)
		return;
	rate = v * 1e9 / ns;
	if (rate >= 1e9) {
		rate /= 1e9;
		prefix = "G";
	} else if (rate >= 1e6) {
		rate /= 1e6;
		prefix = "M";
	} else if (rate >= 1e3) {
		rate /= 1e3;
		prefix = "K";
	}
	m->fmt = "%8.3f";
	m->val = rate;
	snprintf(m->unit, sizeof(m->unit), "%s/sec", prefix);
}

/* The metric's value in its format; the formats are the fixed literals of compute_metric(). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static int fmt_metric(char *buf, size_t len, const struct metric *m)
{
	return snprintf(buf, len, m->fmt, m->val);
}
#pragma GCC diagnostic pop

static const char *unit_of(const struct evsel *e)
{
	return is_clock(e) ? "msec" : e->tool ? "ns" : e->unit;
}

static int unit_width(const struct stat_state *s)
{
	size_t i;
	int w = 4;

	for (i = 0; i < s->nr_ctrs; i++)
		if ((int)strlen(unit_of(s->ctrs[i].ev)) > w)
			w = (int)strlen(unit_of(s->ctrs[i].ev));
	return w;
}

/* The displayed value: msec for clocks, the PMU's scale otherwise. */
static double shown(const struct evsel *e, double v)
{
	return is_clock(e) ? v / 1e6 : v * e->scale;
}

static bool fractional(const struct evsel *e)
{
	return is_clock(e) || e->scale != 1.0;
}

static const char *state_str(const struct stat_ctr *c, const struct stat_val *v)
{
	if (c->err)
		return "<not supported>";
	if (!v->run)
		return "<not counted>";
	return NULL;
}

static void print_prefix(const struct stat_cfg *c, const struct stat_unit *u, double ts)
{
	const char *sep = c->csv_sep ? c->csv_sep : " ";

	if (ts >= 0) {
		uint64_t ns = (uint64_t)llround(ts * 1e9);

		fprintf(c->out, "%6" PRIu64 ".%09" PRIu64 "%s", ns / 1000000000, ns % 1000000000,
			sep);
	} else if (c->summary && c->csv_sep) {
		fprintf(c->out, "%16s%s", "summary", sep);
	}
	switch (c->aggr) {
	case AGGR_CPU:
		fprintf(c->out, c->csv_sep ? "CPU%d%s" : "CPU%-7d%s", u->cpu, sep);
		break;
	case AGGR_CORE:
		fprintf(c->out, c->csv_sep ? "S%d-D%d-C%d%s%d%s" : "S%d-D%d-C%-8d%s%4d%s",
			u->socket, u->die, u->core, sep, u->nr, sep);
		break;
	case AGGR_DIE:
		fprintf(c->out, c->csv_sep ? "S%d-D%d%s%d%s" : "S%d-D%-8d%s%4d%s", u->socket,
			u->die, sep, u->nr, sep);
		break;
	case AGGR_SOCKET:
		fprintf(c->out, c->csv_sep ? "S%d%s%d%s" : "S%-5d%s%4d%s", u->socket, sep, u->nr,
			sep);
		break;
	case AGGR_NODE:
		fprintf(c->out, c->csv_sep ? "N%d%s%d%s" : "N%-5d%s%4d%s", u->node, sep, u->nr,
			sep);
		break;
	case AGGR_THREAD:
		fprintf(c->out, c->csv_sep ? "%s-%d%s" : "%16s-%-8d%s", u->comm, u->tid, sep);
		break;
	default:
		break;
	}
}

static void print_text(struct stat_cfg *c, const struct stat_state *s, size_t ui, size_t ci,
		       const struct metric *m)
{
	const struct stat_ctr *ctr = &s->ctrs[ci];
	const struct stat_val *v = stat_val_at(s, ui, ci);
	const char *st = state_str(ctr, v);
	char num[64];
	int n, uw = unit_width(s);

	if (st)
		snprintf(num, sizeof(num), "%s", st);
	else if (c->big_num)
		out_thousands_f(num, shown(ctr->ev, v->val), fractional(ctr->ev) ? 2 : 0);
	else
		snprintf(num, sizeof(num), "%.*f", fractional(ctr->ev) ? 2 : 0,
			 shown(ctr->ev, v->val));
	fprintf(c->out, "%18s %-*s %-*s", num, uw, unit_of(ctr->ev), NAME_LEN, ctr->ev->name);
	if (st) {
		fprintf(c->out, "%28s\n", "");
		if (!c->quiet_reasons)
			fprintf(c->out, "%*s(%s)\n", 20 + uw, "",
				ctr->err ? ctr->reason
				: ctr->ev->tool
					? "the workload used none of this time"
					: "it never ran: the task did not run, or it was never scheduled in");
		return;
	}
	if (m->fmt) {
		char mb[64];

		fmt_metric(mb, sizeof(mb), m);
		n = fprintf(c->out, " # %s", mb);
		fprintf(c->out, " %-*s", METRIC_LEN - n - 1, m->unit);
	} else {
		fprintf(c->out, "%*s", METRIC_LEN, "");
	}
	if (c->run_count > 1 && welford_noise_pct(&v->w) != 0)
		fprintf(c->out, "  ( +-%6.2f%% )", welford_noise_pct(&v->w));
	if (v->run != v->ena && v->ena)
		fprintf(c->out, "  (%.2f%%)", 100.0 * (double)v->run / (double)v->ena);
	fputc('\n', c->out);
}

static void print_csv(const struct stat_cfg *c, const struct stat_state *s, size_t ui, size_t ci,
		      const struct metric *m)
{
	const struct stat_ctr *ctr = &s->ctrs[ci];
	const struct stat_val *v = stat_val_at(s, ui, ci);
	const char *st = state_str(ctr, v), *sep = c->csv_sep, *mv;
	char buf[64];

	if (st)
		fprintf(c->out, "%s", st);
	else
		fprintf(c->out, fractional(ctr->ev) ? "%.2f" : "%.0f", shown(ctr->ev, v->val));
	fprintf(c->out, "%s%s%s%s", sep, unit_of(ctr->ev), sep, ctr->ev->name);
	if (c->run_count > 1)
		fprintf(c->out, "%s%.2f%%", sep, welford_noise_pct(&v->w));
	fprintf(c->out, "%s%" PRIu64 "%s%.2f", sep, v->run, sep,
		v->ena && v->run ? 100.0 * (double)v->run / (double)v->ena : 100.0);
	if (m->fmt && !st) {
		fmt_metric(buf, sizeof(buf), m);
		for (mv = buf; *mv == ' '; mv++)
			;
		fprintf(c->out, "%s%s%s%s\n", sep, mv, sep, m->unit);
	} else {
		fprintf(c->out, "%s%s\n", sep, sep);
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void print_json(const struct stat_cfg *c, const struct stat_state *s, size_t ui, size_t ci,
		       const struct metric *m, double ts)
{
	const struct stat_ctr *ctr = &s->ctrs[ci];
	const struct stat_val *v = stat_val_at(s, ui, ci);
	const struct stat_unit *u = &s->units[ui];
	const char *st = state_str(ctr, v);
	FILE *f = c->out;

	fputc('{', f);
	if (ts >= 0)
		fprintf(f, "\"interval\" : %.9f, ", ts);
	if (c->aggr == AGGR_CPU)
		fprintf(f, "\"cpu\" : \"%d\", ", u->cpu);
	else if (c->aggr == AGGR_CORE)
		fprintf(f, "\"core\" : \"S%d-D%d-C%d\", \"aggregate-number\" : %d, ", u->socket,
			u->die, u->core, u->nr);
	else if (c->aggr == AGGR_DIE)
		fprintf(f, "\"die\" : \"S%d-D%d\", \"aggregate-number\" : %d, ", u->socket, u->die,
			u->nr);
	else if (c->aggr == AGGR_SOCKET)
		fprintf(f, "\"socket\" : \"S%d\", \"aggregate-number\" : %d, ", u->socket, u->nr);
	else if (c->aggr == AGGR_NODE)
		fprintf(f, "\"node\" : \"N%d\", \"aggregate-number\" : %d, ", u->node, u->nr);
	else if (c->aggr == AGGR_THREAD)
		fprintf(f, "\"thread\" : \"%s-%d\", ", u->comm, u->tid);
	if (st)
		fprintf(f, "\"counter-value\" : \"%s\", ", st);
	else
		fprintf(f, "\"counter-value\" : \"%f\", ", shown(ctr->ev, v->val));
	fprintf(f, "\"unit\" : ");
	json_str(f, unit_of(ctr->ev));
	fprintf(f, ", \"event\" : ");
	json_str(f, ctr->ev->name);
	if (c->run_count > 1)
		fprintf(f, ", \"variance\" : %.2f", welford_noise_pct(&v->w));
	fprintf(f, ", \"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, ", v->run,
		v->ena && v->run ? 100.0 * (double)v->run / (double)v->ena : 100.0);
	fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : ", m->fmt && !st ? m->val : 0.0);
	json_str(f, m->fmt && !st ? m->unit : "");
	fprintf(f, "}\n");
}

static void print_one(struct stat_cfg *c, const struct stat_state *s, size_t ui, size_t ci,
		      double ts)
{
	struct metric m = { 0 };
	const struct stat_val *v = stat_val_at(s, ui, ci);

	if (counted(&s->ctrs[ci], v))
		compute_metric(s, ui, s->ctrs[ci].ev, v->val, s->wall_ns, &m);
	if (c->json) {
		print_json(c, s, ui, ci, &m, ts);
		return;
	}
	print_prefix(c, &s->units[ui], ts);
	if (c->csv_sep)
		print_csv(c, s, ui, ci, &m);
	else
		print_text(c, s, ui, ci, &m);
}

static void interval_header(struct stat_cfg *c)
{
	static const char *const hdr[] = {
		[AGGR_GLOBAL] = "#           time             counts unit events",
		[AGGR_CPU] = "#           time CPU                    counts unit events",
		[AGGR_CORE] = "#           time core            cpus             counts unit events",
		[AGGR_SOCKET] = "#           time socket cpus             counts unit events",
		[AGGR_DIE] = "#           time die          cpus             counts unit events",
		[AGGR_NODE] = "#           time node   cpus             counts unit events",
		[AGGR_THREAD] =
			"#           time             comm-pid                  counts unit events",
	};

	if (c->csv_sep || c->json)
		return;
	if (c->interval_clear)
		fputs("\033[H\033[2J", c->out);
	if (c->nr_intervals++ % 25 == 0 || c->interval_clear)
		fprintf(c->out, "%s\n", hdr[c->aggr]);
}

static const struct stat_state *sort_state;
static size_t sort_ctr;

static int cmp_thread_val(const void *a, const void *b)
{
	double va = stat_val_at(sort_state, *(const size_t *)a, sort_ctr)->val;
	double vb = stat_val_at(sort_state, *(const size_t *)b, sort_ctr)->val;

	return va < vb ? 1 : va > vb ? -1 : 0;
}

/* --per-thread: per counter, the threads biggest first; system-wide, only those that counted
 * anything (as perf). */
static void print_threads(struct stat_cfg *c, const struct stat_state *s, double ts)
{
	size_t *order = calloc(s->nr_units + 1, sizeof(*order)), n, u, i;

	if (!order)
		return;
	for (i = 0; i < s->nr_ctrs; i++) {
		for (u = n = 0; u < s->nr_units; u++)
			if (!c->skip_zero_threads || stat_val_at(s, u, i)->val != 0 ||
			    (s->ctrs[i].err && !n))
				order[n++] = u;
		sort_state = s;
		sort_ctr = i;
		qsort(order, n, sizeof(*order), cmp_thread_val);
		for (u = 0; u < n; u++)
			print_one(c, s, order[u], i, ts);
	}
	free(order);
}

void stat_print_counters(struct stat_cfg *c, const struct stat_state *s, double ts)
{
	size_t u, i;

	if (ts >= 0)
		interval_header(c);
	if (c->aggr == AGGR_THREAD) {
		print_threads(c, s, ts);
	} else if (c->aggr == AGGR_CPU || c->aggr == AGGR_GLOBAL) {
		for (i = 0; i < s->nr_ctrs; i++)
			for (u = 0; u < s->nr_units; u++)
				print_one(c, s, u, i, ts);
	} else {
		for (u = 0; u < s->nr_units; u++)
			for (i = 0; i < s->nr_ctrs; i++)
				print_one(c, s, u, i, ts);
	}
	if (ts >= 0)
		c->quiet_reasons = true;
}

void stat_print_header(const struct stat_cfg *c)
{
	if (c->csv_sep || c->json)
		return;
	fprintf(c->out, "\n Performance counter stats for %s", c->target_desc);
	if (c->run_count > 1)
		fprintf(c->out, " (%d runs)", c->run_count);
	fprintf(c->out, ":\n\n");
}

static int precision(double sd)
{
	return sd > 1 || sd <= 0 ? 0 : (int)lround(ceil(-log10(sd)));
}

/* --table: each run's time, its distance from the mean, and a bar of 5% steps. */
static void print_table(const struct stat_cfg *c, const struct stat_state *s, int p, double avg)
{
	char tmp[64];
	int i, indent, n;

	snprintf(tmp, sizeof(tmp), " %17.*f", p, avg);
	indent = (int)strspn(tmp, " ");
	fprintf(c->out, "%*s# Table of individual measurements:\n", indent, "");
	for (i = 0; i < s->nr_runs; i++) {
		double run = s->run_ns[i] / 1e9;

		n = 1 + abs((int)(100.0 * (run - avg) / run) / 5);
		fprintf(c->out, " %17.*f (%+.*f) %.*s\n", p, run, p, run - avg, n,
			"##################################################################"
			"##################################################################"
			"##################################################################");
	}
	fprintf(c->out, "\n%*s# Final result:\n", indent, "");
}

void stat_print_footer(const struct stat_cfg *c, const struct stat_state *s)
{
	double avg = s->wall.mean / 1e9, sd = welford_stddev(&s->wall) / 1e9;
	int p;

	if (c->csv_sep || c->json)
		return;
	if (s->nr_ctrs) /* perf's -n run has no blank line here */
		fputc('\n', c->out);
	if (c->run_count <= 1) {
		fprintf(c->out, " %17.9f seconds time elapsed", avg);
		if (c->show_ru) {
			fprintf(c->out, "\n\n");
			fprintf(c->out, " %17.9f seconds user\n", s->user_s);
			fprintf(c->out, " %17.9f seconds sys\n", s->sys_s);
		}
	} else {
		p = precision(sd) + 2;
		if (c->table)
			print_table(c, s, p, avg);
		fprintf(c->out, " %17.*f +- %.*f seconds time elapsed", p, avg, p, sd);
		if (welford_noise_pct(&s->wall) != 0)
			fprintf(c->out, "  ( +-%6.2f%% )", welford_noise_pct(&s->wall));
	}
	fprintf(c->out, "\n\n");
}
