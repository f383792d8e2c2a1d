// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the probes files of perf's build-id cache, as flare list reads them
 * for SDT events: each input becomes the probes file of one cached object in a scratch cache
 * ($PERF_BUILDID_DIR under $TMPDIR), which sdt_cache_list() lists, sorts and checks. Build with
 * `make fuzz`; run with build-fuzz/sdt-cache tests/fuzz/corpus-sdt-cache
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/probe/sdt-cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEX "0123456789abcdef0123456789abcdef01234567"

static char probes[4096];

/* A cache holding one object, /bin/x of build-id HEX; sets the path of its probes file */
static int setup(void)
{
	const char *tmp = getenv("TMPDIR"); /* tests/fuzz/run.sh's scratch directory */
	char top[4096], path[4096];

	snprintf(top, sizeof(top), "%s/flare-fuzz-sdt.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(top))
		return -1;
	setenv("PERF_BUILDID_DIR", top, 1);
	snprintf(path, sizeof(path), "%s/.build-id", top);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.build-id/01", top);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/bin", top);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/bin/x", top);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/bin/x/" HEX, top);
	mkdir(path, 0700);
	snprintf(probes, sizeof(probes), "%s/probes", path);
	snprintf(path, sizeof(path), "%s/.build-id/01/%s", top, &HEX[2]);
	return symlink("../../bin/x/" HEX, path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct sdt_cached *v;
	FILE *f;
	int n, i;

	if (!ready) {
		if (setup())
			abort();
		ready = 1;
	}
	f = fopen(probes, "we");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	n = sdt_cache_list(NULL, NULL, &v);
	for (i = 0; i < n; i++)
		if (!*v[i].group || !*v[i].event || strcmp(v[i].name, "/bin/x"))
			abort(); /* every event has a group, a name and its object */
	if (n > 0)
		sdt_cached_free(v, n);
	return 0;
}
