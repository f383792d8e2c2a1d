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

int script_filter_setup(struct script_ctx *c)
{
	int err;

	if (c->o->cpu_list && (err = report_cpus_setup(c->sess->pd, c->o->input,
						       c->o->cpu_list, c->cpus)))
		return err;
	c->cpu_filter = c->o->cpu_list != NULL;
	if (c->o->time_str && (err = time_ranges_setup(&c->times, c->sess->pd, c->o->input,
						       c->o->time_str, c->o->reltime)))
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
