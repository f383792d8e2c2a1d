// SPDX-License-Identifier: GPL-2.0
/*
 * probe/source: source paths and lazy line patterns (see source.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/probe/source.h"

static int try_join(const char *dir, const char *name, char **path)
{
	if (asprintf(path, "%s/%s", dir, name) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	if (!access(*path, R_OK))
		return 0;
	free(*path);
	*path = NULL;
	return -errno;
}

int probe_source_path(const char *raw, const char *comp_dir, const char *prefix, char **path)
{
	const char *p = raw;
	int r;

	*path = NULL;
	if (!prefix) {
		if (raw[0] != '/' && comp_dir)
			return try_join(comp_dir, raw, path);
		if (access(raw, R_OK))
			return -errno;
		*path = strdup(raw);
		return *path ? 0 : -ENOMEM;
	}
	/* with a prefix: prefix/raw, then prefix/ with raw's leading directories dropped */
	for (;;) {
		r = try_join(prefix, p, path);
		if (r != -ENOENT && r != -ENAMETOOLONG && r != -EROFS && r != -ENOTDIR)
			return r;
		p = strchr(p + 1, '/');
		if (!p)
			return -ENOENT;
	}
}

/* s without its blanks, in a buffer the caller frees */
static char *squeeze(const char *s)
{
	char *o = malloc(strlen(s) + 1), *d = o;

	if (!o)
		return NULL;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			*d++ = *s;
	*d = '\0';
	return o;
}

int probe_lazy_match(const char *line, const char *pat)
{
	char *l = squeeze(line), *p = squeeze(pat);
	int m = l && p && !fnmatch(p, l, 0);

	free(l);
	free(p);
	return m;
}

int probe_lazy_lines(const char *path, const char *pat, unsigned char **match, int *nr)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	unsigned char *m = NULL;
	ssize_t len;
	int n = 0, found = 0;

	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) >= 0) {
		if ((size_t)n == alloc) {
			unsigned char *g = realloc(m, alloc = alloc ? alloc * 2 : 256);

			if (!g) {
				found = -ENOMEM;
				break;
			}
			m = g;
		}
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		m[n] = (unsigned char)probe_lazy_match(line, pat);
		found += m[n++];
	}
	free(line);
	fclose(f);
	if (found < 0) {
		free(m);
		return found;
	}
	*match = m;
	*nr = n;
	return found;
}
