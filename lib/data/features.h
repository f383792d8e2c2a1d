/* SPDX-License-Identifier: GPL-2.0 */
/*
 * features: the feature sections of a perf.data file (or HEADER_FEATURE records of a pipe)
 * decoded into plain structs (struct pd_features), and rendered as the lines
 * `perf report --header-only` prints, into a strbuf. A pd_features owns all it points to
 * (one arena) and is freed with pd_features_free(); it does not point into the file.
 * Payloads that do not parse are left out (log_warn) rather than failing the whole header.
 */
#ifndef FLARE_DATA_FEATURES_H
#define FLARE_DATA_FEATURES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include "lib/base/arena.h"

struct perf_data;
struct strbuf;

/* EVENT_DESC walked in place (used by the reader for names, and by the decoder below). */
struct pd_desc_iter {
	const uint8_t *p, *end;
	uint32_t nr, i, attr_size;
};

struct pd_desc_event {
	struct perf_event_attr attr; /* zero-extended */
	const char *name;	     /* NUL-terminated, inside the payload */
	const uint8_t *ids;	     /* nr_ids unaligned u64s */
	uint32_t nr_ids;
};

/* 0, or -ERR_FORMAT when the payload is too short for its counts. */
int pd_desc_iter_init(struct pd_desc_iter *it, const void *payload, size_t size);
/* 1 with *e, 0 at the end, -ERR_FORMAT when an entry overruns the payload. */
int pd_desc_iter_next(struct pd_desc_iter *it, struct pd_desc_event *e);

/* BUILD_ID walked in place (used by the session to name its dsos' build-ids, and by the
 * decoder below). */
struct pd_build_id_entry {
	uint16_t misc;
	int32_t pid;
	const uint8_t *build_id; /* 20 bytes inside the payload */
	uint8_t size;		 /* bytes of build_id that are valid */
	const char *filename;	 /* inside the payload: filename_len bytes, then a NUL */
	size_t filename_len;	 /* when terminated */
	bool terminated;
};

/* The entry at *pos of a BUILD_ID payload of size bytes into e, *pos moved past it: 1, or 0
 * at the end or at an entry that overruns the payload. */
int pd_build_id_next(const void *payload, size_t size, size_t *pos, struct pd_build_id_entry *e);

struct pd_feat_event {
	char *name;
	struct perf_event_attr attr;
	uint64_t *ids;
	uint32_t nr_ids;
};

struct pd_feat_cpu {
	uint32_t core_id, socket_id, die_id;
};

struct pd_feat_numa {
	uint32_t node;
	uint64_t mem_total, mem_free; /* kB */
	char *cpus;
};

struct pd_feat_pmu {
	uint32_t type;
	char *name;
};

struct pd_feat_group {
	char *name;
	uint32_t leader_idx, nr_members;
};

struct pd_feat_cache {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;
};

struct pd_feat_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t build_id[20];
	uint8_t size; /* bytes of build_id that are valid */
	char *filename;
};

struct pd_feat_mem_node {
	uint64_t node;
	uint64_t size; /* memory blocks present (bytes: size * mem_block_size) */
	char *blocks;  /* "0-3,5" */
};

struct pd_features {
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	bool has_nrcpus;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem; /* kB */
	char **cmdline;
	uint32_t nr_cmdline;
	struct pd_feat_event *events;
	uint32_t nr_events;
	char **core_siblings, **thread_siblings, **die_siblings;
	uint32_t nr_core_siblings, nr_thread_siblings, nr_die_siblings;
	struct pd_feat_cpu *cpus; /* per cpu, nr_cpus_avail entries when present */
	uint32_t nr_cpus;
	bool has_die;
	struct pd_feat_numa *numa;
	uint32_t nr_numa;
	struct pd_feat_pmu *pmus;
	uint32_t nr_pmus;
	struct pd_feat_group *groups;
	uint32_t nr_groups;
	struct pd_feat_cache *caches;
	uint32_t nr_caches;
	bool has_sample_time;
	uint64_t first_sample_time, last_sample_time;
	struct pd_feat_build_id *build_ids;
	uint32_t nr_build_ids;
	uint64_t mem_block_size;
	struct pd_feat_mem_node *mem_nodes;
	uint32_t nr_mem_nodes;
	bool has_clockid;
	uint64_t clockid_res_ns;
	bool has_clock_data;
	uint32_t clock_data_clockid;
	uint64_t clock_tod_ns, clock_clockid_ns;
	bool has_dir_format;
	uint64_t dir_format; /* perf.data directory version */
	bool has_compressed;
	uint32_t comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;
	struct arena arena;
};

/* Decodes every feature pd has. 0 or -ENOMEM; *ret is freed with pd_features_free(). */
int pd_features_read(struct perf_data *pd, struct pd_features **ret);
void pd_features_free(struct pd_features *f);

/* Appends the header lines of `perf report --header-only` ("# hostname : vm" ...), from
 * "# ========" to "# ========". full: as with -I (topology, numa, cache, memory in full). */
int pd_features_render(struct perf_data *pd, const struct pd_features *f, bool full,
		       struct strbuf *out);

/* pd_features_read() and pd_features_render() in one, then the "#" line that ends the header
 * of a file (not a pipe), as perf report --header-only and perf script --header print it. */
int pd_header_render(struct perf_data *pd, bool full, struct strbuf *out);

/* Appends an attr's non-zero fields as perf prints them after an event's name
 * (", type = 1, size = 128, ..., sample_type = IP|TID, ..."). 0 or -ENOMEM. */
int pd_attr_render(const struct perf_event_attr *attr, struct strbuf *out);
/* The same with another separator between name and value (": " for perf evlist -v). */
int pd_attr_render_as(const struct perf_event_attr *attr, const char *eq, struct strbuf *out);

/* Name of feature bit feat as perf prints it ("HOSTNAME", "EVENT_DESC"), or NULL. */
const char *pd_feature_name(int feat);

#endif
