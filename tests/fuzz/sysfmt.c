// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for flare trace's parsers of outside input: a tracefs syscall format
 * (sysfmt_parse, sysfmt_field_offset) and an -e syscall list (sysnames_select). A parsed
 * format is then used as flare trace uses it: the arguments of a record made of the input's
 * bytes are decoded (pieces pointing anywhere in the record's data) and the return value too.
 * Build with `make fuzz`; run with build-fuzz/sysfmt -max_len=2048
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/systrace/sysfmt.h"
#include "lib/systrace/sysnames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "openat", "read", "write", "mmap", "kill", "execve" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct st_rec rec;
	struct strbuf sb = STRBUF_INIT;
	bool sel[SYSNAMES_MAX];
	const char *bad = NULL;
	struct sysfmt f;
	struct st_sysconf sc;
	char *text;
	size_t n;

	if (size > 8192)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (sysnames_select(text, sel, &bad) == -ENOENT && !bad)
		abort();
	sysfmt_field_offset(text, "child_pid");
	if (!sysfmt_parse(names[size % 6], text, &f)) {
		if (f.nr_args > 6)
			abort();
		sysfmt_bpf_conf(&f, &sc);
		memset(&rec, 0, sizeof(rec));
		n = size < sizeof(rec) ? size : sizeof(rec);
		memcpy(&rec, data, n);
		sysfmt_args(&sb, &f, &rec, &rec, NULL, NULL);
		sysfmt_ret(&sb, &f, rec.ret, NULL, NULL);
	}
	strbuf_release(&sb);
	free(text);
	return 0;
}
