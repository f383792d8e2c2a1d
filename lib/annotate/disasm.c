// SPDX-License-Identifier: GPL-2.0
/*
 * disasm: capstone's x86-64 text rewritten into GNU objdump's (see disasm.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <capstone/capstone.h>
#include "lib/annotate/disasm.h"

struct disasm {
	csh cs;
	cs_insn *insn;
	enum disasm_syntax syntax;
};

int disasm_new(enum disasm_syntax syntax, struct disasm **ret)
{
	struct disasm *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->syntax = syntax;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		free(d);
		return -EINVAL;
	}
	if (syntax == DISASM_ATT)
		cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = cs_malloc(d->cs);
	if (!d->insn) {
		cs_close(&d->cs);
		free(d);
		return -ENOMEM;
	}
	*ret = d;
	return 0;
}

void disasm_free(struct disasm *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d);
}

/* A small bounded string builder: text past the end is dropped. */
struct out {
	char *buf;
	size_t len, cap;
};

static void out_addn(struct out *o, const char *s, size_t n)
{
	if (o->len + n >= o->cap)
		n = o->cap - 1 - o->len;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void out_adds(struct out *o, const char *s)
{
	out_addn(o, s, strlen(s));
}

static void out_addf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_addf(struct out *o, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		out_addn(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* " <sym+0xoff>" for addr, as objdump names an address; nothing without a symbol. */
static void add_symref(struct out *o, uint64_t addr, disasm_sym_fn sym, void *ctx)
{
	uint64_t start = 0;
	const char *name = sym ? sym(ctx, addr, &start) : NULL;

	if (!name)
		return;
	out_adds(o, " <");
	out_adds(o, name);
	if (addr != start)
		out_addf(o, "+0x%" PRIx64, addr - start);
	out_adds(o, ">");
}

/* The legacy prefixes before the opcode, as objdump names those it prints on their own. */
struct prefixes {
	int n66; /* operand-size prefixes */
	int seg; /* the last of 2e 36 3e 26 (cs ss ds es), 0 if none */
	int nseg;
};

static void scan_prefixes(const uint8_t *b, unsigned int size, struct prefixes *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < size; i++) {
		switch (b[i]) {
		case 0x66:
			p->n66++;
			continue;
		case 0x2e:
		case 0x36:
		case 0x3e:
		case 0x26:
			p->seg = b[i];
			p->nseg++;
			continue;
		case 0x67:
		case 0x64:
		case 0x65:
		case 0xf0:
		case 0xf2:
		case 0xf3:
			continue;
		}
		break;
	}
}

static const char *seg_name(int b)
{
	switch (b) {
	case 0x2e:
		return "cs";
	case 0x36:
		return "ss";
	case 0x3e:
		return "ds";
	case 0x26:
		return "es";
	}
	return NULL;
}

/* Mnemonics whose AT&T size suffix objdump prints only when no register operand gives the
 * size (movl $0x1,(%rax) but mov %eax,(%rax)). */
static const char *const sized[] = {
	"adc",	     "add",	   "and",	 "bsf",	     "bsr",	  "bt",	       "btc",
	"btr",	     "bts",	   "cmp",	 "cmpxchg",  "dec",	  "div",       "idiv",
	"imul",	     "inc",	   "lea",	 "lzcnt",    "mov",	  "mul",       "neg",
	"not",	     "or",	   "popcnt",	 "rcl",	     "rcr",	  "rol",       "ror",
	"sal",	     "sar",	   "sbb",	 "shl",	     "shld",	  "shr",       "shrd",
	"sub",	     "test",	   "tzcnt",	 "xadd",     "xchg",	  "xor",       "andn",
	"bextr",     "blsi",	   "blsmsk",	 "blsr",     "bzhi",	  "pdep",      "pext",
	"rorx",	     "sarx",	   "shlx",	 "shrx",     "movbe",	  "crc32",     "adcx",
	"adox",	     "cmova",	   "cmovae",	 "cmovb",    "cmovbe",	  "cmove",     "cmovg",
	"cmovge",    "cmovl",	   "cmovle",	 "cmovne",   "cmovno",	  "cmovnp",    "cmovns",
	"cmovo",     "cmovp",	   "cmovs",	 "movabs",   "bswap",	  "cvtsi2sd",  "cvtsi2ss",
	"vcvtsi2sd", "vcvtsi2ss",  "cvtsd2si",	 "cvtss2si", "cvttsd2si", "cvttss2si", "vcvtsd2si",
	"vcvtss2si", "vcvttsd2si", "vcvttss2si", "movnti",   "lsl",	  "lar",       "sldt",
	"str",	     "smsw",	   "in",	 "out",	     "enqcmd",	  "rdrand",    "rdseed",
	"rdpid",     "rdfsbase",   "rdgsbase",	 "wrfsbase", "wrgsbase",  "movsx",     "movzx",
};

/* Mnemonics objdump prints without a suffix in 64-bit code, whatever the operands. */
static const char *const unsized[] = {
	"call",	 "ret",	  "jmp",   "push", "pop",  "lret", "iret", "sysret",
	"leave", "enter", "pushf", "popf", "lgdt", "lidt", "sgdt", "sidt",
};

static bool in_list(const char *const *l, size_t n, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(l[i]) == len && !memcmp(l[i], s, len))
			return true;
	return false;
}

static bool is_shift(const cs_x86 *x)
{
	uint8_t op = x->opcode[0];

	return op == 0xc0 || op == 0xc1 || (op >= 0xd0 && op <= 0xd3);
}

static bool is_port_io(const cs_x86 *x)
{
	uint8_t op = x->opcode[0];

	return op == 0xe4 || op == 0xe5 || op == 0xe6 || op == 0xe7 || (op >= 0xec && op <= 0xef);
}

/* A general-purpose register (not a vector, mask, x87, segment or control register). */
static bool is_gpr(csh cs, x86_reg r)
{
	const char *n = cs_reg_name(cs, r);

	if (!n)
		return false;
	return !(!strncmp(n, "xmm", 3) || !strncmp(n, "ymm", 3) || !strncmp(n, "zmm", 3) ||
		 !strncmp(n, "mm", 2) || n[0] == 'k' || !strncmp(n, "st", 2) ||
		 !strncmp(n, "cr", 2) || !strncmp(n, "dr", 2) || !strcmp(n, "cs") ||
		 !strcmp(n, "ds") || !strcmp(n, "es") || !strcmp(n, "ss") || !strcmp(n, "fs") ||
		 !strcmp(n, "gs") || !strcmp(n, "rip"));
}

static bool has_gpr_operand(csh cs, const cs_x86 *x)
{
	uint8_t i;

	for (i = 0; i < x->op_count; i++) {
		x86_reg r = x->operands[i].reg;

		if (x->operands[i].type != X86_OP_REG || !is_gpr(cs, r))
			continue;
		/* %cl as a shift count and %dx as a port give no size */
		/* (capstone lists AT&T operands in AT&T order: the count first) */
		if ((r == X86_REG_CL && is_shift(x) && i == 0 && x->op_count > 1) ||
		    (r == X86_REG_DX && is_port_io(x)))
			continue;
		return true;
	}
	return false;
}

/* movs, cmps, stos, lods, scas, ins, outs: one-byte opcodes */
static bool is_string_op(const cs_x86 *x)
{
	uint8_t op = x->opcode[0];

	return (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
	       (op >= 0x6c && op <= 0x6f);
}

/* objdump's mnemonic for capstone's m (no prefix words): the size suffix dropped where
 * objdump leaves it out. */
static void fix_mnemonic(csh cs, const char *m, const cs_x86 *x, char *buf, size_t len)
{
	size_t n = strlen(m);
	char last = n ? m[n - 1] : 0;

	snprintf(buf, len, "%s", m);
	/* movd with a 64-bit register is movq to objdump */
	if (!strcmp(m, "movd") || !strcmp(m, "vmovd")) {
		uint8_t i;

		for (i = 0; i < x->op_count; i++) {
			const char *r = x->operands[i].type == X86_OP_REG
						? cs_reg_name(cs, x->operands[i].reg)
						: NULL;

			if (r && r[0] == 'r' && x->operands[i].size == 8)
				buf[n - 1] = 'q';
		}
		return;
	}
	if (!strcmp(m, "wait")) {
		snprintf(buf, len, "fwait");
		return;
	}
	if (is_string_op(x) && n >= 5 &&
	    (!strncmp(m, "stos", 4) || !strncmp(m, "lods", 4) || !strncmp(m, "scas", 4))) {
		buf[4] = '\0'; /* the accumulator gives the size */
		return;
	}
	if (n < 2 || (last != 'b' && last != 'w' && last != 'l' && last != 'q'))
		return;
	if (in_list(unsized, sizeof(unsized) / sizeof(unsized[0]), m, n - 1)) {
		buf[n - 1] = '\0';
		return;
	}
	if (in_list(sized, sizeof(sized) / sizeof(sized[0]), m, n - 1) && has_gpr_operand(cs, x))
		buf[n - 1] = '\0';
}

static bool is_num_start(const char *p, const char *base)
{
	char prev = p > base ? p[-1] : ' ';

	if (!isdigit((unsigned char)*p))
		return false;
	return prev == '$' || prev == ',' || prev == ' ' || prev == '-' || prev == '*' ||
	       prev == ':' || prev == '[' || prev == '+' || p == base;
}

/* One operand string of capstone's AT&T into objdump's: "," alone between operands, numbers
 * in hex (scales stay decimal), ",1" for a scale of one, 0x0 for a zero displacement that is
 * encoded, a segment named as a prefix word dropped (seg). */
/* The size of the instruction's immediate in bytes (8 when it has none known). */
static int imm_size_of(const cs_x86 *x)
{
	uint8_t i;

	if (x->opcode[0] == 0xc6 && x->modrm == 0xf8)
		return 1; /* xabort's imm8 */
	for (i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_IMM && x->operands[i].size)
			return x->operands[i].size;
	return 8;
}

/* A number of capstone's AT&T text at p in objdump's form: a negative immediate as the
 * unsigned value of its size, a decimal one in hex. Returns the text after it, or NULL when
 * p starts no such number. */
static const char *att_number(const char *p, const char *s, const cs_x86 *x, struct out *o)
{
	unsigned long long v;
	char *end;

	if (*p == '$' && p[1] == '-') {
		int size = imm_size_of(x);

		v = -strtoull(p + 2, &end, 0);
		if (size < 8)
			v &= (1ULL << (size * 8)) - 1;
		out_addf(o, "$0x%llx", v);
		return end;
	}
	if (is_num_start(p, s) && !(p[0] == '0' && p[1] == 'x')) {
		v = strtoull(p, &end, 10);
		out_addf(o, "0x%llx", v);
		return end;
	}
	return NULL;
}

static void fix_att_operands(const char *s, const cs_x86 *x, const char *seg, struct out *o)
{
	bool zero_disp = x->encoding.disp_size && x->disp == 0, str = is_string_op(x);
	int depth = 0, commas = 0, brace = 0;
	const char *p = s, *q;

	/* d0/d1: a shift by one, which objdump writes with the one operand */
	if ((x->opcode[0] == 0xd0 || x->opcode[0] == 0xd1) && !strncmp(p, "$1, ", 4))
		p += 4;
	while (*p) {
		if (*p == ' ' && p[1] == '{') {
			p++;
			continue;
		}
		/* a string instruction's implied segments, which objdump names */
		if (str && *p == '(' && (p == s || p[-1] != ':') && !strncmp(p, "(%rdi)", 6))
			out_adds(o, "%es:");
		else if (str && *p == '(' && (p == s || p[-1] != ':') && !strncmp(p, "(%rsi)", 6))
			out_adds(o, "%ds:");
		if (*p == ',') {
			commas += depth ? 1 : 0;
			out_adds(o, ",");
			p += p[1] == ' ' ? 2 : 1;
			continue;
		}
		if (seg && *p == '%' && !strncmp(p + 1, seg, 2) && p[3] == ':') {
			p += 4;
			continue;
		}
		brace += *p == '{' ? 1 : *p == '}' ? -1 : 0;
		if (*p == '(' && !brace) {
			/* a memory operand without a displacement before its registers */
			if (zero_disp && (p == s || p[-1] == ' ' || p[-1] == ':' || p[-1] == '*'))
				out_adds(o, "0x0");
			depth++;
			commas = 0;
			out_adds(o, "(");
			p++;
			continue;
		}
		if (*p == ')' && depth) {
			out_adds(o, commas == 1 ? ",1)" : ")");
			depth--;
			p++;
			continue;
		}
		if (!depth && !brace && (q = att_number(p, s, x, o))) {
			p = q;
			continue;
		}
		out_addn(o, p, 1);
		p++;
	}
}

/* The inside of an Intel memory operand, "rax + rax" -> "rax+rax*1+0x0" as objdump writes it;
 * a bare address gets the ds: objdump names (unless a segment was written). */
static void fix_intel_mem(const char *in, size_t len, bool zero_disp, bool has_seg, struct out *o)
{
	char buf[128], *tok[4], *save = NULL, *t;
	char sign[4] = { '+', '+', '+', '+' };
	int nregs = 0, ntok = 0, i;
	bool has_num = false;
	size_t k, n = 0;

	for (k = 0; k < len && n + 2 < sizeof(buf); k++) {
		if (in[k] == ' ')
			continue;
		if ((in[k] == '+' || in[k] == '-') && n) {
			buf[n++] = ' ';
			if (ntok < 3)
				sign[++ntok] = in[k];
			continue;
		}
		buf[n++] = in[k];
	}
	buf[n] = '\0';
	ntok = 0;
	for (t = strtok_r(buf, " ", &save); t && ntok < 4; t = strtok_r(NULL, " ", &save))
		tok[ntok++] = t;
	for (i = 0; i < ntok; i++) {
		if (isdigit((unsigned char)tok[i][0]) || tok[i][0] == '-')
			has_num = true;
		else
			nregs++;
	}
	if (!nregs) {
		if (!has_seg)
			out_adds(o, "ds:");
		for (i = 0; i < ntok; i++)
			if (strncmp(tok[i], "0x", 2))
				out_addf(o, "0x%llx", strtoull(tok[i], NULL, 10));
			else
				out_adds(o, tok[i]);
		return;
	}
	out_adds(o, "[");
	for (i = 0, nregs = 0; i < ntok; i++) {
		bool num = isdigit((unsigned char)tok[i][0]);

		if (i == 1 && num && sign[1] == '-' && !strcmp(tok[0], "rip")) {
			/* objdump adds %rip's negative displacement as a 64-bit number */
			out_addf(o, "+0x%llx", -strtoull(tok[i], NULL, 0));
			continue;
		}
		if (i)
			out_addf(o, "%c", sign[i]);
		if (num && strncmp(tok[i], "0x", 2))
			out_addf(o, "0x%llx", strtoull(tok[i], NULL, 10));
		else
			out_adds(o, tok[i]);
		if (!num && ++nregs == 2 && !strchr(tok[i], '*'))
			out_adds(o, "*1");
	}
	if (zero_disp && !has_num)
		out_adds(o, "+0x0");
	out_adds(o, "]");
}

/* Intel: objdump's "DWORD PTR [rbp-0x4]" for capstone's "dword ptr [rbp - 4]". */
static void fix_intel_operands(const char *s, const cs_x86 *x, const char *seg, struct out *o)
{
	static const char *const sizes[][2] = {
		{ "byte", "BYTE" },	  { "word", "WORD" },	    { "dword", "DWORD" },
		{ "qword", "QWORD" },	  { "xmmword", "XMMWORD" }, { "ymmword", "YMMWORD" },
		{ "zmmword", "ZMMWORD" }, { "xword", "TBYTE" },	    { "tbyte", "TBYTE" },
		{ "fword", "FWORD" },
	};
	bool zero_disp = x->encoding.disp_size && x->disp == 0;
	int imm_size = 8;
	const char *p = s;
	size_t i;

	for (i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_IMM && x->operands[i].size) {
			imm_size = x->operands[i].size;
			break;
		}
	while (*p) {
		if (*p == ',' && p[1] == ' ') {
			out_adds(o, ",");
			p += 2;
			continue;
		}
		if (*p == ' ' && (p[1] == '{' || p[1] == ',')) {
			p++;
			continue;
		}
		if (seg && !strncmp(p, seg, 2) && p[2] == ':') {
			p += 3;
			continue;
		}
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			size_t n = strlen(sizes[i][0]);

			if ((p == s || p[-1] == ' ' || p[-1] == ',') &&
			    !strncmp(p, sizes[i][0], n) && !strncmp(p + n, " ptr ", 5))
				break;
		}
		if (i < sizeof(sizes) / sizeof(sizes[0])) {
			out_addf(o, "%s PTR ", sizes[i][1]);
			p += strlen(sizes[i][0]) + 5;
			continue;
		}
		if (*p == '[') {
			const char *e = strchr(p, ']');
			bool has_seg = p > s + 2 && p[-1] == ':';

			if (e) {
				fix_intel_mem(p + 1, (size_t)(e - p - 1), zero_disp, has_seg, o);
				p = e + 1;
				continue;
			}
		}
		if (*p == '-' && (p == s || p[-1] == ' ' || p[-1] == ',') &&
		    isdigit((unsigned char)p[1])) {
			unsigned long long v = -strtoull(p + 1, (char **)&p, 0);

			if (imm_size < 8)
				v &= (1ULL << (imm_size * 8)) - 1;
			out_addf(o, "0x%llx", v);
			continue;
		}
		if (is_num_start(p, s) && !(p[0] == '0' && p[1] == 'x')) {
			char *end;
			unsigned long long v = strtoull(p, &end, 10);

			/* the implied 1 of a d0/d1 shift stays decimal, as objdump prints it */
			if ((x->opcode[0] == 0xd0 || x->opcode[0] == 0xd1) && v == 1)
				out_adds(o, "1");
			else
				out_addf(o, "0x%llx", v);
			p = end;
			continue;
		}
		out_addn(o, p, 1);
		p++;
	}
}

/* x87 register forms objdump writes with both operands: "fmulp %st,%st(1)",
 * "fucomip %st(1),%st". */
static bool fix_x87(struct disasm *d, const cs_insn *in, struct out *o)
{
	const cs_x86 *x = &in->detail->x86;
	uint8_t op = x->opcode[0], modrm = x->modrm;
	const char *r;
	size_t n;

	if (d->syntax != DISASM_ATT || x->op_count != 1 || x->operands[0].type != X86_OP_REG ||
	    (modrm & 0xc0) != 0xc0 || in->mnemonic[0] != 'f')
		return false;
	r = in->op_str;
	if (strncmp(r, "%st(", 4))
		return false;
	if (op == 0xdc || op == 0xde) {
		if ((op == 0xde && modrm >= 0xd8 && modrm < 0xe0) ||
		    (op == 0xdc && modrm >= 0xd0 && modrm < 0xe0))
			return false; /* fcomp, fcompp, fcom */
		out_adds(o, in->mnemonic);
		n = strlen(in->mnemonic);
		while (n++ < 6)
			out_adds(o, " ");
		out_addf(o, " %%st,%s", r);
		return true;
	}
	if (op == 0xd8 || op == 0xdb || op == 0xdf || (op == 0xda && modrm < 0xe0)) {
		if (op == 0xd8 && modrm >= 0xd0 && modrm < 0xe0)
			return false; /* fcom, fcomp */
		out_adds(o, in->mnemonic);
		n = strlen(in->mnemonic);
		while (n++ < 6)
			out_adds(o, " ");
		out_addf(o, " %s,%%st", r);
		return true;
	}
	return false;
}

static bool is_rel_branch(const cs_insn *in)
{
	const cs_detail *det = in->detail;
	uint8_t i;

	if (det->x86.op_count != 1 || det->x86.operands[0].type != X86_OP_IMM)
		return false;
	for (i = 0; i < det->groups_count; i++)
		if (det->groups[i] == CS_GRP_JUMP || det->groups[i] == CS_GRP_CALL ||
		    det->groups[i] == CS_GRP_BRANCH_RELATIVE)
			return true;
	return false;
}

static const cs_x86_op *rip_operand(const cs_x86 *x)
{
	uint8_t i;

	for (i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && x->operands[i].mem.base == X86_REG_RIP)
			return &x->operands[i];
	return NULL;
}

/* Splits capstone's "lock cmpxchgl" into the prefix words and the mnemonic. */
static const char *split_mnemonic(const char *m, char *words, size_t len)
{
	const char *sp = strrchr(m, ' ');

	words[0] = '\0';
	if (!sp)
		return m;
	snprintf(words, len, "%.*s", (int)(sp - m), m);
	return sp + 1;
}

/* The prefix words and the mnemonic, as objdump writes them before the operands, into head;
 * the segment named as a prefix word (which the operands then leave out), or NULL. */
static const char *insn_head(const cs_insn *in, const struct prefixes *pf, const char *words,
			     const char *mn, char *head, size_t len)
{
	const cs_x86 *x = &in->detail->x86;
	const char *seg = NULL;
	size_t hl = 0;
	int i;

	head[0] = '\0';
	/* an operand-size prefix the instruction does not use, or more than one: data16 */
	for (i = x->prefix[2] ? 1 : 0; i < pf->n66 && hl < len; i++)
		hl += snprintf(head + hl, len - hl, "data16 ");
	if (!words[0] && in->id == X86_INS_RET && x->prefix[0] == 0xf3 && hl < len)
		hl += snprintf(head + hl, len - hl, "repz ");
	if (pf->seg && hl < len) {
		seg = seg_name(pf->seg);
		if (pf->seg == 0x3e && in->detail->groups_count &&
		    x->operands[0].type != X86_OP_IMM &&
		    (in->id == X86_INS_JMP || in->id == X86_INS_CALL))
			hl += snprintf(head + hl, len - hl, "notrack ");
		else
			hl += snprintf(head + hl, len - hl, "%s ", seg);
	}
	if (words[0] && hl < len) {
		if (!strcmp(words, "repne") && (in->id == X86_INS_JMP || in->id == X86_INS_CALL ||
						in->id == X86_INS_RET || is_rel_branch(in)))
			hl += snprintf(head + hl, len - hl, "bnd ");
		else if (!strcmp(words, "rep") && in->id == X86_INS_RET)
			hl += snprintf(head + hl, len - hl, "repz ");
		else
			hl += snprintf(head + hl, len - hl, "%s ", words);
	}
	if (hl < len)
		snprintf(head + hl, len - hl, "%s", mn);
	return seg;
}

/* The operands in objdump's form: a branch's target named, the short xchg's order, a
 * %rip-relative operand's target in a comment. */
static void insn_operands(struct disasm *d, const cs_insn *in, const char *seg, disasm_sym_fn sym,
			  void *ctx, struct disasm_insn *insn, struct out *o)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *rip;

	if (is_rel_branch(in)) {
		insn->is_branch = true;
		insn->target = (uint64_t)x->operands[0].imm;
		out_addf(o, "%" PRIx64, insn->target);
		add_symref(o, insn->target, sym, ctx);
		return;
	}
	if (x->opcode[0] >= 0x91 && x->opcode[0] <= 0x97 && in->id == X86_INS_XCHG) {
		/* the short xchg: objdump names the accumulator first */
		const char *c = strchr(in->op_str, ',');

		if (c && c[1] == ' ') {
			out_adds(o, c + 2);
			out_adds(o, ",");
			out_addn(o, in->op_str, (size_t)(c - in->op_str));
			return;
		}
	}
	if (d->syntax == DISASM_ATT)
		fix_att_operands(in->op_str, x, seg, o);
	else
		fix_intel_operands(in->op_str, x, seg, o);
	rip = rip_operand(x);
	if (rip) {
		uint64_t t = in->address + in->size + (uint64_t)rip->mem.disp;

		out_addf(o, "        # %" PRIx64, t);
		add_symref(o, t, sym, ctx);
	}
}

static void format_insn(struct disasm *d, const cs_insn *in, disasm_sym_fn sym, void *ctx,
			struct disasm_insn *insn)
{
	const cs_x86 *x = &in->detail->x86;
	struct out o = { insn->text, 0, sizeof(insn->text) };
	char words[32], mn[48], head[96];
	const char *m, *seg;
	struct prefixes pf;
	size_t hl;
	int i;

	insn->text[0] = '\0';
	scan_prefixes(in->bytes, in->size, &pf);
	if (in->id == X86_INS_NOP && x->opcode[0] == 0x90 && pf.n66) {
		/* 66 90 is objdump's "xchg %ax,%ax" */
		for (i = 1; i < pf.n66; i++)
			out_adds(&o, "data16 ");
		out_adds(&o, d->syntax == DISASM_ATT ? "xchg   %ax,%ax" : "xchg   ax,ax");
		return;
	}
	if (fix_x87(d, in, &o))
		return;
	m = split_mnemonic(in->mnemonic, words, sizeof(words));
	if (d->syntax == DISASM_ATT)
		fix_mnemonic(d->cs, m, x, mn, sizeof(mn));
	else
		snprintf(mn, sizeof(mn), "%s", m);
	seg = insn_head(in, &pf, words, mn, head, sizeof(head));
	out_adds(&o, head);
	if (!in->op_str[0])
		return;
	/* objdump pads the mnemonic to 6 columns, then one space */
	for (hl = strlen(head); hl < 6; hl++)
		out_adds(&o, " ");
	out_adds(&o, " ");
	insn_operands(d, in, seg, sym, ctx, insn, &o);
}

/*
 * The length of a VEX or EVEX instruction capstone cannot decode (its 4.0 lacks many AVX-512
 * and mask-register forms), so that what follows stays aligned: prefix, opcode, ModRM, SIB,
 * displacement, and the imm8 of the 0f3a map and of the few 0f opcodes that take one.
 * 0 when code is no VEX/EVEX instruction.
 */
static unsigned int vex_length(const uint8_t *code, size_t len)
{
	size_t i = 0, n;
	unsigned int map, op, mod, rm;

	while (i < len &&
	       (code[i] == 0x66 || code[i] == 0x67 || code[i] == 0xf2 || code[i] == 0xf3 ||
		code[i] == 0x2e || code[i] == 0x3e || code[i] == 0x26 || code[i] == 0x36 ||
		code[i] == 0x64 || code[i] == 0x65))
		i++;
	if (i + 4 > len)
		return 0;
	switch (code[i]) {
	case 0xc5:
		map = 1;
		n = i + 2;
		break;
	case 0xc4:
		map = code[i + 1] & 0x1f;
		n = i + 3;
		break;
	case 0x62:
		map = code[i + 1] & 0x7;
		n = i + 4;
		break;
	default:
		return 0;
	}
	if (n + 1 >= len)
		return 0;
	op = code[n++];
	if (map == 1 && op == 0x77)
		return (unsigned int)n; /* vzeroupper, vzeroall: no ModRM */
	mod = code[n] >> 6;
	rm = code[n] & 7;
	n++;
	if (mod != 3 && rm == 4) {
		if (n >= len)
			return 0;
		if (mod == 0 && (code[n] & 7) == 5)
			n += 4;
		n++;
	}
	if (mod == 1)
		n += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		n += 4;
	if (map == 3 ||
	    (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6))))
		n += 1;
	return n <= len && n <= 15 ? (unsigned int)n : 0;
}

unsigned int disasm_one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
			disasm_sym_fn sym, void *ctx, struct disasm_insn *insn)
{
	const uint8_t *p = code;
	uint64_t a = addr;
	size_t n = len;

	memset(insn, 0, offsetof(struct disasm_insn, text) + 1);
	insn->addr = addr;
	if (!cs_disasm_iter(d->cs, &p, &n, &a, d->insn)) {
		unsigned int v = vex_length(code, len);

		insn->size = v ? v : 1;
		memcpy(insn->bytes, code, insn->size);
		snprintf(insn->text, sizeof(insn->text), "(bad)");
		return insn->size;
	}
	insn->size = d->insn->size;
	memcpy(insn->bytes, d->insn->bytes, insn->size < 16 ? insn->size : 16);
	format_insn(d, d->insn, sym, ctx, insn);
	return insn->size;
}

void disasm_raw_bytes(const struct disasm_insn *insn, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < insn->size && i < 16 && off + 4 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, i ? " %02x" : "%02x", insn->bytes[i]);
}
