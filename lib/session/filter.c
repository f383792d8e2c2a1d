// SPDX-License-Identifier: GPL-2.0
/*
 * filter: the sample filter of report, script and flamegraph (see filter.h): perf's time
 * ranges, cpu lists and comma-separated lists, and the rule for the call chains perf drops.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/session/filter.h"

/* "SECS[.FRACTION]", up to nine digits of fraction. */
static int parse_nsec(const char *s, size_t len, uint64_t *t)
{
	char buf[64], frac[10] = "000000000", *end;
	uint64_t secs, ns = 0;
	const char *dot;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = 0;
	secs = strtoull(buf, &end, 10);
	dot = end;
	if (*dot != '.' && *dot)
		return -EINVAL;
	if (*dot == '.') {
		size_t n = strlen(dot + 1);

		if (n > 9)
			return -EINVAL;
		memcpy(frac, dot + 1, n);
		ns = strtoull(frac, &end, 10);
		if (*end)
			return -EINVAL;
	}
	*t = secs * 1000000000ULL + ns;
	return 0;
}

/* One "START,STOP" of len bytes; an empty end is open (0). */
static int parse_range(const char *s, size_t len, struct time_range *r)
{
	const char *comma = memchr(s, ',', len);
	size_t n1 = comma ? (size_t)(comma - s) : len;

	r->start = r->end = 0;
	if (n1 && parse_nsec(s, n1, &r->start))
		return -EINVAL;
	if (comma && len - n1 - 1 && parse_nsec(comma + 1, len - n1 - 1, &r->end))
		return -EINVAL;
	if (r->end && r->end < r->start)
		return -EINVAL;
	return 0;
}

/* Absolute ranges, one per comma: each but the last runs to the space after its comma's
 * value; the last is the rest of the string. */
static int parse_abs(const char *s, struct time_range *v, size_t nr)
{
	size_t i;

	if (!nr)
		return -EINVAL;
	for (i = 0; i + 1 < nr; i++) {
		const char *p = strchr(s, ',') + 1;

		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',')
				return -EINVAL;
		if (parse_range(s, (size_t)(p - s), &v[i]))
			return -EINVAL;
		s = *p ? p + 1 : p;
	}
	if (parse_range(s, strlen(s), &v[i]))
		return -EINVAL;
	for (i = 0; i + 1 < nr; i++)
		if (v[i].end >= v[i + 1].start)
			return -EINVAL;
	return (int)nr;
}

/* "N%" (the string's whole length) as a fraction. */
static int parse_pct(const char *s, size_t len, double *f)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -EINVAL;
	memcpy(buf, s, len - 1);
	buf[len - 1] = 0;
	*f = strtod(buf, &end) / 100.0;
	return *end ? -EINVAL : 0;
}

static int set_pct(struct time_range *r, double from, double to, uint64_t first, uint64_t last)
{
	uint64_t span = last - first;

	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -EINVAL;
	r->start = first + (uint64_t)llround(from * (double)span);
	r->end = first + (uint64_t)llround(to * (double)span);
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* One comma-separated item of a percent list: "P%/N" (slash) or "P%-Q%". */
static int parse_pct_item(const char *s, size_t len, bool slash, uint64_t first, uint64_t last,
			  struct time_range *r)
{
	const char *sep = memchr(s, slash ? '/' : '-', len);
	double a, b;

	if (!sep || parse_pct(s, (size_t)(sep - s), &a))
		return -EINVAL;
	if (slash) {
		char buf[32], *end;
		size_t n = len - (size_t)(sep - s) - 1;
		long i;

		if (n >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, sep + 1, n);
		buf[n] = 0;
		i = strtol(buf, &end, 10);
		if (*end || a <= 0.0)
			return -EINVAL;
		return set_pct(r, a * (double)(i - 1), a * (double)i, first, last);
	}
	if (parse_pct(sep + 1, len - (size_t)(sep - s) - 1, &b))
		return -EINVAL;
	return set_pct(r, a, b, first, last);
}

static int parse_pcts(const char *s, struct time_range *v, size_t max, uint64_t first,
		      uint64_t last)
{
	bool slash = strchr(s, '/') != NULL;
	size_t nr = 0;

	if (!slash && !strchr(s, '-')) {
		/* "P%": the first slice of P% */
		size_t len = strlen(s);
		double a;

		if (parse_pct(s, len, &a) || a <= 0.0 || set_pct(v, 0, a, first, last))
			return -EINVAL;
		return 1;
	}
	while (*s) {
		size_t len = strcspn(s, ",");

		if (nr == max || parse_pct_item(s, len, slash, first, last, &v[nr++]))
			return -EINVAL;
		s += len;
		if (*s)
			s++;
	}
	return (int)nr;
}

int time_ranges_parse(struct time_ranges *tr, const char *str, uint64_t first, uint64_t last)
{
	size_t max = 1;
	const char *p;
	int nr;

	for (p = str; *p; p++)
		max += *p == ',';
	free(tr->v);
	tr->nr = 0;
	tr->v = calloc(max, sizeof(*tr->v));
	if (!tr->v)
		return -ENOMEM;
	if (strchr(str, '%'))
		nr = parse_pcts(str, tr->v, max, first, last);
	else
		nr = parse_abs(str, tr->v, max - 1);
	if (nr < 0)
		return nr;
	tr->nr = (size_t)nr;
	return 0;
}

bool time_ranges_skip(const struct time_ranges *tr, uint64_t t)
{
	size_t i;

	if (!tr->nr || !t)
		return false;
	if (tr->nr == 1)
		return (tr->v[0].start && t < tr->v[0].start) || (tr->v[0].end && t > tr->v[0].end);
	for (i = 0; i < tr->nr; i++)
		if (t >= tr->v[i].start && (t <= tr->v[i].end || !tr->v[i].end))
			return false;
	return true;
}

void time_ranges_release(struct time_ranges *tr)
{
	free(tr->v);
	tr->v = NULL;
	tr->nr = 0;
}

bool filter_list_has(const char *list, const char *s)
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

int filter_cpu_list(const char *list, uint64_t *bits)
{
	const char *s = list;
	size_t nr = 0;

	memset(bits, 0, FILTER_MAX_CPUS / 8);
	while (isdigit((unsigned char)*s)) {
		char *p;
		unsigned long lo = strtoul(s, &p, 0), hi = lo;

		if (lo >= FILTER_MAX_CPUS || (*p && *p != ',' && *p != '-'))
			return -EINVAL;
		if (*p == '-') {
			hi = strtoul(p + 1, &p, 0);
			if (hi >= FILTER_MAX_CPUS || (*p && *p != ',') || hi < lo)
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

bool filter_list_has_num(const char *list, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%" PRIu32, v);
	return filter_list_has(list, buf);
}

uint8_t chain_marker_mode(uint64_t marker)
{
	switch (marker) {
	case PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER:
		return PERF_RECORD_MISC_USER;
	case PERF_CONTEXT_HV:
		return PERF_RECORD_MISC_HYPERVISOR;
	default:
		/* perf 6.1's reader knows only those three: any other marker (the guest ones
		 * too, which a host writes for a guest's samples) makes it drop the chain */
		return 0;
	}
}

bool sample_chain_dropped(const struct perf_sample *s)
{
	uint64_t i;

	for (i = 0; s->callchain && i < s->nr_callchain; i++)
		if (s->callchain[i] >= PERF_CONTEXT_MAX && !chain_marker_mode(s->callchain[i]))
			return true;
	return false;
}

int sample_filter_set_cpus(struct sample_filter *f, const char *list)
{
	if (!f->cpus) {
		f->cpus = calloc(FILTER_MAX_CPUS / 64, sizeof(*f->cpus));
		if (!f->cpus)
			return -ENOMEM;
	}
	return filter_cpu_list(list, f->cpus);
}

int sample_filter_set_time(struct sample_filter *f, const char *str, uint64_t first, uint64_t last,
			   bool reltime)
{
	int err = time_ranges_parse(&f->times, str, first, last);
	size_t i;

	for (i = 0; !err && reltime && i < f->times.nr; i++) {
		/* as perf: both ends move, an open end too */
		f->times.v[i].start += first;
		f->times.v[i].end += first;
	}
	return err;
}

void sample_filter_release(struct sample_filter *f)
{
	time_ranges_release(&f->times);
	free(f->cpus);
	f->cpus = NULL;
}

bool sample_filter_cpu(const struct sample_filter *f, uint32_t cpu)
{
	return !f->cpus || (cpu < FILTER_MAX_CPUS && (f->cpus[cpu / 64] & (1ULL << (cpu % 64))));
}

bool sample_filter_when(const struct sample_filter *f, const struct perf_sample *s)
{
	return sample_filter_cpu(f, s->cpu) && !time_ranges_skip(&f->times, s->time);
}

bool sample_filter_what(const struct sample_filter *f, const struct resolved_sample *rs)
{
	const struct frame *fr = rs->nr_frames ? &rs->frames[0] : NULL;

	if (f->comm && !filter_list_has(f->comm, rs->thread->comm))
		return false;
	if (f->pid && !filter_list_has_num(f->pid, rs->thread->pid))
		return false;
	if (f->tid && !filter_list_has_num(f->tid, rs->thread->tid))
		return false;
	if (f->dso && (!fr || !fr->dso ||
		       (!filter_list_has(f->dso, fr->dso->short_name) &&
			!filter_list_has(f->dso, fr->dso->long_name))))
		return false;
	if (f->symbols && (!fr || !fr->sym || !filter_list_has(f->symbols, fr->sym->name)))
		return false;
	return true;
}
