// SPDX-License-Identifier: GPL-2.0
/* shlib_main: calls into libwork.so for about SECONDS (default 0.5); see libwork.c. */
#include <stdlib.h>
#include <time.h>

void lib_outer(unsigned long n);

__attribute__((noinline)) static void drive(double secs)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		lib_outer(200000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
}

int main(int argc, char **argv)
{
	drive(argc > 1 ? atof(argv[1]) : 0.5);
	return 0;
}
