// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include "cli/events.h"
#include "cli/out.h"
#include "lib/event/names.h"
#include "lib/event/open.h"

#define PREFIX "event syntax error: '"

void cli_print_evparse_err(const struct evparse_err *err)
{
	int pos = err->pos < 0 ? 0 : err->pos;

	fflush(stdout);
	fprintf(stderr, PREFIX "%s'\n", err->spec);
	fprintf(stderr, "%*s\\___ %s\n", (int)(sizeof(PREFIX) - 1) + pos, "", err->msg);
	if (err->hint[0])
		fprintf(stderr, "%s\n", err->hint);
}

int cli_add_events(struct evlist *l, const char *spec)
{
	struct evparse_err err;
	int r = evlist_add_spec(l, spec, &err);

	if (r < 0)
		cli_print_evparse_err(&err);
	return r;
}

/* With no PMU, "cycles" becomes cpu-clock, named from its attr as perf names it then (the
 * modifiers decided exclude_guest as perf's do: cycles:k becomes cpu-clock:k). */
void cli_fallback_cycles(struct evlist *l, bool defaulted)
{
	size_t i;

	if (have_hw_pmu())
		return;
	for (i = 0; i < l->nr; i++) {
		struct evsel *e = &l->evsels[i];
		char *name, m[16];

		if (e->attr.type != PERF_TYPE_HARDWARE ||
		    e->attr.config != PERF_COUNT_HW_CPU_CYCLES)
			continue;
		ev_mods_from_attr(&e->attr, m, sizeof(m));
		if (asprintf(&name, "cpu-clock%s", m) < 0)
			continue;
		if (!defaulted)
			pr_warn("no hardware PMU for '%s' (a VM guest?); sampling %s instead",
				e->name, name);
		else
			pr_warn("no hardware PMU for cycles (a VM guest?); sampling %s instead",
				name);
		free(e->name);
		e->name = name;
		e->attr.type = PERF_TYPE_SOFTWARE;
		e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	}
}
