/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu: the kernel's PMUs as /sys/bus/event_source/devices describes them: each PMU's type,
 * its format terms ("event" -> config:0-7) and its named events (msr/tsc/ -> "event=0x00",
 * with optional .scale and .unit). Reading only; nothing is cached or allocated across calls.
 */
#ifndef FLARE_EVENT_PMU_H
#define FLARE_EVENT_PMU_H
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#define PMU_SYSFS "/sys/bus/event_source/devices"

/* The perf_event_attr.type of pmu. 0 or -ENOENT. */
int pmu_type(const char *pmu, uint32_t *type);

/* Sets the bits that format term `term` of pmu describes to val in attr (config, config1,
 * config2). 0, -ENOENT when pmu has no such term, -ERANGE when val does not fit. */
int pmu_set_term(const char *pmu, const char *term, uint64_t val, struct perf_event_attr *attr);

/* Reads the terms of named event ev of pmu ("event=0x04,umask=1") into buf. Also its scale
 * (1.0 when none) and unit ("" when none). 0 or -ENOENT. */
int pmu_event_alias(const char *pmu, const char *ev, char *buf, size_t len, double *scale,
		    char *unit, size_t unit_len);

/* The CPUs of a PMU that counts per CPU rather than per task (its sysfs "cpumask", e.g. the
 * power or uncore PMUs) as a list string ("0" or "0-1") in buf. 0, or -ENOENT when pmu has
 * no cpumask (it counts tasks, like cpu, software, tracepoint). */
int pmu_cpumask(const char *pmu, char *buf, size_t len);

typedef int (*pmu_fn)(const char *pmu, const char *ev, void *arg);

/* Calls fn(pmu, NULL) for each PMU, then fn(pmu, event) for each of its named events (all
 * sorted by name). Stops when fn returns non-zero and returns that; else 0. */
int pmu_for_each(pmu_fn fn, void *arg);

/* The CPU's vendor string as cpuid gives it ("GenuineIntel", "AuthenticAMD") into out, and
 * family, model and stepping as perf computes them. 0, or -ENOTSUP off x86. */
int cpu_id(char out[13], unsigned int *family, unsigned int *model, unsigned int *stepping);

#endif
