// SPDX-License-Identifier: GPL-2.0
/*
 * probe/finder-sdt: SDT markers (the .note.stapsdt notes systemtap's <sys/sdt.h> leaves, as
 * in Python, libstdc++ or Node) as uprobes named sdt_PROVIDER:NAME, as perf places them: the
 * marker's address adjusted by where .stapsdt.base really is, a semaphore as the uprobe's
 * reference counter, and the marker's "-4@%edi 8@16(%rbp)" operands as fetch arguments.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/probe/finder-int.h"

#define NT_STAPSDT 3

struct sdt_note {
	uint64_t pc, base, sem;
	const char *provider, *name, *args;
};

typedef int (*sdt_fn)(const struct sdt_note *n, uint64_t base_addr, void *ctx);

static int sdt_walk(struct probe_bin *b, sdt_fn fn, void *ctx)
{
	Elf_Scn *scn = NULL, *notes = NULL;
	uint64_t base_addr = 0;
	size_t shstrndx, off = 0, noff, doff;
	GElf_Nhdr nh;
	Elf_Data *d;
	int r = 0, w = gelf_getclass(b->elf) == ELFCLASS32 ? 4 : 8;

	if (elf_getshdrstrndx(b->elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(b->elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(b->elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, ".stapsdt.base"))
			base_addr = sh.sh_addr;
		if (n && sh.sh_type == SHT_NOTE && !strcmp(n, ".note.stapsdt"))
			notes = scn;
	}
	if (!notes || !(d = elf_getdata(notes, NULL)))
		return 0;
	while (!r && (noff = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		const char *desc = (const char *)d->d_buf + doff, *end = desc + nh.n_descsz;
		struct sdt_note sn;
		uint64_t v[3] = { 0, 0, 0 };
		int i;

		off = noff;
		if (nh.n_type != NT_STAPSDT || nh.n_descsz < (size_t)(3 * w + 3))
			continue;
		for (i = 0; i < 3; i++) {
			if (w == 8) {
				memcpy(&v[i], desc + 8 * i, 8);
			} else {
				uint32_t x;

				memcpy(&x, desc + 4 * i, 4);
				v[i] = x;
			}
		}
		sn.pc = v[0];
		sn.base = v[1];
		sn.sem = v[2];
		sn.provider = desc + 3 * w;
		sn.name = memchr(sn.provider, 0, (size_t)(end - sn.provider));
		if (!sn.name++ || sn.name >= end)
			continue;
		sn.args = memchr(sn.name, 0, (size_t)(end - sn.name));
		if (!sn.args++ || sn.args >= end || !memchr(sn.args, 0, (size_t)(end - sn.args)))
			continue;
		r = fn(&sn, base_addr, ctx);
	}
	return r;
}

/* "%rbx" / "%ebp" / "%r12d" / "%al" -> "%bx" / "%bp" / "%r12" / "%ax" */
static int sdt_reg(const char *r, size_t len, char *out, size_t olen)
{
	static const char *const legacy[] = { "ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "ip" };
	char n[16];
	size_t i;

	if (len < 2 || len >= sizeof(n))
		return -EINVAL;
	memcpy(n, r, len);
	n[len] = '\0';
	if (n[0] == 'r' && n[1] >= '0' && n[1] <= '9') { /* r8..r15 with a size suffix */
		size_t k = 1 + strspn(n + 1, "0123456789");

		int w;

		n[k] = '\0';
		w = snprintf(out, olen, "%%%s", n);
		return w < 0 || (size_t)w >= olen ? -EINVAL : 0;
	}
	for (i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++) {
		const char *l = legacy[i];

		if ((len == 3 && (n[0] == 'r' || n[0] == 'e') && !strcmp(n + 1, l)) ||
		    (len == 2 && (!strcmp(n, l) ||
				  (n[0] == l[0] && (n[1] == 'l' || n[1] == 'h') && l[1] == 'x')))) {
			snprintf(out, olen, "%%%s", l);
			return 0;
		}
		if (len == 3 && n[2] == 'l' && !strncmp(n, l, 2)) /* sil, dil, bpl, spl */
			return snprintf(out, olen, "%%%s", l) < 0 ? -EINVAL : 0;
	}
	return -EINVAL;
}

/* One operand, "-4@%edi" or "8@-16(%rbp)", as "argN=FETCH:TYPE" */
static int sdt_arg(const char *a, size_t len, int nth, struct strbuf *out)
{
	char reg[16], type[8] = "";
	const char *at = memchr(a, '@', len), *op = a, *paren;
	size_t olen = len;

	if (at) {
		long sz = strtol(a, NULL, 10);

		if (sz != 1 && sz != 2 && sz != 4 && sz != 8 && sz != -1 && sz != -2 && sz != -4 &&
		    sz != -8)
			return -EINVAL;
		snprintf(type, sizeof(type), ":%c%ld", sz < 0 ? 's' : 'u', (sz < 0 ? -sz : sz) * 8);
		op = at + 1;
		olen = len - (size_t)(op - a);
	}
	if (op[0] == '%') {
		if (sdt_reg(op + 1, olen - 1, reg, sizeof(reg)))
			return -EINVAL;
		return strbuf_addf(out, " arg%d=%s%s", nth, reg, type);
	}
	paren = memchr(op, '(', olen);
	if (paren && op + olen - 1 > paren + 2 && paren[1] == '%' && op[olen - 1] == ')') {
		long disp = paren > op ? strtol(op, NULL, 0) : 0;

		if (sdt_reg(paren + 2, (size_t)(op + olen - 1 - paren - 2), reg, sizeof(reg)))
			return -EINVAL;
		return strbuf_addf(out, " arg%d=%+ld(%s)%s", nth, disp, reg, type);
	}
	return -EINVAL; /* constants and indexed forms: none on x86-64's common markers */
}

struct sdt_find {
	struct pf_ctx *c;
	int r;
};

static int sdt_place(const struct sdt_note *n, uint64_t base_addr, void *ctx)
{
	struct sdt_find *f = ctx;
	struct pf_ctx *c = f->c;
	const struct probe_spec *s = c->spec;
	struct probe_trace *t, *m;
	struct strbuf args = STRBUF_INIT;
	uint64_t pc = n->pc, off, sem = 0;
	const char *a = n->args;
	int nth = 1;

	if ((s->file && fnmatch(s->file, n->provider, 0)) || fnmatch(s->func, n->name, 0))
		return 0;
	if (base_addr && n->base)
		pc += base_addr - n->base;
	if (pf_vaddr_to_off(c->bin, pc, &off) ||
	    (n->sem && pf_vaddr_to_off(c->bin, n->sem, &sem))) {
		f->r = pf_fail(c->err, c->errlen, -ERR_FORMAT,
			       "'%s': the SDT note of %s:%s points "
			       "outside the binary",
			       c->point, n->provider, n->name);
		return 1;
	}
	while (*a) {
		size_t len = strcspn(a, " ");

		if (len && sdt_arg(a, len, nth, &args)) {
			strbuf_release(&args);
			f->r = pf_fail(c->err, c->errlen, -EOPNOTSUPP,
				       "'%s': operand '%.*s' of "
				       "%s:%s is not one flare can fetch",
				       c->point, (int)len, a, n->provider, n->name);
			return 1;
		}
		nth += len > 0;
		a += len;
		a += strspn(a, " ");
	}
	m = realloc(c->traces, (c->nr + 1) * sizeof(*m));
	if (!m) {
		strbuf_release(&args);
		f->r = -ENOMEM;
		return 1;
	}
	c->traces = m;
	t = &m[c->nr++];
	memset(t, 0, sizeof(*t));
	t->event = strdup(n->name);
	if (asprintf(&t->group, "sdt_%s", n->provider) < 0)
		t->group = NULL;
	t->offset = off;
	t->vaddr = pc;
	t->ref_ctr = sem;
	t->args = strbuf_detach(&args);
	t->argnames = strdup("");
	if (!t->event || !t->group || !t->args || !t->argnames) {
		f->r = -ENOMEM;
		return 1;
	}
	return 0;
}

int pf_find_sdt(struct pf_ctx *c)
{
	struct sdt_find f = { c, 0 };

	if (c->spec->nr_args)
		return pf_fail(c->err, c->errlen, -EINVAL,
			       "'%s': an SDT marker brings its own "
			       "arguments (arg1...); give none",
			       c->point);
	sdt_walk(c->bin, sdt_place, &f);
	if (!f.r && !c->nr)
		return pf_fail(c->err, c->errlen, -ENOENT,
			       "'%s': no such SDT marker in the binary "
			       "(see flare probe -x BINARY -F)",
			       c->point);
	return f.r;
}

struct sdt_list {
	probe_func_fn fn;
	void *ctx;
};

static int sdt_list_cb(const struct sdt_note *n, uint64_t base_addr, void *ctx)
{
	struct sdt_list *l = ctx;
	char buf[512];

	(void)base_addr;
	snprintf(buf, sizeof(buf), "%%sdt_%s:%s", n->provider, n->name);
	return l->fn(buf, l->ctx);
}

int probe_bin_for_each_sdt(struct probe_bin *bin, probe_func_fn fn, void *ctx)
{
	struct sdt_list l = { fn, ctx };

	return sdt_walk(bin, sdt_list_cb, &l);
}
