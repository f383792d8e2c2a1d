// SPDX-License-Identifier: GPL-2.0
/*
 * report-filter: the comma-separated lists of --comm, --pid, --tid, --dso and --symbols,
 * shared by report and script.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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

/*
 * perf's cpu list: "N", "N-M", comma separated, numbers as strtoul base 0 reads them; the
 * list ends at the first item not starting with a digit; a CPU twice, or a list with no CPU
 * at all, is invalid.
 */
int report_cpu_list(const char *list, uint64_t *bits)
{
	const char *s = list;
	size_t nr = 0;

	memset(bits, 0, REPORT_MAX_CPUS / 8);
	while (isdigit((unsigned char)*s)) {
		char *p;
		unsigned long lo = strtoul(s, &p, 0), hi = lo;

		if (lo >= REPORT_MAX_CPUS || (*p && *p != ',' && *p != '-'))
			return -EINVAL;
		if (*p == '-') {
			hi = strtoul(p + 1, &p, 0);
			if (hi >= REPORT_MAX_CPUS || (*p && *p != ',') || hi < lo)
				return -EINVAL;
		}
		for (; lo <= hi; lo++, nr++) {
			if (bits[lo / 64] & (1ULL << (lo % 64)))
				return -EINVAL;
			bits[lo / 64] |= 1ULL << (lo % 64);
		}
		s = *p ? p + 1 : p;
	}
	return nr ? 0 : -EINVAL;
}

bool report_cpu_in(const uint64_t *bits, uint32_t cpu)
{
	return cpu < REPORT_MAX_CPUS && (bits[cpu / 64] & (1ULL << (cpu % 64)));
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

bool report_chain_discarded(const struct perf_sample *s)
{
	uint64_t i;

	for (i = 0; s->callchain && i < s->nr_callchain; i++) {
		uint64_t ip = s->callchain[i];

		if (ip < PERF_CONTEXT_MAX)
			continue;
		switch (ip) {
		case PERF_CONTEXT_HV:
		case PERF_CONTEXT_KERNEL:
		case PERF_CONTEXT_USER:
			continue;	/* the only ones perf 6.1 knows (machine.c) */
		default:
			return true;
		}
	}
	return false;
}
