/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script: the shared pieces of `flare script`: options, per-event output fields
 * (script-out.c), the records of --show-*-events (script-events.c), the -D raw dump
 * (script-dump.c) and the sample filter (script-filter.c).
 */
#ifndef FLARE_CLI_SCRIPT_H
#define FLARE_CLI_SCRIPT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/session/filter.h"
#include "lib/trace/tpfmt.h"
#include "lib/session/session.h"

enum script_field {
	SF_COMM,
	SF_TID,
	SF_PID,
	SF_TIME,
	SF_CPU,
	SF_EVENT,
	SF_IP,
	SF_SYM,
	SF_SYMOFF,
	SF_DSO,
	SF_PERIOD,
	SF_TRACE,
	SF_ADDR,
	SF_SRCLINE,
	SF_NR
};

struct script_opts {
	const char *input;
	int force, ns, hide_callchain, dump, verbose;
	int header, header_only, show_info;
	int show_task, show_mmap, show_switch; /* --show-*-events */
	int reltime, deltatime, max_stack;
	const char *comm, *pid, *tid;
	const char *cpu_list;			     /* -C */
	const char *time_str;			     /* --time */
	const char *symbols;			     /* -S */
	const char *symfs;			     /* --symfs */
	const char *kallsyms;			     /* --kallsyms */
	int demangle;				     /* --demangle (default), --no-demangle */
	int inline_frames;			     /* --inline (default), --no-inline */
	unsigned int fields, fields_add, fields_del; /* bits of enum script_field */
	bool fields_set;
};

struct script_event {
	unsigned int fields;
	bool callchain;
	bool ready;
};

struct script_ctx {
	struct script_opts *o;
	struct session *sess;
	struct script_event *events; /* by attr idx */
	size_t nr_events;
	int name_width;
	struct tpfmt tt;
	struct sample_filter filter;	      /* -C, --time, -S, --comm, --pid, --tid */
	uint64_t initial_time, previous_time; /* --reltime, --deltatime */
	size_t dump_attrs;		      /* -D: ATTR records of a pipe seen so far */
};

int script_parse_fields(const char *arg, struct script_opts *o, char *err, size_t errlen);
/* Fills the filter from the options, checked against the file; prints why and returns < 0 if
 * refused. */
int script_filter_setup(struct script_ctx *c);
/* Whether cpu passes -C. */
bool script_cpu_wanted(const struct script_ctx *c, uint32_t cpu);
/* Whether the sample passes -C, --time, -S, --comm, --pid, --tid. */
bool script_filter_sample(const struct script_ctx *c, const struct resolved_sample *rs);
/* The output setup of attr's event (made at its first use) in *ret; -ENOMEM, or -EINVAL when
 * its fields are refused (said). */
int script_event_of(struct script_ctx *c, const struct pd_attr *a, struct script_event **ret);
/* comm, pid/tid, cpu, time as the event's fields ask. */
void script_print_start(struct script_ctx *c, const struct script_event *ev, const char *comm,
			uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t time);
/* Whether a --show-*-events option is set. */
bool script_show_events(const struct script_opts *o);
/* session_record_cb: prints the records --show-*-events ask for. */
int script_on_record(void *ctx, const struct perf_event_header *ev, uint64_t off);
/* After "PERF_RECORD_NAME": what perf prints of a COMM, MMAP, MMAP2, FORK, EXIT, LOST or
 * SWITCH record (no newline). false for other types. */
bool script_record_details(FILE *out, const struct perf_event_header *ev);
/* The width of the event column: the longest event name of the file. */
int script_name_width(const struct perf_data *pd);
/* session_sample_cb: prints the sample as the event's fields ask, if the filter keeps it. */
int script_print_sample(void *ctx, const struct resolved_sample *rs);
/* -D, as session callbacks: each record with its offset, size, type, a hex dump and what
 * perf prints of it; a sample also with its thread, dso and script line. */
int script_dump_record(void *ctx, const struct perf_event_header *ev, uint64_t off);
int script_dump_sample(void *ctx, const struct resolved_sample *rs);

#endif
