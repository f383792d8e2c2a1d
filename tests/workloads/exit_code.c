// SPDX-License-Identifier: GPL-2.0
/* exit_code N: exits with status N (to check that flare passes the workload's status on). */
#include <stdlib.h>

int main(int argc, char **argv)
{
	return argc > 1 ? atoi(argv[1]) : 0;
}
