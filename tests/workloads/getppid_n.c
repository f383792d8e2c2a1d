// SPDX-License-Identifier: GPL-2.0
/* getppid_n N: calls getppid(2) N times (through syscall(), so nothing is cached). */
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
