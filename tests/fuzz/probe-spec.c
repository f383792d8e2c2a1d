// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for perf probe's definition syntax: every input is parsed as a probe
 * definition, and a definition that parses is resolved against the running flare binary's
 * own DWARF (when FLARE_FUZZ_BIN names one), reaching the argument converter. Build with
 * `make fuzz`; run with
 *   FLARE_FUZZ_BIN=build/workloads/probe_target build-fuzz/probe-spec -max_len=256 \
 *       tests/fuzz/corpus-probe-spec
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/probe/finder.h"
#include "lib/probe/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct probe_bin *bin;
static int bin_tried;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_find_opts o = { .x_types = 1, .max_probes = 16 };
	struct probe_spec s;
	struct probe_trace *t = NULL;
	size_t nr = 0;
	char err[512], *text, *pt;

	if (size > 4096)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!bin_tried) {
		const char *path = getenv("FLARE_FUZZ_BIN");

		bin_tried = 1;
		if (path && probe_bin_open(path, &bin, err, sizeof(err)))
			bin = NULL;
	}
	err[0] = '\0';
	if (probe_spec_parse(text, &s, err, sizeof(err)) == 0) {
		pt = probe_spec_point_str(&s);
		if (!pt)
			abort();
		free(pt);
		if (bin && probe_find(bin, &s, &o, &t, &nr, err, sizeof(err)) == 0) {
			if (!nr)
				abort(); /* success means at least one placement */
			probe_traces_free(t, nr);
		}
		probe_spec_release(&s);
	} else if (!err[0]) {
		abort(); /* a refusal always says why */
	}
	free(text);
	return 0;
}
