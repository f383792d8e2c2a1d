/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script: the shared pieces of `flare script`: options, per-event output fields, and the
 * -D raw dump (script-dump.c).
 */
#ifndef FLARE_CLI_SCRIPT_H
#define FLARE_CLI_SCRIPT_H
#include <stdbool.h>
#include <stddef.h>
#include "cli/script-trace.h"
#include "lib/session/session.h"

enum script_field {
	SF_COMM, SF_TID, SF_PID, SF_TIME, SF_CPU, SF_EVENT, SF_IP, SF_SYM, SF_SYMOFF, SF_DSO,
	SF_PERIOD, SF_TRACE, SF_ADDR, SF_NR
};

struct script_opts {
	const char *input;
	int force, ns, hide_callchain, dump, verbose;
	const char *comm, *pid, *tid;
	unsigned int fields, fields_add, fields_del;	/* bits of enum script_field */
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
	struct script_event *events;	/* by attr idx */
	size_t nr_events;
	int name_width;
	struct script_trace tt;
};

int script_parse_fields(const char *arg, struct script_opts *o, char *err, size_t errlen);
/* --comm/--pid/--tid */
bool script_sample_wanted(const struct script_opts *o, const struct resolved_sample *rs);
/* -D: every record in file order with its offset, size, type and a hex dump. */
int script_dump(struct script_ctx *c);

#endif
