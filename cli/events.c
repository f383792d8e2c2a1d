// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "cli/events.h"
#include "cli/out.h"

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
