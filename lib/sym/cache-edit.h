/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache-edit: listing and removing what perf's build-id cache holds (the layout is described
 * in lib/sym/cache.c, which adds to it). Every function works on buildid_cache_dir().
 */
#ifndef FLARE_SYM_CACHE_EDIT_H
#define FLARE_SYM_CACHE_EDIT_H
#include <stddef.h>
#include <stdint.h>

/* The cache directory ($PERF_BUILDID_DIR, else $HOME/.debug) in buf; NULL without either
 * (lib/sym/cache.c). */
const char *buildid_cache_dir(char *buf, size_t len);

/* Called for each cached object: its build-id in hex and the name it was cached under (a path,
 * or "[kernel.kallsyms]"). A non-zero return stops the walk and is returned. */
typedef int (*buildid_cache_cb)(void *ctx, const char *hex, const char *name);

/* Every object cached (not the vdso, as perf's list), in build-id order. 0, -ENOENT without a
 * cache directory, -ENOMEM, or cb's value. */
int buildid_cache_list(buildid_cache_cb cb, void *ctx);
/* Removes the copy of name with build-id hex and the link to it. 0, or -ENOENT when that
 * build of name is not cached. */
int buildid_cache_remove(const char *name, const char *hex);
/* Removes every cached build of name. Returns how many were removed, or < 0. */
int buildid_cache_purge(const char *name);

#endif
