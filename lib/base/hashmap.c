// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/hashmap.h"

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

	while (m->slots[i].used) {
		if (m->slots[i].key == key) {
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
	n.slots = calloc(n.cap, sizeof(*n.slots));
	if (!n.slots)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].used)
			n.slots[find(&n, m->slots[i].key, &f)] = m->slots[i];
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
		m->slots[i] = (struct hashmap_slot){ .key = key, .used = true };
		m->nr++;
	}
	return &m->slots[i].val;
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
		*val = m->slots[i].val;
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
	m->slots[i].used = false;
	m->nr--;
	for (j = (i + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
		struct hashmap_slot sl = m->slots[j];

		m->slots[j].used = false;
		m->nr--;
		*hashmap_slot(m, sl.key) = sl.val; /* cannot grow: nr just dropped */
	}
	return true;
}

bool hashmap_next(const struct hashmap *m, size_t *iter, uint64_t *key, void **val)
{
	while (*iter < m->cap) {
		size_t i = (*iter)++;

		if (m->slots[i].used) {
			if (key)
				*key = m->slots[i].key;
			if (val)
				*val = m->slots[i].val;
			return true;
		}
	}
	return false;
}

void hashmap_release(struct hashmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
