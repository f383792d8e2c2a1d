// SPDX-License-Identifier: GPL-2.0
/*
 * report-filter: the comma-separated lists of --comm, --pid, --tid, --dso and --symbols,
 * shared by report and script.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/report.h"
#include "cli/script.h"
#include "cli/time-range.h"
#include "cli/out.h"

bool report_list_has(const char *list, const char *s)
{
	size_t n;

	if (!s)
		return false;
	n = strlen(s);
	while (*list) {
		size_t len = strcspn(list, ",");

		if (len == n && !strncmp(list, s, n))
			return true;
		list += len;
		if (*list == ',')
			list++;
	}
	return false;
}

/*
 * perf's cpu list: "N", "N-M", comma separated, numbers as strtoul base 0 reads them; the
 * list ends at the first item not starting with a digit; a CPU twice, or a list with no CPU
 * at all, is invalid.
 */
int report_cpu_list(const char *list, uint64_t *bits)
{
	const char *s = list;
	size_t nr = 0;

	memset(bits, 0, REPORT_MAX_CPUS / 8);
	while (isdigit((unsigned char)*s)) {
		char *p;
		unsigned long lo = strtoul(s, &p, 0), hi = lo;

		if (lo >= REPORT_MAX_CPUS || (*p && *p != ',' && *p != '-'))
			return -EINVAL;
		if (*p == '-') {
			hi = strtoul(p + 1, &p, 0);
			if (hi >= REPORT_MAX_CPUS || (*p && *p != ',') || hi < lo)
				return -EINVAL;
		}
		for (; lo <= hi; lo++, nr++) {
			if (bits[lo / 64] & (1ULL << (lo % 64)))
				return -EINVAL;
			bits[lo / 64] |= 1ULL << (lo % 64);
		}
		s = *p ? p + 1 : p;
	}
	return nr ? 0 : -EINVAL;
}

int report_cpus_setup(struct perf_data *pd, const char *input, const char *list,
		      uint64_t *bits)
{
	bool seen[PERF_TYPE_MAX] = { 0 };
	uint64_t first, last;
	int cpu, n;
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++) {
		const struct perf_event_attr *a = &pd->attrs[i].attr;

		if (a->type >= PERF_TYPE_MAX || seen[a->type])
			continue;
		seen[a->type] = true;
		if (!(a->sample_type & PERF_SAMPLE_CPU)) {
			pr_err("samples in '%s' have no CPU (record with -a or -C to have it, "
			       "or drop -C)", input);
			return -EINVAL;
		}
	}
	if (report_cpu_list(list, bits)) {
		pr_err("-C '%s' is not a list of CPUs (write it as 0,2-3)", list);
		return -EINVAL;
	}
	time_span(pd, &n, &first, &last);
	for (cpu = REPORT_MAX_CPUS - 1; cpu >= 0 && !report_cpu_in(bits, (uint32_t)cpu); cpu--)
		;
	if (cpu >= n) {
		if (pd->is_pipe)
			pr_err("-C: the number of CPUs of a recording read from a pipe is not "
			       "known (record to a file to use -C)");
		else
			pr_err("-C: there is no CPU %d in '%s', recorded with %d CPUs (use CPUs "
			       "0-%d)", cpu, input, n, n - 1);
		return -EINVAL;
	}
	return 0;
}

/* Whether the first line of buf[0..len) reads as kallsyms: "ADDR TYPE NAME". */
static bool kallsyms_line(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && isxdigit((unsigned char)buf[i]))
		i++;
	return i > 0 && i + 3 < len && buf[i] == ' ' && isalpha((unsigned char)buf[i + 1]) &&
	       buf[i + 2] == ' ' && buf[i + 3] > ' ';
}

bool report_kallsyms_readable(const char *path)
{
	char buf[256];
	ssize_t n = -1;
	int fd;

	if (!path)
		return true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		close(fd);
	}
	if (n < 0) {
		pr_err("cannot read --kallsyms '%s': %s (give a copy of a kernel's /proc/kallsyms)",
		       path, strerror(errno));
		return false;
	}
	/* an empty file names no symbol, as perf takes it; anything else starts as kallsyms
	 * does (a device such as /dev/zero is refused here, before it is read without end) */
	if (n == 0 || kallsyms_line(buf, (size_t)n))
		return true;
	pr_err("--kallsyms '%s' is not a kallsyms file: it should start with lines such as "
	       "'ffffffff81000000 T _text' (give a copy of a kernel's /proc/kallsyms)", path);
	return false;
}

bool report_cpu_in(const uint64_t *bits, uint32_t cpu)
{
	return cpu < REPORT_MAX_CPUS && (bits[cpu / 64] & (1ULL << (cpu % 64)));
}

bool report_list_has_num(const char *list, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%" PRIu32, v);
	return report_list_has(list, buf);
}

bool script_sample_wanted(const struct script_opts *o, const struct resolved_sample *rs)
{
	if (o->comm && !report_list_has(o->comm, rs->thread->comm))
		return false;
	if (o->pid && !report_list_has_num(o->pid, rs->thread->pid))
		return false;
	if (o->tid && !report_list_has_num(o->tid, rs->thread->tid))
		return false;
	return true;
}

bool report_chain_discarded(const struct perf_sample *s)
{
	uint64_t i;

	for (i = 0; s->callchain && i < s->nr_callchain; i++) {
		uint64_t ip = s->callchain[i];

		if (ip < PERF_CONTEXT_MAX)
			continue;
		switch (ip) {
		case PERF_CONTEXT_HV:
		case PERF_CONTEXT_KERNEL:
		case PERF_CONTEXT_USER:
			continue;	/* the only ones perf 6.1 knows (machine.c) */
		default:
			return true;
		}
	}
	return false;
}
