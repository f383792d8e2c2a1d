// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the symbol sources read from files: the input's first byte picks how
 * the rest is read, as an ELF object (symbols, program headers for dso_map_ip, the build-id
 * note), as a kallsyms text given with --kallsyms, or as a JIT's /tmp/perf-PID.map; then
 * addresses spread over what was loaded are looked up. Files are written under a private
 * --symfs root in $TMPDIR (else /tmp), removed at exit. Build with `make fuzz`; run with
 *   build-fuzz/symfile -max_len=65536 tests/fuzz/corpus-symfile
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/sym/sym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[128], elf_path[192], ksym_path[192], map_path[192];
static volatile uint64_t fuzz_sink;

static void cleanup(void)
{
	unlink(elf_path);
	unlink(ksym_path);
	unlink(map_path);
	snprintf(map_path, sizeof(map_path), "%s/tmp", root);
	rmdir(map_path);
	rmdir(root);
}

static int setup(void)
{
	char dir[192];

	if (root[0])
		return 0;
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/flare-fuzz-sym.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		return -1;
	snprintf(dir, sizeof(dir), "%s/tmp", root);
	mkdir(dir, 0700);
	snprintf(elf_path, sizeof(elf_path), "%s/obj", root);
	snprintf(ksym_path, sizeof(ksym_path), "%s/kallsyms", root);
	/* the dso is named /tmp/perf-4242.map; the symfs root holds its file */
	snprintf(map_path, sizeof(map_path), "%s/tmp/perf-4242.map", root);
	atexit(cleanup);
	return 0;
}

static int put(const char *path, const uint8_t *d, size_t n)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -1;
	bad = fwrite(d, 1, n, f) != n;
	return fclose(f) || bad ? -1 : 0;
}

static void look(struct symtab *st, struct dso *d, const uint8_t *data, size_t size)
{
	uint64_t addr, sum = 0;
	size_t i;

	for (i = 0; i + 8 <= size && i < 64 * 8; i += 8) {
		const struct symbol *s;

		memcpy(&addr, data + i, 8);
		s = dso_find_symbol(st, d, addr);
		if (s)
			sum += s->start + strlen(s->name);
		sum += dso_map_ip(st, d, addr & ~0xfffULL, addr & 0xffff, addr);
	}
	/* a sweep over low addresses and the kernel's */
	for (addr = 0; addr < 0x100000; addr += 0x1000)
		sum += dso_find_symbol(st, d, addr) != NULL;
	for (addr = 0xffffffff80000000ULL; addr < 0xffffffff80100000ULL; addr += 0x1000)
		sum += dso_find_symbol(st, d, addr) != NULL;
	fuzz_sink = sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symtab *st;
	struct dso *d = NULL;
	uint8_t id[20];

	if (size < 1 || setup())
		return 0;
	if (symtab_new(root, &st))
		return 0;
	switch (data[0] % 3) {
	case 0:
		if (put(elf_path, data + 1, size - 1))
			break;
		elf_read_build_id(elf_path, id, sizeof(id));
		d = symtab_dso(st, "/obj", 1);
		break;
	case 1:
		if (put(ksym_path, data + 1, size - 1) || symtab_set_kallsyms(st, ksym_path))
			break;
		d = symtab_kernel(st);
		break;
	default:
		if (put(map_path, data + 1, size - 1))
			break;
		d = symtab_dso(st, "/tmp/perf-4242.map", 4242);
		break;
	}
	if (d)
		look(st, d, data + 1, size - 1);
	symtab_free(st);
	return 0;
}
