/* SPDX-License-Identifier: GPL-2.0 */
/*
 * annotate: perf annotate's model, for a printer (flare annotate --stdio) or a browser (a TUI's
 * annotate view) to render.
 *
 *  - ann_hist: one event's samples by symbol and by address inside it (perf's sym_hist): each
 *    symbol's samples and period, and per instruction offset. ann_hist_add() per sample.
 *  - ann_object: one object file opened for annotation (its bytes, symbols, line tables and a
 *    disassembler).
 *  - ann_source: one symbol annotated: the lines perf shows, in order, as perf 6.1 builds them
 *    from `objdump -l -d -S`'s output (text lines with perf's line numbers, instructions with
 *    their offset and objdump's text), with the samples of each instruction counted from an
 *    ann_sym (all samples from its address up to the next instruction's).
 *
 * Ownership: an ann_hist owns its ann_syms (freed by ann_hist_release()); the dso and symbol
 * pointers it is given belong to the session and must outlive it. An ann_source owns its
 * lines and their text (ann_source_free()). Nothing here prints.
 */
#ifndef FLARE_ANNOTATE_ANNOTATE_H
#define FLARE_ANNOTATE_ANNOTATE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/annotate/disasm.h"
#include "lib/base/arena.h"
#include "lib/base/hashmap.h"
#include "lib/sym/sym.h"

struct ann_hits {
	uint64_t nr, period;
};

struct ann_sym {
	struct dso *dso;
	const struct symbol *sym;
	struct ann_hits total; /* the samples at an address inside the symbol */
	struct hashmap offs;   /* offset -> struct ann_hits * */
	struct ann_sym *next;  /* in creation order */
};

struct ann_hist {
	struct ann_hits total; /* every sample of the event (for the global percents) */
	struct hashmap syms;   /* symbol pointer -> struct ann_sym * */
	struct ann_sym *first, *last;
	struct arena arena;
};

#define ANN_HIST_INIT                                                                              \
	{                                                                                          \
		{ 0, 0 }, HASHMAP_INIT, NULL, NULL, ARENA_INIT                                     \
	}

/* Counts a sample of the event at dso_ip (the address in the dso's own space) of sym (which
 * may be NULL: it then counts for the totals only). An address outside the symbol is counted
 * for the event only, as perf drops it (-ERANGE) from the symbol's histogram. 0 or -ENOMEM. */
int ann_hist_add(struct ann_hist *h, struct dso *dso, const struct symbol *sym, uint64_t dso_ip,
		 uint64_t period);
/* The symbol's histogram, or NULL when no sample landed in it. */
struct ann_sym *ann_hist_find(const struct ann_hist *h, const struct symbol *sym);
void ann_hist_release(struct ann_hist *h);

enum ann_percent { ANN_LOCAL_PERIOD, ANN_GLOBAL_PERIOD, ANN_LOCAL_HITS, ANN_GLOBAL_HITS };

/* perf's --percent-type names: local-period, global-period, local-hits, global-hits. -1 when
 * s is none of them. */
int ann_percent_parse(const char *s);
/* As perf's header prints the type: "local period", "global hits", ... */
const char *ann_percent_str(enum ann_percent t);
/* The percent of hits as perf 6.1 prints it (whose global-hits is always 0). */
double ann_percent(const struct ann_hits *hits, const struct ann_sym *s, const struct ann_hist *h,
		   enum ann_percent t);

struct ann_object;

struct ann_object_opts {
	enum disasm_syntax syntax;
};

/* Opens the ELF file at path for annotation. 0, -errno or -ENOEXEC (not ELF), -ENOMEM. */
int ann_object_open(const char *path, const struct ann_object_opts *o, struct ann_object **ret);
void ann_object_free(struct ann_object *obj);

/* The address obj's symbol name has (a vmlinux's _text, for the kernel's load offset). */
bool ann_object_symbol_addr(struct ann_object *obj, const char *name, uint64_t *addr);

/* The address and size of obj's section called name (".text"); false when there is none. */
bool ann_object_section(struct ann_object *obj, const char *name, uint64_t *addr, uint64_t *size);

struct ann_line {
	int64_t offset;	      /* from the symbol's start; -1: a text line */
	const char *text;     /* a text line's, or what follows an instruction's "addr:" */
	int line_nr;	      /* perf's line number of a text line */
	struct ann_hits hits; /* an instruction's samples, after ann_source_count() */
	const char *path;     /* "file:line" of a hot instruction (ann_source_srclines()) */
};

struct ann_source {
	uint64_t start, size; /* the symbol in the object's addresses */
	struct ann_line *lines;
	size_t nr_lines;
	int addr_width; /* hex digits of the last instruction's address */
	bool has_insns;
	struct arena arena; /* the text */
};

struct ann_source_opts {
	bool source;  /* interleave source lines (objdump -S; perf's --source) */
	bool asm_raw; /* instruction bytes too (perf's --asm-raw) */
};

/* The lines perf shows for the symbol at [start, end) of obj. 0, -ENOMEM, or -ENOENT when
 * obj holds no bytes there. The caller frees *ret with ann_source_free(). */
int ann_source_build(struct ann_object *obj, uint64_t start, uint64_t end,
		     const struct ann_source_opts *o, struct ann_source **ret);
void ann_source_free(struct ann_source *src);

/* Fills each instruction's hits from s: the samples from its offset up to the next
 * instruction's (the symbol's end for the last). */
void ann_source_count(struct ann_source *src, const struct ann_sym *s);

/* perf's --print-line: gives each instruction whose percent is over 0.5 its "file:line"
 * (the file's base name unless full_path; "dso[addr]" without line tables: dso_name). */
int ann_source_srclines(struct ann_source *src, struct ann_object *obj, const struct ann_sym *s,
			const struct ann_hist *h, enum ann_percent t, bool full_path,
			const char *dso_name);

#endif
