/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arena: a bump allocator for many small objects that die together (symbols, strings,
 * call-graph nodes). arena_release() frees every block at once; nothing is freed singly.
 * Allocation returns NULL when out of memory. Memory is 16-byte aligned.
 */
#ifndef FLARE_BASE_ARENA_H
#define FLARE_BASE_ARENA_H
#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;
	size_t used;  /* bytes used in head */
	size_t total; /* bytes handed out, for memory accounting */
};

#define ARENA_INIT                                                                                 \
	{                                                                                          \
		0                                                                                  \
	}

void *arena_alloc(struct arena *a, size_t size);
void *arena_zalloc(struct arena *a, size_t size);
/* Copies len bytes of s and a NUL into the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t len);
char *arena_strdup(struct arena *a, const char *s);
void arena_release(struct arena *a);

#endif
