// SPDX-License-Identifier: GPL-2.0
/*
 * probe/finder-lazy: lazy line patterns, FUNC;PTN and SRC;PTN, as perf probe places them.
 * The source file is read and each line matching the pattern (probe/source.c) becomes a
 * probe at every place the line walk (finder-lines.c) finds it: inside the function and its
 * inlined copies for FUNC;PTN, in every unit holding the file for SRC;PTN.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/log.h"
#include "lib/probe/finder-int.h"
#include "lib/probe/source.h"

struct lazy_walk {
	struct pf_ctx *c;
	Dwarf_Die *cu;
	const char *file; /* absolute path of the file the pattern is matched in */
	const unsigned char *match;
	int nr;
	const char *event; /* NULL: the name of the function holding each line */
	int found;
};

static int lazy_cb(const char *file, int line, Dwarf_Addr addr, int skipped, void *ctx)
{
	struct lazy_walk *w = ctx;
	int r;

	if (line < 1 || line > w->nr || !w->match[line - 1] || strcmp(file, w->file))
		return 0;
	r = pf_add_line_probe(w->c, w->cu, addr, line, w->event);
	if (!r)
		w->found++;
	return r;
}

static const char *cu_comp_dir(Dwarf_Die *cu)
{
	Dwarf_Attribute a;

	return dwarf_attr(cu, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
}

/* The lines of raw (a file of cu) that match c's pattern; the count or -errno with err */
static int lazy_load(struct pf_ctx *c, Dwarf_Die *cu, const char *raw, unsigned char **match,
		     int *nr)
{
	char *path;
	int r = probe_source_path(raw, cu_comp_dir(cu), c->opts->source_prefix, &path);

	if (r)
		return pf_fail(c->err, c->errlen, r,
			       "'%s': cannot find the source file %s: %s "
			       "(the lazy pattern is matched in it; give its directory with -s)",
			       c->point, raw, strerror(-r));
	r = probe_lazy_lines(path, c->spec->lazy, match, nr);
	if (r < 0)
		pf_fail(c->err, c->errlen, r, "'%s': cannot read %s: %s", c->point, path,
			strerror(-r));
	free(path);
	return r;
}

int pf_lazy_in_func(struct pf_ctx *c, Dwarf_Die *die, const char *event)
{
	Dwarf_Die cumem, *cu = dwarf_diecu(die, &cumem, NULL, NULL);
	const char *raw = dwarf_decl_file(die);
	char fb[4096];
	struct lazy_walk w = { .c = c, .cu = cu, .event = event };
	unsigned char *match = NULL;
	int r;

	if (!cu || !raw)
		return 0;
	w.file = pf_decl_file(die, fb, sizeof(fb));
	r = lazy_load(c, cu, raw, &match, &w.nr);
	if (r <= 0) {
		free(match);
		return r;
	}
	w.match = match;
	r = pf_lines_walk_all(cu, die, lazy_cb, &w);
	free(match);
	return r < 0 ? r : w.found;
}

/* The file of cu's line table whose name ends in want, or NULL */
static const char *cu_find_file(Dwarf_Die *cu, const char *want)
{
	Dwarf_Files *files;
	size_t i, n;

	if (dwarf_getsrcfiles(cu, &files, &n))
		return NULL;
	for (i = 0; i < n; i++) {
		const char *f = dwarf_filesrc(files, i, NULL, NULL);
		char buf[4096];
		const char *dir = cu_comp_dir(cu);

		if (!f)
			continue;
		if (f[0] != '/' && dir) {
			snprintf(buf, sizeof(buf), "%s/%s", dir, f);
			if (pf_file_match(buf, want))
				return f;
		} else if (pf_file_match(f, want)) {
			return f;
		}
	}
	return NULL;
}

int pf_find_lazy_file(struct pf_ctx *c)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	int found = 0, r = 0, units = 0;

	while ((cu = dwfl_module_nextcu(c->bin->mod, cu, &bias))) {
		const char *raw = cu_find_file(cu, c->spec->file), *dir = cu_comp_dir(cu);
		struct lazy_walk w = { .c = c, .cu = cu };
		unsigned char *match = NULL;
		char fb[4096];

		if (!raw)
			continue;
		units++;
		if (raw[0] != '/' && dir) {
			snprintf(fb, sizeof(fb), "%s/%s", dir, raw);
			w.file = fb;
		} else {
			w.file = raw;
		}
		r = lazy_load(c, cu, raw, &match, &w.nr);
		if (r > 0) {
			w.match = match;
			r = pf_lines_walk_all(cu, NULL, lazy_cb, &w);
		}
		free(match);
		if (r < 0)
			return r;
		found += w.found;
	}
	if (!units)
		return pf_fail(c->err, c->errlen, -ENOENT,
			       "'%s': no compilation unit has the "
			       "source file %s (see flare probe -L)",
			       c->point, c->spec->file);
	if (!found)
		return pf_fail(c->err, c->errlen, -ENOENT,
			       "'%s': no line of %s with code matches "
			       "'%s' (see flare probe -L %s)",
			       c->point, c->spec->file, c->spec->lazy, c->spec->file);
	return 0;
}
