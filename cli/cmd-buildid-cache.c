// SPDX-License-Identifier: GPL-2.0
/*
 * flare buildid-cache: manages perf's build-id cache (~/.debug or $PERF_BUILDID_DIR), which
 * flare record and perf record fill and both readers use: -a/-u add or refresh an object by
 * its current build-id, -r removes that build, -p every build of a path, -P everything, -l
 * lists "<build-id> <path>", -M names a recording's objects the cache lacks.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/data/features.h"
#include "lib/data/reader.h"
#include "lib/data/writer.h"
#include "lib/probe/sdt-cache.h"
#include "lib/sym/cache-edit.h"
#include "lib/sym/sym.h"

struct cache_opts {
	struct opt_strlist add, remove, purge, update;
	int purge_all, list, force, verbose;
	const char *missing;
};

/* The current build-id of path, as hex. 0, or -errno with a one-line error said. */
static int current_id(const char *path, const char *verb, char hex[41])
{
	uint8_t id[20];
	int n;

	if (access(path, R_OK)) {
		n = -errno;
		pr_err("cannot %s '%s': %s", verb, path, err_str(n));
		return n;
	}
	n = buildid_of(path, id, sizeof(id));
	if (n <= 0) {
		pr_err("cannot %s '%s': it has no GNU build-id note (link it with --build-id)",
		       verb, path);
		return n ? n : -ENOENT;
	}
	buildid_hex(id, (size_t)n, hex);
	return 0;
}

/* perf's probes file beside the cached copy of path: its SDT markers (an empty file when
 * it has none), which list shows and probe definitions come from */
static int cache_sdt(const char *path, const char *hex)
{
	char top[4096], dir[8192 + 64];

	if (!buildid_cache_dir(top, sizeof(top)))
		return 0;
	snprintf(dir, sizeof(dir), "%s/%.4000s/%s", top, path[0] == '/' ? path + 1 : path, hex);
	if (access(dir, F_OK))
		return 0; /* not cached (not an object with a build-id) */
	return sdt_cache_write(path, dir);
}

static int add_one(const char *arg, bool update, int verbose)
{
	char path[4096], hex[41];
	uint8_t id[20];
	int err, n, i;

	if (!realpath(arg, path)) {
		err = -errno;
		pr_err("cannot add '%s': %s", arg, err_str(err));
		return err;
	}
	err = current_id(path, "add", hex);
	if (err)
		return err;
	if (update)
		buildid_cache_remove(path, hex);
	n = (int)strlen(hex) / 2;
	for (i = 0; i < n; i++)
		sscanf(hex + 2 * i, "%2hhx", &id[i]);
	err = buildid_cache_add(path, id, (size_t)n);
	if (err) {
		pr_err("cannot add '%s' to the build-id cache: %s", path, err_str(err));
		return err;
	}
	err = cache_sdt(path, hex); /* its SDT markers, for list and probe, as perf's */
	if (err) {
		pr_err("cannot cache the SDT markers of '%s': %s", path, err_str(err));
		return err;
	}
	if (verbose)
		fprintf(stderr, "%s %s %s: Ok\n", update ? "Updating" : "Adding", hex, path);
	return 0;
}

static int remove_one(const char *arg, int verbose)
{
	char path[4096], hex[41];
	int err;

	if (!realpath(arg, path)) {
		err = -errno;
		pr_err("cannot remove '%s': %s", arg, err_str(err));
		return err;
	}
	err = current_id(path, "remove", hex);
	if (err)
		return err;
	err = buildid_cache_remove(path, hex);
	if (err == -ENOENT) {
		pr_err("'%s' (build-id %s) is not in the build-id cache (see flare buildid-cache "
		       "-l; -p removes every build of a path)",
		       path, hex);
		return err;
	}
	if (err)
		pr_err("cannot remove '%s' from the build-id cache: %s", path, err_str(err));
	else if (verbose)
		fprintf(stderr, "Removing %s %s: Ok\n", hex, path);
	return err;
}

static int purge_one(const char *arg, int verbose)
{
	char path[4096];
	const char *name = realpath(arg, path) ? path : arg; /* a deleted file can be purged */
	int n = buildid_cache_purge(name);

	if (n < 0) {
		pr_err("cannot purge '%s' from the build-id cache: %s", name, err_str(n));
		return n;
	}
	if (verbose)
		fprintf(stderr, "Removing %s: %d build%s\n", name, n, n == 1 ? "" : "s");
	return 0;
}

enum action { ACT_ADD, ACT_UPDATE, ACT_REMOVE, ACT_PURGE };

/* Does act on each path of the list; an item may itself be a comma-separated list, as perf's.
 * Returns how many failed. */
static int each_item(const struct opt_strlist *l, enum action act, int verbose)
{
	char *items, *tok, *save = NULL;
	size_t i;
	int failed = 0, err;

	for (i = 0; i < l->nr; i++) {
		items = strdup(l->items[i]);
		if (!items)
			return failed + 1;
		for (tok = strtok_r(items, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (act == ACT_ADD || act == ACT_UPDATE)
				err = add_one(tok, act == ACT_UPDATE, verbose);
			else if (act == ACT_REMOVE)
				err = remove_one(tok, verbose);
			else
				err = purge_one(tok, verbose);
			failed += err != 0;
		}
		free(items);
	}
	return failed;
}

static int print_entry(void *ctx, const char *hex, const char *name)
{
	(void)ctx;
	printf("%s %s\n", hex, name);
	return 0;
}

static int purge_entry(void *ctx, const char *hex, const char *name)
{
	int *failed = ctx;

	if (buildid_cache_remove(name, hex))
		(*failed)++;
	return 0;
}

/* -M: the objects a recording names whose build is not cached. */
static int list_missing(const char *file, int force)
{
	struct perf_data *pd;
	struct pd_features *f = NULL;
	char err[256], dir[4096], path[8192];
	uint32_t i;
	int j;

	if (perf_data_open(file, force ? PD_FORCE : 0, &pd, err, sizeof(err)) < 0) {
		pr_err("cannot read '%s': %s", file, err);
		return 255;
	}
	if (pd_features_read(pd, &f) || !buildid_cache_dir(dir, sizeof(dir))) {
		pr_err("cannot read the build-ids of '%s'", file);
		perf_data_close(pd);
		return 1;
	}
	for (i = 0; i < f->nr_build_ids; i++) {
		const struct pd_feat_build_id *b = &f->build_ids[i];
		char hex[41];

		for (j = 0; j < b->size && j < 20; j++)
			sprintf(hex + 2 * j, "%02x", b->build_id[j]);
		hex[2 * j] = 0;
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
		if (access(path, F_OK))
			printf("%s %s\n", hex, b->filename);
	}
	pd_features_free(f);
	perf_data_close(pd);
	return 0;
}

int cmd_buildid_cache(int argc, char **argv)
{
	struct cache_opts o = { 0 };
	static const char *const usage[] = { "flare buildid-cache [<options>]", NULL };
	const struct opt opts[] = {
		OPT_STRLIST('a', "add", &o.add, "file list", "file(s) to add"),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_BOOL('l', "list", &o.list, "list all cached files"),
		OPT_STRING('M', "missing", &o.missing, "file",
			   "to find missing build ids in the cache"),
		OPT_STRLIST('p', "purge", &o.purge, "file list",
			    "file(s) to remove (remove old caches too)"),
		OPT_BOOL('P', "purge-all", &o.purge_all, "purge all cached files"),
		OPT_STRLIST('r', "remove", &o.remove, "file list", "file(s) to remove"),
		OPT_STRLIST('u', "update", &o.update, "file list", "file(s) to update"),
		OPT_COUNT('v', "verbose", &o.verbose, "be more verbose"),
		OPT_END(),
	};
	char dir[4096];
	int failed = 0, err;

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (argc > 0)
		opt_usage_error(opts, usage, "unexpected argument '%s'", argv[0]);
	if (!buildid_cache_dir(dir, sizeof(dir))) {
		pr_err("no build-id cache: set HOME or PERF_BUILDID_DIR");
		return 1;
	}
	failed += each_item(&o.add, ACT_ADD, o.verbose);
	failed += each_item(&o.update, ACT_UPDATE, o.verbose);
	failed += each_item(&o.remove, ACT_REMOVE, o.verbose);
	failed += each_item(&o.purge, ACT_PURGE, o.verbose);
	if (o.purge_all) {
		err = buildid_cache_list(purge_entry, &failed);
		if (err && err != -ENOENT)
			failed++;
	}
	if (o.list) {
		err = buildid_cache_list(print_entry, NULL);
		if (err && err != -ENOENT) {
			pr_err("cannot list the build-id cache in %s: %s", dir, err_str(err));
			failed++;
		}
	}
	if (o.missing)
		failed += list_missing(o.missing, o.force) != 0;
	opt_strlist_free(&o.add);
	opt_strlist_free(&o.update);
	opt_strlist_free(&o.remove);
	opt_strlist_free(&o.purge);
	return failed ? 1 : 0;
}
