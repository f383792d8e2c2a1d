// SPDX-License-Identifier: GPL-2.0
/*
 * probe/sdt-cache: SDT events of perf's build-id cache (see sdt-cache.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/base/strbuf.h"
#include "lib/probe/finder.h"
#include "lib/probe/sdt-cache.h"
#include "lib/probe/spec.h"
#include "lib/sym/cache-edit.h"

struct sdt_list {
	const char *group_glob, *event_glob;
	const char *top;
	struct sdt_cached *v;
	int nr, alloc;
};

static int add(struct sdt_list *l, const char *ge, const char *hex, const char *name)
{
	const char *colon = strchr(ge, ':');
	struct sdt_cached *e;
	char *group;

	if (!colon || colon == ge || !colon[1])
		return 0;
	group = strndup(ge, (size_t)(colon - ge));
	if (!group)
		return -ENOMEM;
	if ((l->group_glob && fnmatch(l->group_glob, group, 0)) ||
	    (l->event_glob && fnmatch(l->event_glob, colon + 1, 0))) {
		free(group);
		return 0;
	}
	if (l->nr == l->alloc) {
		int na = l->alloc ? l->alloc * 2 : 64;
		struct sdt_cached *m = realloc(l->v, (size_t)na * sizeof(*m));

		if (!m) {
			free(group);
			return -ENOMEM;
		}
		l->v = m;
		l->alloc = na;
	}
	e = &l->v[l->nr];
	e->group = group;
	e->event = strdup(colon + 1);
	e->hex = strdup(hex);
	e->name = strdup(name);
	l->nr++;
	return e->event && e->hex && e->name ? 0 : -ENOMEM;
}

/* The "%GROUP:EVENT=..." lines of one object's probes file */
static int scan_object(void *ctx, const char *hex, const char *name)
{
	struct sdt_list *l = ctx;
	char path[8192], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int r = 0;

	snprintf(path, sizeof(path), "%s/%s/%s/probes", l->top, name[0] == '/' ? name + 1 : name,
		 hex);
	f = fopen(path, "re");
	if (!f)
		return 0; /* nothing cached for it: no SDT markers */
	while (!r && getline(&line, &cap, f) > 0) {
		char *eq;

		if (line[0] != '%' || !(eq = strchr(line, '=')))
			continue;
		*eq = '\0';
		r = add(l, line + 1, hex, name);
	}
	free(line);
	fclose(f);
	return r;
}

/* perf's order: strcmp of "group:event@hex" */
static int cmp_cached(const void *a, const void *b)
{
	const struct sdt_cached *x = a, *y = b;
	char kx[1024], ky[1024];

	snprintf(kx, sizeof(kx), "%s:%s@%s", x->group, x->event, x->hex);
	snprintf(ky, sizeof(ky), "%s:%s@%s", y->group, y->event, y->hex);
	return strcmp(kx, ky);
}

void sdt_cached_free(struct sdt_cached *v, int nr)
{
	int i;

	for (i = 0; v && i < nr; i++) {
		free(v[i].group);
		free(v[i].event);
		free(v[i].hex);
		free(v[i].name);
	}
	free(v);
}

int sdt_cache_list(const char *group_glob, const char *event_glob, struct sdt_cached **out)
{
	char top[4096];
	struct sdt_list l = { group_glob, event_glob, top, NULL, 0, 0 };
	int r, i, k = 0;

	*out = NULL;
	if (!buildid_cache_dir(top, sizeof(top)))
		return 0;
	r = buildid_cache_list(scan_object, &l);
	if (r == -ENOENT)
		r = 0;
	if (r < 0) {
		sdt_cached_free(l.v, l.nr);
		return r;
	}
	if (l.nr)
		qsort(l.v, (size_t)l.nr, sizeof(*l.v), cmp_cached);
	for (i = 0; i < l.nr; i++) { /* the same event of the same object once */
		if (k && !cmp_cached(&l.v[k - 1], &l.v[i])) {
			free(l.v[i].group);
			free(l.v[i].event);
			free(l.v[i].hex);
			free(l.v[i].name);
			continue;
		}
		l.v[k++] = l.v[i];
	}
	*out = l.v;
	return k;
}

struct sdt_write {
	struct probe_bin *bin;
	const char *path;
	struct strbuf out;
	int r;
};

/* One marker ("%sdt_PROVIDER:NAME") and its definitions, as perf's probes file has them */
static int write_marker(const char *name, void *ctx)
{
	struct sdt_write *w = ctx;
	struct probe_find_opts o = { .x_types = 1 };
	struct probe_trace *t = NULL;
	struct probe_spec s;
	size_t nr = 0, i;
	char err[512];
	int r = probe_spec_parse(name, &s, err, sizeof(err));

	if (r)
		return 0; /* not a name perf could cache either */
	if (!probe_find(w->bin, &s, &o, &t, &nr, err, sizeof(err)) && nr) {
		strbuf_addf(&w->out, "%s=%s\n", name, s.func);
		for (i = 0; i < nr && !r; i++) {
			char *line = probe_trace_uprobe_def(&t[i], t[i].group ? t[i].group : "sdt",
							    t[i].event, w->path);

			if (!line)
				r = -ENOMEM;
			else
				strbuf_addf(&w->out, "%s\n", line);
			free(line);
		}
	}
	probe_traces_free(t, nr);
	probe_spec_release(&s);
	return r;
}

int sdt_cache_write(const char *path, const char *dir)
{
	struct sdt_write w = { .path = path, .out = STRBUF_INIT };
	char err[512], file[8192], tmp[8300];
	FILE *f;
	int r = probe_bin_open(path, &w.bin, err, sizeof(err));

	if (r)
		return r;
	r = probe_bin_for_each_sdt(w.bin, write_marker, &w);
	probe_bin_close(w.bin);
	snprintf(file, sizeof(file), "%s/probes", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = r ? NULL : fopen(tmp, "we");
	if (!r && !f)
		r = -errno;
	if (f) {
		fputs(w.out.buf, f);
		if (fclose(f) || rename(tmp, file))
			r = -errno;
		if (r)
			unlink(tmp);
	}
	strbuf_release(&w.out);
	return r;
}
