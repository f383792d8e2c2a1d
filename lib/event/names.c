// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>
#include "lib/event/names.h"

#define HW(n, a, c)                                                                                \
	{                                                                                          \
		n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c                                        \
	}
#define SW(n, a, c)                                                                                \
	{                                                                                          \
		n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c                                        \
	}

const struct ev_sym ev_hw_syms[] = {
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", NULL, BRANCH_MISSES),
	HW("bus-cycles", NULL, BUS_CYCLES),
	HW("cache-misses", NULL, CACHE_MISSES),
	HW("cache-references", NULL, CACHE_REFERENCES),
	HW("cpu-cycles", "cycles", CPU_CYCLES),
	HW("instructions", NULL, INSTRUCTIONS),
	HW("ref-cycles", NULL, REF_CPU_CYCLES),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
};
const size_t ev_hw_nr = sizeof(ev_hw_syms) / sizeof(ev_hw_syms[0]);

/* perf list's order: alphabetical */
const struct ev_sym ev_sw_syms[] = {
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS),
	SW("bpf-output", NULL, BPF_OUTPUT),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES),
	SW("context-switches", "cs", CONTEXT_SWITCHES),
	SW("cpu-clock", NULL, CPU_CLOCK),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS),
	SW("dummy", NULL, DUMMY),
	SW("emulation-faults", NULL, EMULATION_FAULTS),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN),
	SW("page-faults", "faults", PAGE_FAULTS),
	SW("task-clock", NULL, TASK_CLOCK),
};
const size_t ev_sw_nr = sizeof(ev_sw_syms) / sizeof(ev_sw_syms[0]);

const char *const ev_tool_names[4] = { NULL, "duration_time", "user_time", "system_time" };

int ev_tool_find(const char *name)
{
	int i;

	for (i = 1; i < 4; i++)
		if (!strcmp(name, ev_tool_names[i]))
			return i;
	return 0;
}

const struct ev_sym *ev_sym_find(const char *name)
{
	size_t i;

	for (i = 0; i < ev_hw_nr; i++)
		if (!strcmp(name, ev_hw_syms[i].name) ||
		    (ev_hw_syms[i].alias && !strcmp(name, ev_hw_syms[i].alias)))
			return &ev_hw_syms[i];
	for (i = 0; i < ev_sw_nr; i++)
		if (!strcmp(name, ev_sw_syms[i].name) ||
		    (ev_sw_syms[i].alias && !strcmp(name, ev_sw_syms[i].alias)))
			return &ev_sw_syms[i];
	return NULL;
}

/* First entry of each row is the canonical name (row index = the kernel's id). */
static const char *const cache_names[][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
static const char *const op_names[][5] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
static const char *const result_names[][5] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};
#define NR_CACHE (sizeof(cache_names) / sizeof(cache_names[0]))
#define NR_OP 3
#define NR_RESULT 2
#define R (1 << 0)
#define W (1 << 1)
#define P (1 << 2)
static const unsigned char cache_ops[NR_CACHE] = { R | W | P, R | P, R | W | P, R | W | P,
						   R,	      R,     R | W | P };

/* Matches one alias of table at s (followed by '-' or the end); returns the row or -1 and
 * the length matched. The longest alias wins ("branches" before "branch"). */
static int match_word(const char *const (*table)[5], size_t rows, const char *s, size_t *len)
{
	size_t r, a, l, best_len = 0;
	int best = -1;

	for (r = 0; r < rows; r++) {
		for (a = 0; a < 5 && table[r][a]; a++) {
			l = strlen(table[r][a]);
			if (strncasecmp(s, table[r][a], l) || (s[l] && s[l] != '-'))
				continue;
			if (l > best_len) {
				best = (int)r;
				best_len = l;
			}
		}
	}
	*len = best_len;
	return best;
}

int ev_cache_parse(const char *name, uint64_t *config)
{
	int cache, op = -1, result = -1, w;
	size_t len;

	cache = match_word(cache_names, NR_CACHE, name, &len);
	if (cache < 0)
		return -ENOENT;
	name += len;
	while (*name == '-') {
		name++;
		w = match_word(op_names, NR_OP, name, &len);
		if (w >= 0 && op < 0) {
			op = w;
		} else {
			w = match_word(result_names, NR_RESULT, name, &len);
			if (w < 0 || result >= 0)
				return -ENOENT;
			result = w;
		}
		name += len;
	}
	if (*name)
		return -ENOENT;
	if (op < 0)
		op = 0;
	if (result < 0)
		result = 0;
	if (!(cache_ops[cache] & (1 << op)))
		return -EINVAL;
	*config = (uint64_t)cache | ((uint64_t)op << 8) | ((uint64_t)result << 16);
	return 0;
}

int ev_cache_name(size_t i, char *buf, size_t len, uint64_t *config)
{
	size_t c, o, r;

	for (c = 0; c < NR_CACHE; c++) {
		for (o = 0; o < NR_OP; o++) {
			if (!(cache_ops[c] & (1 << o)))
				continue;
			for (r = 0; r < NR_RESULT; r++) {
				if (i--)
					continue;
				if (r)
					snprintf(buf, len, "%s-%s-%s", cache_names[c][0],
						 op_names[o][0], result_names[r][0]);
				else
					snprintf(buf, len, "%s-%s", cache_names[c][0],
						 op_names[o][1]);
				*config = c | (o << 8) | (r << 16);
				return 0;
			}
		}
	}
	return -ENOENT;
}

void ev_mods_from_attr(const struct perf_event_attr *a, char *buf, size_t len)
{
	char m[16];
	size_t n = 0;
	bool guest_default = false;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			m[n++] = 'k';
		if (!a->exclude_user)
			m[n++] = 'u';
		if (!a->exclude_hv)
			m[n++] = 'h';
		guest_default = true;
	}
	if (a->precise_ip) {
		memcpy(m + n, "ppp", a->precise_ip);
		n += a->precise_ip;
		guest_default = true;
	}
	/* perf prints H and G only when exclude_guest is not what it would default to */
	if (a->exclude_host || a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			m[n++] = 'H';
		if (!a->exclude_guest)
			m[n++] = 'G';
	}
	m[n] = 0;
	snprintf(buf, len, "%s%s", n ? ":" : "", m);
}
