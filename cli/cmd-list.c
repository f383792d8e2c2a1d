// SPDX-License-Identifier: GPL-2.0
#include "cli/cmds.h"
#include "cli/out.h"

int cmd_list(int argc, char **argv)
{
	pr_err("'list' is being written; this build does not have it yet");
	return 1;
}
