// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for source lines and inline chains (lib/sym/srcline.h): the input is
 * written as an ELF object under a private --symfs root in $TMPDIR (else /tmp), removed at
 * exit, and libdw reads its line tables and DWARF scopes for addresses taken from the input
 * and for a sweep of low addresses, as script and report ask for them. Build with
 * `make fuzz`; run with
 *   build-fuzz/srcline -max_len=65536 tests/fuzz/corpus-srcline
 * elfutils 0.188's dwarf_getscopes() leaks its scratch array on some corrupt DIE trees (a
 * leak inside libdw, freed by nothing flare holds): LeakSanitizer is told to ignore that one.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/sym/srcline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* libdw 0.188's dwarf_getscopes leaks on some corrupt DWARF; libdw is built without frame
 * pointers, so the leak's stack names only the library, not the function */
const char *__lsan_default_suppressions(void)
{
	return "leak:dwarf_getscopes\nleak:libdw.so\n";
}

static char root[128], elf_path[192];
static volatile uint64_t fuzz_sink;

static void cleanup(void)
{
	unlink(elf_path);
	rmdir(root);
}

static int setup(void)
{
	const char *tmp = getenv("TMPDIR");

	if (root[0])
		return 0;
	snprintf(root, sizeof(root), "%s/flare-fuzz-srcline.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		return -1;
	snprintf(elf_path, sizeof(elf_path), "%s/obj", root);
	atexit(cleanup);
	return 0;
}

static uint64_t one(struct srclines *sl, struct symtab *st, struct dso *d, uint64_t addr)
{
	static const struct symbol any = { 0, ~0ULL, "base" };
	const struct symbol *s = dso_find_symbol(st, d, addr);
	const struct inline_entry *e;
	struct srcline_loc loc;
	uint64_t sum = strlen(srcline_str(sl, d, addr)) + strlen(srcline_file(sl, d, addr));
	size_t i, n = srcline_inlines(sl, d, addr, s ? s : &any, &e);

	if (srcline_find(sl, d, addr, &loc))
		sum += loc.line + strlen(loc.file);
	for (i = 0; i < n; i++)
		sum += strlen(e[i].sym->name) + strlen(e[i].srcline) + e[i].inlined;
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symtab *st;
	struct srclines *sl;
	struct dso *d;
	uint64_t addr, sum = 0;
	size_t i;
	FILE *f;

	if (setup() || !(f = fopen(elf_path, "w")))
		return 0;
	if (fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	if (symtab_new(root, &st))
		return 0;
	if (srclines_new(st, &sl)) {
		symtab_free(st);
		return 0;
	}
	d = symtab_dso(st, "/obj", 1);
	for (i = 0; d && i + 8 <= size && i < 32 * 8; i += 8) {
		memcpy(&addr, data + i, 8);
		sum += one(sl, st, d, addr);
	}
	for (addr = 0; d && addr < 0x4000; addr += 0x10)
		sum += one(sl, st, d, addr);
	fuzz_sink = sum;
	srclines_free(sl);
	symtab_free(st);
	return 0;
}
