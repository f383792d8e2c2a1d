// SPDX-License-Identifier: GPL-2.0
/*
 * htab: open-addressing table of (hash, node) pairs (see htab.h).
 */
#include <errno.h>
#include <stdlib.h>
#include "lib/hist/htab.h"

/* The slot of an empty table: probes need no check, htab_put() grows it first. */
static struct htab_slot no_slots[1];

void htab_init(struct htab *t)
{
	*t = (struct htab){ no_slots, 0, 0 };
}

void htab_release(struct htab *t)
{
	if (!t)
		return;
	if (t->s != no_slots)
		free(t->s);
	htab_init(t);
}

static int grow(struct htab *t)
{
	size_t cap = t->s != no_slots ? t->mask + 1 : 0, ncap = cap ? cap * 2 : 1024, i;
	struct htab n = { calloc(ncap, sizeof(*n.s)), ncap - 1, t->nr };

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
	if (t->s != no_slots)
		free(t->s);
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
