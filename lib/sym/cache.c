// SPDX-License-Identifier: GPL-2.0
/*
 * cache: where perf's build-id cache keeps copies of what a recording hit, so that a file can
 * be read after the binaries or the kernel changed. The directory is $PERF_BUILDID_DIR when
 * set, else $HOME/.debug (perf's default). Layout, as perf 6.1 writes it:
 *   <dir>/.build-id/xx/rest/{elf,debug}        an object (or its debug info) by build-id
 *   <dir>/[kernel.kallsyms]/<id>/kallsyms      the kernel's symbols (older perf: <id> itself)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "lib/sym/sym-int.h"

const char *buildid_cache_dir(char *buf, size_t len)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (dir && dir[0])
		snprintf(buf, len, "%s", dir);
	else if (home && home[0] == '/')
		snprintf(buf, len, "%s/.debug", home);
	else
		return NULL;
	return buf;
}

int buildid_hex(const uint8_t *id, size_t n, char hex[41])
{
	size_t i;

	if (n > 20)
		n = 20;
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	hex[2 * n] = '\0';
	return (int)(2 * n);
}

const char *buildid_cache_path(const struct dso *d, const char *leaf, char *buf, size_t len)
{
	char dir[4096], hex[41];

	if (!d->build_id_size || !buildid_cache_dir(dir, sizeof(dir)))
		return NULL;
	buildid_hex(d->build_id, d->build_id_size, hex);
	snprintf(buf, len, "%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2, leaf);
	return buf;
}

const char *buildid_cache_kallsyms(const struct dso *kernel, char *buf, size_t len)
{
	char dir[4096], hex[41];

	if (!kernel->build_id_size || !buildid_cache_dir(dir, sizeof(dir)))
		return NULL;
	buildid_hex(kernel->build_id, kernel->build_id_size, hex);
	snprintf(buf, len, "%s/[kernel.kallsyms]/%s/kallsyms", dir, hex);
	if (!access(buf, R_OK))
		return buf;
	snprintf(buf, len, "%s/[kernel.kallsyms]/%s", dir, hex);
	return access(buf, R_OK) ? NULL : buf;
}
