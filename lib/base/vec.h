/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vec: a typed growable array. Declare with VEC(type) name = VEC_INIT; the vec owns its
 * items array; vec_free() frees it (not what the items point to).
 *   if (vec_push(&v, item)) return -ENOMEM;
 */
#ifndef FLARE_BASE_VEC_H
#define FLARE_BASE_VEC_H
#include <errno.h>
#include <stdlib.h>

#define VEC(type)                                                                                  \
	struct {                                                                                   \
		type *items;                                                                       \
		size_t nr, alloc;                                                                  \
	}
#define VEC_INIT                                                                                   \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Makes room for n more items; 0 or -ENOMEM. */
#define vec_reserve(v, n)                                                                          \
	vec_reserve_((void **)&(v)->items, &(v)->alloc, (v)->nr + (n), sizeof(*(v)->items))
#define vec_push(v, item) (vec_reserve(v, 1) ? -ENOMEM : ((v)->items[(v)->nr++] = (item), 0))
#define vec_free(v)                                                                                \
	do {                                                                                       \
		free((v)->items);                                                                  \
		(v)->items = NULL;                                                                 \
		(v)->nr = (v)->alloc = 0;                                                          \
	} while (0)

static inline int vec_reserve_(void **items, size_t *alloc, size_t want, size_t size)
{
	size_t n;
	void *p;

	if (want <= *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 8;
	while (n < want)
		n *= 2;
	p = realloc(*items, n * size);
	if (!p)
		return -ENOMEM;
	*items = p;
	*alloc = n;
	return 0;
}

#endif
