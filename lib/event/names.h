/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names: perf's symbolic event names. The hardware and software tables (name, alias,
 * type, config) and the hardware-cache name grammar (cache-op-result with every alias perf
 * accepts). Static tables; nothing is allocated.
 */
#ifndef FLARE_EVENT_NAMES_H
#define FLARE_EVENT_NAMES_H
#include <stddef.h>
#include <stdint.h>

struct ev_sym {
	const char *name;  /* canonical: "cpu-cycles" */
	const char *alias; /* "cycles", or NULL */
	uint32_t type;	   /* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
};

extern const struct ev_sym ev_hw_syms[];
extern const size_t ev_hw_nr;
extern const struct ev_sym ev_sw_syms[];
extern const size_t ev_sw_nr;

/* perf's tool events: "duration_time", "user_time", "system_time" (index = EV_TOOL_*). */
extern const char *const ev_tool_names[4];
/* EV_TOOL_* of name, or 0. */
int ev_tool_find(const char *name);

/* Finds a hardware or software name or alias (exact). NULL when unknown. */
const struct ev_sym *ev_sym_find(const char *name);

/* Parses a hardware cache event name ("L1-dcache-load-misses", "l1d-stores", "LLC",
 * "dTLB-misses") into its PERF_TYPE_HW_CACHE config. 0, -ENOENT when name is no cache
 * event, -EINVAL when it names a combination perf rejects (e.g. "L1-icache-stores"). */
int ev_cache_parse(const char *name, uint64_t *config);

/* Writes the canonical name of the i-th valid cache combination (perf's order) into buf.
 * Returns 0, or -ENOENT past the end. */
int ev_cache_name(size_t i, char *buf, size_t len, uint64_t *config);

struct perf_event_attr;
/* Writes the modifiers perf derives from attr for a name it builds itself (evsel__name of
 * an event with no spec: a fallback, its dummy): ":uhppp", ":HG", or "" for none. */
void ev_mods_from_attr(const struct perf_event_attr *attr, char *buf, size_t len);

#endif
