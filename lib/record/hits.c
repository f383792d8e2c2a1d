// SPDX-License-Identifier: GPL-2.0
/*
 * hits: dsos hit by samples (see hits.h). Per process a list of mappings; one dso entry per
 * file name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/hashmap.h"
#include "lib/base/vec.h"
#include "lib/data/format.h"
#include "lib/record/hits.h"
#include "lib/sym/sym.h"

struct hmap {
	uint64_t start, end;
	size_t dso;
};

struct pmaps {
	VEC(struct hmap) maps;
	size_t last; /* index of the last map hit: samples come in runs */
};

struct hdso {
	char *name;
	bool hit;
};

struct hits {
	struct hashmap procs; /* pid -> struct pmaps * */
	struct hashmap names; /* hash of name -> dso index + 1 (collisions: linear search) */
	VEC(struct hdso) dsos;
	bool kernel_hit;
};

int hits_new(struct hits **ret)
{
	*ret = calloc(1, sizeof(**ret));
	return *ret ? 0 : -ENOMEM;
}

static void pmaps_free(struct pmaps *pm)
{
	if (pm)
		vec_free(&pm->maps);
	free(pm);
}

void hits_free(struct hits *h)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!h)
		return;
	while (hashmap_next(&h->procs, &i, &k, &v))
		pmaps_free(v);
	hashmap_release(&h->procs);
	hashmap_release(&h->names);
	for (i = 0; i < h->dsos.nr; i++)
		free(h->dsos.items[i].name);
	vec_free(&h->dsos);
	free(h);
}

static struct pmaps *proc_of(struct hits *h, uint32_t pid, bool create)
{
	void **slot, *v;

	if (!create)
		return hashmap_get(&h->procs, pid, &v) ? v : NULL;
	slot = hashmap_slot(&h->procs, pid);
	if (!slot)
		return NULL;
	if (!*slot)
		*slot = calloc(1, sizeof(struct pmaps));
	return *slot;
}

static int dso_index(struct hits *h, const char *name, size_t *idx)
{
	uint64_t key = hash_str(name);
	struct hdso d;
	void *v;
	size_t i;

	if (hashmap_get(&h->names, key, &v) &&
	    !strcmp(h->dsos.items[(uintptr_t)v - 1].name, name)) {
		*idx = (uintptr_t)v - 1;
		return 0;
	}
	for (i = 0; i < h->dsos.nr; i++)
		if (!strcmp(h->dsos.items[i].name, name)) {
			*idx = i;
			return 0;
		}
	d.name = strdup(name);
	d.hit = false;
	if (!d.name || vec_push(&h->dsos, d)) {
		free(d.name);
		return -ENOMEM;
	}
	*idx = h->dsos.nr - 1;
	return hashmap_put(&h->names, key, (void *)(uintptr_t)(*idx + 1));
}

static int add_map(struct hits *h, uint32_t pid, uint64_t start, uint64_t len, const char *name)
{
	struct pmaps *pm;
	struct hmap m;
	size_t i;
	int err;

	if (pid == (uint32_t)-1 || !len)
		return 0; /* the kernel map */
	pm = proc_of(h, pid, true);
	if (!pm)
		return -ENOMEM;
	m.start = start;
	m.end = start + len;
	err = dso_index(h, name, &m.dso);
	if (err)
		return err;
	/* a new mapping replaces what it overlaps */
	for (i = 0; i < pm->maps.nr;) {
		struct hmap *o = &pm->maps.items[i];

		if (o->start < m.end && m.start < o->end)
			*o = pm->maps.items[--pm->maps.nr];
		else
			i++;
	}
	return vec_push(&pm->maps, m);
}

static int copy_maps(struct hits *h, uint32_t child, uint32_t parent)
{
	struct pmaps *pp = proc_of(h, parent, false), *pc;

	if (!pp || child == parent)
		return 0;
	pc = proc_of(h, child, true);
	if (!pc)
		return -ENOMEM;
	pc->maps.nr = 0;
	if (vec_reserve(&pc->maps, pp->maps.nr))
		return -ENOMEM;
	memcpy(pc->maps.items, pp->maps.items, pp->maps.nr * sizeof(struct hmap));
	pc->maps.nr = pp->maps.nr;
	return 0;
}

int hits_record(struct hits *h, const struct perf_event_header *ev)
{
	const char *p = (const char *)(ev + 1);
	uint32_t pid, ppid, tid;
	uint64_t start, len;
	struct pmaps *pm;

	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if ((ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
			return 0;
		if (ev->misc & PERF_RECORD_MISC_MMAP_DATA)
			return 0; /* -d: samples' ips are never in data mappings */
		memcpy(&pid, p, 4);
		memcpy(&start, p + 8, 8);
		memcpy(&len, p + 16, 8);
		p += ev->type == PERF_RECORD_MMAP ? 32 : 64;
		if ((size_t)(p - (const char *)ev) >= ev->size)
			return 0;
		return add_map(h, pid, start, len, p);
	case PERF_RECORD_FORK:
		memcpy(&pid, p, 4);
		memcpy(&ppid, p + 4, 4);
		memcpy(&tid, p + 8, 4);
		return pid == tid ? copy_maps(h, pid, ppid) : 0;
	case PERF_RECORD_COMM:
		if (!(ev->misc & PERF_RECORD_MISC_COMM_EXEC))
			return 0;
		memcpy(&pid, p, 4);
		pm = proc_of(h, pid, false);
		if (pm)
			pm->maps.nr = 0;
		return 0;
	default:
		return 0;
	}
}

void hits_sample(struct hits *h, uint32_t pid, uint64_t ip, uint16_t cpumode)
{
	struct pmaps *pm;
	struct hmap *m;
	size_t i;

	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		h->kernel_hit = true;
		return;
	}
	pm = proc_of(h, pid, false);
	if (!pm || !pm->maps.nr)
		return;
	if (pm->last < pm->maps.nr) {
		m = &pm->maps.items[pm->last];
		if (ip >= m->start && ip < m->end) {
			h->dsos.items[m->dso].hit = true;
			return;
		}
	}
	for (i = 0; i < pm->maps.nr; i++) {
		m = &pm->maps.items[i];
		if (ip >= m->start && ip < m->end) {
			h->dsos.items[m->dso].hit = true;
			pm->last = i;
			return;
		}
	}
}

typedef VEC(struct pw_buildid) bidvec;

static int add_buildid(bidvec *out, const char *name, uint16_t cpumode)
{
	struct pw_buildid b = { 0 };
	int n = buildid_of(name, b.id, sizeof(b.id));

	if (n <= 0)
		return 0; /* no build-id: perf leaves such a dso out too */
	b.size = (uint8_t)n;
	b.cpumode = cpumode;
	b.filename = strdup(name);
	if (!b.filename || vec_push(out, b)) {
		free((char *)b.filename);
		return -ENOMEM;
	}
	return 0;
}

int hits_buildids(struct hits *h, struct pw_buildid **ret, size_t *nr)
{
	bidvec out = VEC_INIT;
	size_t i;
	int err = 0;

	if (h->kernel_hit)
		err = add_buildid(&out, "[kernel.kallsyms]", PERF_RECORD_MISC_KERNEL);
	for (i = 0; i < h->dsos.nr && !err; i++) {
		const char *name = h->dsos.items[i].name;

		if (h->dsos.items[i].hit || !strcmp(name, "[vdso]"))
			err = add_buildid(&out, name, PERF_RECORD_MISC_USER);
	}
	if (err) {
		hits_buildids_free(out.items, out.nr);
		return err;
	}
	*ret = out.items;
	*nr = out.nr;
	return 0;
}

void hits_buildids_free(struct pw_buildid *b, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free((char *)b[i].filename);
	free(b);
}
