// SPDX-License-Identifier: GPL-2.0
/*
 * inline_burn: a hot loop two inlined calls deep, for inline frames and source lines:
 *   main -> work -> step (inlined) -> mix (inlined)   most of the time
 *   main -> spin (inlined)                            the rest
 * Built with -O2 -g, every sample in work's loop has the inline frames mix and step above
 * work, as addr2line -i and libdw's inline scopes tell them.
 * usage: inline_burn [SECONDS (default 1)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

static inline __attribute__((always_inline)) unsigned long step(unsigned long x)
{
	x = mix(x, 400000);
	return x ^ (x >> 17);
}

__attribute__((noinline)) void work(void)
{
	sink = step(sink);
}

static inline __attribute__((always_inline)) void spin(void)
{
	unsigned long i, x = sink;

	for (i = 0; i < 100000; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	sink = x;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 1.0);
	unsigned long loops = 0;

	do {
		work();
		spin();
		loops++;
	} while (now() < end);
	printf("inline_burn: %lu loops\n", loops);
	return 0;
}
