// SPDX-License-Identifier: GPL-2.0
/*
 * cache-edit: walks the build-id cache's .build-id/xx/rest links to list what is cached, and
 * removes entries (the copy's directory and its link).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/sym/cache-edit.h"
#include "lib/sym/sym-int.h"

struct entry {
	char hex[41];
	char *name;
};

struct entries {
	struct entry *v;
	size_t nr, alloc;
};

/* The name an entry's link points at: "../../<name without its leading />/<hex>". */
static char *link_name(const char *link_path, const char *hex)
{
	char target[8192];
	ssize_t n = readlink(link_path, target, sizeof(target) - 1);
	size_t len, hl = strlen(hex);

	if (n <= 6 || strncmp(target, "../../", 6))
		return NULL;
	target[n] = 0;
	len = (size_t)n;
	if (len < 6 + hl + 1 || strcmp(target + len - hl, hex) || target[len - hl - 1] != '/')
		return NULL;
	target[len - hl - 1] = 0;
	if (target[6] == '[')
		return strdup(target + 6);
	target[5] = '/';
	return strdup(target + 5);
}

static int add_entry(struct entries *es, const char *hex, char *name)
{
	if (es->nr == es->alloc) {
		size_t n = es->alloc ? 2 * es->alloc : 64;
		struct entry *p = realloc(es->v, n * sizeof(*p));

		if (!p) {
			free(name);
			return -ENOMEM;
		}
		es->v = p;
		es->alloc = n;
	}
	snprintf(es->v[es->nr].hex, sizeof(es->v[es->nr].hex), "%s", hex);
	es->v[es->nr++].name = name;
	return 0;
}

/* The links of one .build-id/xx directory whose copy still exists. */
static int scan_dir(struct entries *es, const char *top, const char *xx)
{
	char path[8192], hex[300];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "%s/.build-id/%s", top, xx);
	d = opendir(path);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		char *name;

		if (de->d_name[0] == '.' || strlen(xx) + strlen(de->d_name) > 40)
			continue;
		snprintf(hex, sizeof(hex), "%s%s", xx, de->d_name);
		snprintf(path, sizeof(path), "%s/.build-id/%s/%s", top, xx, de->d_name);
		name = link_name(path, hex);
		if (!name)
			continue;
		/* a dangling link (the copy was removed) and the vdso are not listed, as perf */
		if (stat(path, &st) || !strcmp(name, "[vdso]")) {
			free(name);
			continue;
		}
		err = add_entry(es, hex, name);
	}
	closedir(d);
	return err;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->hex, ((const struct entry *)b)->hex);
}

static void entries_free(struct entries *es)
{
	size_t i;

	for (i = 0; i < es->nr; i++)
		free(es->v[i].name);
	free(es->v);
}

int buildid_cache_list(buildid_cache_cb cb, void *ctx)
{
	struct entries es = { 0 };
	char top[4096], path[8192];
	struct dirent *de;
	size_t i;
	DIR *d;
	int err = 0;

	if (!buildid_cache_dir(top, sizeof(top)))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/.build-id", top);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (de = readdir(d)))
		if (strlen(de->d_name) == 2 && de->d_name[0] != '.')
			err = scan_dir(&es, top, de->d_name);
	closedir(d);
	if (!err)
		qsort(es.v, es.nr, sizeof(*es.v), cmp_entry);
	for (i = 0; !err && i < es.nr; i++)
		err = cb(ctx, es.v[i].hex, es.v[i].name);
	entries_free(&es);
	return err;
}

/* Removes dir's files and dir itself (a cached copy holds files only). */
static int remove_copy(const char *dir)
{
	char path[8192 + 512];
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path) && !err)
			err = -errno;
	}
	closedir(d);
	if (rmdir(dir) && !err)
		err = -errno;
	return err;
}

int buildid_cache_remove(const char *name, const char *hex)
{
	char top[4096], dir[8192], link_path[8192];
	int err;

	if (!buildid_cache_dir(top, sizeof(top)))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/%s/%s", top, name[0] == '/' ? name + 1 : name, hex);
	snprintf(link_path, sizeof(link_path), "%s/.build-id/%.2s/%s", top, hex, hex + 2);
	if (access(dir, F_OK))
		return -ENOENT;
	err = remove_copy(dir);
	if (unlink(link_path) && errno != ENOENT && !err)
		err = -errno;
	return err;
}

struct purge_ctx {
	const char *name;
	struct entries found;
};

static int note_build(void *ctx, const char *hex, const char *name)
{
	struct purge_ctx *p = ctx;
	char *copy;

	if (strcmp(name, p->name))
		return 0;
	copy = strdup(name);
	return copy ? add_entry(&p->found, hex, copy) : -ENOMEM;
}

int buildid_cache_purge(const char *name)
{
	struct purge_ctx p = { .name = name };
	size_t i;
	int err = buildid_cache_list(note_build, &p);

	for (i = 0; !err && i < p.found.nr; i++)
		err = buildid_cache_remove(name, p.found.v[i].hex);
	entries_free(&p.found);
	return err ? err : (int)i;
}
