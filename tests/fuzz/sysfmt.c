// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for flare trace's parsers of outside input: a tracefs syscall format
 * (sysfmt_parse, sysfmt_field_offset) and an -e syscall list (sysnames_select). A parsed
 * format is then used as flare trace uses it: the arguments of a record made of the input's
 * bytes are decoded (pieces pointing anywhere in the record's data) and the return value too,
 * with fd paths from a table (lib/systrace/fdpath) the same record then updates.
 * Build with `make fuzz`; run with build-fuzz/sysfmt -max_len=2048
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/systrace/fdpath.h"
#include "lib/systrace/sysfmt.h"
#include "lib/systrace/sysnames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "openat", "read", "write", "mmap",	 "kill",	"execve",
				     "close",  "dup2", "fcntl", "clone", "close_range", "open" };

static const char *fd_hook(void *ctx, const struct st_rec *r, int fd)
{
	return fdpath_get(ctx, (int)r->pid, (int)r->tid, fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct st_rec rec;
	struct strbuf sb = STRBUF_INIT;
	bool sel[SYSNAMES_MAX];
	const char *bad = NULL;
	struct sysfmt f;
	struct st_sysconf sc;
	struct fdpath fp;
	struct sysfmt_hooks h = { .fd_path = fd_hook, .ctx = &fp };
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
	if (!sysfmt_parse(names[size % 12], text, &f)) {
		if (f.nr_args > 6)
			abort();
		sysfmt_bpf_conf(&f, &sc);
		memset(&rec, 0, sizeof(rec));
		n = size < sizeof(rec) ? size : sizeof(rec);
		memcpy(&rec, data, n);
		fdpath_init(&fp, false, FDPATH_COMPLETE);
		fdpath_set(&fp, (int)rec.pid, (int)rec.args[0], "/a", 2, rec.args[1] & 1);
		sysfmt_args(&sb, &f, &rec, &rec, &h);
		sysfmt_ret(&sb, &f, rec.ret, &h);
		fdpath_note_exit(&fp, &f, &rec, &rec);
		fdpath_note_exit(&fp, &f, NULL, &rec);
		sysfmt_args(&sb, &f, &rec, NULL, &h);
		fdpath_release(&fp);
	}
	strbuf_release(&sb);
	free(text);
	return 0;
}
