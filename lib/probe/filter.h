/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe/filter: perf probe's --filter expressions over names: globs joined by '&' and '|',
 * each optionally negated with '!', '&' binding tighter ("!_* & !*@plt"). No parentheses.
 */
#ifndef FLARE_PROBE_FILTER_H
#define FLARE_PROBE_FILTER_H

/* Whether name passes filter (NULL passes everything). */
int probe_filter_match(const char *filter, const char *name);

#endif
