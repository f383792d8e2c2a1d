/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evlist: event specs as a perf user types them ("cycles", "cpu-clock:u", "sched:*",
 * "{cycles,instructions}:S", "msr/tsc/", "r01c4", "mem:0x1000/8:rw", "L1-dcache-load-misses")
 * parsed into perf_event_attrs with perf's names. An evlist owns its evsels and their names.
 * Parsing never opens anything; tracepoints are resolved through tracefs (mounted on demand).
 *
 * Every string an evsel points to (name, pmu_name, tp_sys, tp_name) is owned by the evlist
 * and freed by evlist_release(). An evsel's name is the spec as the user typed it for that
 * event ("cs:u", "msr/tsc/"), as perf names it; a glob expands to one evsel per tracepoint.
 * attr holds only what the spec says (type, config, exclude_*, precise_ip, pinned, ...) and
 * attr.size; the caller sets sampling, read_format, disabled, inherit and the like.
 */
#ifndef FLARE_EVENT_EVLIST_H
#define FLARE_EVENT_EVLIST_H
#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

struct evsel {
	struct perf_event_attr attr;
	char *name;    /* as perf prints it: "cpu-clock", "cycles:u", "sched:sched_switch" */
	int group_idx; /* index of the group leader in the evlist, or -1 */
	bool is_leader;
	int nr_members;		      /* for a leader: group size */
	bool sample_read;	      /* group with :S */
	const char *pmu_name;	      /* "cpu", "software", "tracepoint", "msr", ... */
	const char *tp_sys, *tp_name; /* tracepoints */
	/* extensions */
	double scale;	 /* multiply counts by this (PMU event .scale); 1.0 otherwise */
	char unit[24];	 /* PMU event .unit ("Joules"), else "" */
	bool weak_group; /* group with :W */
	int tool;	 /* EV_TOOL_*: perf's tool events, measured by the tool itself */
};

/* perf's "Tool event"s: not kernel counters. Their attr is a software dummy (which opens
 * anywhere); the tool fills in the value (nanoseconds) itself. */
enum { EV_TOOL_NONE, EV_TOOL_DURATION, EV_TOOL_USER, EV_TOOL_SYSTEM };

struct evlist {
	struct evsel *evsels;
	size_t nr;
};

/* Where a spec failed, for the caret display. */
struct evparse_err {
	char msg[256];	/* "unknown event 'cycels'" */
	char hint[256]; /* "Run 'flare list' for a list of all events" or a suggestion */
	int pos;	/* byte offset into the spec, -1 if none */
	char spec[512]; /* copy of the spec */
};

/* Parses spec and appends its events to list. 0 or -ERR_EVENT_SYNTAX / -ERR_EVENT_UNKNOWN /
 * -ERR_NO_TRACEFS / -ENOMEM, with err filled. */
int evlist_add_spec(struct evlist *list, const char *spec, struct evparse_err *err);
void evlist_release(struct evlist *list);

/* Appends an evsel for attr named name (copied). Returns the new evsel, NULL on -ENOMEM.
 * The evsel is not in any group. For callers that build events themselves (perf's defaults). */
struct evsel *evlist_add(struct evlist *list, const struct perf_event_attr *attr, const char *name);

/* Parses modifier letters ("u", "ppp", "S", "uk") into attr and *sample_read. Returns -1 on
 * success, else the offset of the first bad letter. */
int evsel_parse_mods(const char *mods, struct perf_event_attr *attr, bool *sample_read, bool *weak);

#endif
