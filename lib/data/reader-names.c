// SPDX-License-Identifier: GPL-2.0
/*
 * reader-names: event names. The EVENT_DESC feature wins, then EVENT_UPDATE records (pipe
 * mode), then a name made from the attr the way perf 6.1's evsel__name() makes it (with its
 * modifier rules: ":u", ":ppp", "H"/"G"), tracepoints by id from the tracing data.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/hw_breakpoint.h>
#include <traceevent/event-parse.h>
#include "lib/base/err.h"
#include "lib/data/reader-priv.h"
#include "lib/data/tracing_data.h"
#include "lib/data/features.h"

// clang-format off
static const char *const hw_names[] = {
	"cycles",
	"instructions",
	"cache-references",
	"cache-misses",
	"branch-instructions",
	"branch-misses",
	"bus-cycles",
	"stalled-cycles-frontend",
	"stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock",
	"task-clock",
	"page-faults",
	"context-switches",
	"cpu-migrations",
	"minor-faults",
	"major-faults",
	"alignment-faults",
	"emulation-faults",
	"dummy",
	"bpf-output",
	"cgroup-switches",
};

static const char *const cache_names[] = {
	"L1-dcache",
	"L1-icache",
	"LLC",
	"dTLB",
	"iTLB",
	"branch",
	"node",
};
static const char *const cache_op[][2] = {
	{"load", "loads"},
	{"store", "stores"},
	{"prefetch", "prefetches"},
};
static const char *const cache_res[] = {"refs", "misses"};
// clang-format on

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* perf's evsel__add_modifiers(). */
static size_t add_modifiers(const struct perf_event_attr *a, char *bf, size_t size, size_t r)
{
	size_t colon = 0;
	bool guest_default = false;

#define MOD(ex, ch)                                                                                \
	do {                                                                                       \
		if (!(ex) && r + 2 < size) {                                                       \
			if (!colon)                                                                \
				colon = ++r;                                                       \
			bf[r++] = (ch);                                                            \
		}                                                                                  \
	} while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(a->exclude_kernel, 'k');
		MOD(a->exclude_user, 'u');
		MOD(a->exclude_hv, 'h');
		guest_default = true;
	}
	if (a->precise_ip) {
		unsigned int i;

		if (!colon && r + 2 < size)
			colon = ++r;
		for (i = 0; i < a->precise_ip && r + 2 < size; i++)
			bf[r++] = 'p';
		guest_default = true;
	}
	if (a->exclude_host || a->exclude_guest == guest_default) {
		MOD(a->exclude_host, 'H');
		MOD(a->exclude_guest, 'G');
	}
#undef MOD
	if (colon)
		bf[colon - 1] = ':';
	bf[r < size ? r : size - 1] = 0;
	return r;
}

static size_t cache_name(uint64_t config, char *bf, size_t len)
{
	uint64_t type = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (type >= ARRAY_LEN(cache_names) || op >= ARRAY_LEN(cache_op) ||
	    res >= ARRAY_LEN(cache_res))
		return snprintf(bf, len, "unknown-ext-hardware-cache-type");
	if (res)
		return snprintf(bf, len, "%s-%s-%s", cache_names[type], cache_op[op][0],
				cache_res[res]);
	return snprintf(bf, len, "%s-%s", cache_names[type], cache_op[op][1]);
}

int perf_attr_name(const struct perf_event_attr *a, char *bf, size_t len)
{
	size_t r;

	if (!len)
		return 0;
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		r = snprintf(bf, len, "%s",
			     a->config < ARRAY_LEN(hw_names) ? hw_names[a->config]
							     : "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		r = snprintf(bf, len, "%s",
			     a->config < ARRAY_LEN(sw_names) ? sw_names[a->config]
							     : "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE:
		r = cache_name(a->config, bf, len);
		break;
	case PERF_TYPE_RAW:
		r = snprintf(bf, len, "raw 0x%" PRIx64, (uint64_t)a->config);
		break;
	case PERF_TYPE_BREAKPOINT:
		r = snprintf(bf, len, "mem:0x%" PRIx64 ":%s%s%s", (uint64_t)a->bp_addr,
			     a->bp_type & HW_BREAKPOINT_R ? "r" : "",
			     a->bp_type & HW_BREAKPOINT_W ? "w" : "",
			     a->bp_type & HW_BREAKPOINT_X ? "x" : "");
		break;
	case PERF_TYPE_TRACEPOINT:
		return snprintf(bf, len, "unknown tracepoint");
	default:
		return snprintf(bf, len, "unknown attr type: %u", a->type);
	}
	if (r >= len)
		r = len - 1;
	return add_modifiers(a, bf, len, r);
}

static int set_name(struct perf_data *pd, size_t i, const char *name, size_t n,
		    enum pd_name_src src)
{
	struct pd_priv *p = pd_priv(pd);
	char *s;

	if (p->name_src[i] > src)
		return 0;
	s = strndup(name, n);
	if (!s)
		return -ENOMEM;
	free(pd->attrs[i].name);
	pd->attrs[i].name = s;
	p->name_src[i] = src;
	return 0;
}

/* Names events from EVENT_DESC: by the first id when ids are known, else by position. */
static int names_from_desc(struct perf_data *pd)
{
	size_t size, i = 0;
	const uint8_t *f = perf_data_feature(pd, FEAT_EVENT_DESC, &size);
	struct pd_desc_iter it;
	struct pd_desc_event e;
	int err;

	if (!f || pd_desc_iter_init(&it, f, size))
		return 0;
	while (pd_desc_iter_next(&it, &e) > 0) {
		const struct pd_attr *a = NULL;
		size_t idx;

		if (e.nr_ids)
			a = perf_data_attr_by_id(pd, pd_u64(e.ids));
		idx = a ? (size_t)a->idx : i;
		if (idx < pd->nr_attrs) {
			err = set_name(pd, idx, e.name, strlen(e.name), NAME_DESC);
			if (err)
				return err;
		}
		i++;
	}
	return 0;
}

int pd_name_tracepoints(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	struct tep_handle *tep = NULL;
	char buf[512];
	size_t i;
	int err;

	for (i = 0; i < pd->nr_attrs; i++) {
		struct tep_event *e;

		if (pd->attrs[i].attr.type != PERF_TYPE_TRACEPOINT ||
		    p->name_src[i] != NAME_DERIVED)
			continue;
		if (!tep && !(tep = perf_data_tep(pd)))
			return 0;
		e = tep_find_event(tep, (int)pd->attrs[i].attr.config);
		if (!e)
			continue;
		snprintf(buf, sizeof(buf), "%s:%s", e->system, e->name);
		err = set_name(pd, i, buf, strlen(buf), NAME_DERIVED);
		if (err)
			return err;
	}
	return 0;
}

int pd_names_init(struct perf_data *pd)
{
	char buf[256];
	size_t i;
	int err;

	for (i = 0; i < pd->nr_attrs; i++) {
		if (pd->attrs[i].name)
			continue;
		perf_attr_name(&pd->attrs[i].attr, buf, sizeof(buf));
		err = set_name(pd, i, buf, strlen(buf), NAME_DERIVED);
		if (err)
			return err;
	}
	err = names_from_desc(pd);
	if (err)
		return err;
	return pd_name_tracepoints(pd);
}

/* EVENT_UPDATE: u64 type, u64 id, then for type 2 (name) a NUL-terminated string. */
int pd_name_update(struct perf_data *pd, const struct perf_event_header *ev)
{
	const uint8_t *b = (const uint8_t *)ev + sizeof(*ev);
	size_t body = ev->size - sizeof(*ev);
	const struct pd_attr *a;
	const char *name;

	if (body < 16 || pd_u64(b) != 2)
		return 0;
	a = perf_data_attr_by_id(pd, pd_u64(b + 8));
	if (!a)
		return 0;
	name = (const char *)b + 16;
	return set_name(pd, a->idx, name, strnlen(name, body - 16), NAME_UPDATE);
}

const char *perf_record_name(uint32_t type)
{
	static const char *const kernel[] = {
		[PERF_RECORD_MMAP] = "MMAP",
		[PERF_RECORD_LOST] = "LOST",
		[PERF_RECORD_COMM] = "COMM",
		[PERF_RECORD_EXIT] = "EXIT",
		[PERF_RECORD_THROTTLE] = "THROTTLE",
		[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
		[PERF_RECORD_FORK] = "FORK",
		[PERF_RECORD_READ] = "READ",
		[PERF_RECORD_SAMPLE] = "SAMPLE",
		[PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_AUX] = "AUX",
		[PERF_RECORD_ITRACE_START] = "ITRACE_START",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
		[PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
		[PERF_RECORD_NAMESPACES] = "NAMESPACES",
		[PERF_RECORD_KSYMBOL] = "KSYMBOL",
		[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
		[PERF_RECORD_CGROUP] = "CGROUP",
		[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
		[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	};
	static const char *const user[] = {
		"ATTR",	     "EVENT_TYPE",    "TRACING_DATA", "BUILD_ID",	"FINISHED_ROUND",
		"ID_INDEX",  "AUXTRACE_INFO", "AUXTRACE",     "AUXTRACE_ERROR", "THREAD_MAP",
		"CPU_MAP",   "STAT_CONFIG",   "STAT",	      "STAT_ROUND",	"EVENT_UPDATE",
		"TIME_CONV", "FEATURE",	      "COMPRESSED",   "FINISHED_INIT",
	};

	if (type < sizeof(kernel) / sizeof(kernel[0]) && kernel[type])
		return kernel[type];
	if (type >= 64 && type - 64 < sizeof(user) / sizeof(user[0]))
		return user[type - 64];
	return NULL;
}
