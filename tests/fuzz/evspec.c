// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the event-spec parser: every input is parsed as a -e argument.
 * A spec either parses (the evlist is consistent: names set, groups point at leaders) or
 * fails with an error position inside the spec. Build with `make fuzz`; run with
 *   build-fuzz/evspec -max_len=256 tests/fuzz/corpus-evspec
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/event/evlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evlist l = { 0 };
	struct evparse_err err;
	char *spec;
	size_t i;
	int r;

	if (size > 4096)
		return 0;
	spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	r = evlist_add_spec(&l, spec, &err);
	if (r < 0) {
		if (l.nr || err.pos > (int)strlen(spec) || !err.msg[0])
			abort();
	}
	for (i = 0; i < l.nr; i++) {
		const struct evsel *e = &l.evsels[i];

		if (!e->name || (e->group_idx >= 0 && !l.evsels[e->group_idx].is_leader))
			abort();
	}
	evlist_release(&l);
	free(spec);
	return 0;
}
