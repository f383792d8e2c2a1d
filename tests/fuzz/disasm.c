// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for annotate's disassembly input: machine code bytes decoded by capstone
 * and rewritten into objdump's text (lib/annotate/disasm.c), in AT&T and Intel syntax, with
 * branch and %rip targets named by a symbol callback; and, when the input is an ELF object,
 * the object read for annotation (lib/annotate/objfile.c, lineinfo.c) and a listing built
 * over its first code (lib/annotate/source.c). The ELF is written to $TMPDIR (else /tmp) and
 * removed at exit. Build with `make fuzz`; run with
 *   build-fuzz/disasm -max_len=65536 tests/fuzz/corpus-disasm
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/annotate/annotate.h"
#include "lib/annotate/disasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char elf_path[192];
static volatile size_t fuzz_sink;

static void cleanup(void)
{
	if (elf_path[0])
		unlink(elf_path);
}

static const char *fake_sym(void *ctx, uint64_t addr, uint64_t *start)
{
	(void)ctx;
	*start = addr & ~(uint64_t)0xff;
	return addr & 0x100 ? "fuzz_sym(int)" : NULL;
}

static void decode_all(enum disasm_syntax syntax, const uint8_t *code, size_t len)
{
	static struct disasm_insn in;
	struct disasm *d;
	uint64_t addr = 0x401000;

	if (disasm_new(syntax, &d))
		return;
	while (len) {
		unsigned int n = disasm_one(d, code, len, addr, fake_sym, NULL, &in);
		char raw[64];

		disasm_raw_bytes(&in, raw, sizeof(raw));
		fuzz_sink += strlen(in.text) + strlen(raw);
		if (!n || n > len)
			abort(); /* the decoder must always move on, within the input */
		code += n;
		len -= n;
		addr += n;
	}
	disasm_free(d);
}

static void annotate_elf(const uint8_t *data, size_t size)
{
	struct ann_object_opts oo = { .syntax = DISASM_ATT };
	struct ann_source_opts so = { .source = true, .asm_raw = true };
	struct ann_object *obj;
	struct ann_source *src;
	uint64_t addr, len;
	FILE *f;

	if (!elf_path[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(elf_path, sizeof(elf_path), "%s/flare-fuzz-disasm-%d.elf",
			 tmp && *tmp ? tmp : "/tmp", (int)getpid());
		atexit(cleanup);
	}
	f = fopen(elf_path, "wb");
	if (!f)
		return;
	fwrite(data, 1, size, f);
	fclose(f);
	if (ann_object_open(elf_path, &oo, &obj))
		return;
	if (ann_object_section(obj, ".text", &addr, &len) && len) {
		if (len > 4096)
			len = 4096;
		if (!ann_source_build(obj, addr, addr + len, &so, &src)) {
			ann_source_count(src, NULL);
			fuzz_sink += src->nr_lines;
			ann_source_free(src);
		}
	}
	ann_object_free(obj);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && !memcmp(data,
				 "\x7f"
				 "ELF",
				 4)) {
		annotate_elf(data, size);
		return 0;
	}
	if (size < 2)
		return 0;
	decode_all(data[0] & 1 ? DISASM_INTEL : DISASM_ATT, data + 1, size - 1);
	return 0;
}
