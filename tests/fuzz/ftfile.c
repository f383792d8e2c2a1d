// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for 'flare ftrace report' files (lib/trace/ftfile.c): every input is read
 * as a recording, through the sections, the event formats (libtraceevent), the raw pages
 * (kbuffer, checked by lib/trace/rawbuf.c) and the line formatter (lib/trace/rawtrace.c), as
 * the report reads it. A file either decodes or is refused with -ERR_FORMAT. libtraceevent
 * 1.7's tep_parse_event() leaks a few bytes on some malformed formats: leaks allocated inside
 * libtraceevent are suppressed, any other is reported. Build with
 * `make fuzz`; run with
 *   build-fuzz/ftfile -max_len=65536 tests/fuzz/corpus-ftfile
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/trace/ftfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static int sink(void *ctx, const char *line, size_t len)
{
	size_t *n = ctx;

	if (!len || line[len - 1] != '\n')
		abort(); /* every line ends in a newline */
	*n += len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long lost = 0;
	size_t n = 0;
	char *buf;
	int r;

	if (size > (1 << 20))
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	r = ftfile_decode(buf, size, NULL, sink, &n, &lost);
	if (r != 0 && r != -ERR_FORMAT && r != -ENOMEM)
		abort();
	free(buf);
	return 0;
}
