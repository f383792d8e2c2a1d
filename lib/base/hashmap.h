/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hashmap: open-addressing map from a u64 key to a void * value. The map owns its slot array
 * only; keys are plain numbers and values are whatever the caller owns. For string keys, hash
 * with hash_str() and keep colliding strings apart in the value (or use a u64 id).
 * Key 0 is allowed. Functions that can allocate return 0 or -ENOMEM.
 */
#ifndef FLARE_BASE_HASHMAP_H
#define FLARE_BASE_HASHMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A slot holds its key, value and whether it is taken together: one probe, one cache line. */
struct hashmap_slot {
	uint64_t key;
	void *val;
	bool used;
};

struct hashmap {
	struct hashmap_slot *slots;
	size_t cap; /* power of two, or 0 */
	size_t nr;
};

#define HASHMAP_INIT                                                                               \
	{                                                                                          \
		0                                                                                  \
	}

/* Sets key to val, replacing any value there. */
int hashmap_put(struct hashmap *m, uint64_t key, void *val);
/* Returns true and *val when key is present (val may be NULL). */
bool hashmap_get(const struct hashmap *m, uint64_t key, void **val);
/* Pointer to the value slot of key, inserting NULL first if absent; NULL only on -ENOMEM. */
void **hashmap_slot(struct hashmap *m, uint64_t key);
bool hashmap_del(struct hashmap *m, uint64_t key);
void hashmap_release(struct hashmap *m);

/* Iterate: for (size_t i = 0; hashmap_next(m, &i, &k, &v); ) */
bool hashmap_next(const struct hashmap *m, size_t *iter, uint64_t *key, void **val);

/* A 64-bit mix (murmur3's finalizer); inline, it is in every hot lookup. */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}
uint64_t hash_bytes(const void *p, size_t len);
uint64_t hash_str(const char *s);

#endif
