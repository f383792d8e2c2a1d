/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe/source: the source files behind debug information, found as perf probe finds them
 * (a relative name under the unit's compilation directory; with a prefix such as -s DIR, the
 * prefix joined to the name, then to the name less its leading directories in turn), and
 * perf's lazy line patterns matched against their lines. Nothing here prints.
 */
#ifndef FLARE_PROBE_SOURCE_H
#define FLARE_PROBE_SOURCE_H
#include <stddef.h>

/* The readable path of source file raw (as the debug info names it; comp_dir may be NULL)
 * in *path, which the caller frees. Returns 0 or -errno (-ENOENT: nowhere to be found). */
int probe_source_path(const char *raw, const char *comp_dir, const char *prefix, char **path);

/* perf's lazy match: pat is a glob (* ? [..] \) matched against the whole line, blanks in
 * either ignored. */
int probe_lazy_match(const char *line, const char *pat);

/* Reads the file at path and sets (*match)[i] for each line i + 1 matching pat; *nr gets the
 * number of lines. Caller frees *match. Returns the number of matching lines or -errno. */
int probe_lazy_lines(const char *path, const char *pat, unsigned char **match, int *nr);

#endif
