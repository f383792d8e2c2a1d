/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched: the scheduler's tracepoints in a recording (sched_switch, sched_wakeup/_waking/
 * _wakeup_new, sched_stat_runtime, sched_migrate_task), decoded from their RAW bytes by the
 * field offsets their formats give (looked up once per event, not per sample), and the
 * events perf sched record enables. The decoder borrows the recording's tep; it owns only its
 * per-event table, freed by sched_decoder_release().
 */
#ifndef FLARE_SCHED_SCHED_H
#define FLARE_SCHED_SCHED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_data;
struct perf_sample;

enum sched_ev {
	SEV_NONE,
	SEV_SWITCH,
	SEV_WAKEUP, /* sched_wakeup */
	SEV_WAKING, /* sched_waking, which perf sched record takes in its place */
	SEV_WAKEUP_NEW,
	SEV_RUNTIME,
	SEV_MIGRATE,
};

enum sched_fld {
	SF_PREV_COMM,
	SF_PREV_PID,
	SF_PREV_PRIO,
	SF_PREV_STATE,
	SF_NEXT_COMM,
	SF_NEXT_PID,
	SF_NEXT_PRIO,
	SF_PID,
	SF_RUNTIME,
	SF_ORIG_CPU,
	SF_DEST_CPU,
	SF_COMM,
	SF_NR
};

struct sched_field {
	int off, size; /* size 0: the event has no such field */
};

struct sched_evinfo {
	enum sched_ev kind;
	struct sched_field f[SF_NR];
};

struct sched_decoder {
	struct sched_evinfo *ev; /* by attr index in the file */
	size_t nr;
	bool has_switch, has_waking;
};

/* One decoded event; comm strings are NUL-terminated copies. */
struct sched_rec {
	enum sched_ev kind;
	uint32_t prev_pid, next_pid, pid, orig_cpu, dest_cpu;
	int prev_prio, next_prio;
	uint64_t prev_state, runtime;
	char prev_comm[17], next_comm[17], comm[17];
};

/* Classifies pd's events. 0, -ENOMEM, or -ERR_FORMAT when the file has no tracing data. */
int sched_decoder_init(struct sched_decoder *d, struct perf_data *pd);
void sched_decoder_release(struct sched_decoder *d);

/* Decodes s; false when it is no sched event the decoder knows (or its RAW is too short). */
bool sched_decode(const struct sched_decoder *d, const struct perf_data *pd,
		  const struct perf_sample *s, struct sched_rec *r);

/* The events 'perf sched record' enables on this kernel, in its order; NULL-terminated. */
extern const char *const sched_record_events[];

#endif
