/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sym: symbol tables. A dso is one ELF object (an executable, a shared library, the kernel,
 * [vdso], a JIT's perf-PID.map); its symbols are loaded once, on first lookup, sorted by
 * address and searched by bisection. A symtab owns every dso it creates and every symbol and
 * name string in them (arena); all is freed by symtab_free().
 *
 * Sources: ELF .symtab/.dynsym (libelf), separate debug info by build-id
 * (/usr/lib/debug/.build-id/xx/rest.debug) and .gnu_debuglink, /proc/kallsyms and module
 * symbols for the kernel, /tmp/perf-PID.map for JITs, the vdso image. C++ and Rust names are
 * demangled. No subprocesses.
 */
#ifndef FLARE_SYM_SYM_H
#define FLARE_SYM_SYM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symbol {
	uint64_t start; /* in the dso's address space (file virtual address; kernel: runtime) */
	uint64_t end;
	const char *name; /* demangled */
};

enum dso_kind { DSO_USER, DSO_KERNEL, DSO_KMODULE, DSO_VDSO, DSO_JIT_MAP, DSO_ANON };

struct dso {
	const char *long_name;	/* path as mapped: /usr/lib/x86_64-linux-gnu/libc.so.6 */
	const char *short_name; /* as perf report prints it: libc.so.6, [kernel.kallsyms] */
	enum dso_kind kind;
	uint8_t build_id[20];
	uint8_t build_id_size; /* 0 = unknown */
	bool loaded;	       /* symbols were looked for */
	bool has_symbols;
	bool hit; /* a sample ip landed in it (for the BUILD_ID feature) */
	void *priv;
};

struct symtab;

/* root_dir: "" or NULL normally; a prefix for finding files (perf's --symfs). As in perf, a
 * root_dir reads the build-id cache at root_dir/.debug instead of ~/.debug, and any root_dir
 * but exactly "/" takes kernel symbols only from symtab_set_kallsyms()'s file. */
int symtab_new(const char *root_dir, struct symtab **ret);
void symtab_free(struct symtab *st);
/* Kernel symbols from this kallsyms file (perf's --kallsyms) instead of the running kernel's
 * or the build-id cache's; its module symbols are left out. 0 or -ENOMEM. */
int symtab_set_kallsyms(struct symtab *st, const char *path);
/* With false, C++ and Rust names stay mangled (perf's --no-demangle). Default true. */
void symtab_set_demangle(struct symtab *st, bool demangle);

/* The dso for path (created on first use). pid matters only for perf-PID.map and [vdso]. */
struct dso *symtab_dso(struct symtab *st, const char *path, uint32_t pid);
/* The kernel: [kernel.kallsyms], from /proc/kallsyms. */
struct dso *symtab_kernel(struct symtab *st);
/* Starts reading the kernel's kallsyms on a thread of its own, so that the first kernel
 * address looked up finds it read (reading /proc/kallsyms takes the kernel tens of ms).
 * Call it once the kernel's build-id is set; nothing is started when no kallsyms fits. */
void symtab_prefetch_kernel(struct symtab *st);

/* A build-id as perf prints it (lowercase hex, at most 20 bytes) into hex; returns its
 * length. */
int buildid_hex(const uint8_t *id, size_t n, char hex[41]);

/* Each module of a /proc/modules file (path) with a load address: its name, address and size.
 * A callback's non-zero return ends the walk and is returned; else 0, or -errno when the
 * file cannot be read. */
typedef int (*proc_module_cb)(void *ctx, const char *name, uint64_t addr, uint64_t size);
int proc_modules_for_each(const char *path, proc_module_cb cb, void *ctx);

/* The addresses of the first symbols called names[0..n) in a kallsyms file (path, e.g.
 * /proc/kallsyms), in one pass: addrs[i] is 0 when names[i] is absent or its address hidden
 * (kptr_restrict). 0, or -errno when the file cannot be read. */
int kallsyms_symbol_addrs(const char *path, const char *const *names, uint64_t *addrs, size_t n);

/* The kernel module dso ("[name]", from /proc/modules) holding a kernel address, or NULL. */
struct dso *symtab_kernel_module(struct symtab *st, uint64_t addr);

/* True when dso_addr (the kernel's own address space, after dso_map_ip()) lies in its init
 * text (_sinittext.._einittext), which perf resolves though the kernel's MMAP stops at
 * _etext: idle stacks end in start_kernel. */
bool dso_kernel_init_text(struct symtab *st, struct dso *kernel, uint64_t dso_addr);

/* Records the build-id a recording names for dso (the BUILD_ID feature), before its symbols
 * are loaded: separate debug info and perf's build-id cache are then looked up by it. */
void dso_set_build_id(struct dso *dso, const uint8_t *id, size_t size);

/* Symbol containing addr, in the dso's own address space; NULL if none. */
const struct symbol *dso_find_symbol(struct symtab *st, struct dso *dso, uint64_t addr);

/* The first symbol of that name in dso, in address order (a linear search, for the few
 * look-ups by name a command makes); NULL when none. */
const struct symbol *dso_find_symbol_by_name(struct symtab *st, struct dso *dso, const char *name);
/* The i-th kernel module known from kallsyms (once the kernel's symbols are loaded), in
 * address order; NULL past the last. Owned by st. */
struct dso *symtab_kernel_module_nth(struct symtab *st, size_t i);
/*
 * Converts a runtime address inside a mapping to the dso's address space.
 * map_start/pgoff are the MMAP(2) record's addr and pgoff. Handles PIE and shared-object
 * load bias using the ELF program headers (p_vaddr - p_offset of the executable segment).
 */
uint64_t dso_map_ip(struct symtab *st, struct dso *dso, uint64_t map_start, uint64_t pgoff,
		    uint64_t ip);

/*
 * Adds what a recording hit to perf's build-id cache ($PERF_BUILDID_DIR, else ~/.debug), as
 * perf record does, so that the recording can be read after the file or the kernel changed:
 * name is a path, "[kernel.kallsyms]" (its kallsyms is kept) or "[vdso]". Nothing is done when
 * the build-id is cached already or the object is no longer the one with that build-id.
 * 0 or -errno.
 */
int buildid_cache_add(const char *name, const uint8_t *id, size_t n);

/* The ELF file that is dso as recorded, in buf: the mapped path (under the symfs) when its
 * build-id matches the recording's (or either is unknown), else perf's build-id cache copy;
 * NULL when neither is. */
const char *dso_elf_path(struct symtab *st, const struct dso *dso, char *buf, size_t len);

/* Reads the GNU build-id note of an ELF file into out (20 bytes max). Returns size or < 0. */
int elf_read_build_id(const char *path, uint8_t *out, size_t outlen);
/* Reads the GNU build-id from an ELF note area (the PT_NOTE contents, /sys/kernel/notes).
 * Returns the id size (> 0) or -ENOENT. */
int buildid_from_notes(const void *notes, size_t len, uint8_t *out, size_t outlen);
/* Build-id of an ELF file by path; of the kernel ("[kernel.kallsyms]": /sys/kernel/notes);
 * of "[vdso]" (this process's vdso image). Returns the size or < 0. */
int buildid_of(const char *filename, uint8_t *out, size_t outlen);

#endif
