// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "lib/base/arena.h"

struct arena_block {
	struct arena_block *next;
	size_t size;
	_Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK (256 * 1024)

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_block *b;
	size_t bsize;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!a->head || a->used + size > a->head->size) {
		bsize = size > ARENA_BLOCK / 4 ? size : ARENA_BLOCK;
		b = malloc(sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->size = bsize;
		if (bsize == size && a->head) {
			/* big object: own block behind the current one, keep filling head */
			b->next = a->head->next;
			a->head->next = b;
			a->total += size;
			return b->data;
		}
		b->next = a->head;
		a->head = b;
		a->used = 0;
	}
	p = a->head->data + a->used;
	a->used += size;
	a->total += size;
	return p;
}

void *arena_zalloc(struct arena *a, size_t size)
{
	void *p = arena_alloc(a, size);

	if (p)
		memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void arena_release(struct arena *a)
{
	struct arena_block *b = a->head, *next;

	while (b) {
		next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->used = a->total = 0;
}
