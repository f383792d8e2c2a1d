// SPDX-License-Identifier: GPL-2.0
/*
 * flare evlist: the events of a perf.data file, as perf evlist 6.1 prints them: one name a
 * line; -F their sample period or frequency; -g groups as "{a,b}"; -v every attr field;
 * --trace-fields the fields of tracepoints.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/strbuf.h"
#include "lib/data/features.h"
#include "lib/data/reader.h"
#include "lib/data/tracing_data.h"

struct evlist_opts {
	const char *input;
	int force, freq, group, verbose, trace_fields;
};

static void print_freq(const struct pd_attr *a)
{
	if (a->attr.freq)
		printf("%s: sample_freq=%" PRIu64 "\n", a->name, (uint64_t)a->attr.sample_freq);
	else
		printf("%s: sample_period=%" PRIu64 "\n", a->name, (uint64_t)a->attr.sample_period);
}

static int print_verbose(const struct pd_attr *a)
{
	struct strbuf sb = STRBUF_INIT;
	int err = pd_attr_render_as(&a->attr, ": ", &sb);

	/* the rendering starts with ", " before its first field */
	if (!err)
		printf("%s: %s\n", a->name, sb.len > 2 ? sb.buf + 2 : "");
	strbuf_release(&sb);
	return err;
}

static void print_trace_fields(struct perf_data *pd, const struct pd_attr *a)
{
	struct tep_handle *tep = a->attr.type == PERF_TYPE_TRACEPOINT ? perf_data_tep(pd) : NULL;
	struct tep_event *ev = tep ? tep_find_event(tep, (int)a->attr.config) : NULL;
	struct tep_format_field **fields;
	int i;

	if (!ev) {
		printf("%s: (not a tracepoint)\n", a->name);
		return;
	}
	fields = tep_event_fields(ev);
	printf("%s: trace_fields: ", a->name);
	for (i = 0; fields && fields[i]; i++)
		printf("%s%s", i ? "," : "", fields[i]->name);
	printf("\n");
	free(fields);
}

/* -g: a group leader prints "{leader,member,...}", members are skipped, the rest by name. */
static void print_groups(struct perf_data *pd)
{
	struct pd_features *f = NULL;
	size_t i, j;

	if (pd_features_read(pd, &f))
		f = NULL;
	for (i = 0; i < pd->nr_attrs; i++) {
		const struct pd_feat_group *g = NULL;

		for (j = 0; f && j < f->nr_groups; j++)
			if (f->groups[j].leader_idx <= i &&
			    i < f->groups[j].leader_idx + f->groups[j].nr_members)
				g = &f->groups[j];
		if (!g || g->nr_members < 2) {
			printf("%s\n", pd->attrs[i].name);
			continue;
		}
		if (i != g->leader_idx)
			continue;
		printf("{");
		for (j = 0; j < g->nr_members && i + j < pd->nr_attrs; j++)
			printf("%s%s", j ? "," : "", pd->attrs[i + j].name);
		printf("}\n");
	}
	pd_features_free(f);
}

int cmd_evlist(int argc, char **argv)
{
	struct evlist_opts o = { .input = "perf.data" };
	static const char *const usage[] = { "flare evlist [<options>]", NULL };
	const struct opt opts[] = {
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_BOOL('F', "freq", &o.freq, "Show the sample frequency"),
		OPT_BOOL('g', "group", &o.group, "Show event group information"),
		OPT_STRING('i', "input", &o.input, "file", "Input file name"),
		OPT_BOOL('v', "verbose", &o.verbose, "Show all event attr details"),
		OPT_BOOL(0, "trace-fields", &o.trace_fields, "Show tracepoint fields"),
		OPT_END(),
	};
	struct perf_data *pd;
	char err[256];
	bool tracepoints = false;
	size_t i;
	int ret = 0;

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (argc > 0)
		opt_usage_error(opts, usage, "unexpected argument '%s'", argv[0]);
	if (o.group && (o.verbose || o.freq || o.trace_fields))
		opt_usage_error(opts, usage, "--group option is not compatible with other options");
	if (perf_data_open(o.input, o.force ? PD_FORCE : 0, &pd, err, sizeof(err)) < 0) {
		pr_err("cannot read '%s': %s (record one with 'flare record', or name it with -i)",
		       o.input, err);
		return 255; /* perf's status for a file it cannot read */
	}
	if (o.group)
		print_groups(pd);
	for (i = 0; !o.group && i < pd->nr_attrs && !ret; i++) {
		const struct pd_attr *a = &pd->attrs[i];

		if (o.verbose)
			ret = print_verbose(a);
		else if (o.trace_fields)
			print_trace_fields(pd, a);
		else if (o.freq)
			print_freq(a);
		else
			printf("%s\n", a->name);
	}
	for (i = 0; i < pd->nr_attrs; i++)
		tracepoints |= pd->attrs[i].attr.type == PERF_TYPE_TRACEPOINT;
	if (tracepoints && !o.trace_fields)
		printf("# Tip: use 'flare evlist --trace-fields' to show fields for tracepoint "
		       "events\n");
	perf_data_close(pd);
	if (ret)
		pr_err("evlist of '%s' failed: out of memory", o.input);
	return ret ? 1 : 0;
}
