// SPDX-License-Identifier: GPL-2.0
/*
 * jitmap: /tmp/perf-PID.map, the symbol file JITs write for perf: one "START SIZE name" line
 * per function, START and SIZE in hex (with or without 0x), name up to the end of the line.
 * Addresses are runtime addresses; the dso maps them one to one. Later lines win over
 * earlier ones at the same start, as JITs rewrite code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/strbuf.h"
#include "lib/sym/sym-int.h"

/* A JIT's map of a long-running process can reach hundreds of MB; past this it is no map. */
#define JITMAP_MAX ((size_t)1 << 31)

static int parse_line(struct symtab *st, char *line, struct symbuf *sb)
{
	unsigned long long start, size;
	char *p = line, *end;
	const char *name;
	size_t len;

	start = strtoull(p, &end, 16);
	if (end == p || *end != ' ')
		return 0;
	p = end + 1;
	size = strtoull(p, &end, 16);
	if (end == p || *end != ' ')
		return 0;
	p = end + 1;
	len = strlen(p);
	while (len && (p[len - 1] == '\n' || p[len - 1] == '\r'))
		p[--len] = '\0';
	if (!len)
		return 0;
	name = arena_strndup(&st->arena, p, len);
	if (!name)
		return -ENOMEM;
	return symbuf_add(sb, start, start + size, name, 1);
}

int jitmap_load(struct symtab *st, struct dso_int *d)
{
	struct symbuf sb = { 0 };
	struct strbuf text = STRBUF_INIT;
	char buf[4096], *line, *nl;
	int ret;

	/* bounded and text only: a map that is a FIFO or /dev/zero must not grow without end */
	ret = strbuf_read_text(&text, symtab_path(st, d->pub.long_name, buf, sizeof(buf)),
			       JITMAP_MAX);
	for (line = text.buf; ret >= 0 && line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		ret = parse_line(st, line, &sb);
	}
	strbuf_release(&text);
	if (ret < 0) {
		symbuf_free(&sb);
		return ret;
	}
	return symbuf_finish(st, d, &sb, false);
}
