/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sym-int: what the files of lib/sym share and nobody else sees. A dso_int wraps the public
 * struct dso with its symbol array and the facts needed to map addresses into it. Loaders
 * (elf.c, kallsyms.c, jitmap.c, vdso.c) fill a symbuf; symbuf_finish() sorts it, drops
 * duplicates the way perf does and fixes zero sizes, then the array is searched by bisection.
 */
#ifndef FLARE_SYM_SYM_INT_H
#define FLARE_SYM_SYM_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libelf.h>
#include "lib/base/arena.h"
#include "lib/base/hashmap.h"
#include "lib/sym/sym.h"

/* A symbol while loading: binding decides between aliases (perf's choose_best_symbol). */
struct sym_ent {
	uint64_t start, end;
	const char *name;
	uint8_t bind; /* STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2 */
	bool kmod;    /* kallsyms entry of a module ("[name]" suffix) */
	uint32_t seq; /* order of appearance: ties between equal starts keep it */
};

struct symbuf {
	struct sym_ent *v;
	size_t nr, alloc;
};

/* A PT_LOAD segment: file offset range -> virtual address. */
struct elf_seg {
	uint64_t vaddr, offset, filesz;
};

#define DSO_MAX_SEGS 16

struct dso_int {
	struct dso pub;
	struct dso_int *hnext; /* hash chain in symtab.dsos */
	uint32_t pid;	       /* JIT maps and [vdso] only */
	uint64_t key;
	struct symbol *syms; /* sorted by start, owned by the symtab's arena */
	size_t nr_syms;
	bool segs_loaded;
	int nr_segs;
	struct elf_seg segs[DSO_MAX_SEGS];
	uint64_t kaddr_ref;		 /* kernel: _text in the running kernel's kallsyms */
	uint64_t kinit_start, kinit_end; /* kernel: _sinittext, _einittext */
	uint64_t mod_start, mod_end;	 /* kernel module: address range from kallsyms */
};

struct symtab {
	char *root;	     /* "" or a --symfs prefix without trailing '/' */
	char *cache_dir;     /* --symfs: <symfs>/.debug; NULL: buildid_cache_dir()'s */
	bool symfs_kernel;   /* --symfs but "/": no kallsyms of this machine or its cache */
	char *kallsyms;	     /* --kallsyms FILE, or NULL */
	bool no_demangle;    /* --no-demangle: names as the symbol tables have them */
	struct arena arena;  /* dsos, symbols, names */
	struct hashmap dsos; /* key hash -> struct dso_int chain */
	struct dso_int *kernel;
	struct dso_int **kmods; /* module dsos from kallsyms, sorted by mod_start */
	size_t nr_kmods;
	struct hashmap jit_seen;	    /* pid -> (void *)1 when /tmp/perf-PID.map was probed */
	struct kallsyms_prefetch *prefetch; /* the kernel's kallsyms being read, or NULL */
};

/* Joins a kallsyms read started by symtab_prefetch_kernel() and frees what it read. */
void kallsyms_prefetch_free(struct symtab *st);

static inline struct dso_int *dso_int(struct dso *d)
{
	return (struct dso_int *)d;
}

/* Appends a symbol (name copied into the arena unless already there). 0 or -ENOMEM. */
int symbuf_add(struct symbuf *sb, uint64_t start, uint64_t end, const char *name, uint8_t bind);
/* Sorts, removes aliases, fixes ends, moves the result into d (arena) and frees sb. */
int symbuf_finish(struct symtab *st, struct dso_int *d, struct symbuf *sb, bool kallsyms);
void symbuf_free(struct symbuf *sb);
/* The same, with PLT symbols (sorted by start) added the way perf adds them; frees plt. */
int symbuf_finish_plt(struct symtab *st, struct dso_int *d, struct symbuf *sb, bool kallsyms,
		      struct symbuf *plt);

/* Path under the symfs root (buf) for an absolute path. */
const char *symtab_path(const struct symtab *st, const char *path, char *buf, size_t len);

/* perf's build-id cache ($PERF_BUILDID_DIR, else $HOME/.debug), in buf; NULL if neither. */
const char *buildid_cache_dir(char *buf, size_t len);
/* The build-id cache st reads (st->cache_dir, else buildid_cache_dir()'s), in buf; or NULL. */
const char *symtab_cache_dir(const struct symtab *st, char *buf, size_t len);
/* <cache>/.build-id/xx/rest/<leaf> for d's build-id, in buf; NULL without one. */
const char *buildid_cache_path(const struct symtab *st, const struct dso *d, const char *leaf,
			       char *buf, size_t len);
/* The cached kallsyms of the kernel whose build-id d has, in buf; NULL if not cached. */
const char *buildid_cache_kallsyms(const struct symtab *st, const struct dso *kernel, char *buf,
				   size_t len);
/* An ELF file opened for reading through libelf (mmap'd): the one way lib/sym opens one. */
struct elf_file {
	int fd;
	Elf *elf;
};

/* 0, -errno, or -ENOEXEC when path is not an ELF object. */
int elf_file_open(const char *path, struct elf_file *ef);
void elf_file_close(struct elf_file *ef);
/* The GNU build-id note of elf (its note sections, else its PT_NOTE segments) into out, cut
 * to outlen bytes. The size, or -ENOENT. */
int elf_build_id(Elf *elf, uint8_t *out, size_t outlen);

/* The vdso image this process runs, which every process of this kernel maps; NULL if none. */
const void *vdso_image(size_t *size);

/* Loaders. Each returns 0 (symbols may still be none) or < 0. */
int elf_load_dso(struct symtab *st, struct dso_int *d);
int elf_load_memory(struct symtab *st, struct dso_int *d, const void *image, size_t size);
int elf_load_segs(struct symtab *st, struct dso_int *d);
int kallsyms_load(struct symtab *st, struct dso_int *kernel);
int jitmap_load(struct symtab *st, struct dso_int *d);
int vdso_load(struct symtab *st, struct dso_int *d);

/* Demangles a C++ or Rust name as perf 6.1 prints it; NULL when not mangled. The caller
 * frees the result with free(). */
char *sym_demangle(const char *name);

#endif
