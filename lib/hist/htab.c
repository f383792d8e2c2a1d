// SPDX-License-Identifier: GPL-2.0
/*
 * htab: open-addressing table of (hash, node) pairs (see htab.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "lib/hist/htab.h"

/* The slot of an empty table: probes need no check, htab_put() grows it first. */
static struct htab_slot no_slots[1];

/* Slot arrays of 2 MB and more are mapped on their own and asked for huge pages: probes are
 * random accesses, and with 4 KB pages most of them would also miss the TLB. */
#define HUGE_MIN (2u << 20)

static struct htab_slot *slots_alloc(size_t n)
{
	size_t len = n * sizeof(struct htab_slot);
	void *p;

	if (len < HUGE_MIN)
		return calloc(n, sizeof(struct htab_slot));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, len, MADV_HUGEPAGE); /* a hint: without it the table still works */
	return p;
}

static void slots_free(struct htab_slot *s, size_t n)
{
	size_t len = n * sizeof(*s);

	if (s == no_slots)
		return;
	if (len < HUGE_MIN)
		free(s);
	else
		munmap(s, len);
}

void htab_init(struct htab *t)
{
	*t = (struct htab){ no_slots, 0, 0 };
}

void htab_release(struct htab *t)
{
	if (!t)
		return;
	slots_free(t->s, t->mask + 1);
	htab_init(t);
}

static int grow(struct htab *t)
{
	size_t cap = t->s != no_slots ? t->mask + 1 : 0, ncap = cap ? cap * 2 : 1024, i;
	struct htab n = { slots_alloc(ncap), ncap - 1, t->nr };

	if (!n.s)
		return -ENOMEM;
	for (i = 0; i < cap; i++) {
		size_t j;

		if (!t->s[i].node)
			continue;
		for (j = htab_first(&n, t->s[i].hash); n.s[j].node; j = htab_step(&n, j))
			;
		n.s[j] = t->s[i];
	}
	slots_free(t->s, cap);
	*t = n;
	return 0;
}

int htab_put(struct htab *t, size_t i, uint64_t hash, void *node)
{
	if ((t->nr + 1) * 4 > (t->mask + 1) * 3 || t->s == no_slots) {
		if (grow(t))
			return -ENOMEM;
		for (i = htab_first(t, hash); t->s[i].node; i = htab_step(t, i))
			;
	}
	t->s[i] = (struct htab_slot){ hash, node };
	t->nr++;
	return 0;
}
