// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for perf probe's lazy line patterns: the input's first line is the
 * pattern, the rest a source file, which probe_lazy_lines() reads (through a memfd) and
 * matches line by line. Build with `make fuzz`; run with
 *   build-fuzz/probe-lazy -max_len=512 tests/fuzz/corpus-probe-lazy
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lib/probe/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t plen = nl ? (size_t)(nl - data) : size, i;
	char *pat, path[64];
	unsigned char *match = NULL;
	int fd, nr = 0, found, count = 0;

	if (size > 65536)
		return 0;
	pat = strndup((const char *)data, plen);
	fd = memfd_create("lazy", 0);
	if (!pat || fd < 0)
		goto out;
	if (nl && write(fd, nl + 1, size - plen - 1) != (ssize_t)(size - plen - 1))
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	found = probe_lazy_lines(path, pat, &match, &nr);
	if (found >= 0) {
		for (i = 0; i < (size_t)nr; i++)
			count += match[i];
		if (count != found)
			abort(); /* the count returned is the lines marked */
		free(match);
	}
out:
	if (fd >= 0)
		close(fd);
	free(pat);
	return 0;
}
