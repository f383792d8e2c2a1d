// SPDX-License-Identifier: GPL-2.0
/*
 * report-stats: `report --stats`, perf's count of the file's records by type ("Aggregated
 * stats:", each type's share of the total) and of each event's samples, read straight
 * from the records: nothing is resolved.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli/exit-status.h"
#include "cli/out.h"
#include "cli/report.h"
#include "lib/base/err.h"
#include "lib/data/format.h"
#include "lib/data/reader.h"

#define NR_TYPES 128

struct attr_count {
	uint64_t samples, lost;
};

static void print(FILE *out, const struct perf_data *pd, const uint64_t *types,
		  const struct attr_count *per_attr)
{
	size_t i;

	fprintf(out, "\nAggregated stats:\n%16s events: %10llu\n", "TOTAL",
		(unsigned long long)types[0]);
	for (i = 1; i < NR_TYPES; i++) {
		const char *name = perf_record_name((uint32_t)i);

		if (!name || !types[i])
			continue;
		fprintf(out, "%16s events: %10llu  (%4.1f%%)\n", name, (unsigned long long)types[i],
			100.0 * (double)types[i] / (double)types[0]);
	}
	for (i = 0; i < pd->nr_attrs; i++) {
		if (!per_attr[i].samples && !per_attr[i].lost)
			continue;
		fprintf(out, "%s stats:\n", pd->attrs[i].name ? pd->attrs[i].name : "unknown");
		if (per_attr[i].samples)
			fprintf(out, "%16s events: %10llu\n", "SAMPLE",
				(unsigned long long)per_attr[i].samples);
		if (per_attr[i].lost)
			fprintf(out, "%16s events: %10llu\n", "LOST_SAMPLES",
				(unsigned long long)per_attr[i].lost);
	}
}

/* per_attr covers n attrs, the new ones zeroed. 0 or -ENOMEM. */
static int cover(struct attr_count **per_attr, size_t *alloc, size_t n)
{
	struct attr_count *p;

	if (n <= *alloc)
		return 0;
	p = realloc(*per_attr, n * 2 * sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (size_t i = *alloc; i < n * 2; i++)
		p[i] = (struct attr_count){ 0 };
	*per_attr = p;
	*alloc = n * 2;
	return 0;
}

int report_stats(const struct report_opts *o)
{
	uint64_t types[NR_TYPES] = { 0 };
	struct attr_count *per_attr = NULL;
	const struct perf_event_header *ev;
	struct perf_data *pd;
	size_t alloc = 0;
	char errbuf[256];
	int ret;

	ret = perf_data_open(o->input, o->force ? PD_FORCE : 0, &pd, errbuf, sizeof(errbuf));
	if (ret < 0) {
		pr_err("cannot read '%s': %s", o->input, errbuf);
		return EXIT_STATUS_PERF_ERR; /* a file it cannot read */
	}
	while ((ret = perf_data_next(pd, &ev, NULL)) > 0) {
		const struct pd_attr *a;

		types[0]++;
		if (ev->type < NR_TYPES)
			types[ev->type]++;
		if (ev->type != PERF_RECORD_SAMPLE && ev->type != PERF_RECORD_LOST_SAMPLES)
			continue;
		a = perf_data_attr_of(pd, ev);
		if (!a)
			continue;
		if ((ret = cover(&per_attr, &alloc, pd->nr_attrs)) < 0)
			break;
		if (ev->type == PERF_RECORD_SAMPLE)
			per_attr[a - pd->attrs].samples++;
		else
			per_attr[a - pd->attrs].lost++;
	}
	/* the COMPRESSED records count too, as in perf, beside the records they held */
	types[PERF_RECORD_COMPRESSED] = perf_data_nr_compressed(pd);
	types[0] += types[PERF_RECORD_COMPRESSED];
	if (ret >= 0) /* attrs of no sample too */
		ret = cover(&per_attr, &alloc, pd->nr_attrs + 1);
	if (ret < 0)
		pr_err("cannot read '%s': %s", o->input,
		       pd->err_msg[0] ? pd->err_msg : err_str(ret));
	else
		print(stdout, pd, types, per_attr);
	free(per_attr);
	perf_data_close(pd);
	return ret < 0 ? EXIT_STATUS_EINVAL : 0;
}
