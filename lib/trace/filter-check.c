// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/base/strbuf.h"
#include "lib/trace/filter-check.h"
#include "lib/trace/tp.h"

/* "\tfield:unsigned long __probe_ip;\toffset:8;..." -> "__probe_ip" */
static int field_name(const char *line, char *out, size_t len)
{
	const char *f = strstr(line, "field:"), *semi, *p;
	size_t n;

	if (!f || !(semi = strchr(f, ';')))
		return -1;
	p = semi;
	while (p > f && (p[-1] == ']' || isdigit((unsigned char)p[-1]) || p[-1] == '['))
		p--; /* "char comm[16]" */
	n = 0;
	while (p > f && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) {
		p--;
		n++;
	}
	if (!n || n >= len)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

int tp_filter_unknown_field(const char *event, const char *filter, char *bad, size_t badlen,
			    char *fields, size_t fieldslen)
{
	struct strbuf fmt = STRBUF_INIT, names = STRBUF_INIT;
	const char *dir, *colon = strchr(event, ':'), *p = filter;
	char path[4096], name[256];
	char *line, *save = NULL;
	int r = tp_tracefs_dir(&dir), found = 0;

	if (r)
		return r;
	if (!colon)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", dir, (int)(colon - event), event,
		 colon + 1);
	r = strbuf_read_file(&fmt, path);
	if (r) {
		strbuf_release(&fmt);
		return r;
	}
	strbuf_adds(&names, " ");
	for (line = strtok_r(fmt.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!field_name(line, name, sizeof(name)))
			strbuf_addf(&names, "%s ", name);
	while (*p && !found) { /* each name outside quotes that is not a number */
		size_t n;

		if (*p == '"' || *p == '\'') {
			const char *q = strchr(p + 1, *p);

			p = q ? q + 1 : p + strlen(p);
			continue;
		}
		if (!(isalpha((unsigned char)*p) || *p == '_')) {
			p++;
			continue;
		}
		n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		snprintf(name, sizeof(name), " %.*s ", (int)n, p);
		if (!strstr(names.buf, name)) {
			snprintf(bad, badlen, "%.*s", (int)n, p);
			found = 1;
		}
		p += n;
	}
	/* the common_ fields first in the file are not what a user filters on: list the rest */
	{
		const char *s = names.buf;
		size_t used = 0;

		fields[0] = '\0';
		while (*s) {
			size_t n;

			s += strspn(s, " ");
			n = strcspn(s, " ");
			if (n && strncmp(s, "common_", 7) && used + n + 2 < fieldslen) {
				used += (size_t)snprintf(fields + used, fieldslen - used, "%s%.*s",
							 used ? " " : "", (int)n, s);
			}
			s += n;
		}
	}
	strbuf_release(&fmt);
	strbuf_release(&names);
	return found;
}
