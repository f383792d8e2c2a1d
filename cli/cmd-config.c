// SPDX-License-Identifier: GPL-2.0
/*
 * flare config: reads and writes perf's configuration files (/etc/perfconfig, ~/.perfconfig),
 * as perf config 6.1: -l lists section.key=value, NAME prints one, NAME=VALUE sets it in the
 * user file (or the system file with --system), rewriting the file in perf's layout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/config.h"
#include "lib/base/err.h"
#include "lib/base/outfile.h"
#include "lib/base/strbuf.h"

struct config_opts {
	int list, user, system;
};

/* Which files a command reads: both by default, or the one named. */
static int load(const struct config_opts *o, struct config *cfg, const char *user_path)
{
	char err[256];
	int ret = 0;

	if (!o->user)
		ret = config_load(cfg, config_system_path(), err, sizeof(err));
	if (ret) {
		pr_err("cannot read %s: %s (fix or remove that line)", config_system_path(), err);
		return ret;
	}
	if (!o->system && user_path)
		ret = config_load(cfg, user_path, err, sizeof(err));
	if (ret)
		pr_err("cannot read %s: %s (fix or remove that line)", user_path, err);
	return ret;
}

/* Each name once with its final value, grouped by section in the order sections first
 * appear, as perf config -l lists them. */
static void list_all(const struct config *cfg)
{
	size_t i, j, k;

	for (i = 0; i < cfg->nr; i++) {
		for (k = 0; k < i && strcmp(cfg->items[k].section, cfg->items[i].section); k++)
			;
		if (k < i)
			continue;
		for (j = i; j < cfg->nr; j++) {
			const struct config_item *it = &cfg->items[j];
			char name[512];

			if (strcmp(it->section, cfg->items[i].section))
				continue;
			for (k = i; k < j; k++)
				if (!strcmp(cfg->items[k].section, it->section) &&
				    !strcmp(cfg->items[k].key, it->key))
					break;
			if (k < j)
				continue;
			snprintf(name, sizeof(name), "%s.%s", it->section, it->key);
			printf("%s=%s\n", name, config_get(cfg, name));
		}
	}
}

/* Writes cfg to path through the one -o helper: a new file renamed over the old one, never
 * half a file. */
static int save(const struct config *cfg, const char *path)
{
	struct outfile of = OUTFILE_INIT;
	char *text = config_render(cfg);
	int err;

	if (!text)
		return -ENOMEM;
	err = outfile_open(&of, path, 0666, 0);
	if (!err)
		err = outfile_write(&of, text, strlen(text));
	if (!err)
		err = outfile_commit(&of);
	if (err)
		outfile_abort(&of);
	free(text);
	return err;
}

static int set_values(const struct config_opts *o, int argc, char **argv, const char *user_path)
{
	const char *path = o->system ? config_system_path() : user_path;
	struct config cfg = { 0 };
	char err[256];
	int i, ret;

	if (!path) {
		pr_err("no user config file: HOME is not set (or use --system)");
		return 255;
	}
	ret = config_load(&cfg, path, err, sizeof(err));
	if (ret) {
		pr_err("cannot read %s: %s (fix or remove that line)", path, err);
		config_free(&cfg);
		return 255;
	}
	for (i = 0; i < argc && !ret; i++) {
		char *eq = strchr(argv[i], '='), name[512];

		snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
		ret = config_set(&cfg, name, eq + 1);
		if (ret == -EINVAL)
			pr_err("'%s' cannot be set: write section.name=value with letters, digits, "
			       "'-' and '_' in the names and no newline in the value "
			       "(report.children=false)",
			       argv[i]);
	}
	if (!ret) {
		ret = save(&cfg, path);
		if (ret)
			pr_err("cannot write %s: %s", path, err_str(ret));
	}
	config_free(&cfg);
	return ret ? 255 : 0;
}

int cmd_config(int argc, char **argv)
{
	struct config_opts o = { 0 };
	static const char *const usage[] = {
		"flare config [<file-option>] [options] [section.name[=value] ...]", NULL
	};
	const struct opt opts[] = {
		OPT_BOOL('l', "list", &o.list, "show current config variables"),
		OPT_BOOL(0, "system", &o.system, "use system config file"),
		OPT_BOOL(0, "user", &o.user, "use user config file"),
		OPT_END(),
	};
	struct config cfg = { 0 };
	char ubuf[4096];
	const char *user_path = config_user_path(ubuf, sizeof(ubuf));
	int i, nset = 0, ret = 0;

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (o.user && o.system)
		opt_usage_error(opts, usage, "--user and --system are one or the other");
	if (!o.list && !argc)
		opt_usage_exit(opts, usage, 0, 129);
	if (o.list && argc)
		opt_usage_error(opts, usage, "-l takes no names");
	for (i = 0; i < argc; i++)
		nset += strchr(argv[i], '=') != NULL;
	if (nset && nset != argc)
		opt_usage_error(opts, usage, "set values (a=b) or show them (a), not both at once");
	if (nset)
		return set_values(&o, argc, argv, user_path);
	if (load(&o, &cfg, user_path)) {
		config_free(&cfg);
		return 255;
	}
	if (o.list)
		list_all(&cfg);
	for (i = 0; i < argc; i++) {
		const char *v;

		if (!strchr(argv[i], '.')) {
			pr_err("'%s' has no section: name a variable as section.name "
			       "(flare config -l lists them)",
			       argv[i]);
			ret = 255;
			continue;
		}
		v = config_get(&cfg, argv[i]);
		if (v)
			printf("%s=%s\n", argv[i], v);
	}
	config_free(&cfg);
	return ret;
}
