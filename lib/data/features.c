// SPDX-License-Identifier: GPL-2.0
/*
 * features: decoding of the feature payloads into struct pd_features. Payloads are packed
 * (unaligned) and every count and length is checked against the payload size.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/data/features.h"
#include "lib/data/reader-priv.h"

int pd_desc_iter_init(struct pd_desc_iter *it, const void *payload, size_t size)
{
	memset(it, 0, sizeof(*it));
	if (size < 8)
		return -ERR_FORMAT;
	it->p = (const uint8_t *)payload + 8;
	it->end = (const uint8_t *)payload + size;
	it->nr = pd_u32(payload);
	it->attr_size = pd_u32((const uint8_t *)payload + 4);
	if (it->attr_size < PERF_ATTR_SIZE_VER0 || it->attr_size > 4096)
		return -ERR_FORMAT;
	return 0;
}

int pd_desc_iter_next(struct pd_desc_iter *it, struct pd_desc_event *e)
{
	size_t left = it->end - it->p, n;
	uint32_t len;

	if (it->i >= it->nr)
		return 0;
	memset(e, 0, sizeof(*e));
	if (left < (size_t)it->attr_size + 8)
		return -ERR_FORMAT;
	n = it->attr_size < sizeof(e->attr) ? it->attr_size : sizeof(e->attr);
	memcpy(&e->attr, it->p, n);
	it->p += it->attr_size;
	e->nr_ids = pd_u32(it->p);
	len = pd_u32(it->p + 4);
	it->p += 8;
	left = it->end - it->p;
	if (len == 0 || len > left || !memchr(it->p, 0, len))
		return -ERR_FORMAT;
	e->name = (const char *)it->p;
	it->p += len;
	left -= len;
	if (e->nr_ids > left / 8)
		return -ERR_FORMAT;
	e->ids = it->p;
	it->p += (size_t)e->nr_ids * 8;
	it->i++;
	return 1;
}

/* A bounds-checked cursor over a payload; a failed read sets bad and yields zeros. */
struct fc {
	const uint8_t *p, *end;
	bool bad;
	struct arena *a;
};

static uint32_t fc_u32(struct fc *c)
{
	uint32_t v;

	if (c->bad || c->end - c->p < 4) {
		c->bad = true;
		return 0;
	}
	v = pd_u32(c->p);
	c->p += 4;
	return v;
}

static uint64_t fc_u64(struct fc *c)
{
	uint64_t v;

	if (c->bad || c->end - c->p < 8) {
		c->bad = true;
		return 0;
	}
	v = pd_u64(c->p);
	c->p += 8;
	return v;
}

/* perf's {u32 len; char str[len]} (NUL-padded); an arena copy, "" after a failure. */
static char *fc_str(struct fc *c)
{
	uint32_t len = fc_u32(c);
	char *s;

	if (c->bad || len > (size_t)(c->end - c->p)) {
		c->bad = true;
		return (char *)"";
	}
	s = arena_strndup(c->a, (const char *)c->p, strnlen((const char *)c->p, len));
	c->p += len;
	if (!s) {
		c->bad = true;
		return (char *)"";
	}
	return s;
}

/* Room for n items of at least min_size payload bytes each, allocated zeroed. */
static void *fc_array(struct fc *c, uint32_t n, size_t min_size, size_t item)
{
	void *v;

	if (c->bad || (min_size && n > (size_t)(c->end - c->p) / min_size)) {
		c->bad = true;
		return NULL;
	}
	v = arena_zalloc(c->a, (size_t)n * item + 1);
	if (!v)
		c->bad = true;
	return v;
}

static char **fc_strlist(struct fc *c, uint32_t *nr)
{
	uint32_t n = fc_u32(c), i;
	char **v = fc_array(c, n, 4, sizeof(char *));

	*nr = 0;
	if (!v)
		return NULL;
	for (i = 0; i < n && !c->bad; i++)
		v[i] = fc_str(c);
	if (!c->bad)
		*nr = n;
	return v;
}

static void dec_cmdline(struct fc *c, struct pd_features *f)
{
	f->cmdline = fc_strlist(c, &f->nr_cmdline);
}

static void dec_event_desc(struct fc *c, struct pd_features *f)
{
	struct pd_desc_iter it;
	struct pd_desc_event e;
	uint32_t i = 0, j;

	if (pd_desc_iter_init(&it, c->p, c->end - c->p)) {
		c->bad = true;
		return;
	}
	f->events = fc_array(c, it.nr, 8 + it.attr_size, sizeof(*f->events));
	if (!f->events)
		return;
	while (pd_desc_iter_next(&it, &e) > 0) {
		struct pd_feat_event *d = &f->events[i++];

		d->name = arena_strdup(c->a, e.name);
		d->attr = e.attr;
		d->nr_ids = e.nr_ids;
		d->ids = arena_alloc(c->a, (size_t)e.nr_ids * 8 + 8);
		if (!d->name || !d->ids) {
			c->bad = true;
			return;
		}
		for (j = 0; j < e.nr_ids; j++)
			d->ids[j] = pd_u64(e.ids + 8 * j);
	}
	f->nr_events = i;
	if (i != it.nr)
		c->bad = true;
}

static void dec_cpu_topology(struct fc *c, struct pd_features *f)
{
	uint32_t i, n = f->nr_cpus_avail;

	f->core_siblings = fc_strlist(c, &f->nr_core_siblings);
	f->thread_siblings = fc_strlist(c, &f->nr_thread_siblings);
	if (c->bad || c->p == c->end || !f->has_nrcpus)
		return;
	f->cpus = fc_array(c, n, 8, sizeof(*f->cpus));
	for (i = 0; f->cpus && i < n; i++) {
		f->cpus[i].core_id = fc_u32(c);
		f->cpus[i].socket_id = fc_u32(c);
	}
	if (c->bad)
		return;
	f->nr_cpus = n;
	if (c->p == c->end)
		return;
	f->die_siblings = fc_strlist(c, &f->nr_die_siblings);
	for (i = 0; i < n && !c->bad; i++)
		f->cpus[i].die_id = fc_u32(c);
	f->has_die = !c->bad;
}

static void dec_numa(struct fc *c, struct pd_features *f)
{
	uint32_t n = fc_u32(c), i;

	f->numa = fc_array(c, n, 24, sizeof(*f->numa));
	for (i = 0; f->numa && i < n && !c->bad; i++) {
		f->numa[i].node = fc_u32(c);
		f->numa[i].mem_total = fc_u64(c);
		f->numa[i].mem_free = fc_u64(c);
		f->numa[i].cpus = fc_str(c);
	}
	if (!c->bad)
		f->nr_numa = n;
}

static void dec_pmu_mappings(struct fc *c, struct pd_features *f)
{
	uint32_t n = fc_u32(c), i;

	f->pmus = fc_array(c, n, 8, sizeof(*f->pmus));
	for (i = 0; f->pmus && i < n && !c->bad; i++) {
		f->pmus[i].type = fc_u32(c);
		f->pmus[i].name = fc_str(c);
	}
	if (!c->bad)
		f->nr_pmus = n;
}

static void dec_group_desc(struct fc *c, struct pd_features *f)
{
	uint32_t n = fc_u32(c), i;

	f->groups = fc_array(c, n, 12, sizeof(*f->groups));
	for (i = 0; f->groups && i < n && !c->bad; i++) {
		f->groups[i].name = fc_str(c);
		f->groups[i].leader_idx = fc_u32(c);
		f->groups[i].nr_members = fc_u32(c);
	}
	if (!c->bad)
		f->nr_groups = n;
}

static void dec_cache(struct fc *c, struct pd_features *f)
{
	uint32_t n, i;

	if (fc_u32(c) != 1) {
		c->bad = true;
		return;
	}
	n = fc_u32(c);
	f->caches = fc_array(c, n, 28, sizeof(*f->caches));
	for (i = 0; f->caches && i < n && !c->bad; i++) {
		struct pd_feat_cache *k = &f->caches[i];

		k->level = fc_u32(c);
		k->line_size = fc_u32(c);
		k->sets = fc_u32(c);
		k->ways = fc_u32(c);
		k->type = fc_str(c);
		k->size = fc_str(c);
		k->map = fc_str(c);
	}
	if (!c->bad)
		f->nr_caches = n;
}

/* BUILD_ID entries: {header; s32 pid; u8 build_id[20]; u8 size; u8 pad[3]; char filename[]} */
int pd_build_id_next(const void *payload, size_t size, size_t *pos, struct pd_build_id_entry *e)
{
	const uint8_t *p = (const uint8_t *)payload + *pos;
	uint16_t esize;

	if (*pos > size || size - *pos < 36)
		return 0;
	memcpy(&esize, p + 6, 2);
	if (esize < 36 || esize > size - *pos)
		return 0;
	memcpy(&e->misc, p + 4, 2);
	memcpy(&e->pid, p + 8, 4);
	e->build_id = p + 12;
	e->size = (e->misc & PERF_RECORD_MISC_BUILD_ID_SIZE) && p[32] <= 20 ? p[32] : 20;
	e->filename = (const char *)p + 36;
	e->filename_len = strnlen(e->filename, esize - 36u);
	e->terminated = e->filename_len < esize - 36u;
	*pos += esize;
	return 1;
}

static void dec_build_ids(struct fc *c, struct pd_features *f)
{
	struct pd_build_id_entry e;
	size_t size = (size_t)(c->end - c->p), pos = 0;
	uint32_t n = 0, i;

	while (pd_build_id_next(c->p, size, &pos, &e))
		n++;
	f->build_ids = fc_array(c, n, 0, sizeof(*f->build_ids));
	for (i = 0, pos = 0; f->build_ids && i < n; i++) {
		struct pd_feat_build_id *b = &f->build_ids[i];

		pd_build_id_next(c->p, size, &pos, &e);
		b->misc = e.misc;
		b->pid = e.pid;
		memcpy(b->build_id, e.build_id, 20);
		b->size = e.size;
		b->filename = arena_strndup(c->a, e.filename, e.filename_len);
		if (!b->filename) {
			c->bad = true;
			return;
		}
	}
	c->p += pos;
	f->nr_build_ids = n;
}

static void dec_mem_topology(struct fc *c, struct pd_features *f)
{
	uint64_t n, i, j, words;

	if (fc_u64(c) != 1) {
		c->bad = true;
		return;
	}
	f->mem_block_size = fc_u64(c);
	n = fc_u64(c);
	if (n > UINT32_MAX)
		c->bad = true;
	f->mem_nodes = fc_array(c, n, 24, sizeof(*f->mem_nodes));
	for (i = 0; f->mem_nodes && i < n && !c->bad; i++) {
		struct pd_feat_mem_node *m = &f->mem_nodes[i];
		uint64_t nbits, count = 0;
		struct strbuf_lite {
			char buf[256];
			size_t len;
		} s = { "", 0 };
		int64_t run = -1;

		m->node = fc_u64(c);
		m->size = fc_u64(c);
		nbits = fc_u64(c);
		words = (nbits + 63) / 64;
		if (words > (uint64_t)(c->end - c->p) / 8) {
			c->bad = true;
			break;
		}
		for (j = 0; j <= nbits; j++) {
			bool set = j < nbits && (pd_u64(c->p + (j / 64) * 8) >> (j % 64)) & 1;

			count += set;
			if (set && run < 0)
				run = j;
			if (!set && run >= 0 && s.len < sizeof(s.buf) - 48) {
				const char *sep = s.len ? "," : "";

				if (run == (int64_t)j - 1)
					s.len += snprintf(s.buf + s.len, sizeof(s.buf) - s.len,
							  "%s%lld", sep, (long long)run);
				else
					s.len += snprintf(s.buf + s.len, sizeof(s.buf) - s.len,
							  "%s%lld-%lld", sep, (long long)run,
							  (long long)j - 1);
			}
			if (!set)
				run = -1;
		}
		c->p += words * 8;
		m->size = count;
		m->blocks = arena_strdup(c->a, s.buf);
	}
	if (!c->bad)
		f->nr_mem_nodes = n;
}

/* The features that are one string, and where they go. */
static const struct {
	int feat;
	size_t off;
} str_feats[] = {
	{ FEAT_HOSTNAME, offsetof(struct pd_features, hostname) },
	{ FEAT_OSRELEASE, offsetof(struct pd_features, osrelease) },
	{ FEAT_VERSION, offsetof(struct pd_features, version) },
	{ FEAT_ARCH, offsetof(struct pd_features, arch) },
	{ FEAT_CPUDESC, offsetof(struct pd_features, cpudesc) },
	{ FEAT_CPUID, offsetof(struct pd_features, cpuid) },
};

static void dec_feature(struct fc *c, int feat, struct pd_features *f)
{
	size_t i;

	for (i = 0; i < sizeof(str_feats) / sizeof(str_feats[0]); i++)
		if (str_feats[i].feat == feat)
			*(char **)((char *)f + str_feats[i].off) = fc_str(c);
	switch (feat) {
	case FEAT_NRCPUS:
		f->nr_cpus_avail = fc_u32(c);
		f->nr_cpus_online = fc_u32(c);
		f->has_nrcpus = !c->bad;
		break;
	case FEAT_TOTAL_MEM:
		f->total_mem = fc_u64(c);
		break;
	case FEAT_CMDLINE:
		dec_cmdline(c, f);
		break;
	case FEAT_EVENT_DESC:
		dec_event_desc(c, f);
		break;
	case FEAT_CPU_TOPOLOGY:
		dec_cpu_topology(c, f);
		break;
	case FEAT_NUMA_TOPOLOGY:
		dec_numa(c, f);
		break;
	case FEAT_PMU_MAPPINGS:
		dec_pmu_mappings(c, f);
		break;
	case FEAT_GROUP_DESC:
		dec_group_desc(c, f);
		break;
	case FEAT_CACHE:
		dec_cache(c, f);
		break;
	case FEAT_SAMPLE_TIME:
		f->first_sample_time = fc_u64(c);
		f->last_sample_time = fc_u64(c);
		f->has_sample_time = !c->bad;
		break;
	case FEAT_BUILD_ID:
		dec_build_ids(c, f);
		break;
	case FEAT_MEM_TOPOLOGY:
		dec_mem_topology(c, f);
		break;
	case FEAT_CLOCKID:
		f->clockid_res_ns = fc_u64(c);
		f->has_clockid = !c->bad;
		break;
	case FEAT_CLOCK_DATA:
		fc_u32(c); /* version */
		f->clock_data_clockid = fc_u32(c);
		f->clock_tod_ns = fc_u64(c);
		f->clock_clockid_ns = fc_u64(c);
		f->has_clock_data = !c->bad;
		break;
	case FEAT_DIR_FORMAT:
		f->dir_format = fc_u64(c);
		f->has_dir_format = !c->bad;
		break;
	case FEAT_COMPRESSED:
		f->comp_ver = fc_u32(c);
		f->comp_type = fc_u32(c);
		f->comp_level = fc_u32(c);
		f->comp_ratio = fc_u32(c);
		f->comp_mmap_len = fc_u32(c);
		f->has_compressed = !c->bad;
		break;
	}
}

int pd_features_read(struct perf_data *pd, struct pd_features **ret)
{
	struct pd_features *f = calloc(1, sizeof(*f));
	int feat;

	*ret = NULL;
	if (!f)
		return -ENOMEM;
	for (feat = 1; feat < FEAT_LAST; feat++) {
		size_t size = 0;
		const uint8_t *p = perf_data_feature(pd, feat, &size);
		struct fc c = { p, NULL, false, &f->arena };

		if (!p)
			continue;
		c.end = p + size;
		dec_feature(&c, feat, f);
		if (c.bad)
			log_warn("%s: the %s feature section is malformed; part of it is left out",
				 pd->path, pd_feature_name(feat));
	}
	*ret = f;
	return 0;
}

void pd_features_free(struct pd_features *f)
{
	if (!f)
		return;
	arena_release(&f->arena);
	free(f);
}

static const char *const feat_names[FEAT_LAST] = {
	[FEAT_TRACING_DATA] = "TRACING_DATA",
	[FEAT_BUILD_ID] = "BUILD_ID",
	[FEAT_HOSTNAME] = "HOSTNAME",
	[FEAT_OSRELEASE] = "OSRELEASE",
	[FEAT_VERSION] = "VERSION",
	[FEAT_ARCH] = "ARCH",
	[FEAT_NRCPUS] = "NRCPUS",
	[FEAT_CPUDESC] = "CPUDESC",
	[FEAT_CPUID] = "CPUID",
	[FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[FEAT_CMDLINE] = "CMDLINE",
	[FEAT_EVENT_DESC] = "EVENT_DESC",
	[FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[FEAT_GROUP_DESC] = "GROUP_DESC",
	[FEAT_AUXTRACE] = "AUXTRACE",
	[FEAT_STAT] = "STAT",
	[FEAT_CACHE] = "CACHE",
	[FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[FEAT_CLOCKID] = "CLOCKID",
	[FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[FEAT_BPF_BTF] = "BPF_BTF",
	[FEAT_COMPRESSED] = "COMPRESSED",
	[FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[FEAT_PMU_CAPS] = "PMU_CAPS",
};

const char *pd_feature_name(int feat)
{
	return feat > 0 && feat < FEAT_LAST ? feat_names[feat] : NULL;
}
