// SPDX-License-Identifier: GPL-2.0
// cxx_throw: a C++ workload for DWARF unwinding (tests/cli/dwarf.sh): inlined member
// functions, a std::vector, and an exception thrown and caught every thousandth call, built
// -O2 without frame pointers. usage: cxx_throw [CALLS (default 20000)]
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

static volatile unsigned long sink;

struct acc {
	unsigned long v = 1;
	inline void step(unsigned long i)
	{
		v = v * 6364136223846793005UL + i;
	}
};

__attribute__((noinline)) unsigned long work(unsigned long n)
{
	acc a;
	std::vector<unsigned long> v(16);

	for (unsigned long i = 0; i < n; i++) {
		a.step(i);
		v[i & 15] += a.v;
	}
	if (a.v == 42)
		throw std::runtime_error("unlikely");
	return a.v + v[3];
}

__attribute__((noinline)) void thrower(int i)
{
	if (i % 1000 == 0)
		throw std::runtime_error("every thousandth");
	sink += work(20000);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	unsigned long caught = 0;

	for (int i = 0; i < n; i++) {
		try {
			thrower(i);
		} catch (const std::exception &e) {
			caught++;
		}
	}
	printf("%lu caught\n", caught);
	return 0;
}
