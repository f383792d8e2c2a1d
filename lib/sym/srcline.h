/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcline: source lines and inline frames of code addresses, from the DWARF line tables and
 * inline scopes (libdw through libdwfl: separate debug info by build-id and .gnu_debuglink is
 * found as for the unwinder), what perf 6.1 asks addr2line for, without a subprocess.
 *
 * Addresses are in the dso's own address space (struct frame's dso_ip). Each dso's debug
 * information is opened once, on first use; each answer is cached per (dso, address), so a
 * profile asks libdw once per distinct address. A srclines owns its Dwfls, the strings and
 * the inline records it hands out, until srclines_free(); the symtab is borrowed and must
 * outlive it.
 */
#ifndef FLARE_SYM_SRCLINE_H
#define FLARE_SYM_SRCLINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/sym/sym.h"

struct srclines;

/* A place in the sources: file as the line table names it (often absolute), and its line. */
struct srcline_loc {
	const char *file; /* NULL: unknown */
	unsigned int line;
};

/*
 * One entry of an address's inline chain, as perf 6.1 shows it (innermost first, the
 * function containing the address last): sym is the dso's own symbol when the DWARF name is
 * its name, else a symbol of that name spanning the containing symbol (inlined true), which
 * perf prints "name (inlined)". srcline is where in that function the address is: the line of
 * the address for the innermost, the call site of the inner entry for the others.
 */
struct inline_entry {
	const struct symbol *sym;
	bool inlined;
	const char *srcline; /* "file.c:42" (basename), or "??:0" */
	struct srcline_loc loc;
};

/* The dso's own symbol an inline entry's symbol (one with inlined true) stands within. */
const struct symbol *srcline_inline_base(const struct symbol *inline_sym);

/* Whether addr2line knows no function where a frame has this symbol (a PLT stub's: no symbol
 * of the object's tables is in .plt; elsewhere addr2line takes the symbol before the address,
 * sized or not): perf then shows an address for its source line instead of "??:0". */
bool srcline_no_function(const struct symbol *sym);

/* 0 or -ENOMEM. */
int srclines_new(struct symtab *st, struct srclines **ret);
void srclines_free(struct srclines *sl);

/* Where addr is in the sources, through the line table: true and *loc, or false (no line
 * information for it). */
bool srcline_find(struct srclines *sl, struct dso *dso, uint64_t addr, struct srcline_loc *loc);

/* perf's srcline of addr: "file.c:42" (the file's basename), "??:0" when unknown. Owned by
 * sl. */
const char *srcline_str(struct srclines *sl, struct dso *dso, uint64_t addr);

/* perf's srcfile of addr: the line table's file name, "" when unknown. Owned by sl. */
const char *srcline_file(struct srclines *sl, struct dso *dso, uint64_t addr);

/*
 * The inline chain of addr (base: the dso's symbol holding it, or NULL): the number of
 * entries, *ret pointing at them (owned by sl); 0 when the dso has no DWARF for addr or
 * there is no base symbol, as perf shows no inline frames then.
 */
size_t srcline_inlines(struct srclines *sl, struct dso *dso, uint64_t addr,
		       const struct symbol *base, const struct inline_entry **ret);

#endif
