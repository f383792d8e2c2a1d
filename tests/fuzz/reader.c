// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the perf.data reader: opens the input as an in-memory file (either
 * format), walks every record, decodes every sample and trailer, looks up attrs, decodes and
 * renders the features and builds the tracing-data tep. Build with `make fuzz`; run with
 *   tests/fuzz/seed-reader.sh /tmp/seeds && build-fuzz/reader -max_len=65536 CORPUS /tmp/seeds
 * (seeds are recorded by perf when needed rather than committed: they carry the machine's
 * command lines and paths). Malformed tracepoint formats make libtraceevent 1.7's
 * tep_parse_event() leak a few bytes; add -detect_leaks=0 for long runs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/strbuf.h"
#include "lib/data/features.h"
#include "lib/data/reader.h"
#include "lib/data/tracing_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t fuzz_sink;

static void walk(struct perf_data *pd)
{
	const struct perf_event_header *ev;
	struct perf_sample s;
	struct perf_sample_id sid;
	uint64_t off, id, sum = 0;
	int n = 0;

	while (n++ < 100000 && perf_data_next(pd, &ev, &off) == 1) {
		perf_data_record_id(pd, ev, &id);
		perf_data_attr_of(pd, ev);
		if (ev->type != PERF_RECORD_SAMPLE) {
			perf_data_parse_id(pd, ev, &sid);
			continue;
		}
		if (perf_data_parse_sample(pd, ev, &s))
			continue;
		/* touch what the pointers promise */
		for (uint64_t i = 0; i < s.nr_callchain; i++)
			sum += s.callchain[i];
		for (uint64_t i = 0; i < s.read_nr * s.read_stride; i++)
			sum += s.read_values[i];
		for (uint64_t i = 0; i < s.branch_nr; i++)
			sum += s.branches[i].from;
		if (s.user_abi)
			for (int i = 0; i < __builtin_popcountll(s.user_regs_mask); i++)
				sum += s.user_regs[i];
		if (s.intr_abi)
			for (int i = 0; i < __builtin_popcountll(s.intr_regs_mask); i++)
				sum += s.intr_regs[i];
		if (s.raw_size)
			sum += ((const uint8_t *)s.raw)[s.raw_size - 1];
		if (s.user_stack_size)
			sum += ((const uint8_t *)s.user_stack)[s.user_stack_size - 1];
		if (s.aux_size)
			sum += ((const uint8_t *)s.aux)[s.aux_size - 1];
	}
	fuzz_sink = sum; /* keeps the loads */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	struct pd_features *f;
	struct perf_data *pd;
	char err[256];

	if (perf_data_open_mem(data, size, "fuzz", &pd, err, sizeof(err)))
		return 0;
	perf_data_tep(pd);
	if (!pd_features_read(pd, &f)) {
		pd_features_render(pd, f, true, &sb);
		pd_features_free(f);
	}
	strbuf_release(&sb);
	walk(pd);
	perf_data_close(pd);
	return 0;
}
