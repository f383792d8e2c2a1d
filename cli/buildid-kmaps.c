// SPDX-License-Identifier: GPL-2.0
/*
 * buildid-kmaps: `buildid-list -m`, the running kernel's maps as perf 6.1 prints them: the
 * kernel text (_text to _etext, from /proc/kallsyms) and each module of /proc/modules
 * (its address and size), in address order, each as "BUILD-ID START END NAME". A module's
 * name is its file under /lib/modules/RELEASE when one is found there (as perf finds it:
 * NAME.ko, compressed or not, '-' read as '_', the top-level source and build links not
 * followed), else [NAME]; its build-id comes from /sys/module/NAME/notes, read only for a
 * module whose file was found, as perf reads it, and is empty when unknown.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "cli/buildid.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/data/writer.h"
#include "lib/sym/sym.h"

struct kmap {
	uint64_t start, end;
	bool kernel;   /* the kernel's text, [kernel.kallsyms] */
	char name[64]; /* the module's name, as /proc/modules has it */
	char *path;    /* its file under /lib/modules, or NULL */
	char hex[41];
};

struct kmaps {
	struct kmap *v;
	size_t nr;
};

static int by_start(const void *a, const void *b)
{
	const struct kmap *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* A file name's module name (NAME.ko, .ko.xz, .ko.gz, .ko.zst; '-' as '_'), or 0 when it is
 * not a module. */
static int module_name(const char *file, char *out, size_t len)
{
	const char *ko = strstr(file, ".ko");
	size_t n, i;

	if (!ko ||
	    (ko[3] && strcmp(ko + 3, ".xz") && strcmp(ko + 3, ".gz") && strcmp(ko + 3, ".zst")))
		return 0;
	n = (size_t)(ko - file);
	if (!n || n >= len)
		return 0;
	for (i = 0; i < n; i++)
		out[i] = file[i] == '-' ? '_' : file[i];
	out[n] = 0;
	return 1;
}

static void find_paths(struct kmaps *km, const char *dir, int depth)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d || depth > 16) {
		if (d)
			closedir(d);
		return;
	}
	while ((de = readdir(d))) {
		char path[4096], name[64];
		struct stat st;
		size_t i;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
			    sizeof(path) ||
		    stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth || (strcmp(de->d_name, "source") && strcmp(de->d_name, "build")))
				find_paths(km, path, depth + 1);
			continue;
		}
		if (!module_name(de->d_name, name, sizeof(name)))
			continue;
		for (i = 0; i < km->nr; i++) {
			if (strcmp(km->v[i].name, name))
				continue;
			free(km->v[i].path);
			km->v[i].path = strdup(path);
		}
	}
	closedir(d);
}

static void module_build_id(struct kmap *m)
{
	struct strbuf sb = STRBUF_INIT;
	char path[256];
	uint8_t id[20];
	int n;

	snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", m->name);
	if (strbuf_read_file(&sb, path) == 0) {
		n = buildid_from_notes(sb.buf, sb.len, id, sizeof(id));
		if (n > 0)
			buildid_hex(id, (size_t)n, m->hex);
	}
	strbuf_release(&sb);
}

static int add_kmap(void *ctx, const char *name, uint64_t addr, uint64_t size)
{
	struct kmaps *km = ctx;
	struct kmap *p = realloc(km->v, (km->nr + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	km->v = p;
	p = &km->v[km->nr++];
	*p = (struct kmap){ .start = addr, .end = addr + size };
	snprintf(p->name, sizeof(p->name), "%s", name);
	return 0;
}

static int read_modules(struct kmaps *km)
{
	int ret = proc_modules_for_each("/proc/modules", add_kmap, km);

	return ret == -ENOENT ? 0 : ret; /* a kernel without modules */
}

int buildid_print_kernel_maps(void)
{
	struct kmaps km = { 0 };
	static const char *const names[] = { "_text", "_stext", "_etext" };
	struct kmap k = { .kernel = true }, *p;
	uint64_t addrs[3];
	struct utsname u;
	uint8_t id[20];
	size_t i;
	int n, ret;

	ret = kallsyms_symbol_addrs("/proc/kallsyms", names, addrs, 3);
	k.start = addrs[0] ? addrs[0] : addrs[1];
	k.end = addrs[2];
	if (ret || !k.start) {
		pr_err("cannot read the kernel's text addresses from /proc/kallsyms: %s",
		       ret ? err_str(ret) : "hidden (set kernel.kptr_restrict=0, or run as root)");
		return 1;
	}
	n = buildid_of("[kernel.kallsyms]", id, sizeof(id));
	if (n > 0)
		buildid_hex(id, (size_t)n, k.hex);
	if ((ret = read_modules(&km)) < 0) {
		pr_err("cannot read /proc/modules: %s", err_str(ret));
		free(km.v);
		return 1;
	}
	if (km.nr && !uname(&u)) {
		char dir[512];

		snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
		find_paths(&km, dir, 0);
	}
	for (i = 0; i < km.nr; i++)
		if (km.v[i].path)
			module_build_id(&km.v[i]);
	p = realloc(km.v, (km.nr + 1) * sizeof(*p));
	if (!p) {
		pr_err("buildid-list -m: %s", err_str(-ENOMEM));
		for (i = 0; i < km.nr; i++)
			free(km.v[i].path);
		free(km.v);
		return 1;
	}
	km.v = p;
	km.v[km.nr++] = k;
	qsort(km.v, km.nr, sizeof(*km.v), by_start);
	for (i = 0; i < km.nr; i++) {
		const struct kmap *m = &km.v[i];

		if (m->kernel)
			printf("%s %16" PRIx64 " %16" PRIx64 " [kernel.kallsyms]\n", m->hex,
			       m->start, m->end);
		else if (m->path)
			printf("%s %16" PRIx64 " %16" PRIx64 " %s\n", m->hex, m->start, m->end,
			       m->path);
		else
			printf("%s %16" PRIx64 " %16" PRIx64 " [%s]\n", m->hex, m->start, m->end,
			       m->name);
		free(km.v[i].path);
	}
	free(km.v);
	return 0;
}
