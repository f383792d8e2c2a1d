// SPDX-License-Identifier: GPL-2.0
/*
 * flare buildid-list: the build-ids a perf.data file names, as perf buildid-list prints them
 * ("<hex> <path>", in the BUILD_ID feature's order); -H only those of objects a sample hit;
 * -k the running kernel's; -m the running kernel's and its modules' with their addresses
 * (buildid-kmaps.c).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/buildid.h"
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/base/hashmap.h"
#include "lib/data/features.h"
#include "lib/data/writer.h"
#include "lib/session/session.h"
#include "lib/sym/sym.h"

struct buildid_list_opts {
	const char *input;
	int force, with_hits, kernel, kernel_maps, verbose;
};

/* The running kernel's build-id in hex. */
static int print_kernel(void)
{
	uint8_t id[20];
	char hex[41];
	int n = buildid_of("[kernel.kallsyms]", id, sizeof(id));

	if (n <= 0) {
		pr_err("cannot read the running kernel's build-id from /sys/kernel/notes: %s",
		       err_str(n));
		return 1;
	}
	buildid_hex(id, (size_t)n, hex);
	printf("%s\n", hex);
	return 0;
}

static int note_hit(void *ctx, const struct resolved_sample *rs)
{
	struct hashmap *hits = ctx;

	if (rs->nr_frames && rs->frames[0].dso)
		return hashmap_put(hits, (uint64_t)(uintptr_t)rs->frames[0].dso->long_name,
				   (void *)rs->frames[0].dso);
	return 0;
}

static bool was_hit(struct hashmap *hits, const char *filename)
{
	size_t it = 0;
	uint64_t key;
	void *val;

	while (hashmap_next(hits, &it, &key, &val)) {
		const struct dso *d = val;

		if (!strcmp(d->long_name, filename) || !strcmp(d->short_name, filename))
			return true;
	}
	return false;
}

static int list_file(const struct buildid_list_opts *o)
{
	struct session_opts so = { .open_flags = o->force ? PD_FORCE : 0, .no_callchain = true };
	struct session *sess;
	struct pd_features *f = NULL;
	struct hashmap hits = HASHMAP_INIT;
	char err[256], hex[41];
	uint32_t i;
	int ret;

	ret = session_open(o->input, &so, &sess, err, sizeof(err));
	if (ret < 0) {
		pr_err("cannot read '%s': %s (record one with 'flare record', or name it with -i)",
		       o->input, err);
		return 255; /* perf's status for a file it cannot read */
	}
	ret = o->with_hits ? session_process(sess, note_hit, NULL, &hits) : 0;
	if (ret < 0)
		pr_warn("'%s': %s: build-ids of objects hit after that point are not listed",
			o->input, sess->pd->err_msg);
	if (pd_features_read(sess->pd, &f)) {
		pr_err("out of memory reading the header of '%s'", o->input);
		ret = 1;
		goto out;
	}
	for (i = 0; i < f->nr_build_ids; i++) {
		const struct pd_feat_build_id *b = &f->build_ids[i];

		if (o->with_hits && !was_hit(&hits, b->filename))
			continue;
		buildid_hex(b->build_id, b->size, hex);
		printf("%s %s\n", hex, b->filename);
	}
	ret = 0;
out:
	pd_features_free(f);
	hashmap_release(&hits);
	session_free(sess);
	return ret;
}

int cmd_buildid_list(int argc, char **argv)
{
	struct buildid_list_opts o = { .input = "perf.data" };
	static const char *const usage[] = { "flare buildid-list [<options>]", NULL };
	const struct opt opts[] = {
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_BOOL('H', "with-hits", &o.with_hits, "Show only DSOs with hits"),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOL('k', "kernel", &o.kernel, "Show current kernel build id"),
		OPT_BOOL('m', "kernel-maps", &o.kernel_maps,
			 "Show build id of current kernel + modules"),
		OPT_COUNT('v', "verbose", &o.verbose, "be more verbose"),
		OPT_END(),
	};

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (argc > 0)
		opt_usage_error(opts, usage, "unexpected argument '%s'", argv[0]);
	if (o.kernel)
		return print_kernel();
	if (o.kernel_maps)
		return buildid_print_kernel_maps();
	return list_file(&o);
}
