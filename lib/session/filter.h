/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter: which resolved samples a reading command keeps, decided as perf decides it, for
 * report, script and flamegraph alike:
 *  - -C: the sample's CPU in perf's cpu list ("0,2-3");
 *  - --time: perf's time ranges, "START,STOP" in seconds with either end open, several
 *    separated by spaces, or slices in percent ("10%/2", "0%-10%,30%-40%", "50%") of the
 *    span between the file's first and last sample times;
 *  - --comm, --pid, --tid: the sample's thread in a comma-separated list;
 *  - --dso, -S/--symbols: the dso and symbol of the sample's own ip;
 *  - the chain rule: a call chain holding a context marker perf does not know (a corrupt
 *    stack walk) is dropped, the sample kept.
 * A struct sample_filter is filled by the command from its options (the list strings are
 * the caller's and must outlive it), checked per sample, and released with
 * sample_filter_release(). Nothing here prints.
 */
#ifndef FLARE_SESSION_FILTER_H
#define FLARE_SESSION_FILTER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/session/session.h"

#define FILTER_MAX_CPUS 4096 /* perf's MAX_NR_CPUS */

struct time_range {
	uint64_t start, end; /* ns; 0: open */
};

struct time_ranges {
	struct time_range *v;
	size_t nr; /* 0: no --time */
};

/* str into tr (replacing what it held); first/last: the file's first and last sample times,
 * for percents. 0, -EINVAL (not a time range) or -ENOMEM. */
int time_ranges_parse(struct time_ranges *tr, const char *str, uint64_t first, uint64_t last);
/* Whether time t is outside every range (a sample without a time, t 0, is kept). */
bool time_ranges_skip(const struct time_ranges *tr, uint64_t t);
void time_ranges_release(struct time_ranges *tr);

/* Whether s (or v in decimal) is one of the comma-separated items of list. */
bool filter_list_has(const char *list, const char *s);
bool filter_list_has_num(const char *list, uint32_t v);
/* perf's cpu list into bits (FILTER_MAX_CPUS of them): "N", "N-M", comma separated, numbers
 * as strtoul base 0 reads them, the list ending at the first item not starting with a digit;
 * a CPU twice or no CPU at all is invalid. 0 or -EINVAL. */
int filter_cpu_list(const char *list, uint64_t *bits);

/* Whether perf drops s's call chain: it holds a context marker other than the kernel's,
 * user's or hypervisor's. */
bool sample_chain_dropped(const struct perf_sample *s);
/* The cpumode a context marker switches a call chain to (PERF_RECORD_MISC_KERNEL, _USER,
 * _HYPERVISOR); 0 for a marker perf does not know. */
uint8_t chain_marker_mode(uint64_t marker);

struct sample_filter {
	const char *comm, *pid, *tid; /* comma-separated lists, or NULL */
	const char *dso, *symbols;    /* of the sample's own ip; NULL: any */
	struct time_ranges times;
	uint64_t *cpus; /* FILTER_MAX_CPUS bits, or NULL: every CPU */
};

/* -C LIST: 0, -EINVAL (not a cpu list) or -ENOMEM. */
int sample_filter_set_cpus(struct sample_filter *f, const char *list);
/* --time STR against a file whose samples span first..last (ns, 0 0 when unknown); with
 * reltime, the ranges are relative to first. 0, -EINVAL or -ENOMEM. */
int sample_filter_set_time(struct sample_filter *f, const char *str, uint64_t first, uint64_t last,
			   bool reltime);
void sample_filter_release(struct sample_filter *f);

/* Whether cpu passes -C. */
bool sample_filter_cpu(const struct sample_filter *f, uint32_t cpu);
/* -C and --time: a sample outside them is not counted at all (perf's totals skip it). */
bool sample_filter_when(const struct sample_filter *f, const struct perf_sample *s);
/* The thread, dso and symbol lists. */
bool sample_filter_what(const struct sample_filter *f, const struct resolved_sample *rs);

#endif
