// SPDX-License-Identifier: GPL-2.0
#include "cli/cmds.h"
#include "cli/out.h"

int cmd_flamegraph(int argc, char **argv)
{
	pr_err("'flamegraph' is being written; this build does not have it yet");
	return 1;
}
