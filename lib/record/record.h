/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record: the recording engine behind `flare record`. It configures the evsels for sampling
 * as perf 6.1 does, opens them on every (task, cpu) pair of the target with one mmap ring
 * per CPU, writes perf's start-up records (ID_INDEX, the kernel MMAP, THREAD_MAP, CPU_MAP,
 * COMM/FORK/MMAP2 of running tasks from /proc, FINISHED_INIT), starts the workload and
 * drains the rings into a perf.data writer in the live loop (lib/event/live.h) until one of
 * its stop conditions holds, and finishes the file with the feature
 * sections (build-ids of the dsos that samples hit, sample times, ...). While it drains, the
 * calling thread runs at SCHED_FIFO rt_prio when that is permitted (and given), else with a
 * short time slice (lib/record/drain-sched.h), and returns to its policy before the file is
 * finished.
 *
 * It owns nothing it is given; everything it opens it closes. It never prints and never
 * installs signal handlers: the caller blocks the signals (live_signals_block()) before it
 * calls record_run(), so that SIGINT, SIGTERM and the workload's exit end the wait at once,
 * and a signal at any moment still ends in a finished file.
 */
#ifndef FLARE_RECORD_RECORD_H
#define FLARE_RECORD_RECORD_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/event/evlist.h"
#include "lib/event/live.h"
#include "lib/event/target.h"

enum record_callgraph { RECORD_CG_NONE, RECORD_CG_FP, RECORD_CG_DWARF };

struct record_opts {
	struct evlist *evlist;	     /* sampling fields are set by record_config() */
	struct target *target;	     /* with its cpus set (every online CPU for tasks) */
	const char *output;	     /* "perf.data", or "-" for the pipe format */
	int pipe_fd;		     /* for "-": where the stream goes (stdout moved away) */
	uint64_t freq;		     /* -F; used when period is 0 */
	uint64_t period;	     /* -c; 0 = frequency mode */
	bool user_freq, user_period; /* given on the command line */
	size_t mmap_pages;	     /* data pages per ring, a power of two */
	enum record_callgraph callgraph;
	uint32_t dwarf_stack_size; /* --call-graph dwarf,SIZE */
	bool no_inherit;	   /* -i */
	bool has_workload;	   /* enable on exec of the workload */
	bool sample_cpu;	   /* add PERF_SAMPLE_CPU (-a, -C, --sample-cpu) */
	bool raw_samples;	   /* -R: RAW, CPU and TIME on every sampled event */
	bool use_clockid;	   /* -k: sample times from this clock */
	int clockid;
	bool no_timestamp;  /* --no-timestamp: no PERF_SAMPLE_TIME */
	bool sample_period; /* -P: PERF_SAMPLE_PERIOD even with -c */
	bool sample_addr;   /* -d: ADDR, DATA_SRC and the data mmaps */
	bool no_bpf_event;  /* --no-bpf-event: no bpf_event bit on the tracking event */
	bool switch_events; /* --switch-events: context_switch on the tracking event */
	bool inherit_stat;  /* -s: per-thread counts (PERF_RECORD_READ at exits) */
	bool no_samples;    /* -n: sample_freq 0, side-band records only */
	bool no_buildid;    /* -B: no BUILD_ID feature */
	/* perf record's default (not with -N or -B): what the samples hit goes into perf's
	 * build-id cache once a regular file is written */
	bool buildid_cache;
	/* -D: 0, or enable the events this many ms after the workload starts (-1: never).
	 * With a workload, the last evsel is then a dummy carrying the side-band records. */
	int delay_ms;
	bool dummy_tracking; /* the last evsel is that dummy (set by the caller) */
	/* Told when the events are left disabled (-D) and when they get enabled; or NULL. */
	void (*on_enable)(void *ctx, bool enabled);
	void *on_enable_ctx;
	int rt_prio;		    /* SCHED_FIFO priority to drain at, 0: none */
	bool rt_required;	    /* fail when rt_prio cannot be set (-r) */
	const char *const *filters; /* per evsel tracepoint filter, or NULL entries */
	int argc;		    /* flare's own command line, for the CMDLINE feature */
	char *const *argv;
	/* Prepared, and let exec after the start-up records are written; or NULL. */
	struct workload *workload;
	struct live_signals *sig; /* blocked by the caller */
	/* Asked at each wake-up of the live loop (at least every 100 ms): true stops the
	 * recording as a signal would (a live reader that is done: flare top's q); or NULL. */
	bool (*stop)(void *ctx);
	void *stop_ctx;
	int comp_level; /* -z: zstd level of the rings' data, 0: none */
};

struct record_stats {
	uint64_t samples;
	uint64_t lost;		    /* samples lost (LOST_SAMPLES, else LOST records) */
	uint64_t bytes;		    /* bytes of records written */
	uint64_t comp_in, comp_out; /* -z: the rings' bytes, and their COMPRESSED records */
	uint64_t wakeups;
	int rt_prio;	   /* the real-time priority drained at, or 0 */
	bool short_slice;  /* else: the normal policy with a short slice */
	enum live_end end; /* why the recording stopped */
	int workload_err;  /* the workload's start error (-ECANCELED: killed first) */
	int cache_err;	   /* the build-id cache could not take it all: -errno */
};

/* Sets sample_type, period/freq, read_format and the flags on every evsel of o->evlist as
 * perf record would. Called by record_run(); exposed for tests. */
void record_config(const struct record_opts *o);

/* Records until the live loop stops (a signal, the workload's exit, the tasks gone), then
 * drains and writes the file. A workload that could not exec: its -errno, errbuf empty. 0, or < 0 with one line in errbuf naming what failed. */
int record_run(const struct record_opts *o, struct record_stats *st, char *errbuf, size_t errlen);

#endif
