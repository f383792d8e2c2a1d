// SPDX-License-Identifier: GPL-2.0
/*
 * lineinfo: file, line and function of an address through libdwfl (see lineinfo.h).
 *
 * The function of an address is the innermost DW_TAG_inlined_subroutine holding it, else its
 * DW_TAG_subprogram, as objdump -l names it. The inlined ranges of one subprogram are
 * collected once, when an address first falls in it, so that disassembling a function costs
 * one DIE walk, not one per instruction.
 */
#include <dwarf.h>
#include <errno.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "lib/annotate/lineinfo.h"
#include "lib/base/arena.h"
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"

struct range {
	uint64_t lo, hi;
	int depth;
	const char *name;
};

struct srcfile {
	char *path;
	char *data;
	char **lines;
	size_t nr;
	struct srcfile *next;
};

struct cu_rows {
	Dwarf_Off off; /* the unit's DIE offset; (Dwarf_Off)-1: none loaded */
	Dwarf_Lines *lines;
	size_t nr;
	const char **names; /* per row: the file name binutils gives it */
	bool valid;
};

struct lineinfo {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct arena arena; /* function names */
	/* the subprogram last looked in: its ranges and the inlined ones inside */
	struct range *ranges;
	size_t nr_ranges, alloc_ranges;
	uint64_t fn_lo, fn_hi;
	const char *fn_name;
	bool fn_valid;
	const char *orphan; /* the function of an address outside any subprogram */
	struct srcfile *files;
	struct cu_rows rows;
};

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

int lineinfo_open(const char *path, struct lineinfo **ret)
{
	struct lineinfo *li = calloc(1, sizeof(*li));
	Dwarf_Addr bias;

	if (!li)
		return -ENOMEM;
	li->dwfl = dwfl_begin(&offline_callbacks);
	if (!li->dwfl)
		goto out_free;
	li->mod = dwfl_report_offline(li->dwfl, "", path, -1);
	dwfl_report_end(li->dwfl, NULL, NULL);
	if (!li->mod || !dwfl_module_getdwarf(li->mod, &bias))
		goto out_free;
	*ret = li;
	return 0;
out_free:
	lineinfo_free(li);
	return -ENOENT;
}

void lineinfo_free(struct lineinfo *li)
{
	struct srcfile *f, *next;

	if (!li)
		return;
	for (f = li->files; f; f = next) {
		next = f->next;
		free(f->path);
		free(f->data);
		free(f->lines);
		free(f);
	}
	if (li->dwfl)
		dwfl_end(li->dwfl);
	arena_release(&li->arena);
	free(li->rows.names);
	free(li->ranges);
	free(li);
}

/* The name objdump -l prints for a function DIE: its linkage name demangled, else
 * "name()". NULL when it has neither. */
static const char *die_func_name(struct lineinfo *li, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *ln, *name;
	char *dem = NULL, *out;

	ln = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (!ln)
		ln = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (ln)
		dem = cplus_demangle(ln, DMGL_PARAMS | DMGL_ANSI);
	if (dem) {
		out = arena_strdup(&li->arena, dem);
		free(dem);
		return out;
	}
	name = ln ? ln : dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	if (!name)
		return NULL;
	out = arena_alloc(&li->arena, strlen(name) + 3);
	if (out)
		sprintf(out, "%s()", name);
	return out;
}

static int add_ranges(struct lineinfo *li, Dwarf_Die *die, int depth, const char *name)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (vec_reserve_((void **)&li->ranges, &li->alloc_ranges, li->nr_ranges + 1,
				 sizeof(*li->ranges)))
			return -ENOMEM;
		li->ranges[li->nr_ranges++] = (struct range){ lo, hi, depth, name };
	}
	return 0;
}

/* The inlined subroutines under die, at any depth (lexical blocks in between). */
static int walk_inlines(struct lineinfo *li, Dwarf_Die *die, int depth)
{
	Dwarf_Die child;
	int ret = 0;

	if (dwarf_child(die, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine) {
			const char *name = die_func_name(li, &child);

			if (name)
				ret = add_ranges(li, &child, depth + 1, name);
			if (!ret)
				ret = walk_inlines(li, &child, depth + 1);
		} else if (tag == DW_TAG_lexical_block) {
			ret = walk_inlines(li, &child, depth);
		}
	} while (!ret && dwarf_siblingof(&child, &child) == 0);
	return ret;
}

/* Makes the subprogram holding addr the current one. False when no DIE holds it. */
static bool load_function(struct lineinfo *li, uint64_t addr, Dwarf_Addr bias)
{
	Dwarf_Die *cu, *scopes = NULL;
	int n, i;

	li->fn_valid = false;
	li->nr_ranges = 0;
	cu = dwfl_module_addrdie(li->mod, addr + bias, &bias);
	if (!cu)
		return false;
	n = dwarf_getscopes(cu, addr, &scopes);
	for (i = n - 1; i >= 0; i--)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	if (i >= 0) {
		Dwarf_Addr lo = 0, hi = 0, base;
		ptrdiff_t off = 0;

		li->fn_name = die_func_name(li, &scopes[i]);
		/* the range of the subprogram that holds addr */
		while ((off = dwarf_ranges(&scopes[i], off, &base, &lo, &hi)) > 0)
			if (addr >= lo && addr < hi)
				break;
		li->fn_lo = lo;
		li->fn_hi = hi;
		li->fn_valid = hi > lo;
		if (walk_inlines(li, &scopes[i], 0))
			li->nr_ranges = 0;
	} else {
		/* an inlined body outside its caller's ranges (gcc emits some): the innermost
		 * inlined function names it, as binutils' best fit does */
		for (i = 0; i < n && !li->orphan; i++)
			if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
				li->orphan = die_func_name(li, &scopes[i]);
	}
	free(scopes);
	return li->fn_valid;
}

const char *lineinfo_debug_file(struct lineinfo *li)
{
	const char *main_file = NULL, *debug_file = NULL;

	dwfl_module_info(li->mod, NULL, NULL, NULL, NULL, NULL, &main_file, &debug_file);
	return debug_file ? debug_file : main_file;
}

static const char *func_of(struct lineinfo *li, uint64_t addr, Dwarf_Addr bias)
{
	const char *best = NULL;
	int depth = 0;
	size_t i;

	li->orphan = NULL;
	if (!(li->fn_valid && addr >= li->fn_lo && addr < li->fn_hi) &&
	    !load_function(li, addr, bias))
		return li->orphan;
	best = li->fn_name;
	for (i = 0; i < li->nr_ranges; i++) {
		const struct range *r = &li->ranges[i];

		if (addr >= r->lo && addr < r->hi && r->depth > depth) {
			depth = r->depth;
			best = r->name;
		}
	}
	return best;
}

/*
 * The line table of the unit last looked in, read as binutils 2.40 (objdump -l, and the
 * addr2line perf runs) reads it, for perf shows what they print:
 *  - the row of an address is the last row at or before it (of equal addresses, the last);
 *  - in a DWARF 5 table, a row still on the sequence's initial file register (1, never set)
 *    is put in file entry 0, not 1 (binutils starts a sequence on its own idea of file 1);
 *  - a relative file name is put under the unit's DW_AT_comp_dir.
 */

static const char *under_comp_dir(struct lineinfo *li, const char *comp_dir, const char *name)
{
	char *out;

	if (!name || name[0] == '/' || !comp_dir)
		return name;
	out = arena_alloc(&li->arena, strlen(comp_dir) + strlen(name) + 2);
	if (out)
		sprintf(out, "%s/%s", comp_dir, name);
	return out ? out : name;
}

static int load_rows(struct lineinfo *li, Dwarf_Die *cu)
{
	struct cu_rows *r = &li->rows;
	Dwarf_Files *files = NULL;
	Dwarf_Half version = 0;
	Dwarf_Attribute attr;
	const char *comp_dir;
	size_t nfiles = 0, i, k;
	bool other = false;
	Dwarf_Die tmp;

	free(r->names);
	memset(r, 0, sizeof(*r));
	r->off = dwarf_dieoffset(cu);
	if (dwarf_getsrclines(cu, &r->lines, &r->nr) || !r->nr)
		return 0;
	r->names = calloc(r->nr, sizeof(*r->names));
	if (!r->names)
		return -ENOMEM;
	dwarf_cu_die(cu->cu, &tmp, &version, NULL, NULL, NULL, NULL, NULL);
	if (dwarf_getsrcfiles(cu, &files, &nfiles))
		nfiles = 0;
	comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	for (i = 0; i < r->nr; i++) {
		Dwarf_Line *l = dwarf_onesrcline(r->lines, i);
		const char *name = dwarf_linesrc(l, NULL, NULL);
		bool end = false;

		for (k = 0; version >= 5 && k < nfiles; k++)
			if (dwarf_filesrc(files, k, NULL, NULL) == name)
				break;
		if (version >= 5 && k == 1 && !other)
			name = dwarf_filesrc(files, 0, NULL, NULL);
		else if (k != 1)
			other = true;
		r->names[i] = under_comp_dir(li, comp_dir, name);
		dwarf_lineendsequence(l, &end);
		if (end)
			other = false;
	}
	r->valid = true;
	return 0;
}

/* The row of addr in the unit's table, or NULL. */
static Dwarf_Line *find_row(struct lineinfo *li, uint64_t addr, size_t *idx)
{
	struct cu_rows *r = &li->rows;
	size_t lo = 0, hi = r->nr;
	Dwarf_Addr a;
	Dwarf_Line *l;
	bool end = false;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		dwarf_lineaddr(dwarf_onesrcline(r->lines, mid), &a);
		if (a <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	l = dwarf_onesrcline(r->lines, lo - 1);
	if (!l || dwarf_lineendsequence(l, &end) || end)
		return NULL;
	*idx = lo - 1;
	return l;
}

bool lineinfo_find(struct lineinfo *li, uint64_t addr, struct line_loc *loc)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu;
	Dwarf_Line *l;
	size_t idx;
	int lineno = 0;

	memset(loc, 0, sizeof(*loc));
	if (!dwfl_module_getdwarf(li->mod, &bias))
		return false;
	/* dwfl's addresses are the object's plus bias; the DWARF's are the object's */
	cu = dwfl_module_addrdie(li->mod, addr + bias, &bias);
	if (!cu)
		return false;
	if ((!li->rows.valid || li->rows.off != dwarf_dieoffset(cu)) && load_rows(li, cu))
		return false;
	l = li->rows.valid ? find_row(li, addr, &idx) : NULL;
	if (l) {
		loc->file = li->rows.names[idx];
		dwarf_lineno(l, &lineno);
		loc->line = lineno > 0 ? (unsigned int)lineno : 0;
		dwarf_linediscriminator(l, &loc->discr);
	}
	loc->func = func_of(li, addr, bias);
	return loc->file || loc->func;
}

static struct srcfile *read_source(struct lineinfo *li, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct srcfile *f;
	size_t i, n = 0;
	char *p;

	for (f = li->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return NULL;
	}
	f->next = li->files;
	li->files = f;
	if (strbuf_read_text(&sb, path, 64u << 20) < 0) {
		strbuf_release(&sb);
		return f; /* remembered as unreadable: no lines */
	}
	f->data = strbuf_detach(&sb);
	for (p = f->data; *p; p++)
		n += *p == '\n';
	f->lines = calloc(n + 1, sizeof(*f->lines));
	if (!f->lines)
		return f;
	for (p = f->data, i = 0; *p && i <= n; i++) {
		char *nl = strchr(p, '\n');

		f->lines[i] = p;
		f->nr = i + 1;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return f;
}

const char *lineinfo_source_line(struct lineinfo *li, const char *path, unsigned int n)
{
	struct srcfile *f = read_source(li, path);

	if (!f || !n || n > f->nr)
		return NULL;
	return f->lines[n - 1];
}
