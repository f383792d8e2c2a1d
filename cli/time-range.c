// SPDX-License-Identifier: GPL-2.0
/*
 * time-range: --time of report and script, perf's time ranges: "START,STOP" in seconds.fraction with either end
 * open, several such ranges separated by spaces, or slices of the recording in percent
 * ("10%/2": the second tenth; "0%-10%,30%-40%"; "50%": the first half). Percents are of the
 * span between the first and last sample times the file's header records.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli/out.h"
#include "cli/time-range.h"
#include "lib/base/err.h"
#include "lib/data/features.h"

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

static int set_pct(struct time_range *r, double from, double to, uint64_t first,
		   uint64_t last)
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

void time_span(struct perf_data *pd, int *nr_cpus, uint64_t *first, uint64_t *last)
{
	struct pd_features *f = NULL;

	*nr_cpus = 0;
	*first = *last = 0;
	if (!pd->is_pipe && !pd_features_read(pd, &f)) {
		*nr_cpus = (int)f->nr_cpus_avail;
		if (f->has_sample_time) {
			*first = f->first_sample_time;
			*last = f->last_sample_time;
		}
	}
	pd_features_free(f);
}

int time_ranges_setup(struct time_ranges *tr, struct perf_data *pd, const char *input,
		      const char *str, bool reltime)
{
	uint64_t first, last;
	int n, err;

	time_span(pd, &n, &first, &last);
	if ((strchr(str, '%') || reltime) && !first && !last) {
		pr_err("--time '%s': '%s' does not record its first and last sample times, which "
		       "percents%s need (give absolute seconds%s)", str, input,
		       reltime ? " and --reltime" : "", reltime ? ", without --reltime" : "");
		return -ERANGE;
	}
	err = time_ranges_parse(tr, str, first, last);
	if (err == -EINVAL) {
		pr_err("--time '%s' is not a time range (write START,STOP in seconds as "
		       "'2175.6,2175.7', either end may be left out; ranges separated by spaces; "
		       "or slices in percent: 10%%/2, 0%%-10%%,30%%-40%%)", str);
		return -ERANGE;
	}
	if (err) {
		pr_err("--time: %s", err_str(err));
		return err;
	}
	for (size_t i = 0; reltime && i < tr->nr; i++) {
		/* as perf: both ends move, an open end too */
		tr->v[i].start += first;
		tr->v[i].end += first;
	}
	return 0;
}
