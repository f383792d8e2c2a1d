/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe/finder: turns a parsed probe definition and a binary into uprobe placements, through
 * libdwfl/libdw (separate debug info found by build-id and .gnu_debuglink, as elfutils does)
 * and the ELF symbol table when there is no DWARF. Addresses become file offsets through the
 * PT_LOAD holding them, so PIE executables and shared libraries work.
 *
 * A probe_bin is opened once per binary (probe_bin_open/probe_bin_close) and owns its libdwfl
 * session. probe_find() fills a vector of probe_trace the caller frees with
 * probe_traces_free(). Nothing here touches tracefs or prints; a failure leaves one line
 * naming the part of the definition and the fix in err.
 */
#ifndef FLARE_PROBE_FINDER_H
#define FLARE_PROBE_FINDER_H
#include <stddef.h>
#include <stdint.h>
#include "lib/probe/spec.h"

struct probe_bin;

struct probe_trace {
	char *event;	  /* default event name (func, func__return, func_L3, abs_1149) */
	char *group;	  /* the group it must have (sdt_PROVIDER), or NULL */
	uint64_t ref_ctr; /* file offset of an SDT semaphore, or 0 */
	int is_return;
	uint64_t offset; /* file offset in the binary */
	uint64_t vaddr;	 /* ELF virtual address */
	char *args;	 /* " number=%di:s32 x=+0(%si):s32" (each with a leading blank) */
	char *argnames;	 /* "number x=p->x" as perf's "with ..." shows them, or "" */
	int line;	 /* the source line of a line or pattern placement, else 0 */
};

struct probe_find_opts {
	int no_inlines;		   /* --no-inlines */
	int max_probes;		   /* --max-probes (0: 128) */
	int x_types;		   /* the tracer knows x8..x64 (else unsigned become u) */
	const char *source_prefix; /* -s DIR: where the sources are, or NULL */
};

/* Opens path (an executable or shared object). Returns 0 or -errno / -ERR_FORMAT with err. */
int probe_bin_open(const char *path, struct probe_bin **ret, char *err, size_t errlen);
void probe_bin_close(struct probe_bin *bin);
/* Whether debug information was found for the binary. */
int probe_bin_has_dwarf(struct probe_bin *bin);

/* Resolves spec in bin. On success *traces holds *nr >= 1 placements. */
int probe_find(struct probe_bin *bin, const struct probe_spec *spec,
	       const struct probe_find_opts *opts, struct probe_trace **traces, size_t *nr,
	       char *err, size_t errlen);
void probe_traces_free(struct probe_trace *traces, size_t nr);
/* The uprobe_events line of t for binary path: "p:GROUP/EVENT PATH:0xOFF[(0xREF)] ARGS" (an
 * r: for a return probe). Caller frees; NULL without memory. */
char *probe_trace_uprobe_def(const struct probe_trace *t, const char *group, const char *event,
			     const char *path);

/* Describes the probe at file offset off ("func_2@/src/t.c", "func_1+4@..."; is_return
 * adds "%return") for --list. Caller frees; NULL when nothing covers the offset. */
char *probe_bin_describe(struct probe_bin *bin, uint64_t off, int is_return);

/* The variables readable at a placement t found by probe_find(), for -V: calls fn with each
 * one's C type name and name (parameters and locals in scope with a location there, those of
 * inlined copies there included; globals too with externs); *where gets "func_2+0". A line
 * placement's scope is the function declared nearest before the line. 0 or an error. */
typedef int (*probe_var_fn)(const char *type, const char *name, void *ctx);
int probe_bin_vars_at(struct probe_bin *bin, const struct probe_trace *t, int externs, char *where,
		      size_t wlen, probe_var_fn fn, void *ctx);

/* Source lines that have code, for -L: a function's (of every copy of it, in file when
 * file is not NULL) or a whole source file's (every unit holding it). */
struct probe_lines {
	char *path;	    /* the source file, absolute as the debug info gives it */
	char *raw;	    /* its name in the debug info (may be relative to comp_dir) */
	char *comp_dir;	    /* the unit's compilation directory, or NULL */
	int decl;	    /* a function's declaration line (0 for a file) */
	int first, last;    /* has[] covers lines first..last */
	unsigned char *has; /* has[line - first]: a probe can be placed on line */
};
/* 0, -ENOENT (no such function or file with debug info) or another negative error. On
 * success the caller releases *out with probe_lines_release(). */
int probe_bin_func_lines(struct probe_bin *bin, const char *func, const char *file,
			 struct probe_lines *out);
int probe_bin_file_lines(struct probe_bin *bin, const char *file, struct probe_lines *out);
void probe_lines_release(struct probe_lines *l);
/* Whether line has code in l */
int probe_lines_has(const struct probe_lines *l, int line);

/* "SYMBOL+OFF" of the ELF symbol holding vaddr, as a kprobe names a place in a vmlinux or
 * module. 0 or -ENOENT. */
int probe_bin_sym_off(struct probe_bin *bin, uint64_t vaddr, char *buf, size_t len);

typedef int (*probe_func_fn)(const char *name, void *ctx);
/* Calls fn with "%sdt_PROVIDER:NAME" for each SDT marker (.note.stapsdt) of bin. */
int probe_bin_for_each_sdt(struct probe_bin *bin, probe_func_fn fn, void *ctx);
/* Calls fn for each symbol of bin perf probe -F lists (functions, objects and labels, or with
 * funcs_only functions only, as for a kernel object; sorted by name; a name defined twice
 * comes twice). */
int probe_bin_for_each_func(struct probe_bin *bin, int funcs_only, probe_func_fn fn, void *ctx);

#endif
