// SPDX-License-Identifier: GPL-2.0
/*
 * script-filter: the sample filter of `flare script` (lib/session/filter.h) filled from -C,
 * --time, -S, --comm, --pid and --tid, checked against the file as perf script checks them.
 */
#include "cli/read-opts.h"
#include "cli/script.h"

int script_filter_setup(struct script_ctx *c)
{
	const struct script_opts *o = c->o;
	int err;

	if (o->cpu_list && (err = read_opts_cpus(&c->filter, c->sess->pd, o->input, o->cpu_list)))
		return err;
	if (o->time_str &&
	    (err = read_opts_time(&c->filter, c->sess->pd, o->input, o->time_str, o->reltime)))
		return err;
	/* -S: the symbol of the sample's own ip, by name */
	c->filter.symbols = o->symbols;
	c->filter.comm = o->comm;
	c->filter.pid = o->pid;
	c->filter.tid = o->tid;
	return 0;
}

bool script_cpu_wanted(const struct script_ctx *c, uint32_t cpu)
{
	return sample_filter_cpu(&c->filter, cpu);
}

bool script_filter_sample(const struct script_ctx *c, const struct resolved_sample *rs)
{
	return sample_filter_when(&c->filter, rs->s) && sample_filter_what(&c->filter, rs);
}
