// SPDX-License-Identifier: GPL-2.0
/*
 * srcline: source lines and inline chains through libdwfl (see srcline.h).
 *
 * Each dso gets a Dwfl of its own holding one offline module (the file the recording names,
 * by path or from the build-id cache); libdwfl finds its separate debug information. The
 * answers are kept per dso in two maps keyed by address: one line, one inline chain.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include "lib/base/arena.h"
#include "lib/base/hashmap.h"
#include "lib/sym/srcline.h"
#include "lib/sym/sym-int.h"

#define UNKNOWN_LINE "??:0"
#define INLINE_MAX 64 /* nesting kept at most (addr2line's output has no limit) */

struct sl_line {
	struct srcline_loc loc;
	bool found;
	const char *str; /* "file.c:42" / "??:0", made on first use */
};

struct sl_inl {
	size_t nr;
	struct inline_entry *v;
};

struct sl_dso {
	Dwfl *dwfl; /* NULL: no file, or no DWARF */
	Dwfl_Module *mod;
	Dwarf_Addr bias;      /* module address - dso address */
	struct hashmap lines; /* addr -> struct sl_line */
	struct hashmap inl;   /* addr -> struct sl_inl */
};

/* A symbol made for an inline entry, shared by every address of base with that name. */
struct sl_sym {
	struct symbol sym;
	const struct symbol *base;
	struct sl_sym *next;
};

struct srclines {
	struct symtab *st;
	struct arena arena;
	struct hashmap dsos; /* dso pointer -> struct sl_dso */
	struct hashmap syms; /* hash of (base, name) -> struct sl_sym chain */
	char *debuginfo_path;
	Dwfl_Callbacks cbs;
};

int srclines_new(struct symtab *st, struct srclines **ret)
{
	struct srclines *sl = calloc(1, sizeof(*sl));

	*ret = NULL;
	if (!sl)
		return -ENOMEM;
	sl->st = st;
	sl->cbs.find_debuginfo = dwfl_standard_find_debuginfo;
	sl->cbs.section_address = dwfl_offline_section_address;
	sl->cbs.debuginfo_path = &sl->debuginfo_path;
	*ret = sl;
	return 0;
}

void srclines_free(struct srclines *sl)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!sl)
		return;
	while (hashmap_next(&sl->dsos, &i, &k, &v)) {
		struct sl_dso *d = v;

		if (d->dwfl)
			dwfl_end(d->dwfl);
		hashmap_release(&d->lines);
		hashmap_release(&d->inl);
	}
	hashmap_release(&sl->dsos);
	hashmap_release(&sl->syms);
	arena_release(&sl->arena);
	free(sl);
}

/* Opens dso's DWARF once; NULL only without memory (d->dwfl NULL: nothing to read). */
static struct sl_dso *sl_dso(struct srclines *sl, struct dso *dso)
{
	void **slot = hashmap_slot(&sl->dsos, (uint64_t)(uintptr_t)dso);
	char buf[4096];
	const char *path;
	struct sl_dso *d;
	Dwarf_Addr bias;

	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	d = arena_zalloc(&sl->arena, sizeof(*d));
	if (!d)
		return NULL;
	*slot = d;
	if (dso->kind != DSO_USER || !(path = dso_elf_path(sl->st, dso, buf, sizeof(buf))))
		return d;
	d->dwfl = dwfl_begin(&sl->cbs);
	if (!d->dwfl)
		return d;
	d->mod = dwfl_report_offline(d->dwfl, dso->long_name, path, -1);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (!d->mod || !dwfl_module_getdwarf(d->mod, &bias)) {
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		d->mod = NULL;
		return d;
	}
	/* the module's addresses against the main file's (the dso's address space) */
	if (!dwfl_module_getelf(d->mod, &d->bias))
		d->bias = bias;
	return d;
}

static struct sl_line *line_of(struct srclines *sl, struct dso *dso, uint64_t addr)
{
	struct sl_dso *d = sl_dso(sl, dso);
	struct sl_line *l;
	Dwfl_Line *dl;
	void **slot;
	int line = 0;

	if (!d || !(slot = hashmap_slot(&d->lines, addr)))
		return NULL;
	if (*slot)
		return *slot;
	l = arena_zalloc(&sl->arena, sizeof(*l));
	if (!l)
		return NULL;
	if (d->mod && (dl = dwfl_module_getsrc(d->mod, addr + d->bias))) {
		l->loc.file = dwfl_lineinfo(dl, NULL, &line, NULL, NULL, NULL);
		l->loc.line = line > 0 ? (unsigned int)line : 0;
		l->found = l->loc.file != NULL;
	}
	*slot = l;
	return l;
}

bool srcline_find(struct srclines *sl, struct dso *dso, uint64_t addr, struct srcline_loc *loc)
{
	struct sl_line *l = line_of(sl, dso, addr);

	if (!l || !l->found)
		return false;
	*loc = l->loc;
	return true;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* "file.c:42" in the arena, or "??:0" */
static const char *loc_str(struct srclines *sl, const struct srcline_loc *loc)
{
	char buf[4200];
	int n;

	if (!loc->file)
		return UNKNOWN_LINE;
	n = snprintf(buf, sizeof(buf), "%s:%u", base_name(loc->file), loc->line);
	return arena_strndup(&sl->arena, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

const char *srcline_str(struct srclines *sl, struct dso *dso, uint64_t addr)
{
	struct sl_line *l = line_of(sl, dso, addr);

	if (!l || !l->found)
		return UNKNOWN_LINE;
	if (!l->str)
		l->str = loc_str(sl, &l->loc);
	return l->str ? l->str : UNKNOWN_LINE;
}

const char *srcline_file(struct srclines *sl, struct dso *dso, uint64_t addr)
{
	struct sl_line *l = line_of(sl, dso, addr);

	return l && l->found ? base_name(l->loc.file) : "";
}

/* The symbol standing for the inline function name within base (one per pair). */
static const struct symbol *inline_sym(struct srclines *sl, const struct symbol *base,
				       const char *name)
{
	uint64_t key = hash_str(name) ^ hash_u64((uint64_t)(uintptr_t)base);
	void **slot = hashmap_slot(&sl->syms, key);
	struct sl_sym *s;

	if (!slot)
		return NULL;
	for (s = *slot; s; s = s->next)
		if (s->base == base && !strcmp(s->sym.name, name))
			return &s->sym;
	s = arena_zalloc(&sl->arena, sizeof(*s));
	if (!s || !(s->sym.name = arena_strdup(&sl->arena, name)))
		return NULL;
	s->sym.start = base->start;
	s->sym.end = base->end;
	s->base = base;
	s->next = *slot;
	*slot = s;
	return &s->sym;
}

bool srcline_no_function(const struct symbol *sym)
{
	size_t n = sym ? strlen(sym->name) : 0;

	return n > 4 && !strcmp(sym->name + n - 4, "@plt");
}

const struct symbol *srcline_inline_base(const struct symbol *inline_sym)
{
	const struct sl_sym *s = (const struct sl_sym *)inline_sym; /* sym comes first */

	return s->base;
}

/* The name of a function's DIE as addr2line -f gives it (its linkage name, demangled). */
static const char *die_func_name(const struct srclines *sl, Dwarf_Die *die, char **dm)
{
	Dwarf_Attribute a;
	const char *name = NULL;

	*dm = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		name = dwarf_formstring(&a);
	if (!name && dwarf_attr_integrate(die, DW_AT_name, &a))
		name = dwarf_formstring(&a);
	if (!name)
		return NULL;
	if (!sl->st->no_demangle && (*dm = sym_demangle(name)))
		return *dm;
	return name;
}

/* The call site of an inlined_subroutine DIE, in its CU's file table. */
static void call_site(Dwarf_Die *die, Dwarf_Die *cu, struct srcline_loc *loc)
{
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word file = 0, line = 0;
	size_t nfiles;

	loc->file = NULL;
	loc->line = 0;
	if (!dwarf_attr(die, DW_AT_call_file, &a) || dwarf_formudata(&a, &file))
		return;
	if (dwarf_attr(die, DW_AT_call_line, &a))
		dwarf_formudata(&a, &line);
	if (dwarf_getsrcfiles(cu, &files, &nfiles) || file >= nfiles)
		return;
	loc->file = dwarf_filesrc(files, file, NULL, NULL);
	loc->line = (unsigned int)line;
}

/* Appends the function of die to e[*k] with loc; false to stop (no memory). */
static bool add_entry(struct srclines *sl, Dwarf_Die *die, const struct symbol *base,
		      const struct srcline_loc *loc, struct inline_entry *e, size_t *k)
{
	char *dm;
	const char *name = die_func_name(sl, die, &dm);
	struct inline_entry *x = &e[*k];

	if (!name)
		name = "??";
	x->inlined = strcmp(name, base->name) != 0;
	x->sym = x->inlined ? inline_sym(sl, base, name) : base;
	free(dm);
	x->loc = *loc;
	x->srcline = loc_str(sl, loc);
	if (!x->sym || !x->srcline)
		return false;
	(*k)++;
	return true;
}

static bool is_func(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/*
 * Fills e with the functions around the address, innermost first, as addr2line -i: the
 * innermost function's scopes come from dwarf_getscopes() (which then goes on in the abstract
 * tree), its callers from the DIE's own parents (dwarf_getscopes_die()), each at the call
 * site of the one inside it. Returns how many.
 */
static size_t walk_scopes(struct srclines *sl, struct sl_dso *d, uint64_t addr,
			  const struct symbol *base, struct sl_line *l, struct inline_entry *e)
{
	Dwarf_Addr maddr = addr + d->bias, cubias;
	Dwarf_Die *cu = dwfl_module_addrdie(d->mod, maddr, &cubias), *scopes = NULL, *up = NULL;
	struct srcline_loc loc = l->loc;
	Dwarf_Die inner;
	int i, n, m;
	size_t k = 0;

	if (!cu || (n = dwarf_getscopes(cu, maddr - cubias, &scopes)) <= 0) {
		free(scopes);
		return 0;
	}
	for (i = 0; i < n && !is_func(&scopes[i]); i++)
		;
	if (i == n || !add_entry(sl, &scopes[i], base, &loc, e, &k) ||
	    dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) {
		free(scopes);
		return k;
	}
	inner = scopes[i];
	free(scopes);
	m = dwarf_getscopes_die(&inner, &up);
	for (i = 1; i < m && k < INLINE_MAX; i++) {
		if (!is_func(&up[i]))
			continue;
		call_site(&inner, cu, &loc);
		if (!add_entry(sl, &up[i], base, &loc, e, &k) ||
		    dwarf_tag(&up[i]) == DW_TAG_subprogram)
			break;
		inner = up[i];
	}
	free(up);
	return k;
}

size_t srcline_inlines(struct srclines *sl, struct dso *dso, uint64_t addr,
		       const struct symbol *base, const struct inline_entry **ret)
{
	struct inline_entry tmp[INLINE_MAX];
	struct sl_dso *d;
	struct sl_line *l;
	struct sl_inl *in;
	void **slot;

	*ret = NULL;
	if (!base || !(d = sl_dso(sl, dso)) || !d->mod || !(slot = hashmap_slot(&d->inl, addr)))
		return 0;
	in = *slot;
	if (!in) {
		in = arena_zalloc(&sl->arena, sizeof(*in));
		l = line_of(sl, dso, addr);
		if (!in || !l)
			return 0;
		in->nr = walk_scopes(sl, d, addr, base, l, tmp);
		if (in->nr && !(in->v = arena_alloc(&sl->arena, in->nr * sizeof(*in->v))))
			in->nr = 0;
		if (in->nr)
			memcpy(in->v, tmp, in->nr * sizeof(*in->v));
		*slot = in;
	}
	*ret = in->v;
	return in->nr;
}
