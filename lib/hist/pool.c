// SPDX-License-Identifier: GPL-2.0
/*
 * pool: zeroed, huge-page backed bump allocation for hist nodes (see pool.h).
 */
#include <string.h>
#include <sys/mman.h>
#include "lib/hist/pool.h"

#define POOL_CHUNK (8u << 20)

struct pool_chunk {
	struct pool_chunk *next;
	size_t len;
};

void *pool_alloc(struct pool *p, size_t size)
{
	void *ret;

	size = (size + 7) & ~(size_t)7;
	if ((size_t)(p->end - p->cur) < size) {
		size_t len = size + sizeof(struct pool_chunk) > POOL_CHUNK
				     ? size + sizeof(struct pool_chunk)
				     : POOL_CHUNK;
		struct pool_chunk *c = mmap(NULL, len, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (c == MAP_FAILED)
			return NULL;
		madvise(c, len, MADV_HUGEPAGE); /* a hint only */
		c->next = p->chunks;
		c->len = len;
		p->chunks = c;
		p->total += len;
		p->cur = (char *)(c + 1);
		p->end = (char *)c + len;
	}
	ret = p->cur;
	p->cur += size;
	return ret;
}

void pool_release(struct pool *p)
{
	struct pool_chunk *c, *next;

	if (!p)
		return;
	for (c = p->chunks; c; c = next) {
		next = c->next;
		munmap(c, c->len);
	}
	memset(p, 0, sizeof(*p));
}
