/* SPDX-License-Identifier: GPL-2.0 */
/*
 * disasm: x86-64 machine code to text as GNU objdump -d --no-show-raw-insn prints it, decoded
 * by capstone: AT&T syntax by default ("mov    %rsp,%rbp", "jmp    112d <main+0x4>",
 * "lea    0x2ed6(%rip),%rax        # 4010 <buf>"), or Intel's with DISASM_INTEL. perf's
 * annotate shows objdump's text, so what capstone prints differently (operand separators,
 * size suffixes objdump leaves out, decimal immediates, scale 1, zero displacements, prefixes
 * objdump names apart: cs, data16, notrack, bnd) is rewritten here into objdump's form.
 *
 * A disasm owns its capstone handle; disasm_free() releases it. The symbol callback names the
 * targets of branches and of %rip-relative operands; it may be NULL.
 */
#ifndef FLARE_ANNOTATE_DISASM_H
#define FLARE_ANNOTATE_DISASM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum disasm_syntax { DISASM_ATT, DISASM_INTEL };

/* The symbol holding addr: its name and start, or NULL when none. */
typedef const char *(*disasm_sym_fn)(void *ctx, uint64_t addr, uint64_t *start);

struct disasm;

#define DISASM_TEXT_MAX 2048

struct disasm_insn {
	uint64_t addr;
	unsigned int size; /* bytes consumed: 1 for an undecodable byte ("(bad)") */
	uint8_t bytes[16];
	bool is_branch;		    /* a jump or call with a direct target */
	uint64_t target;	    /* that target */
	char text[DISASM_TEXT_MAX]; /* objdump's text after "addr:\t", no trailing blanks */
};

/* 0, -ENOMEM or -EINVAL (capstone cannot open x86-64). The caller frees with disasm_free(). */
int disasm_new(enum disasm_syntax syntax, struct disasm **ret);
void disasm_free(struct disasm *d);

/*
 * Decodes the instruction at code[0..len) (len > 0), which lies at addr, into *insn. A byte
 * sequence that is no instruction gives "(bad)" and size 1, as objdump moves on; a VEX or
 * EVEX instruction capstone does not know (4.0 lacks many AVX-512 forms) gives "(bad)" over
 * its whole length, so that the next one is decoded where it starts. Returns insn->size.
 */
unsigned int disasm_one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
			disasm_sym_fn sym, void *ctx, struct disasm_insn *insn);

/* The raw bytes as objdump prints them without --no-show-raw-insn: "55", "48 89 e5". */
void disasm_raw_bytes(const struct disasm_insn *insn, char *buf, size_t len);

#endif
