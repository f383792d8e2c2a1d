// SPDX-License-Identifier: GPL-2.0
/*
 * read-opts: what the reading commands (report, script, flamegraph) check of their options
 * against the file before the replay, saying what is wrong: --time and -C into the sample
 * filter (lib/session/filter.h), and --kallsyms.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/out.h"
#include "cli/read-opts.h"
#include "lib/base/err.h"
#include "lib/data/features.h"

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

int read_opts_time(struct sample_filter *f, struct perf_data *pd, const char *input,
		   const char *str, bool reltime)
{
	uint64_t first, last;
	int n, err;

	time_span(pd, &n, &first, &last);
	if ((strchr(str, '%') || reltime) && !first && !last) {
		pr_err("--time '%s': '%s' does not record its first and last sample times, which "
		       "percents%s need (give absolute seconds%s)",
		       str, input, reltime ? " and --reltime" : "",
		       reltime ? ", without --reltime" : "");
		return -ERANGE;
	}
	err = sample_filter_set_time(f, str, first, last, reltime);
	if (err == -EINVAL) {
		pr_err("--time '%s' is not a time range (write START,STOP in seconds as "
		       "'2175.6,2175.7', either end may be left out; ranges separated by spaces; "
		       "or slices in percent: 10%%/2, 0%%-10%%,30%%-40%%)",
		       str);
		return -ERANGE;
	}
	if (err) {
		pr_err("--time: %s", err_str(err));
		return err;
	}
	return 0;
}

int read_opts_cpus(struct sample_filter *f, struct perf_data *pd, const char *input,
		   const char *list)
{
	bool seen[PERF_TYPE_MAX] = { 0 };
	uint64_t first, last;
	int cpu, n, err;
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++) {
		const struct perf_event_attr *a = &pd->attrs[i].attr;

		if (a->type >= PERF_TYPE_MAX || seen[a->type])
			continue;
		seen[a->type] = true;
		if (!(a->sample_type & PERF_SAMPLE_CPU)) {
			pr_err("samples in '%s' have no CPU (record with -a or -C to have it, "
			       "or drop -C)",
			       input);
			return -EINVAL;
		}
	}
	err = sample_filter_set_cpus(f, list);
	if (err == -ENOMEM) {
		pr_err("-C: %s", err_str(err));
		return err;
	}
	if (err) {
		pr_err("-C '%s' is not a list of CPUs (write it as 0,2-3)", list);
		return -EINVAL;
	}
	time_span(pd, &n, &first, &last);
	for (cpu = FILTER_MAX_CPUS - 1; cpu >= 0 && !sample_filter_cpu(f, (uint32_t)cpu); cpu--)
		;
	if (cpu >= n) {
		if (pd->is_pipe)
			pr_err("-C: the number of CPUs of a recording read from a pipe is not "
			       "known (record to a file to use -C)");
		else
			pr_err("-C: there is no CPU %d in '%s', recorded with %d CPUs (use CPUs "
			       "0-%d)",
			       cpu, input, n, n - 1);
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

bool read_opts_kallsyms_readable(const char *path)
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
	       "'ffffffff81000000 T _text' (give a copy of a kernel's /proc/kallsyms)",
	       path);
	return false;
}
