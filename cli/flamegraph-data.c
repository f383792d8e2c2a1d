// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph from perf.data: replays the file through the session and feeds each sample to
 * the collapse as the lines `perf script` prints for it.
 */
#include "cli/flamegraph.h"
#include "cli/out.h"

int fg_collapse_data(const char *path, const struct fg_cli *cli, struct collapse *c)
{
	pr_err("cannot read '%s': this build reads perf.data through the session module, "
	       "not merged yet (pipe 'perf script' in instead)", path);
	return -1;
}
