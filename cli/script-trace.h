/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-trace: a tracepoint sample's RAW data formatted by its event's print fmt through
 * libtraceevent, as perf script's trace field and perf report's "Trace output" show it.
 * The text lives in the struct until the next call or script_trace_release().
 */
#ifndef FLARE_CLI_SCRIPT_TRACE_H
#define FLARE_CLI_SCRIPT_TRACE_H
#include <stdbool.h>
#include "lib/base/strbuf.h"
#include "lib/data/reader.h"

struct script_trace {
	struct strbuf text;
};

/* The formatted fields of s ("" when it has no RAW data or no format is known). */
const char *script_trace_text(struct script_trace *t, struct perf_data *pd,
			      const struct perf_sample *s);
void script_trace_release(struct script_trace *t);

#endif
