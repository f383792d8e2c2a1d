// SPDX-License-Identifier: GPL-2.0
/* touch_pages N: maps N fresh anonymous pages and writes one byte to each (N page faults). */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i, pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++)
		p[i * pg] = 1;
	munmap(p, n * pg);
	return 0;
}
