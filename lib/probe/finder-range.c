// SPDX-License-Identifier: GPL-2.0
/*
 * probe/finder-range: the lines of a function or a source file that a probe can be placed
 * on, for -L. A function's are those of its line walk (finder-lines.c: the declaration line,
 * then each row that does not share an earlier row's address); a file's are those of the
 * walk of each unit that holds it.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/probe/finder-int.h"

struct range_walk {
	const char *func, *want; /* the function (or NULL: a file) and @SRC or SRC */
	struct probe_lines *l;
	int r;
};

static int mark_line(struct probe_lines *l, int ln)
{
	if (!l->has) {
		l->has = calloc(1, 1);
		if (!l->has)
			return -ENOMEM;
		l->first = l->last = ln;
	}
	if (ln < l->first || ln > l->last) {
		int nf = ln < l->first ? ln : l->first, nl = ln > l->last ? ln : l->last;
		unsigned char *m = calloc((size_t)(nl - nf + 1), 1);

		if (!m)
			return -ENOMEM;
		memcpy(m + (l->first - nf), l->has, (size_t)(l->last - l->first + 1));
		free(l->has);
		l->has = m;
		l->first = nf;
		l->last = nl;
	}
	l->has[ln - l->first] = 1;
	return 0;
}

static int mark_cb(const char *file, int ln, Dwarf_Addr addr, int skipped, void *ctx)
{
	struct range_walk *w = ctx;

	(void)addr;
	if (skipped || strcmp(file, w->l->path) || (w->func && ln < w->l->decl))
		return 0;
	return mark_line(w->l, ln);
}

static const char *comp_dir_of(Dwarf_Die *cu)
{
	Dwarf_Attribute a;

	return dwarf_attr(cu, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
}

/* Fills l's names from raw (a name of cu's) and its absolute form abs */
static int set_names(struct probe_lines *l, Dwarf_Die *cu, const char *raw, const char *abs)
{
	const char *dir = comp_dir_of(cu);

	l->path = strdup(abs);
	l->raw = strdup(raw);
	l->comp_dir = dir ? strdup(dir) : NULL;
	return l->path && l->raw && (!dir || l->comp_dir) ? 0 : -ENOMEM;
}

static int func_cb(Dwarf_Die *fn, void *arg)
{
	struct range_walk *w = arg;
	const char *name = dwarf_diename(fn), *raw;
	Dwarf_Die cumem, *cu;
	char fb[4096];
	const char *f;

	if (!name || strcmp(name, w->func) || dwarf_func_inline(fn))
		return DWARF_CB_OK;
	cu = dwarf_diecu(fn, &cumem, NULL, NULL);
	f = pf_decl_file(fn, fb, sizeof(fb));
	raw = dwarf_decl_file(fn);
	if (!cu || !f || !raw || (w->want && !pf_file_match(f, w->want)) ||
	    dwarf_decl_line(fn, &w->l->decl))
		return DWARF_CB_OK;
	w->r = set_names(w->l, cu, raw, f);
	if (!w->r)
		w->r = pf_lines_walk(cu, fn, mark_cb, w);
	return DWARF_CB_ABORT;
}

void probe_lines_release(struct probe_lines *l)
{
	if (!l)
		return;
	free(l->path);
	free(l->raw);
	free(l->comp_dir);
	free(l->has);
	memset(l, 0, sizeof(*l));
}

int probe_lines_has(const struct probe_lines *l, int line)
{
	return l->has && line >= l->first && line <= l->last && l->has[line - l->first];
}

int probe_bin_func_lines(struct probe_bin *bin, const char *func, const char *file,
			 struct probe_lines *out)
{
	struct range_walk w = { .func = func, .want = file, .l = out };
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;

	memset(out, 0, sizeof(*out));
	if (!pf_dw(bin))
		return -ENOENT;
	while (!out->path && !w.r && (cu = dwfl_module_nextcu(bin->mod, cu, &bias)))
		dwarf_getfuncs(cu, func_cb, &w, 0);
	if (!w.r && !out->path)
		w.r = -ENOENT;
	if (!w.r && !out->has) { /* no line with code: an empty map at the function */
		w.r = mark_line(out, out->decl);
		if (!w.r)
			out->has[0] = 0;
	}
	if (w.r)
		probe_lines_release(out);
	return w.r;
}

/* The name in cu's file table that ends in want, and its absolute form in buf */
static const char *unit_file(Dwarf_Die *cu, const char *want, char *buf, size_t len)
{
	Dwarf_Files *files;
	const char *dir = comp_dir_of(cu);
	size_t i, n;

	if (dwarf_getsrcfiles(cu, &files, &n))
		return NULL;
	for (i = 0; i < n; i++) {
		const char *f = dwarf_filesrc(files, i, NULL, NULL);

		if (!f)
			continue;
		if (f[0] != '/' && dir)
			snprintf(buf, len, "%s/%s", dir, f);
		else
			snprintf(buf, len, "%s", f);
		if (pf_file_match(buf, want))
			return f;
	}
	return NULL;
}

int probe_bin_file_lines(struct probe_bin *bin, const char *file, struct probe_lines *out)
{
	struct range_walk w = { .want = file, .l = out };
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	char abs[4096];

	memset(out, 0, sizeof(*out));
	if (!pf_dw(bin))
		return -ENOENT;
	while (!w.r && (cu = dwfl_module_nextcu(bin->mod, cu, &bias))) {
		const char *raw = unit_file(cu, file, abs, sizeof(abs));

		if (!raw || (out->path && strcmp(abs, out->path)))
			continue;
		if (!out->path)
			w.r = set_names(out, cu, raw, abs);
		if (!w.r)
			w.r = pf_lines_walk(cu, NULL, mark_cb, &w);
	}
	if (!w.r && !out->path)
		w.r = -ENOENT;
	if (w.r)
		probe_lines_release(out);
	return w.r;
}
