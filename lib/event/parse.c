// SPDX-License-Identifier: GPL-2.0
/*
 * The event-spec grammar, as perf accepts it:
 *   spec   := item (',' item)*
 *   item   := '{' event (',' event)* '}' [':' mods] | event
 *   event  := sym [':' mods] | cache [':' mods] | 'r' HEX [':' mods]
 *           | pmu '/' [term (',' term)*] '/' [[':'] mods]
 *           | sys ':' name [':' mods]          (globs allowed in sys and name)
 *           | 'mem:' ADDR ['/' LEN] [':' rwx]
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/editdist.h"
#include "lib/base/err.h"
#include "lib/event/evlist.h"
#include "lib/event/names.h"
#include "lib/event/pmu.h"
#include "lib/trace/tp.h"

#define HINT_LIST "Run 'flare list' for a list of all available events"

struct pstate {
	struct evlist *l;
	const char *spec;
	struct evparse_err *err;
};

static int perr(struct pstate *ps, int code, const char *at, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int perr(struct pstate *ps, int code, const char *at, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err->hint, sizeof(ps->err->hint), "%s", hint ? hint : HINT_LIST);
	ps->err->pos = at ? (int)(at - ps->spec) : -1;
	return code;
}

static int oom(struct pstate *ps)
{
	return perr(ps, -ENOMEM, NULL, "", "out of memory");
}

/* Adds one evsel, applying mods (which start at spec offset mods_at, for errors). */
static struct evsel *add(struct pstate *ps, struct perf_event_attr *attr, const char *name,
			 const char *pmu, const char *mods, const char *mods_at, int *ret)
{
	struct evsel *e;
	bool sr = false, weak = false;
	int bad;

	*ret = 0;
	attr->exclude_guest = 1; /* perf's event_attr_init() on a host */
	if (mods && *mods) {
		/* perf 6.1 builds an event's own modifiers from nothing (a group's from the
		 * members' attrs): only u or p exclude the guest again, so cycles:k opens with
		 * exclude_guest 0 and cycles:u with 1 */
		attr->exclude_guest = 0;
		bad = evsel_parse_mods(mods, attr, &sr, &weak);
		if (bad >= 0) {
			*ret = perr(ps, -ERR_EVENT_SYNTAX, mods_at + bad, NULL,
				    "unknown or repeated modifier '%c'", mods[bad]);
			return NULL;
		}
	}
	e = evlist_add(ps->l, attr, name);
	if (!e || !(e->pmu_name = strdup(pmu))) {
		*ret = oom(ps);
		return NULL;
	}
	e->sample_read = sr;
	e->weak_group = weak;
	return e;
}

/* Closest symbolic name to s, for "did you mean". */
static const char *suggest(const char *s)
{
	static const char *best;
	size_t i, bd = 3;
	const struct ev_sym *tabs[2] = { ev_hw_syms, ev_sw_syms };
	size_t nrs[2] = { ev_hw_nr, ev_sw_nr }, t;

	best = NULL;
	for (t = 0; t < 2; t++) {
		for (i = 0; i < nrs[t]; i++) {
			const char *c[2] = { tabs[t][i].name, tabs[t][i].alias };
			int k;

			for (k = 0; k < 2 && c[k]; k++) {
				size_t d = edit_distance(s, c[k]);

				if (d < bd) {
					bd = d;
					best = c[k];
				}
			}
		}
	}
	return best;
}

/* A symbolic, cache or raw name. 1 if name is one (evsel added or error in *ret), else 0. */
static int try_named(struct pstate *ps, const char *name, const char *full, const char *at,
		     const char *mods, const char *mods_at, int *ret)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	const struct ev_sym *sym = ev_sym_find(name);
	const char *pmu = "cpu";
	struct evsel *e;
	uint64_t cfg;
	char *end;
	int c, tool;

	if ((tool = ev_tool_find(name))) {
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_DUMMY;
		pmu = "tool";
	} else if (sym) {
		attr.type = sym->type;
		attr.config = sym->config;
		if (sym->type == PERF_TYPE_SOFTWARE)
			pmu = "software";
	} else if ((c = ev_cache_parse(name, &cfg)) != -ENOENT) {
		if (c) {
			*ret = perr(ps, -ERR_EVENT_UNKNOWN, at, NULL,
				    "'%s' is a cache event combination perf does not accept", name);
			return 1;
		}
		attr.type = PERF_TYPE_HW_CACHE;
		attr.config = cfg;
	} else if (name[0] == 'r' && isxdigit((unsigned char)name[1])) {
		attr.config = strtoull(name + 1, &end, 16);
		if (*end)
			return 0;
		attr.type = PERF_TYPE_RAW;
	} else {
		return 0;
	}
	e = add(ps, &attr, full, pmu, mods, mods_at, ret);
	if (e)
		e->tool = tool;
	return 1;
}

struct tp_add {
	struct pstate *ps;
	const char *mods, *mods_at;
	int ret;
};

static int tp_add_one(const char *sys, const char *name, void *arg)
{
	struct tp_add *ta = arg;
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_TRACEPOINT };
	struct evsel *e;
	char full[512];
	int r;

	uint64_t id;

	r = tp_id(sys, name, &id);
	if (r)
		return 0; /* listed but gone, or no id: perf skips these too */
	attr.config = id;
	snprintf(full, sizeof(full), "%s:%s%s%s", sys, name, ta->mods ? ":" : "",
		 ta->mods ? ta->mods : "");
	e = add(ta->ps, &attr, full, "tracepoint", ta->mods, ta->mods_at, &ta->ret);
	if (!e)
		return 1;
	e->tp_sys = strdup(sys);
	e->tp_name = strdup(name);
	if (!e->tp_sys || !e->tp_name) {
		ta->ret = oom(ta->ps);
		return 1;
	}
	return 0;
}

static int parse_tracepoint(struct pstate *ps, char *sys, char *name, const char *at,
			    const char *mods, const char *mods_at)
{
	struct tp_add ta = { ps, mods, mods_at, 0 };
	int n;

	n = tp_for_each(sys, name, 0, tp_add_one, &ta); /* perf's order: tracefs' own */
	if (ta.ret)
		return ta.ret;
	if (n == -ERR_NO_TRACEFS)
		return perr(ps, n, at, "mount it: mount -t tracefs nodev /sys/kernel/tracing",
			    "tracefs is not mounted and could not be mounted");
	if (n < 0)
		return perr(ps, n, at, "", "cannot list tracepoints: %s", err_str(n));
	if (n == 0)
		return perr(ps, -ERR_EVENT_UNKNOWN, at,
			    "Run 'flare list tracepoint' for the tracepoints of this kernel",
			    "unknown tracepoint '%s:%s'", sys, name);
	return 0;
}

/* Applies one "term[=value]" of a PMU event to attr (or the evsel's name). */
static int pmu_term(struct pstate *ps, const char *pmu, char *term, const char *at,
		    struct perf_event_attr *attr, char **name, double *scale, char *unit)
{
	char *eq = strchr(term, '='), *end, alias[256];
	uint64_t val = 1;
	int r;

	if (eq) {
		*eq++ = '\0';
		if (!strcmp(term, "name")) {
			*name = eq;
			return 0;
		}
		errno = 0;
		val = strtoull(eq, &end, 0);
		/* "event=tsc": the PMU's event named tsc, as perf reads it */
		if ((end == eq || *end) && !strcmp(term, "event") && !strchr(eq, '='))
			return pmu_term(ps, pmu, eq, at + (eq - term), attr, name, scale, unit);
		if (errno || end == eq || *end)
			return perr(ps, -ERR_EVENT_SYNTAX, at + (eq - term), NULL,
				    "value of term '%s' is not a number", term);
	}
	if (!strcmp(term, "config") || !strcmp(term, "config1") || !strcmp(term, "config2")) {
		__u64 *f = term[6] == '1'   ? &attr->config1
			   : term[6] == '2' ? &attr->config2
					    : &attr->config;
		*f = val;
		return 0;
	}
	if (!strcmp(term, "period") || !strcmp(term, "freq")) {
		attr->freq = term[0] == 'f';
		attr->sample_period = val;
		return 0;
	}
	r = pmu_set_term(pmu, term, val, attr);
	if (r == -ENOENT && !eq &&
	    !pmu_event_alias(pmu, term, alias, sizeof(alias), scale, unit,
			     sizeof(((struct evsel *)0)->unit))) {
		/* a named event: its own terms ("event=0x04") */
		char *t, *save = NULL;

		for (t = strtok_r(alias, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			r = pmu_term(ps, pmu, t, at, attr, name, scale, unit);
			if (r)
				return r;
		}
		return 0;
	}
	if (r == -ERANGE)
		return perr(ps, -ERR_EVENT_SYNTAX, at, NULL, "value too big for term '%s'", term);
	if (r)
		return perr(ps, -ERR_EVENT_UNKNOWN, at,
			    "Run 'flare list pmu' for the events of each PMU",
			    "unknown term '%s' for pmu '%s'", term, pmu);
	return 0;
}

/* perf's terms after a named event or a tracepoint: "cpu-clock/period=1000,name=x/" */
struct named_terms {
	const char *name;
	uint64_t period;
	bool has_period, freq;
	int max_stack;	     /* max-stack=N, -1 when not given */
	int call_graph;	     /* 0 not given, 1 no, 2 fp, 3 dwarf */
	uint32_t stack_size; /* call-graph=dwarf,SIZE */
};

/* the user registers perf samples for a DWARF call graph on x86-64 (AX..R15, as record's) */
#define TERM_DWARF_REGS 0xff0fffULL

/* "fp", "no" or "dwarf" of a call-graph=... term (the size is its own term, stack-size=N,
 * as perf's terms are split at commas); 0 or -1 */
static int call_graph_term(const char *v, struct named_terms *nt)
{
	if (!strcmp(v, "no"))
		nt->call_graph = 1;
	else if (!strcmp(v, "fp"))
		nt->call_graph = 2;
	else if (!strcmp(v, "dwarf"))
		nt->call_graph = 3;
	else
		return -1;
	return 0;
}

/* Parses the terms string (cut at its closing '/'; at its spec offset at) into nt. */
static int named_terms_parse(struct pstate *ps, const char *ev, char *terms, const char *at,
			     struct named_terms *nt)
{
	char *t, *next, *eq, *num_end;

	for (t = terms; t; t = next) {
		const char *t_at = at + (t - terms);

		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		if (!*t)
			continue;
		eq = strchr(t, '=');
		if (eq)
			*eq++ = '\0';
		if (eq && !strcmp(t, "name")) {
			nt->name = eq;
			continue;
		}
		if (!strcmp(t, "period") || !strcmp(t, "freq")) {
			errno = 0;
			nt->period = eq ? strtoull(eq, &num_end, 0) : 0;
			if (!eq || errno || num_end == eq || *num_end)
				return perr(ps, -ERR_EVENT_SYNTAX, t_at, NULL,
					    "term '%s' needs a number: %s=N", t, t);
			nt->has_period = true;
			nt->freq = t[0] == 'f';
			continue;
		}
		if (!strcmp(t, "max-stack")) {
			errno = 0;
			nt->max_stack = eq ? (int)strtol(eq, &num_end, 0) : -1;
			if (!eq || errno || num_end == eq || *num_end || nt->max_stack < 0 ||
			    nt->max_stack > 65535)
				return perr(ps, -ERR_EVENT_SYNTAX, t_at, NULL,
					    "term 'max-stack' needs a number: max-stack=N");
			continue;
		}
		if (!strcmp(t, "call-graph")) {
			if (!eq || call_graph_term(eq, nt))
				return perr(ps, -ERR_EVENT_SYNTAX, t_at, NULL,
					    "term 'call-graph' is fp, dwarf or no");
			continue;
		}
		if (!strcmp(t, "stack-size")) {
			unsigned long sz;

			errno = 0;
			sz = eq ? strtoul(eq, &num_end, 0) : 0;
			if (!eq || errno || num_end == eq || *num_end || !sz || sz > 65528)
				return perr(ps, -ERR_EVENT_SYNTAX, t_at, NULL,
					    "term 'stack-size' needs a size up to 65528");
			nt->stack_size = (uint32_t)((sz + 7) & ~7UL);
			continue;
		}
		return perr(ps, -ERR_EVENT_UNKNOWN, t_at,
			    "terms of a named event: name, period, freq, max-stack, call-graph, "
			    "stack-size",
			    "unknown term '%s' for event '%s'", t, ev);
	}
	return 0;
}

static int named_terms_apply(struct pstate *ps, size_t first, const struct named_terms *nt)
{
	size_t i;

	for (i = first; i < ps->l->nr; i++) {
		struct evsel *e = &ps->l->evsels[i];

		if (nt->has_period) {
			e->attr.sample_period = nt->period;
			e->attr.freq = nt->freq;
		}
		if (nt->call_graph >= 2 || nt->max_stack >= 0) /* perf's per-event terms */
			e->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (nt->max_stack >= 0)
			e->attr.sample_max_stack = (uint16_t)nt->max_stack;
		if (nt->call_graph == 3) {
			e->attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
					       PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
			e->attr.sample_regs_user = TERM_DWARF_REGS;
			e->attr.sample_stack_user = nt->stack_size ? nt->stack_size : 8192;
			e->attr.exclude_callchain_user = 1;
		}
		if (nt->name) {
			free(e->name);
			e->name = strdup(nt->name);
			if (!e->name)
				return oom(ps);
		}
	}
	return 0;
}

/*
 * "cpu-clock/terms/mods", "L1-dcache-loads/terms/", "sched:sched_switch/terms/": a named event
 * or tracepoint with terms, as perf accepts. tok is cut at its slashes already: tok is the
 * name, terms the terms, mods what follows. 1 if tok is such a name (*ret set), else 0.
 */
static int parse_named_terms(struct pstate *ps, char *tok, char *terms, const char *full,
			     const char *at, const char *mods, int *ret)
{
	struct named_terms nt = { .max_stack = -1 };
	const char *mods_at = *mods ? at + (mods - tok) : NULL;
	size_t first = ps->l->nr;
	char *colon = strchr(tok, ':');

	if (colon && colon != tok && colon[1] && !strchr(colon + 1, ':')) {
		*colon = '\0';
		*ret = parse_tracepoint(ps, tok, colon + 1, at, *mods ? mods : NULL, mods_at);
		*colon = ':';
	} else if (!try_named(ps, tok, full, at, mods, mods_at, ret)) {
		return 0;
	}
	/* on an error the caller drops what this spec added */
	if (!*ret)
		*ret = named_terms_parse(ps, tok, terms, at + (terms - tok), &nt);
	if (!*ret)
		*ret = named_terms_apply(ps, first, &nt);
	return 1;
}

/* tok is "pmu/terms/mods" (a writable copy of the spec at at). */
static int parse_pmu(struct pstate *ps, char *tok, const char *at)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	char *slash = strchr(tok, '/'), *last = strrchr(tok, '/'), *t, *mods, *name = NULL;
	char full[512], unit[24] = "";
	double scale = 1.0;
	struct evsel *e;
	int r;

	snprintf(full, sizeof(full), "%s", tok);
	if (slash == last)
		return perr(ps, -ERR_EVENT_SYNTAX, at + (slash - tok), NULL,
			    "missing closing '/' of the pmu terms");
	*slash = *last = '\0';
	mods = last + 1;
	if (*mods == ':')
		mods++;
	if (pmu_type(tok, &attr.type) && (!strcmp(tok, "cpu") || !strncmp(tok, "cpu_", 4)))
		return perr(ps, -ERR_EVENT_UNKNOWN, at,
			    "Run 'flare list pmu' for the PMUs of this machine",
			    "no PMU '%s': this machine has no hardware PMU (a VM guest?)", tok);
	if (pmu_type(tok, &attr.type) && parse_named_terms(ps, tok, slash + 1, full, at, mods, &r))
		return r;
	if (pmu_type(tok, &attr.type))
		return perr(ps, -ERR_EVENT_UNKNOWN, at,
			    "Run 'flare list pmu' for the PMUs of this machine", "unknown pmu '%s'",
			    tok);
	for (t = slash + 1; t < last;) {
		char *comma = strchr(t, ',');

		if (comma)
			*comma = '\0';
		if (*t) {
			r = pmu_term(ps, tok, t, at + (t - tok), &attr, &name, &scale, unit);
			if (r)
				return r;
		}
		if (!comma)
			break;
		t = comma + 1;
	}
	e = add(ps, &attr, name ? name : full, tok, mods, at + (mods - tok), &r);
	if (!e)
		return r;
	e->scale = scale;
	snprintf(e->unit, sizeof(e->unit), "%s", unit);
	return 0;
}

/* "mem:ADDR[/LEN][:rwx]" */
static int parse_breakpoint(struct pstate *ps, char *tok, const char *at)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_BREAKPOINT };
	char *p = tok + 4, *end, *mods = NULL;
	int r;

	errno = 0;
	attr.bp_addr = strtoull(p, &end, 0);
	if (end == p || errno)
		return perr(ps, -ERR_EVENT_SYNTAX, at + 4, NULL,
			    "expected an address after 'mem:'");
	attr.bp_len = 4;
	if (*end == '/') {
		p = end + 1;
		attr.bp_len = strtoull(p, &end, 0);
		if (end == p ||
		    (attr.bp_len != 1 && attr.bp_len != 2 && attr.bp_len != 4 && attr.bp_len != 8))
			return perr(ps, -ERR_EVENT_SYNTAX, at + (p - tok), NULL,
				    "breakpoint length must be 1, 2, 4 or 8");
	}
	attr.bp_type = 0;
	/* ":rwx" access, then ":mods"; a first part that is not all r, w, x is the mods */
	if (*end == ':' && strspn(end + 1, "rwx") &&
	    (!end[1 + strspn(end + 1, "rwx")] || end[1 + strspn(end + 1, "rwx")] == ':')) {
		for (p = end + 1; *p && *p != ':'; p++) {
			int bit = *p == 'r' ? 1 : *p == 'w' ? 2 : 4;

			if (attr.bp_type & bit)
				return perr(ps, -ERR_EVENT_SYNTAX, at + (p - tok), NULL,
					    "breakpoint access is r, w and/or x, each once");
			attr.bp_type |= bit;
		}
		end = p;
	}
	if (*end == ':' && end[1]) {
		mods = end + 1;
		end += strlen(end);
	}
	if (*end)
		return perr(ps, -ERR_EVENT_SYNTAX, at + (end - tok), NULL, "parser error");
	if (!attr.bp_type)
		attr.bp_type = 1 | 2;
	if (attr.bp_type & 4) {
		if (attr.bp_type != 4)
			return perr(ps, -ERR_EVENT_SYNTAX, at, NULL,
				    "an execute breakpoint cannot also be r or w");
		attr.bp_len = sizeof(long);
	}
	add(ps, &attr, tok, "breakpoint", mods, mods ? at + (mods - tok) : NULL, &r);
	return r;
}

/* tp_for_each callback: keeps the system of the first tracepoint found, stops the walk. */
static int tp_first_sys(const char *sys, const char *name, void *arg)
{
	snprintf(arg, 128, "%s", sys);
	return 1;
}

/* One event (no top-level commas, no braces). tok is a writable copy of the spec at at. */
static int parse_event(struct pstate *ps, char *tok, const char *at)
{
	char *c1, *c2, full[512];
	int r;
	const char *hint;

	if (!*tok)
		return perr(ps, -ERR_EVENT_SYNTAX, at, NULL, "parser error: empty event");
	if (!strncmp(tok, "mem:", 4))
		return parse_breakpoint(ps, tok, at);
	if (strchr(tok, '/'))
		return parse_pmu(ps, tok, at);
	snprintf(full, sizeof(full), "%s", tok);
	c1 = strchr(tok, ':');
	if (c1)
		*c1 = '\0';
	if (try_named(ps, tok, full, at, c1 ? c1 + 1 : NULL, c1 ? at + (c1 + 1 - tok) : NULL, &r))
		return r;
	if (!c1) {
		const char *s = suggest(tok);
		char buf[256], sys[128];

		hint = HINT_LIST;
		if (s) {
			snprintf(buf, sizeof(buf), "did you mean '%s'? (%s)", s, HINT_LIST);
			hint = buf;
		} else if (tp_for_each(NULL, tok, 0, tp_first_sys, sys) > 0) {
			snprintf(buf, sizeof(buf), "did you mean the tracepoint '%s:%s'?", sys,
				 tok);
			hint = buf;
		}
		return perr(ps, -ERR_EVENT_UNKNOWN, at, hint, "unknown event '%s'", tok);
	}
	c2 = strchr(c1 + 1, ':');
	if (c2)
		*c2 = '\0';
	if (!*tok || !c1[1])
		return perr(ps, -ERR_EVENT_SYNTAX, at + (c1 - tok) + !*tok, NULL,
			    "parser error: a tracepoint is subsystem:name");
	return parse_tracepoint(ps, tok, c1 + 1, at, c2 ? c2 + 1 : NULL,
				c2 ? at + (c2 + 1 - tok) : NULL);
}

/* End of the event starting at p: the first ',' or '}' outside a pmu's /terms/. */
static const char *event_end(const char *p)
{
	int in_terms = 0;
	int bp = !strncmp(p, "mem:", 4);

	for (; *p; p++) {
		if (*p == '/' && !bp)
			in_terms = !in_terms;
		else if (!in_terms && (*p == ',' || *p == '}' || *p == '{'))
			break;
	}
	return p;
}

static int parse_one(struct pstate *ps, const char **pp)
{
	const char *p = *pp, *end = event_end(p);
	char *tok = strndup(p, end - p);
	int r;

	if (!tok)
		return oom(ps);
	r = parse_event(ps, tok, p);
	free(tok);
	*pp = end;
	return r;
}

/* Applies a group's modifiers to its members and links them to the leader. */
static int finish_group(struct pstate *ps, size_t first, const char *mods, const char *mods_at)
{
	struct evlist *l = ps->l;
	size_t i;
	int bad;

	for (i = first; i < l->nr; i++) {
		struct evsel *e = &l->evsels[i];

		if (mods && *mods) {
			bad = evsel_parse_mods(mods, &e->attr, &e->sample_read, &e->weak_group);
			if (bad >= 0)
				return perr(ps, -ERR_EVENT_SYNTAX, mods_at + bad, NULL,
					    "unknown or repeated modifier '%c'", mods[bad]);
		}
		e->group_idx = (int)first;
		e->is_leader = i == first;
		e->nr_members = i == first ? (int)(l->nr - first) : 0;
	}
	return 0;
}

static int parse_group(struct pstate *ps, const char **pp)
{
	const char *p = *pp + 1, *mend;
	size_t first = ps->l->nr;
	char *mods;
	int r;

	for (;;) {
		if (*p == '{')
			return perr(ps, -ERR_EVENT_SYNTAX, p, NULL, "groups cannot be nested");
		r = parse_one(ps, &p);
		if (r)
			return r;
		if (*p == '}')
			break;
		if (*p != ',')
			return perr(ps, -ERR_EVENT_SYNTAX, p, NULL, "parser error: missing '}'");
		p++;
	}
	p++;
	mods = NULL;
	mend = p;
	if (*p == ':') {
		mend = p + 1 + strcspn(p + 1, ",{}");
		mods = strndup(p + 1, mend - p - 1);
		if (!mods)
			return oom(ps);
	}
	r = finish_group(ps, first, mods, p + 1);
	free(mods);
	*pp = mend;
	return r;
}

int evlist_add_spec(struct evlist *list, const char *spec, struct evparse_err *err)
{
	struct evparse_err dummy;
	struct pstate ps = { list, spec, err ? err : &dummy };
	size_t before = list->nr;
	const char *p = spec;
	int r = 0;

	memset(ps.err, 0, sizeof(*ps.err));
	ps.err->pos = -1;
	snprintf(ps.err->spec, sizeof(ps.err->spec), "%s", spec);
	for (;;) {
		r = *p == '{' ? parse_group(&ps, &p) : parse_one(&ps, &p);
		if (r)
			break;
		if (!*p)
			break;
		if (*p != ',') {
			r = perr(&ps, -ERR_EVENT_SYNTAX, p, NULL, "parser error");
			break;
		}
		p++;
	}
	if (r) {
		/* all or nothing: drop what this spec added */
		while (list->nr > before) {
			struct evsel *e = &list->evsels[--list->nr];

			free(e->name);
			free((char *)e->pmu_name);
			free((char *)e->tp_sys);
			free((char *)e->tp_name);
		}
	}
	return r;
}
