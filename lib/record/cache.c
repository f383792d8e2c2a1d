// SPDX-License-Identifier: GPL-2.0
/*
 * cache: after a recording, what it hit goes into perf's build-id cache, as perf record does
 * by default, so that the file still reads right after a package upgrade or a new kernel.
 */
#include <errno.h>
#include "lib/data/features.h"
#include "lib/data/reader.h"
#include "lib/record/cache.h"
#include "lib/sym/sym.h"

int record_cache_buildids(const char *path)
{
	struct perf_data *pd;
	struct pd_features *f;
	char err[256];
	uint32_t i;
	int ret = perf_data_open(path, 0, &pd, err, sizeof(err)), one;

	if (ret < 0)
		return ret;
	ret = pd_features_read(pd, &f);
	for (i = 0; !ret && i < f->nr_build_ids; i++) {
		const struct pd_feat_build_id *b = &f->build_ids[i];

		one = buildid_cache_add(b->filename, b->build_id, b->size);
		if (one < 0 && one != -ENOENT)
			ret = one;
	}
	if (f)
		pd_features_free(f);
	perf_data_close(pd);
	return ret;
}
