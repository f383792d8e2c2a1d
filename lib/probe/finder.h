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
	char *event;		/* default event name (func, func__return, func_L3, abs_1149) */
	char *group;		/* the group it must have (sdt_PROVIDER), or NULL */
	uint64_t ref_ctr;	/* file offset of an SDT semaphore, or 0 */
	int is_return;
	uint64_t offset;	/* file offset in the binary */
	uint64_t vaddr;		/* ELF virtual address */
	char *args;		/* " number=%di:s32 x=+0(%si):s32" (each with a leading blank) */
	char *argnames;		/* "number x=p->x" as perf's "with ..." shows them, or "" */
};

struct probe_find_opts {
	int no_inlines;		/* --no-inlines */
	int max_probes;		/* --max-probes (0: 128) */
	int x_types;		/* the tracer knows x8..x64 (else unsigned become u) */
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

/* Describes the probe at file offset off ("func_2@/src/t.c", "func_1+4@..."; is_return
 * adds "%return") for --list. Caller frees; NULL when nothing covers the offset. */
char *probe_bin_describe(struct probe_bin *bin, uint64_t off, int is_return);

/* The variables readable at a placement found by probe_find(), for -V: calls fn with each
 * one's C type name and name (parameters and locals in scope with a location there; globals
 * too with externs); *where gets "func_2+0". Returns 0 or a negative error. */
typedef int (*probe_var_fn)(const char *type, const char *name, void *ctx);
int probe_bin_vars_at(struct probe_bin *bin, uint64_t vaddr, int externs, char *where,
		      size_t wlen, probe_var_fn fn, void *ctx);

/* The lines of function func (all its copies' file and line range) for -L: *file, *first and
 * *last, and has_code[line - first] set for lines with code. Caller frees *has_code. */
int probe_bin_func_lines(struct probe_bin *bin, const char *func, char **file, int *first,
			 int *last, unsigned char **has_code);

typedef int (*probe_func_fn)(const char *name, void *ctx);
/* Calls fn with "%sdt_PROVIDER:NAME" for each SDT marker (.note.stapsdt) of bin. */
int probe_bin_for_each_sdt(struct probe_bin *bin, probe_func_fn fn, void *ctx);
/* Calls fn for each symbol of bin perf probe -F lists (functions, objects and labels,
 * sorted by name; a name defined twice comes twice). */
int probe_bin_for_each_func(struct probe_bin *bin, probe_func_fn fn, void *ctx);

#endif
