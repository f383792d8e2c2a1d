// SPDX-License-Identifier: GPL-2.0
/*
 * cpu_burn: the demo workload, with a call tree whose shares are known by construction:
 *   main -> a -> b   60% of the time
 *   main -> a        30% (a's own loop)
 *   main -> c        10%
 * usage: cpu_burn [SECONDS (default 1)] [slow FUNC: a, b or c, made 3x heavier]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UNIT 200000UL

static volatile unsigned long sink;
static unsigned long mult_a = 3, mult_b = 6, mult_c = 1;

/*
 * gcc 12 drops the frame of leaf functions even with -mno-omit-leaf-frame-pointer, so every
 * measured function ends by calling store(): not a leaf, it keeps its frame and a -g stack
 * shows its caller.
 */
__attribute__((noinline)) void store(unsigned long x)
{
	sink = x;
}

static void burn(unsigned long n)
{
	unsigned long i, x = sink;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

__attribute__((noinline)) void b(void)
{
	unsigned long i, x = sink;

	for (i = 0; i < mult_b * UNIT; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	store(x);
}

__attribute__((noinline)) void a(void)
{
	unsigned long i, x = sink;

	for (i = 0; i < mult_a * UNIT; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	store(x);
	b();
}

__attribute__((noinline)) void c(void)
{
	unsigned long i, x = sink;

	for (i = 0; i < mult_c * UNIT; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	store(x);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, end;
	unsigned long loops = 0;

	if (argc > 2) {
		if (!strcmp(argv[2], "a"))
			mult_a *= 3;
		else if (!strcmp(argv[2], "b"))
			mult_b *= 3;
		else if (!strcmp(argv[2], "c"))
			mult_c *= 3;
	}
	burn(1);
	end = now() + secs;
	do {
		a();
		c();
		loops++;
	} while (now() < end);
	printf("cpu_burn: %lu loops\n", loops);
	return 0;
}
