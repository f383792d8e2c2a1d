// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the tracefs state-file parser (lib/trace/tfs.c): every input is read
 * as /run/flare/tfs-<pid>.state. A file either parses into records whose names stay inside
 * tracefs (no "..", no leading '/', an instance name without '/'), or is refused with
 * -ERR_FORMAT. Nothing is written to tracefs. Build with `make fuzz`; run with
 *   build-fuzz/tfs-state -max_len=1024 tests/fuzz/corpus-tfs-state
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/trace/tfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check(void *ctx, const struct tfs_rec *rec)
{
	size_t *n = ctx;

	(*n)++;
	switch (rec->kind) {
	case TFS_REC_OWNER:
		if (rec->pid <= 0)
			abort();
		break;
	case TFS_REC_INSTANCE:
		if (!rec->name[0] || strchr(rec->name, '/') || strstr(rec->name, ".."))
			abort();
		break;
	case TFS_REC_SET:
		if (!rec->name[0] || rec->name[0] == '/' || strstr(rec->name, "..") || !rec->value)
			abort();
		break;
	default:
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = 0;
	char *buf;
	int r;

	if (size > 65536)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	r = tfs_state_parse(buf, size, check, &n);
	if (r != 0 && r != -ERR_FORMAT)
		abort();
	free(buf);
	return 0;
}
