/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineinfo: where an address of an object comes from, as objdump -l finds it: the source file
 * and line of the line-table row holding it (with its discriminator), and the function it
 * lies in (the innermost inlined one), read through libdwfl from the object's DWARF or its
 * separate debug file (by build-id or .gnu_debuglink); and the text of source files, line by
 * line, for objdump -S's interleaving.
 *
 * This is annotate's own small interface to line tables; lib/sym will get a shared one
 * (srcline) that this should then call.
 *
 * A lineinfo owns its libdwfl session and the source files it read; lineinfo_free() releases
 * them; returned strings live until then.
 */
#ifndef FLARE_ANNOTATE_LINEINFO_H
#define FLARE_ANNOTATE_LINEINFO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lineinfo;

struct line_loc {
	const char *file;   /* as the line table names it; NULL when unknown */
	unsigned int line;  /* 0 when unknown */
	unsigned int discr; /* discriminator, 0 when none */
	const char *func;   /* innermost function or inlined function; NULL when unknown */
};

/* 0, or -ENOENT when the object has no line tables, -ENOMEM. */
int lineinfo_open(const char *path, struct lineinfo **ret);
void lineinfo_free(struct lineinfo *li);

/* The file the line tables came from (the object or its separate debug file), or NULL. */
const char *lineinfo_debug_file(struct lineinfo *li);

/* The location of addr (the object's own virtual address). False when none is known. */
bool lineinfo_find(struct lineinfo *li, uint64_t addr, struct line_loc *loc);

/* Line n (1-based) of source file path, without its newline, or NULL when the file cannot be
 * read or is shorter. */
const char *lineinfo_source_line(struct lineinfo *li, const char *path, unsigned int n);

#endif
