// SPDX-License-Identifier: GPL-2.0
/*
 * jit_loop [SECONDS]: a pretend JIT. Copies two small countdown loops into an anonymous
 * executable mapping, describes them in /tmp/perf-PID.map as JITs do for perf
 * ("START SIZE name", hex), and calls them for SECONDS (default 0.5): jit_spin_a three times
 * as long as jit_spin_b. The map file is left for the profiler; the caller removes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* dec %rdi; jnz .-3; ret  (the count comes in %rdi) */
static const unsigned char loop_code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5, end;
	unsigned char *code;
	void (*spin_a)(long), (*spin_b)(long);
	char path[64];
	FILE *f;

	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 1;
	memcpy(code, loop_code, sizeof(loop_code));
	memcpy(code + 0x40, loop_code, sizeof(loop_code));
	if (mprotect(code, 4096, PROT_READ | PROT_EXEC))
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jit_spin_a\n", (unsigned long)code, sizeof(loop_code));
	fprintf(f, "%lx %zx jit_spin_b\n", (unsigned long)(code + 0x40), sizeof(loop_code));
	fclose(f);
	spin_a = (void (*)(long))(void *)code;
	spin_b = (void (*)(long))(void *)(code + 0x40);
	end = now() + secs;
	do {
		spin_a(3000000);
		spin_b(1000000);
	} while (now() < end);
	return 0;
}
