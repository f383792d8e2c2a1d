/* SPDX-License-Identifier: GPL-2.0 */
/*
 * objfile: an ELF object opened for disassembly, as objdump sees it: the bytes of its
 * sections by virtual address (a vmlinux or /proc/kcore without sections: by its PT_LOAD
 * segments), the section's name, and its symbols (all of .symtab, else .dynsym, plus a
 * "name@plt" per PLT entry, named by the relocation of the GOT slot it jumps through, as
 * objdump makes them) for naming addresses "<sym+0xoff>" with names demangled as objdump -C
 * prints them.
 *
 * An objfile owns its descriptor, the libelf handle and the symbol array; objfile_free()
 * releases all. Returned pointers live until then.
 */
#ifndef FLARE_ANNOTATE_OBJFILE_H
#define FLARE_ANNOTATE_OBJFILE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct objfile;

/* 0, -errno, -ENOEXEC (not ELF) or -ENOMEM. */
int objfile_open(const char *path, struct objfile **ret);
void objfile_free(struct objfile *o);
const char *objfile_path(const struct objfile *o);

/* Adds a symbol for naming (the synthetic "name@plt" entries objdump makes too); a mangled
 * name is demangled before its "@..." suffix. */
int objfile_add_sym(struct objfile *o, uint64_t addr, const char *name);

/* The symbols of the separate debug file at path, in place of the .dynsym ones when the object
 * has no .symtab of its own (objdump -S reads them). 0, -errno or -ENOEXEC. */
int objfile_add_debug_syms(struct objfile *o, const char *path);

/* The bytes at addr: a pointer to them, with *avail the bytes that follow in the same section
 * or segment (of a segment read on demand, at most 1 MiB, valid until the next call), and
 * *section its name (".text" for a segment, as perf's extract of kcore names it). NULL when
 * no section holds addr or it has no bytes in the file (.bss). */
const uint8_t *objfile_code(struct objfile *o, uint64_t addr, size_t *avail, const char **section);

/* The address and size of the section called name; false when there is none. */
bool objfile_section(const struct objfile *o, const char *name, uint64_t *addr, uint64_t *size);

/* The address of the first symbol called name; false when there is none. */
bool objfile_symbol_addr(struct objfile *o, const char *name, uint64_t *addr);

/* The symbol naming addr as objdump does (the nearest at or before it, preferring one of the
 * same section, a function, a global): its name and start, or NULL. A disasm_sym_fn. */
const char *objfile_sym(void *o, uint64_t addr, uint64_t *start);

/* The name of a symbol that starts exactly at addr (objdump's "<name>:" label), or NULL. */
const char *objfile_label(struct objfile *o, uint64_t addr);

#endif
