// SPDX-License-Identifier: GPL-2.0
/*
 * probe_target N: the program flare probe's tests place probes in. It does known things N
 * times (default 5), so a test can compute what each probe must record:
 *   func_2(i, &pt)      i = 0..N-1; pt.x before the call is 1 + 0 + 1 + ... + (i-1)
 *   func_1(i)           returns 2*i
 *   name_of(i)          returns "even" or "odd"
 *   twice(v)            always inlined, in two places (func_2 and main): 2N inlined runs
 *   helper(i)           a static function of that name here and in probe/cu2.c: N calls each
 *   pt.flags            a 3-bit field: i at func_2's entry of call i (0 at the first)
 *   inet_pton()         libc's, once per iteration, from main (for call-graph tests)
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

struct point {
	int x;
	long y;
	char name[8];
	unsigned int flags : 3;
	unsigned int mode : 5;
};

volatile long sink;

int cu2_entry(int i);

static inline __attribute__((always_inline)) int twice(int v)
{
	sink += v;
	return v * 2;
}

static int helper(int v)
{
	sink += v;
	return v + 1;
}

int func_1(int number)
{
	sink += number;
	return number * 2;
}

int func_2(int number, struct point *p)
{
	int r;

	p->x += number;
	r = func_1(number);
	r += twice(number);
	p->flags = (unsigned int)(number + 1);
	return r + 1;
}

const char *name_of(int i)
{
	sink += i;
	return i % 2 ? "odd" : "even";
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	struct point pt = { 1, 2, "pt", 0, 3 };
	long total = 0;

	for (int i = 0; i < n; i++) {
		struct in_addr a;

		total += inet_pton(AF_INET, "10.0.0.1", &a);
		total += func_2(i, &pt);
		total += helper(i);
		total += cu2_entry(i);
		total += twice(i);
		if (!name_of(i)[0])
			return 1;
	}
	printf("%ld\n", total);
	return 0;
}
