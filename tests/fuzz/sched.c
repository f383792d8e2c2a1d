// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the sched tracepoint decoder and what consumes it: opens the input as
 * an in-memory perf.data, classifies its events by their formats (the file's tracing data),
 * decodes every sample's RAW bytes through the per-event field offsets, feeds the latency and
 * timehist engines, sorts, merges and takes percentiles, and prints every tracepoint through
 * the formatter (lib/trace/tpfmt). Seeds: any perf sched record file, e.g.
 *   perf sched record -o /tmp/seeds/s.data -- sleep 0.1
 *   build-fuzz/sched -max_len=65536 -detect_leaks=0 /tmp/corpus /tmp/seeds
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/data/reader.h"
#include "lib/data/tracing_data.h"
#include "lib/sched/latency.h"
#include "lib/sched/sched.h"
#include "lib/sched/timehist.h"
#include "lib/trace/tpfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t fuzz_sink;

static const char *no_comm(void *ctx, uint32_t tid)
{
	return tid & 1 ? "odd" : NULL;
}

static void feed(struct perf_data *pd, struct sched_decoder *d, struct sched_lat *l,
		 struct sched_th *th)
{
	const struct perf_event_header *ev;
	struct tpfmt f = TPFMT_INIT;
	struct perf_sample s;
	struct sched_rec r;
	uint64_t off, sum = 0;
	int n = 0;

	while (n++ < 20000 && perf_data_next(pd, &ev, &off) == 1) {
		struct th_task *t;

		if (ev->type != PERF_RECORD_SAMPLE || perf_data_parse_sample(pd, ev, &s))
			continue;
		sum += strlen(
			tpfmt_format(&f, perf_data_tep(pd), s.raw, s.raw_size, s.time, (int)s.cpu));
		if (!sched_decode(d, pd, &s, &r))
			continue;
		if (sched_lat_event(l, &r, s.time, s.cpu % 4096))
			break;
		if (r.kind != SEV_SWITCH)
			continue;
		t = r.prev_pid ? sched_th_task(th, s.tid, s.pid) : sched_th_idle(th, s.cpu % 4096);
		if (!t || sched_th_switch(th, t, s.time, s.cpu % 4096, true))
			break;
		sum += t->dt_run + t->dt_delay;
		sched_th_switch_done(th, t, s.time, s.cpu % 4096, (int64_t)r.prev_state);
	}
	tpfmt_release(&f);
	fuzz_sink = sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum lat_key keys[] = { LK_AVG, LK_MAX, LK_SWITCH, LK_RUNTIME, LK_PID };
	struct sched_decoder d;
	struct lat_task **v;
	struct perf_data *pd;
	struct sched_lat l;
	struct sched_th th;
	char err[256];
	int n, i;

	if (perf_data_open_mem(data, size, "fuzz", &pd, err, sizeof(err)))
		return 0;
	if (sched_decoder_init(&d, pd)) {
		perf_data_close(pd);
		return 0;
	}
	sched_lat_init(&l, size & 1 ? 0 : -1, true);
	sched_th_init(&th);
	feed(pd, &d, &l, &th);
	n = sched_lat_finish(&l, size & 2, keys, 5, no_comm, NULL, &v);
	for (i = 0; i < n; i++)
		fuzz_sink += sched_lat_percentile(v[i], 99) + strlen(v[i]->comm);
	if (n >= 0)
		free(v);
	sched_th_free(&th);
	sched_lat_free(&l);
	sched_decoder_release(&d);
	perf_data_close(pd);
	return 0;
}
