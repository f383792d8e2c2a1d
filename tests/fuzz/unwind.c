// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for DWARF unwinding (lib/unwind): the input is a sample's user registers,
 * its stack copy and an ELF object, whose .eh_frame / .debug_frame libdwfl parses while it
 * unwinds the stack through it. The object is mapped at MAP_START in the address space the
 * unwinder sees (a memfd, named by /proc/self/fd/N, as flare names the files of a recording).
 * Input layout:
 *   u64 regs[20]     perf's x86_64 user registers of sample_regs_user 0xff0fff, in order
 *   u16 stack_len    bytes of stack copy that follow (at most 8192)
 *   u8  stack[]
 *   u8  elf[]        the rest: the object
 * Build with `make fuzz`; seeds: tests/fuzz/seed-unwind.sh DIR, then
 *   build-fuzz/unwind -max_len=131072 CORPUS DIR
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "lib/sym/sym.h"
#include "lib/unwind/unwind.h"

#define MAP_START 0x400000ULL
#define NR_REGS 20
#define REGS_MASK 0xff0fffULL

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_map {
	struct dso *dso;
	uint64_t len;
};

static bool find_map(void *ctx, uint64_t addr, struct unwind_map *out)
{
	const struct fuzz_map *fm = ctx;

	if (addr < MAP_START || addr - MAP_START >= fm->len)
		return false;
	out->start = MAP_START;
	out->end = MAP_START + fm->len;
	out->pgoff = 0;
	out->dso = fm->dso;
	return true;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[NR_REGS], ips[64];
	struct perf_sample s = { 0 };
	struct unwinder *u = NULL;
	struct symtab *st = NULL;
	struct fuzz_map fm;
	char path[64];
	uint16_t stack_len;
	size_t off = sizeof(regs) + 2;
	int fd;

	if (size < off)
		return 0;
	memcpy(regs, data, sizeof(regs));
	memcpy(&stack_len, data + sizeof(regs), 2);
	if (stack_len > 8192 || size - off < stack_len)
		return 0;
	fd = memfd_create("fuzz-elf", 0);
	if (fd < 0)
		return 0;
	if (write_all(fd, data + off + stack_len, size - off - stack_len))
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (symtab_new("", &st) || unwinder_new(st, &u))
		goto out;
	fm.dso = symtab_dso(st, path, 1);
	fm.len = (size - off - stack_len + 4095) & ~4095ULL;
	if (!fm.dso)
		goto out;
	s.pid = s.tid = 1;
	s.ip = regs[8];
	s.cpumode = PERF_RECORD_MISC_USER;
	s.user_abi = PERF_SAMPLE_REGS_ABI_64;
	s.user_regs = regs;
	s.user_regs_mask = REGS_MASK;
	s.user_stack = data + off;
	s.user_stack_size = stack_len;
	/* twice: the second reuses the address space's Dwfl and its cached CFI */
	unwind_user(u, &fm, find_map, &fm, &s, ips, 64, NULL);
	unwind_user(u, &fm, find_map, &fm, &s, ips, 64, NULL);
out:
	unwinder_free(u);
	symtab_free(st);
	close(fd);
	return 0;
}
