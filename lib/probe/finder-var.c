// SPDX-License-Identifier: GPL-2.0
/*
 * probe/finder-var: probe arguments as fetch arguments. A variable's DWARF location at the
 * probe address becomes a register (%di), or memory at a register plus an offset (-72(%sp));
 * a frame base given as the call frame address is resolved through the CFI at that address.
 * Members (->, .) and elements ([n]) add offsets and dereferences; the type comes from DWARF
 * (s/x/u and the size, bN@O/S for bit fields) unless the user gave one.
 */
#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/probe/finder-int.h"

static const char *const x86_64_regs[] = {
	"%ax", "%dx", "%cx",  "%bx",  "%si",  "%di",  "%bp",  "%sp",
	"%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15",
};
#define NR_REGS (sizeof(x86_64_regs) / sizeof(x86_64_regs[0]))

/* Where a value is: in register base (in_mem 0), or in memory at base + off. */
struct loc {
	char base[512];
	long off;
	int in_mem;
	Dwarf_Die type; /* its type, qualifiers and typedefs peeled */
	int has_type;
	int bit_size, bit_off, bit_container; /* a bit field when bit_size > 0 */
};

struct var_ctx {
	struct pf_ctx *c;
	Dwarf_Die *scopes;
	int nscopes;
	Dwarf_Addr addr;
	const char *arg; /* the argument, for messages */
	int missing;	 /* the variable is not here (perf fills it in, see below) */
};

static const char *reg_name(unsigned int n)
{
	return n < NR_REGS ? x86_64_regs[n] : NULL;
}

/* The fetch argument reading l's value; -E2BIG when it does not fit in buf */
static int loc_value(const struct loc *l, char *buf, size_t len)
{
	int n;

	if (l->in_mem)
		n = snprintf(buf, len, "%+ld(%s)", l->off, l->base);
	else
		n = snprintf(buf, len, "%s", l->base);
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

static int set_type(struct loc *l, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Die t;

	l->has_type = 0;
	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
		return 0;
	if (dwarf_peel_type(&t, &l->type))
		return 0;
	l->has_type = 1;
	return 0;
}

static int unsupported(struct var_ctx *v, const char *what)
{
	return pf_fail(v->c->err, v->c->errlen, -EOPNOTSUPP, "'%s': %s (see flare probe -V)",
		       v->arg, what);
}

/* The call frame address at addr as register + offset */
static int frame_cfa(struct var_ctx *v, unsigned int *reg, long *off)
{
	struct probe_bin *b = v->c->bin;
	Dwarf_Addr cbias, mod = v->addr + b->dbias;
	Dwarf_CFI *cfi = dwfl_module_dwarf_cfi(b->mod, &cbias);
	Dwarf_Frame *fr = NULL;
	Dwarf_Op *ops;
	size_t n;
	int r = -ENOENT;

	if (!cfi || dwarf_cfi_addrframe(cfi, mod - cbias, &fr)) {
		free(fr);
		fr = NULL;
		cfi = dwfl_module_eh_cfi(b->mod, &cbias);
		if (!cfi || dwarf_cfi_addrframe(cfi, mod - cbias, &fr))
			goto out;
	}
	if (dwarf_frame_cfa(fr, &ops, &n) || n != 1)
		goto out;
	if (ops[0].atom == DW_OP_bregx) {
		*reg = (unsigned int)ops[0].number;
		*off = (long)ops[0].number2;
		r = 0;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = ops[0].atom - DW_OP_breg0;
		*off = (long)ops[0].number;
		r = 0;
	}
out:
	free(fr);
	return r;
}

static int frame_base(struct var_ctx *v, unsigned int *reg, long *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	int i;

	for (i = 0; i < v->nscopes; i++)
		if (dwarf_tag(&v->scopes[i]) == DW_TAG_subprogram)
			break;
	if (i == v->nscopes || !dwarf_attr(&v->scopes[i], DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, v->addr, &ops, &n, 1) != 1 || n < 1)
		return -ENOENT;
	if (ops[0].atom == DW_OP_call_frame_cfa)
		return frame_cfa(v, reg, off);
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = ops[0].atom - DW_OP_breg0;
		*off = (long)ops[0].number;
		return 0;
	}
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		*reg = ops[0].atom - DW_OP_reg0;
		*off = 0;
		return 0;
	}
	return -EOPNOTSUPP;
}

/* Where variable var lives at v->addr */
static int var_loc(struct var_ctx *v, Dwarf_Die *var, struct loc *l)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	unsigned int reg;
	long off = 0;
	const char *rn;

	memset(l, 0, sizeof(*l));
	set_type(l, var);
	v->missing = 1; /* until a location is found */
	if (!dwarf_attr_integrate(var, DW_AT_location, &a))
		return pf_fail(v->c->err, v->c->errlen, -ENOENT,
			       "'%s' has no location here: optimized out (see flare probe -V)",
			       v->arg);
	if (dwarf_getlocation_addr(&a, v->addr, &ops, &n, 1) != 1 || n < 1)
		return pf_fail(v->c->err, v->c->errlen, -ENOENT,
			       "'%s' has no location at this address: optimized out here "
			       "(see flare probe -V)",
			       v->arg);
	v->missing = 0;
	if (n > 1 && ops[1].atom != DW_OP_piece)
		return unsupported(v, "its location is a computed expression, which a probe "
				      "cannot fetch");
	switch (ops[0].atom) {
	case DW_OP_reg0 ... DW_OP_reg31:
	case DW_OP_regx:
		reg = ops[0].atom == DW_OP_regx ? (unsigned int)ops[0].number
						: (unsigned int)(ops[0].atom - DW_OP_reg0);
		break;
	case DW_OP_breg0 ... DW_OP_breg31:
	case DW_OP_bregx:
		reg = ops[0].atom == DW_OP_bregx ? (unsigned int)ops[0].number
						 : (unsigned int)(ops[0].atom - DW_OP_breg0);
		off = (long)(ops[0].atom == DW_OP_bregx ? ops[0].number2 : ops[0].number);
		l->in_mem = 1;
		break;
	case DW_OP_fbreg:
		if (frame_base(v, &reg, &off))
			return unsupported(v, "its frame base cannot be computed here");
		off += (long)ops[0].number;
		l->in_mem = 1;
		break;
	case DW_OP_addr: {
		uint64_t fo;

		if (pf_vaddr_to_off(v->c->bin, pf_dwarf_to_vaddr(v->c->bin, ops[0].number), &fo))
			return unsupported(v, "a global outside the loaded segments");
		snprintf(l->base, sizeof(l->base), "@+0x%llx", (unsigned long long)fo);
		l->in_mem = 2; /* the base is itself a memory reference */
		return 0;
	}
	default:
		return unsupported(v, "this variable location is not supported");
	}
	rn = reg_name(reg);
	if (!rn)
		return unsupported(v, "it lives in a register probes cannot read");
	snprintf(l->base, sizeof(l->base), "%s", rn);
	l->off = off;
	return 0;
}

/* Makes the value of l the base of a new memory reference (a dereference). */
static int deref(struct var_ctx *v, struct loc *l)
{
	char val[512];

	if (l->in_mem == 2) /* @+ADDR is already the value; +0(@+ADDR) reads through it */
		memcpy(val, l->base, sizeof(l->base));
	else if (loc_value(l, val, sizeof(val)))
		return unsupported(v, "the expression nests too deeply");
	if (strlen(val) >= sizeof(l->base))
		return unsupported(v, "the expression nests too deeply");
	memcpy(l->base, val, strlen(val) + 1);
	l->off = 0;
	l->in_mem = 1;
	return 0;
}

static int find_member(Dwarf_Die *st, const char *name, Dwarf_Die *out, long *off)
{
	Dwarf_Die ch;

	if (dwarf_child(st, &ch))
		return -ENOENT;
	do {
		Dwarf_Attribute a;
		Dwarf_Word w = 0;
		const char *n;

		if (dwarf_tag(&ch) != DW_TAG_member)
			continue;
		if (dwarf_attr(&ch, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &w);
		n = dwarf_diename(&ch);
		if (n && !strcmp(n, name)) {
			*out = ch;
			*off = (long)w;
			return 0;
		}
		if (!n) { /* an anonymous struct or union: look inside */
			Dwarf_Die t, pt;
			long inner;

			if (dwarf_attr(&ch, DW_AT_type, &a) && dwarf_formref_die(&a, &t) &&
			    !dwarf_peel_type(&t, &pt) && !find_member(&pt, name, out, &inner)) {
				*off = (long)w + inner;
				return 0;
			}
		}
	} while (!dwarf_siblingof(&ch, &ch));
	return -ENOENT;
}

static int member(struct var_ctx *v, struct loc *l, const char *name, int arrow)
{
	Dwarf_Die st, m;
	long moff;
	Dwarf_Word bits, boff;
	Dwarf_Attribute a;

	if (!l->has_type)
		return unsupported(v, "no type information to find a member in");
	if (arrow) {
		Dwarf_Attribute ta;
		Dwarf_Die t;

		if (dwarf_tag(&l->type) != DW_TAG_pointer_type)
			return unsupported(v, "'->' on something that is not a pointer (use '.')");
		if (!dwarf_attr(&l->type, DW_AT_type, &ta) || !dwarf_formref_die(&ta, &t) ||
		    dwarf_peel_type(&t, &st))
			return unsupported(v, "a pointer to an unknown type");
		if (deref(v, l))
			return -EINVAL;
	} else {
		int tag = dwarf_tag(&l->type);

		if (tag == DW_TAG_pointer_type)
			return unsupported(v, "'.' on a pointer (use '->')");
		if (!l->in_mem)
			return unsupported(v, "a member of a structure held in registers");
		st = l->type;
	}
	if (find_member(&st, name, &m, &moff))
		return pf_fail(v->c->err, v->c->errlen, -ENOENT,
			       "'%s': no member '%s' in %s %s (see flare probe -V)", v->arg, name,
			       dwarf_tag(&st) == DW_TAG_union_type ? "union" : "struct",
			       dwarf_diename(&st) ?: "(anonymous)");
	if (l->in_mem == 2 && !arrow)
		return unsupported(v, "members of a global structure");
	l->off += moff;
	l->bit_size = 0;
	if (dwarf_attr(&m, DW_AT_bit_size, &a) && !dwarf_formudata(&a, &bits)) {
		set_type(l, &m);
		int bytes = l->has_type ? dwarf_bytesize(&l->type) : 4;

		if (bytes <= 0)
			bytes = 4;
		boff = 0;
		if (dwarf_attr(&m, DW_AT_data_bit_offset, &a))
			dwarf_formudata(&a, &boff);
		l->off += (long)(boff / (bytes * 8)) * bytes;
		l->bit_size = (int)bits;
		l->bit_off = (int)(boff % (bytes * 8));
		l->bit_container = bytes * 8;
		return 0;
	}
	return set_type(l, &m);
}

static int element(struct var_ctx *v, struct loc *l, long idx)
{
	Dwarf_Attribute a;
	Dwarf_Die t, et;
	int size, tag = l->has_type ? dwarf_tag(&l->type) : 0;

	if (tag != DW_TAG_array_type && tag != DW_TAG_pointer_type)
		return unsupported(v, "'[]' on something that is neither an array nor a pointer");
	if (!dwarf_attr(&l->type, DW_AT_type, &a) || !dwarf_formref_die(&a, &t) ||
	    dwarf_peel_type(&t, &et))
		return unsupported(v, "elements of an unknown type");
	size = dwarf_bytesize(&et);
	if (size <= 0)
		size = tag == DW_TAG_pointer_type ? 8 : 1;
	if (tag == DW_TAG_pointer_type) {
		if (deref(v, l))
			return -EINVAL;
	} else if (!l->in_mem) {
		return unsupported(v, "an array held in registers");
	}
	l->off += idx * size;
	l->type = et;
	return 0;
}

/* Applies "->a.b[2]" (rest of the argument after the variable name) to l; *last gets the
 * last field name. */
static int walk_fields(struct var_ctx *v, struct loc *l, const char *p, char *last, size_t lastlen)
{
	char name[128];

	while (*p) {
		int arrow = !strncmp(p, "->", 2);
		size_t n;

		if (arrow || *p == '.') {
			p += arrow ? 2 : 1;
			n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789_");
			if (!n || n >= sizeof(name))
				return unsupported(v, "a member name must follow '->' or '.'");
			memcpy(name, p, n);
			name[n] = '\0';
			p += n;
			if (member(v, l, name, arrow))
				return -EINVAL;
			snprintf(last, lastlen, "%s", name);
		} else if (*p == '[') {
			char *end;
			long idx = strtol(p + 1, &end, 0);

			if (end == p + 1 || *end != ']')
				return unsupported(v, "an element index is a number: a[2]");
			p = end + 1;
			if (element(v, l, idx))
				return -EINVAL;
		} else {
			return unsupported(v, "expected '->member', '.member' or '[index]'");
		}
	}
	return 0;
}

static void dwarf_type_str(const struct pf_ctx *c, const struct loc *l, char *buf, size_t len)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;
	int bytes, sign;

	buf[0] = '\0';
	if (l->bit_size) {
		snprintf(buf, len, "b%d@%d/%d", l->bit_size, l->bit_off, l->bit_container);
		return;
	}
	if (!l->has_type)
		return;
	bytes = dwarf_bytesize((Dwarf_Die *)&l->type);
	if (bytes <= 0)
		bytes = dwarf_tag((Dwarf_Die *)&l->type) == DW_TAG_pointer_type ? 8 : 0;
	if (bytes <= 0)
		return;
	if (dwarf_tag((Dwarf_Die *)&l->type) == DW_TAG_base_type &&
	    dwarf_attr((Dwarf_Die *)&l->type, DW_AT_encoding, &a))
		dwarf_formudata(&a, &enc);
	sign = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	snprintf(buf, len, "%c%d",
		 sign		    ? 's'
		 : c->opts->x_types ? 'x'
				    : 'u',
		 bytes * 8 > 64 ? 64 : bytes * 8);
}

/* One variable (found by name or die) with optional fields, as "name=fetch:type" */
static int convert_var(struct var_ctx *v, Dwarf_Die *var, const char *fields,
		       const struct probe_arg *ua, struct strbuf *args, struct strbuf *names)
{
	struct loc l;
	char last[128], val[1024], type[64];
	const char *nm;

	snprintf(last, sizeof(last), "%s", dwarf_diename(var));
	if (var_loc(v, var, &l) || walk_fields(v, &l, fields, last, sizeof(last)))
		return -EINVAL;
	if (l.in_mem == 2)
		deref(v, &l);
	if (loc_value(&l, val, sizeof(val)))
		return unsupported(v, "the expression nests too deeply");
	if (ua && ua->type && (!strcmp(ua->type, "string") || !strcmp(ua->type, "ustring"))) {
		int tag = l.has_type ? dwarf_tag(&l.type) : 0;

		if (tag == DW_TAG_pointer_type) {
			char inner[1024];
			int k = snprintf(inner, sizeof(inner), "+0(%s)", val);

			if (k < 0 || (size_t)k >= sizeof(val))
				return unsupported(v, "the expression nests too deeply");
			memcpy(val, inner, (size_t)k + 1);
		} else if (tag != DW_TAG_array_type || !l.in_mem) {
			return unsupported(v, "a string needs a char pointer or array");
		}
		snprintf(type, sizeof(type), "%s", ua->type);
	} else if (ua && ua->type) {
		snprintf(type, sizeof(type), "%s", ua->type);
	} else {
		dwarf_type_str(v->c, &l, type, sizeof(type));
	}
	nm = ua && ua->name ? ua->name : last;
	strbuf_addf(args, " %s=%s%s%s", nm, val, type[0] ? ":" : "", type);
	if (names) {
		if (ua && strcmp(nm, ua->expr))
			strbuf_addf(names, " %s=%s", nm, ua->expr);
		else
			strbuf_addf(names, " %s", nm);
		if (ua && ua->type)
			strbuf_addf(names, ":%s", ua->type);
	}
	return 0;
}

static Dwarf_Die *func_scope(struct var_ctx *v)
{
	int i;

	for (i = 0; i < v->nscopes; i++) {
		int tag = dwarf_tag(&v->scopes[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			return &v->scopes[i];
	}
	return NULL;
}

/* $params (params only) or $vars (params and locals in scope at the address) */
static void convert_all(struct var_ctx *v, Dwarf_Die *scope, int params_only, struct strbuf *args)
{
	Dwarf_Die ch;

	if (dwarf_child(scope, &ch))
		return;
	do {
		int tag = dwarf_tag(&ch);
		char save = v->c->err[0];

		if (tag == DW_TAG_formal_parameter || (!params_only && tag == DW_TAG_variable)) {
			if (dwarf_diename(&ch) && convert_var(v, &ch, "", NULL, args, NULL))
				v->c->err[0] = save; /* skipped, as perf skips them */
		} else if (!params_only && tag == DW_TAG_lexical_block &&
			   dwarf_haspc(&ch, v->addr) > 0) {
			convert_all(v, &ch, 0, args);
		}
	} while (!dwarf_siblingof(&ch, &ch));
}

static int convert_one(struct var_ctx *v, const struct probe_arg *ua, int is_return,
		       struct strbuf *args, struct strbuf *names)
{
	const char *e = ua->expr;
	char vname[128];
	size_t n;
	Dwarf_Die var, *fs;

	if (!strcmp(e, "$params") || !strcmp(e, "$vars")) {
		fs = func_scope(v);
		if (!fs)
			return unsupported(v, "no function scope here");
		convert_all(v, fs, e[1] == 'p', args);
		strbuf_addf(names, " %s", e);
		return 0;
	}
	if (!probe_arg_needs_dwarf(ua)) {
		if (!strcmp(e, "$retval") && !is_return)
			return pf_fail(v->c->err, v->c->errlen, -EINVAL,
				       "'%s': $retval is only available on a %%return probe", e);
		strbuf_addf(args, " %s%s%s%s%s", ua->name ?: "", ua->name ? "=" : "", e,
			    ua->type ? ":" : "", ua->type ?: "");
		strbuf_addf(names, " %s%s%s%s%s", ua->name ?: "", ua->name ? "=" : "", e,
			    ua->type ? ":" : "", ua->type ?: "");
		return 0;
	}
	if (is_return)
		return pf_fail(v->c->err, v->c->errlen, -EINVAL,
			       "'%s': local variables cannot be read at a %%return probe "
			       "(use $retval)",
			       e);
	n = strspn(e, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	if (!n || n >= sizeof(vname) || isdigit((unsigned char)e[0]))
		return unsupported(v, "not a variable name");
	memcpy(vname, e, n);
	vname[n] = '\0';
	if (dwarf_getscopevar(v->scopes, v->nscopes, vname, 0, NULL, 0, 0, &var) < 0 &&
	    (v->missing = 1))
		return pf_fail(v->c->err, v->c->errlen, -ENOENT,
			       "'%s': no variable '%s' in scope here (see flare probe -V)", e,
			       vname);
	return convert_var(v, &var, e + n, ua, args, names);
}

/* perf fills a variable missing at some of a definition's places with a magic number, when
 * each argument is one fetch argument (no $params or $vars) */
static int can_fill(const struct probe_spec *s)
{
	size_t i;

	for (i = 0; i < s->nr_args; i++)
		if (!strcmp(s->args[i].expr, "$params") || !strcmp(s->args[i].expr, "$vars"))
			return 0;
	return 1;
}

/* The name perf gives a variable argument: NAME=, else the last member's name */
static void arg_default_name(const struct probe_arg *ua, char *buf, size_t len)
{
	const char *e = ua->expr, *p, *last = e;
	size_t n;

	for (p = e; *p; p++) {
		if (*p == '.')
			last = p + 1;
		else if (p[0] == '-' && p[1] == '>')
			last = p + 2;
	}
	n = strspn(last, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	snprintf(buf, len, "%.*s", (int)n, last);
}

static int add_missing(struct pf_ctx *c, const struct probe_arg *ua, size_t i, struct strbuf *args,
		       struct strbuf *names)
{
	char nm[128];

	if (ua->name)
		snprintf(nm, sizeof(nm), "%s", ua->name);
	else
		arg_default_name(ua, nm, sizeof(nm));
	strbuf_addf(args, " %s=%s%zu", nm, PF_MISSING, i);
	if (strcmp(nm, ua->expr))
		strbuf_addf(names, " %s=%s", nm, ua->expr);
	else
		strbuf_addf(names, " %s", nm);
	c->nr_missing++;
	c->err[0] = '\0';
	return 0;
}

int pf_convert_args(struct pf_ctx *c, Dwarf_Die *cu, Dwarf_Addr addr, int is_return,
		    struct strbuf *args, struct strbuf *names)
{
	struct var_ctx v = { .c = c, .addr = addr };
	size_t i;
	int r = 0;

	if (cu)
		v.nscopes = pf_concrete_scopes(cu, addr, &v.scopes);
	if (cu && !v.nscopes) /* code outside any function: the unit's scopes */
		v.nscopes = dwarf_getscopes(cu, addr, &v.scopes);
	for (i = 0; i < c->spec->nr_args && !r; i++) {
		v.arg = c->spec->args[i].expr;
		if (probe_arg_needs_dwarf(&c->spec->args[i]) && v.nscopes <= 0)
			r = pf_fail(c->err, c->errlen, -ENOENT,
				    "'%s': no debug information at this probe point to find it "
				    "(install the binary's -dbg/-dbgsym package)",
				    v.arg);
		else
			r = convert_one(&v, &c->spec->args[i], is_return, args, names);
		if (r && v.missing && can_fill(c->spec))
			r = add_missing(c, &c->spec->args[i], i, args, names);
		v.missing = 0;
	}
	free(v.scopes);
	return r;
}

/* perf's type names: qualifiers dropped, "struct point*", "char**", "void*" */
static int type_name(Dwarf_Die *var, struct strbuf *sb)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	int tag;

	if (!dwarf_attr_integrate(var, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
		return -ENOENT;
	for (;;) {
		tag = dwarf_tag(&t);
		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			break;
		if (!dwarf_attr(&t, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
			return -ENOENT;
	}
	if (tag == DW_TAG_pointer_type || tag == DW_TAG_array_type) {
		if (type_name(&t, sb) == -ENOENT && tag == DW_TAG_pointer_type)
			return strbuf_adds(sb, "void*");
		return strbuf_adds(sb, "*");
	}
	if (tag == DW_TAG_subroutine_type)
		return strbuf_adds(sb, "(function_type)");
	if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	    tag == DW_TAG_enumeration_type)
		return strbuf_addf(sb, "%s %s",
				   tag == DW_TAG_structure_type ? "struct"
				   : tag == DW_TAG_union_type	? "union"
								: "enum",
				   dwarf_diename(&t) ?: "");
	if (!dwarf_diename(&t))
		return -ENOENT;
	return strbuf_adds(sb, dwarf_diename(&t));
}

struct vars_walk {
	struct var_ctx *v;
	probe_var_fn fn;
	void *ctx;
	int r;
};

static void emit_var(struct vars_walk *w, Dwarf_Die *var)
{
	struct strbuf args = STRBUF_INIT, tn = STRBUF_INIT;
	char save = w->v->c->err[0];

	w->v->arg = dwarf_diename(var);
	if (w->v->arg && !convert_var(w->v, var, "", NULL, &args, NULL) && !w->r) {
		if (type_name(var, &tn))
			strbuf_adds(&tn, "(unknown_type)");
		w->r = w->fn(tn.buf, w->v->arg, w->ctx);
	}
	w->v->c->err[0] = save;
	strbuf_release(&args);
	strbuf_release(&tn);
}

static void walk_vars(struct vars_walk *w, Dwarf_Die *scope)
{
	Dwarf_Die ch;

	if (dwarf_child(scope, &ch))
		return;
	do {
		int tag = dwarf_tag(&ch);

		if (tag == DW_TAG_formal_parameter || tag == DW_TAG_variable)
			emit_var(w, &ch);
		else if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
			 dwarf_haspc(&ch, w->v->addr) > 0)
			walk_vars(w, &ch);
	} while (!dwarf_siblingof(&ch, &ch));
}

int probe_bin_vars_at(struct probe_bin *bin, const struct probe_trace *t, int externs, char *where,
		      size_t wlen, probe_var_fn fn, void *ctx)
{
	uint64_t vaddr = t->vaddr;
	struct probe_find_opts o = { .x_types = 1 };
	char err[256];
	struct pf_ctx c = { .bin = bin, .opts = &o, .err = err, .errlen = sizeof(err) };
	struct var_ctx v = { .c = &c };
	struct vars_walk w = { &v, fn, ctx, 0 };
	Dwarf_Addr bias, mod = vaddr + bin->ebias, entry;
	Dwarf_Die *cu = pf_dw(bin) ? dwfl_module_addrdie(bin->mod, mod, &bias) : NULL, *fs, real,
		  sc;

	err[0] = '\0';
	if (!cu)
		return -ENOENT;
	v.addr = mod - bias;
	v.nscopes = pf_concrete_scopes(cu, v.addr, &v.scopes);
	if (!v.nscopes)
		v.nscopes = dwarf_getscopes(cu, v.addr, &v.scopes);
	fs = t->line > 0 ? pf_line_scope(cu, v.addr, t->line, &sc) : func_scope(&v);
	if (!fs) {
		free(v.scopes);
		return -ENOENT;
	}
	if (pf_real_func(cu, v.addr, &real) && !pf_die_entry(&real, &entry))
		snprintf(where, wlen, "%s+%llu", dwarf_diename(&real) ?: "?",
			 (unsigned long long)(v.addr - entry)); /* perf names the real function */
	else
		snprintf(where, wlen, "%s+0", dwarf_diename(fs) ?: "?");
	walk_vars(&w, fs);
	if (externs)
		walk_vars(&w, cu);
	free(v.scopes);
	return w.r;
}

/* Token i of " a=x:t b=y:t" (its start and length), or NULL */
static const char *arg_token(const char *args, size_t i, size_t *len)
{
	const char *p = args;

	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			return NULL;
		*len = strcspn(p, " ");
		if (!i--)
			return p;
		p += *len;
	}
}

/* Replaces token i of *args (a PF_MISSING one) by NAME=\deade12d[:type] */
static int fill_token(char **args, size_t i, const char *type, size_t tlen)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	const char *tok = arg_token(*args, i, &len), *eq = tok ? memchr(tok, '=', len) : NULL;

	if (!eq)
		return -EINVAL;
	strbuf_add(&sb, *args, (size_t)(eq + 1 - *args));
	strbuf_addf(&sb, "\\deade12d%s%.*s%s", type ? ":" : "", (int)tlen, type ? type : "",
		    tok + len);
	free(*args);
	*args = strbuf_detach(&sb);
	return 0;
}

int pf_fill_missing(struct pf_ctx *c)
{
	size_t i, k, len;

	for (i = 0; i < c->spec->nr_args; i++) {
		const char *type = NULL, *tok, *eq;
		size_t tlen = 0;

		for (k = 0; k < c->nr; k++) {
			tok = arg_token(c->traces[k].args, i, &len);
			eq = tok ? memchr(tok, '=', len) : NULL;
			if (tok && !(eq && eq[1] == PF_MISSING[0])) {
				const char *colon = memrchr(tok, ':', len);

				type = colon && (!eq || colon > eq) ? colon + 1 : NULL;
				tlen = type ? len - (size_t)(type - tok) : 0;
				break;
			}
		}
		if (k == c->nr)
			return pf_fail(c->err, c->errlen, -ENOENT,
				       "'%s': not found at any place "
				       "'%s' resolves to (see flare probe -V)",
				       c->spec->args[i].expr, c->point);
		for (k = 0; k < c->nr; k++) {
			tok = arg_token(c->traces[k].args, i, &len);
			eq = tok ? memchr(tok, '=', len) : NULL;
			if (eq && eq[1] == PF_MISSING[0] &&
			    fill_token(&c->traces[k].args, i, type, tlen))
				return -ENOMEM;
		}
	}
	return 0;
}
