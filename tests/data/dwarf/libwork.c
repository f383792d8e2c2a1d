// SPDX-License-Identifier: GPL-2.0
/* libwork: the shared library of tests/cli/dwarf.sh's shlib_main, built -O2 without frame
 * pointers: lib_outer -> lib_inner burn the time, so the chain crosses the library twice. */
static volatile unsigned long sink;

__attribute__((noinline)) void lib_inner(unsigned long n)
{
	unsigned long i, x = sink;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

__attribute__((noinline)) void lib_outer(unsigned long n)
{
	lib_inner(n);
	sink++;
}
