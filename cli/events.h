/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events: the -e option shared by stat and record. Parses spec into l and, when it does not
 * parse, prints it perf's way on stderr:
 *	event syntax error: 'cs:z'
 *	                       \___ unknown or repeated modifier 'z'
 *	Run 'flare list' for a list of all available events
 * and returns < 0 (the caller then shows its usage and exits 129, as perf does).
 */
#ifndef FLARE_CLI_EVENTS_H
#define FLARE_CLI_EVENTS_H
#include "lib/event/evlist.h"

int cli_add_events(struct evlist *l, const char *spec);

/* Prints err (from evlist_add_spec) in the format above. */
void cli_print_evparse_err(const struct evparse_err *err);

/* With no hardware PMU, each "cycles" event of l becomes cpu-clock with the same modifiers,
 * said in one line on stderr (defaulted: the event was the command's default, not typed). */
void cli_fallback_cycles(struct evlist *l, bool defaulted);

#endif
