/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysnames: x86_64 syscall names and numbers (a table generated at build time from the
 * installed asm/unistd_64.h), and the -e/--expr syscall list: names and globs, a leading '!'
 * negating the whole list, as perf trace reads it. Static data only; nothing to free.
 */
#ifndef FLARE_SYSTRACE_SYSNAMES_H
#define FLARE_SYSTRACE_SYSNAMES_H
#include <stdbool.h>
#include <stddef.h>

#define SYSNAMES_MAX 512

/* The name of syscall nr, or NULL. */
const char *sysname(int nr);
/* The number of name (perf's aliases too: "stat" for newstat...), or -ENOENT. */
int sysnr(const char *name);

/*
 * Parses a comma-separated list of syscall names and globs ("open*,close", "!read,write")
 * into sel[SYSNAMES_MAX] (true: traced). An empty or NULL list selects all. Returns 0, or
 * -ENOENT with *bad pointing to a static copy of the first name that matches nothing.
 */
int sysnames_select(const char *list, bool *sel, const char **bad);

/* Up to max names closest to name (edit distance), into out; returns how many. */
size_t sysnames_closest(const char *name, const char **out, size_t max);

#endif
