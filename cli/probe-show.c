// SPDX-License-Identifier: GPL-2.0
/*
 * flare probe -F, -V, -L: what can be probed. -F lists function symbols (perf's default
 * filter "!_* & !*@plt"), -V the variables in scope at each place a point resolves to, -L a
 * function's source with the lines that have code numbered from the function's first line.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/out.h"
#include "cli/probe.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/probe/filter.h"
#include "lib/probe/finder.h"
#include "lib/probe/source.h"
#include "lib/probe/spec.h"

struct funcs_ctx {
	const char *filter;
};

static int print_func(const char *name, void *ctx)
{
	struct funcs_ctx *c = ctx;

	if (probe_filter_match(c->filter, name))
		printf("%s\n", name);
	return 0;
}

static int open_exec(struct probe_ctx *pc, struct probe_bin **bin, char *path)
{
	const char *target = pc->exec ? pc->exec : pc->kobj;
	char err[512];
	int r;

	if (!target) {
		pr_err("this kernel's debug info is not available to flare: give -x BINARY, or "
		       "-k VMLINUX / -m MODULE.ko with debug info (kernel functions: flare probe "
		       "-F without -x)");
		return -ENOENT;
	}
	if (!realpath(target, path)) {
		r = -errno;
		pr_err("cannot open '%s': %s (give %s the path of %s)", target, strerror(errno),
		       pc->exec			 ? "-x"
		       : pc->kobj == pc->vmlinux ? "-k"
						 : "-m",
		       pc->exec ? "a program or library" : "a kernel object with debug info");
		return r;
	}
	r = probe_bin_open(path, bin, err, sizeof(err));
	if (r)
		pr_err("%s", err);
	return r;
}

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int kernel_funcs(const char *filter)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], sym[256], type, **v = NULL;
	size_t n = 0, i, alloc = 0;

	if (!f) {
		pr_err("cannot read /proc/kallsyms: %s", strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*x %c %255s", &type, sym) != 2 || strchr(line, '[') ||
		    (type != 't' && type != 'T' && type != 'W'))
			continue;
		if (n == alloc) {
			char **m = realloc(v, (alloc = alloc ? alloc * 2 : 4096) * sizeof(*v));

			if (!m)
				break;
			v = m;
		}
		v[n++] = strdup(sym);
	}
	fclose(f);
	qsort(v, n, sizeof(*v), strcmp_ptr);
	for (i = 0; i < n; i++) {
		if (v[i] && (!i || !v[i - 1] || strcmp(v[i], v[i - 1])) &&
		    probe_filter_match(filter, v[i]))
			printf("%s\n", v[i]);
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return 0;
}

int probe_cmd_funcs(struct probe_ctx *pc, const char *filter)
{
	struct funcs_ctx c = { filter ? filter : pc->filter ? pc->filter : "!_* & !*@plt" };
	struct probe_bin *bin = NULL;
	char path[PATH_MAX];
	int r;

	if (!pc->exec && !pc->kobj)
		return kernel_funcs(c.filter);
	r = open_exec(pc, &bin, path);
	if (r)
		return 1;
	/* a vmlinux's functions only, as perf lists the kernel map (a module's all) */
	r = probe_bin_for_each_func(bin, !pc->exec && pc->kobj == pc->vmlinux, print_func, &c);
	if (!r && pc->exec) /* then its SDT markers, as they are probed: %sdt_PROVIDER:NAME */
		r = probe_bin_for_each_sdt(bin, print_func, &c);
	probe_bin_close(bin);
	return r ? 1 : 0;
}

struct vars_out {
	char **lines;
	size_t nr;
	const char *filter;
};

static int collect_var(const char *type, const char *name, void *ctx)
{
	struct vars_out *o = ctx;
	char **m, *l;

	if (!probe_filter_match(o->filter, name))
		return 0;
	m = realloc(o->lines, (o->nr + 1) * sizeof(*m));
	if (!m || asprintf(&l, "\t\t%s\t%s", type, name) < 0) {
		if (m)
			o->lines = m;
		return -ENOMEM;
	}
	o->lines = m;
	m[o->nr++] = l;
	return 0;
}

/* -V POINT: for each place the point resolves to, the variables readable there, sorted */
int probe_cmd_vars(struct probe_ctx *pc, const char *point)
{
	struct probe_bin *bin = NULL;
	struct probe_spec spec;
	struct probe_trace *t = NULL;
	size_t nr = 0, i, k;
	char path[PATH_MAX], err[512], where[300];
	int r = open_exec(pc, &bin, path);

	if (r)
		return 1;
	r = probe_spec_parse(point, &spec, err, sizeof(err));
	if (r) {
		pr_err("invalid probe point '%s': %s", point, err);
		goto out_bin;
	}
	r = probe_find(bin, &spec, &pc->find, &t, &nr, err, sizeof(err));
	if (r) {
		pr_err("cannot find '%s': %s", point, err);
		goto out_spec;
	}
	{
		char *pt = probe_spec_point_str(&spec);

		printf("Available variables at %s\n", pt ? pt : point);
		free(pt);
	}
	for (i = 0; i < nr && !r; i++) {
		struct vars_out o = { .filter = pc->filter ? pc->filter
							   : "!__k???tab_* & !__crc_*" };

		r = probe_bin_vars_at(bin, &t[i], pc->externs, where, sizeof(where), collect_var,
				      &o);
		if (r == -ENOENT) {
			pr_err("'%s': no debug information at 0x%llx (install the binary's "
			       "-dbg/-dbgsym package)",
			       point, (unsigned long long)t[i].vaddr);
		} else if (!r) {
			qsort(o.lines, o.nr, sizeof(*o.lines), strcmp_ptr);
			printf("\t@<%s>\n", where);
			if (!o.nr)
				printf("\t\t(No matched variables)\n");
			for (k = 0; k < o.nr; k++)
				printf("%s\n", o.lines[k]);
		}
		for (k = 0; k < o.nr; k++)
			free(o.lines[k]);
		free(o.lines);
	}
	probe_traces_free(t, nr);
out_spec:
	probe_spec_release(&spec);
out_bin:
	probe_bin_close(bin);
	return r ? 1 : 0;
}

/* A parsed -L argument: FUNC[@SRC][:RANGE] or SRC[:RANGE], RANGE being START, START-END or
 * START+N (relative to the function's first line for FUNC, absolute for SRC) */
struct line_desc {
	char *func, *file; /* in buf */
	long start, end;   /* end LONG_MAX: to the end of the function or file */
	char buf[1024];
};

static int parse_line_desc(const char *desc, struct line_desc *d)
{
	char *colon, *at, *e;

	memset(d, 0, sizeof(*d));
	d->end = LONG_MAX;
	if (snprintf(d->buf, sizeof(d->buf), "%s", desc) >= (int)sizeof(d->buf) || !*desc)
		goto bad;
	colon = strchr(d->buf, ':');
	if (colon) {
		*colon++ = '\0';
		d->start = strtol(colon, &e, 0);
		if (e == colon)
			goto bad;
		if (*e == '+' || *e == '-') {
			char *n = e + 1;
			long v = strtol(n, &e, 0);

			if (e == n)
				goto bad;
			d->end = n[-1] == '+' ? d->start + v - 1 : v;
		}
		if (*e)
			goto bad;
		if (d->end < d->start) {
			pr_err("-L '%s': the start line must be smaller than the end line", desc);
			return -EINVAL;
		}
	}
	at = strchr(d->buf, '@');
	if (at) {
		*at = '\0';
		d->func = d->buf;
		d->file = at + 1;
	} else if (strchr(d->buf, '.')) {
		d->file = d->buf;
	} else {
		d->func = d->buf;
	}
	if ((d->func && !*d->func) || (d->file && !*d->file))
		goto bad;
	return 0;
bad:
	pr_err("-L '%s': expected FUNC[@SRC][:START[-END|+N]] or SRC[:START[-END|+N]]", desc);
	return -EINVAL;
}

/* Prints the lines of src from start to end, those with code (in l) numbered less offset,
 * as perf does: when end is open, up to two lines after the last line with code */
static void print_range(FILE *src, const struct probe_lines *l, long start, long end, long offset)
{
	char *line = NULL;
	size_t cap = 0;
	long ln = 0, last = 0, k;

	for (k = start > l->first ? start : l->first; k <= l->last && k <= end; k++)
		if (probe_lines_has(l, (int)k))
			last = k;
	if (end == LONG_MAX)
		end = last + 3;
	while (getline(&line, &cap, src) >= 0 && ++ln <= end) {
		size_t n = strlen(line);

		if (ln < start)
			continue;
		if (ln <= last && probe_lines_has(l, (int)ln))
			printf("%7ld  %s%s", ln - offset, line,
			       n && line[n - 1] == '\n' ? "" : "\n");
		else
			printf("         %s%s", line, n && line[n - 1] == '\n' ? "" : "\n");
	}
	free(line);
}

/* Whether l has a line with code in [start, end] */
static int range_has_code(const struct probe_lines *l, long start, long end)
{
	long k;

	for (k = start > l->first ? start : l->first; k <= l->last && k <= end; k++)
		if (probe_lines_has(l, (int)k))
			return 1;
	return 0;
}

/* -L: the source of a function or file, lines with code numbered (from the function's first
 * line, or absolute for a file) */
int probe_cmd_lines(struct probe_ctx *pc, const char *desc)
{
	struct probe_bin *bin = NULL;
	struct probe_lines l;
	struct line_desc d;
	char path[PATH_MAX], *src_path = NULL;
	long offset, start, end;
	FILE *src;
	int r;

	if (parse_line_desc(desc, &d))
		return 1;
	r = open_exec(pc, &bin, path);
	if (r)
		return 1;
	r = d.func ? probe_bin_func_lines(bin, d.func, d.file, &l)
		   : probe_bin_file_lines(bin, d.file, &l);
	probe_bin_close(bin);
	if (r) {
		pr_err("-L '%s': %s", desc,
		       r != -ENOENT ? err_str(r)
		       : d.func	    ? "no such function with debug information (see flare probe -F)"
				    : "no compilation unit has this source file");
		return 1;
	}
	offset = d.func ? l.decl : 0;
	start = offset + d.start;
	end = d.end == LONG_MAX ? LONG_MAX : offset + d.end;
	r = 1;
	if (!range_has_code(&l, start, end)) {
		pr_err("-L '%s': no line in this range has code (see flare probe -L %s)", desc,
		       d.func ? d.func : d.file);
		goto out;
	}
	if (probe_source_path(l.raw, l.comp_dir, pc->source, &src_path) ||
	    !(src = fopen(src_path, "re"))) {
		pr_err("cannot open source file '%s': %s (give the source directory with -s DIR)",
		       l.path, strerror(errno));
		goto out;
	}
	if (d.func)
		printf("<%s@%s:%ld>\n", d.func, src_path, start - offset);
	else
		printf("<%s:%ld>\n", src_path, start);
	print_range(src, &l, start, end, offset);
	fclose(src);
	r = 0;
out:
	free(src_path);
	probe_lines_release(&l);
	return r;
}
