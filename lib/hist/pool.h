/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pool: a bump allocator for lib/hist's millions of trie and tree nodes. Memory comes zeroed
 * in mappings of 8 MB asked for huge pages (the nodes are reached at random, and 4 KB pages
 * would add a TLB miss to most visits); objects are 8-byte aligned, never freed singly, all
 * released by pool_release(). pool_alloc() returns NULL when out of memory.
 */
#ifndef FLARE_HIST_POOL_H
#define FLARE_HIST_POOL_H
#include <stddef.h>

struct pool_chunk;

struct pool {
	char *cur, *end;
	struct pool_chunk *chunks;
	size_t total; /* bytes mapped */
};

void *pool_alloc(struct pool *p, size_t size);
void pool_release(struct pool *p);

#endif
