// SPDX-License-Identifier: GPL-2.0
/*
 * flare list: the events flare can open here, in perf 6.1's sections, order and layout
 * ("  %-50s [Section]"). Beyond perf: an event this kernel cannot count is still listed,
 * followed by why ("<not supported: no hardware PMU: this is a VM guest>").
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/event/evlist.h"
#include "lib/event/names.h"
#include "lib/event/open.h"
#include "lib/event/pmu.h"
#include "lib/probe/sdt-cache.h"
#include "lib/trace/tp.h"

enum {
	L_HW = 1,
	L_SW = 2,
	L_CACHE = 4,
	L_PMU = 8,
	L_RAW = 16,
	L_BP = 32,
	L_TP = 64,
	L_SDT = 128,
	L_ALL = 255
};

struct list_ctx {
	const char *glob;	    /* "*word*" filter on names, or NULL */
	const char *tp_sys, *tp_ev; /* "sys:ev" filter for tracepoints */
	bool raw_dump;
	int printed;
};

static bool glob_ok(const struct list_ctx *c, const char *name, const char *alias)
{
	if (!c->glob)
		return true;
	return !fnmatch(c->glob, name, 0) || (alias && !fnmatch(c->glob, alias, 0));
}

static void emit(struct list_ctx *c, const char *name, const char *alias, const char *section,
		 const char *why)
{
	char full[600];

	if (c->raw_dump) {
		/* for scripts and completion: only what can be counted, as perf's */
		if (!why) {
			printf("%s ", name);
			c->printed++;
		}
		return;
	}
	c->printed++;
	if (alias)
		snprintf(full, sizeof(full), "%s OR %s", name, alias);
	else
		snprintf(full, sizeof(full), "%s", name);
	if (why)
		printf("  %-50s [%s] <not supported here: %s>\n", full, section, why);
	else
		printf("  %-50s [%s]\n", full, section);
}

/* Why attr cannot be counted here, or NULL when it can. */
static const char *probe(const struct perf_event_attr *attr, char *buf, size_t len)
{
	int r = event_probe(attr);

	return r ? event_open_reason(attr, r, buf, len) : NULL;
}

static void list_syms(struct list_ctx *c, const struct ev_sym *syms, size_t n, const char *section)
{
	size_t i;
	char buf[256];

	for (i = 0; i < n; i++) {
		struct perf_event_attr a = { .size = sizeof(a),
					     .type = syms[i].type,
					     .config = syms[i].config };

		if (!glob_ok(c, syms[i].name, syms[i].alias))
			continue;
		emit(c, syms[i].name, syms[i].alias, section, probe(&a, buf, sizeof(buf)));
	}
}

static void list_tools(struct list_ctx *c)
{
	int i;

	for (i = EV_TOOL_DURATION; i <= EV_TOOL_SYSTEM; i++)
		if (glob_ok(c, ev_tool_names[i], NULL))
			emit(c, ev_tool_names[i], NULL, "Tool event", NULL);
}

static void list_cache(struct list_ctx *c)
{
	char name[64], buf[256];
	uint64_t config;
	size_t i;
	/* perf sorts the names */
	char(*names)[64] = calloc(64, sizeof(*names));
	uint64_t cfgs[64];
	size_t n = 0, j;

	if (!names)
		return;
	for (i = 0; n < 64 && !ev_cache_name(i, name, sizeof(name), &config); i++) {
		if (!glob_ok(c, name, NULL))
			continue;
		for (j = n; j > 0 && strcmp(names[j - 1], name) > 0; j--) {
			memcpy(names[j], names[j - 1], sizeof(names[j]));
			cfgs[j] = cfgs[j - 1];
		}
		memcpy(names[j], name, sizeof(name));
		cfgs[j] = config;
		n++;
	}
	for (i = 0; i < n; i++) {
		struct perf_event_attr a = { .size = sizeof(a),
					     .type = PERF_TYPE_HW_CACHE,
					     .config = cfgs[i] };

		emit(c, names[i], NULL, "Hardware cache event", probe(&a, buf, sizeof(buf)));
	}
	free(names);
}

static int pmu_one(const char *pmu, const char *ev, void *arg)
{
	struct list_ctx *c = arg;
	struct perf_event_attr a = { .size = sizeof(a) };
	char name[512], terms[256], unit[24], buf[256], *t, *save = NULL;
	double scale;
	int r = 0;

	if (!ev)
		return 0;
	snprintf(name, sizeof(name), "%s/%s/", pmu, ev);
	if (!glob_ok(c, name, NULL))
		return 0;
	if (pmu_type(pmu, &a.type) ||
	    pmu_event_alias(pmu, ev, terms, sizeof(terms), &scale, unit, sizeof(unit)))
		return 0;
	for (t = strtok_r(terms, ",", &save); t && !r; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');

		if (eq)
			*eq++ = '\0';
		r = pmu_set_term(pmu, t, eq ? strtoull(eq, NULL, 0) : 1, &a);
	}
	emit(c, name, NULL, "Kernel PMU event", r ? err_str(r) : probe(&a, buf, sizeof(buf)));
	return 0;
}

static int tp_one(const char *sys, const char *name, void *arg)
{
	struct list_ctx *c = arg;
	char full[512];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	emit(c, full, NULL, "Tracepoint event", NULL);
	return 0;
}

static int list_tracepoints(struct list_ctx *c, const char *sys, const char *ev)
{
	int r = tp_for_each(sys, ev, TP_SORTED, tp_one, c);

	if (r == -ERR_NO_TRACEFS) {
		pr_err("cannot list tracepoints: tracefs is not mounted and could not be mounted "
		       "(mount -t tracefs nodev /sys/kernel/tracing)");
		return 1;
	}
	if (r < 0) {
		pr_err("cannot list tracepoints: %s", err_str(r));
		return 1;
	}
	return 0;
}

/* The SDT events of the build-id cache, as perf 6.1 lists them: a name that several cached
 * objects have is shown as NAME@PATH(BUILD-ID's first 12) for each */
static int list_sdt(struct list_ctx *c, const char *group, const char *event)
{
	struct sdt_cached *v;
	int n = sdt_cache_list(group, event, &v), i, detail = 0;

	if (n < 0) {
		pr_err("cannot list the SDT events of the build-id cache: %s", err_str(n));
		return 1;
	}
	for (i = 0; i < n; i++) {
		char name[600];
		int same_next = i + 1 < n && !strcmp(v[i].group, v[i + 1].group) &&
				!strcmp(v[i].event, v[i + 1].event);

		if (same_next)
			detail = 1;
		if (detail && !c->raw_dump)
			snprintf(name, sizeof(name), "%s:%s@%s(%.12s)", v[i].group, v[i].event,
				 v[i].name, v[i].hex);
		else
			snprintf(name, sizeof(name), "%s:%s", v[i].group, v[i].event);
		emit(c, name, NULL, "SDT event", NULL);
		if (!same_next)
			detail = 0;
	}
	sdt_cached_free(v, n);
	return 0;
}

static int list_sections(struct list_ctx *c, int which)
{
	if (which & L_HW)
		list_syms(c, ev_hw_syms, ev_hw_nr, "Hardware event");
	if (which & L_SW)
		list_syms(c, ev_sw_syms, ev_sw_nr, "Software event");
	if (which & L_SW)
		list_tools(c);
	if (which & L_CACHE)
		list_cache(c);
	if (which & L_PMU)
		pmu_for_each(pmu_one, c);
	/* the syntax lines are not event names: perf leaves them out of --raw-dump */
	if ((which & L_RAW) && !c->glob && !c->raw_dump) {
		emit(c, "rNNN", NULL, "Raw hardware event descriptor", NULL);
		emit(c, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL, "Raw hardware event descriptor",
		     NULL);
	}
	if ((which & L_BP) && !c->glob && !c->raw_dump)
		emit(c, "mem:<addr>[/len][:access]", NULL, "Hardware breakpoint", NULL);
	if ((which & L_TP) && list_tracepoints(c, NULL, c->glob))
		return 1;
	if (which & L_SDT) /* perf lists the cached SDT events after the tracepoints */
		return list_sdt(c, NULL, c->glob);
	return 0;
}

static int list_arg(struct list_ctx *c, const char *arg)
{
	static const struct {
		const char *name;
		int which;
	} kinds[] = {
		{ "hw", L_HW },	      { "hardware", L_HW },   { "sw", L_SW },
		{ "software", L_SW }, { "cache", L_CACHE },   { "hwcache", L_CACHE },
		{ "pmu", L_PMU },     { "tracepoint", L_TP },
	};
	char *glob, *colon;
	size_t i;
	int r;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(arg, kinds[i].name))
			return list_sections(c, kinds[i].which);
	if (!strcmp(arg, "sdt"))
		return list_sdt(c, NULL, NULL);
	if (!strcmp(arg, "metric") || !strcmp(arg, "metricgroup"))
		return 0; /* flare has none of these */
	glob = strdup(arg);
	if (!glob)
		return 1;
	colon = strchr(glob, ':');
	if (colon) {
		*colon = '\0';
		r = list_tracepoints(c, glob, colon + 1);
		if (!r)
			r = list_sdt(c, glob, colon + 1);
		free(glob);
		return r;
	}
	free(glob);
	if (asprintf(&glob, "*%s*", arg) < 0)
		return 1;
	c->glob = glob;
	r = list_sections(c, L_ALL & ~(L_RAW | L_BP));
	c->glob = NULL;
	free(glob);
	return r;
}

int cmd_list(int argc, char **argv)
{
	static const char *const usage[] = {
		"flare list [<options>] [hw|sw|cache|tracepoint|pmu|sdt|metric|metricgroup|event_glob]",
		NULL,
	};
	struct list_ctx c = { 0 };
	int raw = 0, i, r = 0, desc = 1, long_desc = 0, deprecated = 0, details = 0, debug = 0;
	const char *cputype = NULL;
	/* flare's events have no descriptions, metrics or hybrid PMUs: those of perf's options
	 * that shape them are accepted so that perf one-liners work, and change nothing */
	const struct opt opts[] = {
		OPT_BOOL('d', "desc", &desc,
			 "Print extra event descriptions. --no-desc to not print."),
		OPT_BOOL('v', "long-desc", &long_desc, "Print longer event descriptions."),
		OPT_STRING(0, "cputype", &cputype, "hybrid cpu type",
			   "Print events applying cpu with this type for hybrid platform"),
		OPT_BOOL(0, "debug", &debug, "Enable debugging output"),
		OPT_BOOL(0, "deprecated", &deprecated, "Print deprecated events."),
		OPT_BOOL(
			0, "details", &details,
			"Print information on the perf event names and expressions used internally by events."),
		OPT_BOOL(0, "raw-dump", &raw, "Dump raw events"),
		OPT_END(),
	};

	argc = opt_parse(argc, argv, opts, usage, 0);
	c.raw_dump = raw;
	if (!raw) {
		int tty = isatty(STDOUT_FILENO);

		out_pager_start();
		/* perf prints its title only into a pager */
		if (tty && !isatty(STDOUT_FILENO))
			printf("\nList of pre-defined events (to be used in -e):\n\n");
	}
	if (!argc)
		r = list_sections(&c, L_ALL);
	for (i = 0; i < argc && !r; i++)
		r = list_arg(&c, argv[i]);
	return r;
}
