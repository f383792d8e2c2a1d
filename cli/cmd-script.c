// SPDX-License-Identifier: GPL-2.0
#include "cli/cmds.h"
#include "cli/out.h"

int cmd_script(int argc, char **argv)
{
	pr_err("'script' is being written; this build does not have it yet");
	return 1;
}
