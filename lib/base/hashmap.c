// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/hashmap.h"

uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

uint64_t hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	while (len--) {
		h ^= *s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t hash_str(const char *s)
{
	return hash_bytes(s, strlen(s));
}

static size_t find(const struct hashmap *m, uint64_t key, bool *found)
{
	size_t mask = m->cap - 1;
	size_t i = hash_u64(key) & mask;

	while (m->used[i]) {
		if (m->keys[i] == key) {
			*found = true;
			return i;
		}
		i = (i + 1) & mask;
	}
	*found = false;
	return i;
}

static int grow(struct hashmap *m)
{
	struct hashmap n = { 0 };
	size_t i;
	bool f;

	n.cap = m->cap ? m->cap * 2 : 16;
	n.keys = malloc(n.cap * sizeof(*n.keys));
	n.vals = malloc(n.cap * sizeof(*n.vals));
	n.used = calloc(n.cap, 1);
	if (!n.keys || !n.vals || !n.used) {
		free(n.keys);
		free(n.vals);
		free(n.used);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->used[i])
			continue;
		j = find(&n, m->keys[i], &f);
		n.used[j] = 1;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	n.nr = m->nr;
	hashmap_release(m);
	*m = n;
	return 0;
}

void **hashmap_slot(struct hashmap *m, uint64_t key)
{
	size_t i;
	bool f;

	if ((m->nr + 1) * 4 > m->cap * 3 && grow(m))
		return NULL;
	i = find(m, key, &f);
	if (!f) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->vals[i] = NULL;
		m->nr++;
	}
	return &m->vals[i];
}

int hashmap_put(struct hashmap *m, uint64_t key, void *val)
{
	void **slot = hashmap_slot(m, key);

	if (!slot)
		return -ENOMEM;
	*slot = val;
	return 0;
}

bool hashmap_get(const struct hashmap *m, uint64_t key, void **val)
{
	size_t i;
	bool f;

	if (!m->cap)
		return false;
	i = find(m, key, &f);
	if (f && val)
		*val = m->vals[i];
	return f;
}

bool hashmap_del(struct hashmap *m, uint64_t key)
{
	size_t mask, i, j;
	bool f;

	if (!m->cap)
		return false;
	i = find(m, key, &f);
	if (!f)
		return false;
	/* backward-shift deletion keeps probe chains intact */
	mask = m->cap - 1;
	m->used[i] = 0;
	m->nr--;
	for (j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
		uint64_t k = m->keys[j];
		void *v = m->vals[j];

		m->used[j] = 0;
		m->nr--;
		*hashmap_slot(m, k) = v; /* cannot grow: nr just dropped */
	}
	return true;
}

bool hashmap_next(const struct hashmap *m, size_t *iter, uint64_t *key, void **val)
{
	while (*iter < m->cap) {
		size_t i = (*iter)++;

		if (m->used[i]) {
			if (key)
				*key = m->keys[i];
			if (val)
				*val = m->vals[i];
			return true;
		}
	}
	return false;
}

void hashmap_release(struct hashmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}
