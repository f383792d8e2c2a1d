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
	char err[512];
	int r;

	if (!pc->exec) {
		pr_err("this kernel's debug info is not available to flare: give -x BINARY "
		       "(kernel functions: flare probe -F without -x)");
		return -ENOENT;
	}
	if (!realpath(pc->exec, path)) {
		r = -errno;
		pr_err("cannot open '%s': %s (give -x the path of a program or library)",
		       pc->exec, strerror(errno));
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

	if (!pc->exec)
		return kernel_funcs(c.filter);
	r = open_exec(pc, &bin, path);
	if (r)
		return 1;
	r = probe_bin_for_each_func(bin, print_func, &c);
	if (!r)	/* then its SDT markers, as they are probed: %sdt_PROVIDER:NAME */
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
	printf("Available variables at %s\n", point);
	for (i = 0; i < nr && !r; i++) {
		struct vars_out o = { .filter = pc->filter ? pc->filter
							   : "!__k???tab_* & !__crc_*" };

		r = probe_bin_vars_at(bin, t[i].vaddr, pc->externs, where, sizeof(where),
				      collect_var, &o);
		if (r == -ENOENT) {
			pr_err("'%s': no debug information at 0x%llx (install the binary's "
			       "-dbg/-dbgsym package)", point, (unsigned long long)t[i].vaddr);
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

/* -L FUNC: the function's source, lines with code numbered from its first line */
int probe_cmd_lines(struct probe_ctx *pc, const char *desc)
{
	struct probe_bin *bin = NULL;
	char path[PATH_MAX], *file = NULL, line[4096];
	unsigned char *has = NULL;
	int first, last, r = open_exec(pc, &bin, path), ln = 0;
	FILE *src;

	if (r)
		return 1;
	if (strpbrk(desc, ":@+-")) {
		pr_err("-L '%s': flare shows whole functions (-L FUNC); ranges and files are not "
		       "supported yet", desc);
		probe_bin_close(bin);
		return 1;
	}
	r = probe_bin_func_lines(bin, desc, &file, &first, &last, &has);
	probe_bin_close(bin);
	if (r) {
		pr_err("-L '%s': %s", desc, r == -ENOENT ? "no such function with debug "
		       "information (see flare probe -F)" : err_str(r));
		return 1;
	}
	src = fopen(file, "re");
	if (!src) {
		pr_err("cannot open source file '%s': %s (run where the sources are)", file,
		       strerror(errno));
		free(file);
		free(has);
		return 1;
	}
	printf("<%s@%s:%d>\n", desc, file, 0);
	while (fgets(line, sizeof(line), src)) {
		if (++ln < first)
			continue;
		if (ln > last + 3)	/* perf shows three lines after the last with code */
			break;
		if (ln <= last && has[ln - first])
			printf("%7d  %s", ln - first, line);
		else
			printf("         %s", line);
	}
	fclose(src);
	free(file);
	free(has);
	return 0;
}
