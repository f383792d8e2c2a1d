/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe/finder-int: what finder.c (binaries, offsets, lines), finder-func.c (probe points)
 * and finder-var.c (arguments) share. Private to lib/probe.
 */
#ifndef FLARE_PROBE_FINDER_INT_H
#define FLARE_PROBE_FINDER_INT_H
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "lib/base/strbuf.h"
#include "lib/probe/finder.h"

struct probe_bin {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
	GElf_Addr ebias;  /* module address - ELF vaddr */
	Dwarf *dw;	  /* NULL without debug info; read through pf_dw() */
	Dwarf_Addr dbias; /* module address - DWARF address */
	int dw_tried;
};

struct pf_ctx {
	struct probe_bin *bin;
	const struct probe_spec *spec;
	const struct probe_find_opts *opts;
	const char *point; /* the point as text, for messages */
	int max;
	struct probe_trace *traces;
	size_t nr;
	int found_inline_return; /* a %return skipped on an inlined copy */
	int nr_missing;		 /* arguments left as PF_MISSING<index> (see pf_fill_missing) */
	int line_skipped;	 /* the line only shares an address with another */
	char *err;
	size_t errlen;
};

/* bin's DWARF, read on first use; NULL when there is none */
Dwarf *pf_dw(struct probe_bin *b);
int pf_fail(char *err, size_t len, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
uint64_t pf_dwarf_to_vaddr(const struct probe_bin *b, Dwarf_Addr a);
int pf_vaddr_to_off(const struct probe_bin *b, uint64_t vaddr, uint64_t *off);
int pf_off_to_vaddr(const struct probe_bin *b, uint64_t off, uint64_t *vaddr);
int pf_die_entry(Dwarf_Die *die, Dwarf_Addr *addr);
int pf_file_match(const char *path, const char *want);
/* Adds a placement at vaddr (DWARF address daddr in cu, or cu NULL: no DWARF). */
int pf_add_trace(struct pf_ctx *c, const char *event, int is_return, uint64_t vaddr, Dwarf_Die *cu,
		 Dwarf_Addr daddr);
/* Probes line (of file, NULL: any file) inside die, or in the whole cu when die is NULL, at
 * every place finder-lines.c finds for it; returns how many (>= 0) or a negative error. */
int pf_walk_line(struct pf_ctx *c, Dwarf_Die *cu, Dwarf_Die *die, const char *file, int line,
		 const char *event);
/* die's declaration file, made absolute with the unit's DW_AT_comp_dir (in buf if needed) */
const char *pf_decl_file(Dwarf_Die *die, char *buf, size_t len);
/* A place a line has code: skipped when an earlier line has its address (perf's rule: such
 * a line has no probe of its own). File names are absolute. A non-zero return stops the
 * walk. */
typedef int (*pf_line_fn)(const char *file, int line, Dwarf_Addr addr, int skipped, void *ctx);
/* Where bin's missing debug information was looked for and what would provide it */
void probe_bin_debug_hint(struct probe_bin *bin, const char *path, char *buf, size_t len);
/* SDT markers of c->spec (PP_SDT) as placements */
int pf_find_sdt(struct pf_ctx *c);
/* The out-of-line function of cu holding addr (not an inlined copy), or NULL */
Dwarf_Die *pf_real_func(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *out);
/* The outermost inlined copy inside die holding addr, or NULL */
Dwarf_Die *pf_inlined_at(Dwarf_Die *die, Dwarf_Addr addr, Dwarf_Die *out);
/* The concrete scopes at addr, innermost first: inlined copies and blocks, the out-of-line
 * function, the unit (dwarf_getscopes gives an inlined copy's abstract scopes instead). The
 * count, 0 when no function holds addr, or -ENOMEM; the caller frees *scopes. */
int pf_concrete_scopes(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die **scopes);
/* perf's scope for a probe on line at a: of the function and inlined copies holding a, the
 * one declared nearest at or before line (the outer one on a tie), else the innermost */
Dwarf_Die *pf_line_scope(Dwarf_Die *cu, Dwarf_Addr a, int line, Dwarf_Die *out);
/* The line of the first is_stmt row at addr. 0 or -ENOENT. */
int pf_stmt_line_at(Dwarf_Die *cu, Dwarf_Addr addr, int *line);
int pf_lines_walk(Dwarf_Die *cu, Dwarf_Die *die, pf_line_fn fn, void *ctx);
/* The same rows in perf's lazy-pattern order (declaration lines after the rows), none
 * marked skipped */
int pf_lines_walk_all(Dwarf_Die *cu, Dwarf_Die *die, pf_line_fn fn, void *ctx);
/* A placement at DWARF address a, found by a line walk for line (event NULL: named after
 * the function or inlined copy declared nearest before line, as perf names it). */
int pf_add_line_probe(struct pf_ctx *c, Dwarf_Die *cu, Dwarf_Addr a, int line, const char *event);
/* An argument whose variable is not at a place is written PF_MISSING<index of the argument>
 * and pf_fill_missing() makes it perf's magic number, typed as the argument is where it is
 * found; an argument found nowhere is an error. */
#define PF_MISSING "\x01"
int pf_fill_missing(struct pf_ctx *c);
/* The fetch arguments of c->spec at DWARF address addr ("" and "" when there are none). */
int pf_convert_args(struct pf_ctx *c, Dwarf_Die *cu, Dwarf_Addr addr, int is_return,
		    struct strbuf *args, struct strbuf *names);
/* FUNC;PTN inside die (a function or an inlined copy): event NULL names each probe after
 * the function holding it. Returns the number of probes added or a negative error. */
int pf_lazy_in_func(struct pf_ctx *c, Dwarf_Die *die, const char *event);
/* SRC;PTN in every unit holding SRC. 0 or a negative error with c->err. */
int pf_find_lazy_file(struct pf_ctx *c);

#endif
