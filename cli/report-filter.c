// SPDX-License-Identifier: GPL-2.0
/*
 * report-filter: the comma-separated lists of --comm, --pid, --tid, --dso and --symbols,
 * shared by report and script.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/report.h"
#include "cli/script.h"

bool report_list_has(const char *list, const char *s)
{
	size_t n;

	if (!s)
		return false;
	n = strlen(s);
	while (*list) {
		size_t len = strcspn(list, ",");

		if (len == n && !strncmp(list, s, n))
			return true;
		list += len;
		if (*list == ',')
			list++;
	}
	return false;
}

bool report_list_has_num(const char *list, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%" PRIu32, v);
	return report_list_has(list, buf);
}

bool script_sample_wanted(const struct script_opts *o, const struct resolved_sample *rs)
{
	if (o->comm && !report_list_has(o->comm, rs->thread->comm))
		return false;
	if (o->pid && !report_list_has_num(o->pid, rs->thread->pid))
		return false;
	if (o->tid && !report_list_has_num(o->tid, rs->thread->tid))
		return false;
	return true;
}
