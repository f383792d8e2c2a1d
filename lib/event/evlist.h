/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evlist: event specs as a perf user types them ("cycles", "cpu-clock:u", "sched:*",
 * "{cycles,instructions}:S", "msr/tsc/", "r01c4", "mem:0x1000/8:rw", "L1-dcache-load-misses")
 * parsed into perf_event_attrs with perf's names. An evlist owns its evsels and their names.
 * Parsing never opens anything; tracepoints are resolved through tracefs (mounted on demand).
 */
#ifndef FLARE_EVENT_EVLIST_H
#define FLARE_EVENT_EVLIST_H
#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

struct evsel {
	struct perf_event_attr attr;
	char *name;		/* as perf prints it: "cpu-clock", "cycles:u", "sched:sched_switch" */
	int group_idx;		/* index of the group leader in the evlist, or -1 */
	bool is_leader;
	int nr_members;		/* for a leader: group size */
	bool sample_read;	/* group with :S */
	const char *pmu_name;	/* "cpu", "software", "tracepoint", "msr", ... */
	const char *tp_sys, *tp_name;	/* tracepoints */
};

struct evlist {
	struct evsel *evsels;
	size_t nr;
};

/* Where a spec failed, for the caret display. */
struct evparse_err {
	char msg[256];		/* "unknown event 'cycels'" */
	char hint[256];		/* "Run 'flare list' for a list of all events" or a suggestion */
	int pos;		/* byte offset into the spec, -1 if none */
	char spec[512];		/* copy of the spec */
};

/* Parses spec and appends its events to list. 0 or -ERR_EVENT_SYNTAX / -ERR_EVENT_UNKNOWN /
 * -ERR_NO_TRACEFS / -ENOMEM, with err filled. */
int evlist_add_spec(struct evlist *list, const char *spec, struct evparse_err *err);
void evlist_release(struct evlist *list);

#endif
