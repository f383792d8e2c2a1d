/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read-opts: the options of the reading commands (report, script, flamegraph) checked
 * against the file, each refusal said in one line: --time and -C fill a sample filter
 * (lib/session/filter.h) as perf checks them, --kallsyms must be readable.
 */
#ifndef FLARE_CLI_READ_OPTS_H
#define FLARE_CLI_READ_OPTS_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/data/reader.h"
#include "lib/session/filter.h"

/* --time STR for the file: parsed against its span (relative to its first sample with
 * reltime), what is wrong said. 0, -ERANGE (no range, or percents without the span: perf's
 * -EINVAL status) or -ENOMEM. */
int read_opts_time(struct sample_filter *f, struct perf_data *pd, const char *input,
		   const char *str, bool reltime);
/* -C LIST against the file, as perf's perf_session__cpu_bitmap(): the first event of each
 * type must record the CPU, the list must parse, its CPUs must be in the recording. 0, or
 * < 0 with the reason said. */
int read_opts_cpus(struct sample_filter *f, struct perf_data *pd, const char *input,
		   const char *list);
/* --kallsyms FILE (or none) can be read; says why not. */
bool read_opts_kallsyms_readable(const char *path);
/* The header's CPU count and first/last sample times (zero when absent, or for a pipe). */
void time_span(struct perf_data *pd, int *nr_cpus, uint64_t *first, uint64_t *last);

#endif
