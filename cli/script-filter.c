// SPDX-License-Identifier: GPL-2.0
/*
 * script-filter: the sample filters of `flare script` besides --comm/--pid/--tid: -C (the
 * CPUs of the samples), --time (script-time.c) and -S (the symbol of the sample), checked
 * against the file as perf script checks them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/out.h"
#include "cli/report.h"
#include "cli/script.h"
#include "lib/base/err.h"
#include "lib/data/features.h"

/* The highest CPU asked for, or -1. */
static int last_cpu(const struct script_ctx *c)
{
	int i;

	for (i = SCRIPT_MAX_CPUS - 1; i >= 0; i--)
		if (c->cpus[i / 64] & (1ULL << (i % 64)))
			return i;
	return -1;
}

/* -C: every event type must record the CPU (perf looks at the first event of each type), and
 * the CPUs must exist in the recording. */
static int setup_cpus(struct script_ctx *c)
{
	struct perf_data *pd = c->sess->pd;
	bool seen[PERF_TYPE_MAX] = { 0 };
	uint64_t first, last;
	int cpu, n;
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++) {
		const struct perf_event_attr *a = &pd->attrs[i].attr;

		if (a->type >= PERF_TYPE_MAX || seen[a->type])
			continue;
		seen[a->type] = true;
		if (!(a->sample_type & PERF_SAMPLE_CPU)) {
			pr_err("samples in '%s' have no CPU (record with -a or -C to have it, "
			       "or drop -C)", c->o->input);
			return -EINVAL;
		}
	}
	if (report_cpu_list(c->o->cpu_list, c->cpus)) {
		pr_err("-C '%s' is not a list of CPUs (write it as 0,2-3)", c->o->cpu_list);
		return -EINVAL;
	}
	time_span(pd, &n, &first, &last);
	cpu = last_cpu(c);
	if (cpu >= n) {
		if (pd->is_pipe)
			pr_err("-C: the number of CPUs of a recording read from a pipe is not "
			       "known (record to a file to use -C)");
		else
			pr_err("-C: there is no CPU %d in '%s', recorded with %d CPUs (use CPUs "
			       "0-%d)", cpu, c->o->input, n, n - 1);
		return -EINVAL;
	}
	c->cpu_filter = true;
	return 0;
}

static int setup_time(struct script_ctx *c)
{
	const char *s = c->o->time_str;
	uint64_t first, last;
	int n, err;

	time_span(c->sess->pd, &n, &first, &last);
	if ((strchr(s, '%') || c->o->reltime) && !first && !last) {
		pr_err("--time '%s': '%s' does not record its first and last sample times, which "
		       "percents and --reltime need (give absolute seconds, without --reltime)",
		       s, c->o->input);
		return -ERANGE;
	}
	err = time_ranges_parse(&c->times, s, first, last);
	if (err == -EINVAL)
		pr_err("--time '%s' is not a time range (write START,STOP in seconds as "
		       "'2175.6,2175.7', either end may be left out; ranges separated by spaces; "
		       "or slices in percent: 10%%/2, 0%%-10%%,30%%-40%%)", s);
	else if (err)
		pr_err("--time: %s", err_str(err));
	if (err == -EINVAL)
		err = -ERANGE;	/* not a range: perf's status differs from other bad options' */
	for (size_t i = 0; !err && c->o->reltime && i < c->times.nr; i++) {
		/* as perf: both ends move, an open end too */
		c->times.v[i].start += first;
		c->times.v[i].end += first;
	}
	return err;
}

int script_filter_setup(struct script_ctx *c)
{
	int err;

	if (c->o->cpu_list && (err = setup_cpus(c)))
		return err;
	if (c->o->time_str && (err = setup_time(c)))
		return err;
	return 0;
}

bool script_cpu_wanted(const struct script_ctx *c, uint32_t cpu)
{
	return !c->cpu_filter ||
	       (cpu < SCRIPT_MAX_CPUS && (c->cpus[cpu / 64] & (1ULL << (cpu % 64))));
}

bool script_filter_sample(const struct script_ctx *c, const struct resolved_sample *rs)
{
	if (!script_cpu_wanted(c, rs->s->cpu))
		return false;
	if (time_ranges_skip(&c->times, rs->s->time))
		return false;
	/* -S: the symbol of the sample's own ip, by name */
	if (c->o->symbols && (!rs->nr_frames || !rs->frames[0].sym ||
			      !report_list_has(c->o->symbols, rs->frames[0].sym->name)))
		return false;
	return script_sample_wanted(c->o, rs);
}
