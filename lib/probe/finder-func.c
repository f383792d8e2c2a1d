// SPDX-License-Identifier: GPL-2.0
/*
 * probe/finder-func: where a probe point is. Functions by name in every compilation unit
 * (static functions of the same name in several units each get a probe), with their inlined
 * copies; lines; raw addresses; the ELF symbol table when there is no DWARF.
 */
#include <dwarf.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/probe/finder-int.h"

static int name_match(const struct pf_ctx *c, const char *name)
{
	if (!name)
		return 0;
	return strpbrk(c->spec->func, "*?[") ? !fnmatch(c->spec->func, name, 0)
					     : !strcmp(c->spec->func, name);
}

static int place_func(struct pf_ctx *c, Dwarf_Die *die, int is_inline)
{
	const struct probe_spec *s = c->spec;
	const char *name = dwarf_diename(die);
	Dwarf_Die cumem, *cu = dwarf_diecu(die, &cumem, NULL, NULL);
	Dwarf_Addr entry, high;
	char ev[256];
	int r;

	if (!cu || pf_die_entry(die, &entry))
		return 0; /* a declaration, or code the compiler dropped */
	if (s->is_return) {
		if (is_inline) {
			c->found_inline_return++;
			return 0;
		}
		snprintf(ev, sizeof(ev), "%s__return", name);
		return pf_add_trace(c, ev, 1, pf_dwarf_to_vaddr(c->bin, entry), cu, entry);
	}
	if (s->line >= 0) {
		int decl = 0;

		char fb[4096];

		dwarf_decl_line(die, &decl);
		snprintf(ev, sizeof(ev), "%s_L%ld", name, s->line);
		r = pf_walk_line(c, cu, die, pf_decl_file(die, fb, sizeof(fb)), decl + (int)s->line,
				 ev);
		if (r == 0 && c->line_skipped)
			return pf_fail(c->err, c->errlen, -ENOENT,
				       "'%s': this line shares its address with another line "
				       "(probe a numbered line of flare probe -L %s)",
				       c->point, name);
		if (r == 0)
			return pf_fail(c->err, c->errlen, -ENOENT,
				       "'%s': line %ld of %s has no code (see flare probe -L %s)",
				       c->point, s->line, name, name);
		return r < 0 ? r : 0;
	}
	if (s->lazy) {
		r = pf_lazy_in_func(c, die, name);
		return r < 0 ? r : 0;
	}
	if (s->has_offset) {
		if (!dwarf_highpc(die, &high) && entry + s->offset >= high)
			log_warn("Specified offset is out of %s", name);
		entry += s->offset;
	}
	return pf_add_trace(c, name, 0, pf_dwarf_to_vaddr(c->bin, entry), cu, entry);
}

static int inline_cb(Dwarf_Die *inst, void *arg)
{
	struct pf_ctx *c = arg;

	return place_func(c, inst, 1) ? DWARF_CB_ABORT : DWARF_CB_OK;
}

struct func_walk {
	struct pf_ctx *c;
	int r;
};

static int func_cb(Dwarf_Die *fn, void *arg)
{
	struct func_walk *w = arg;
	struct pf_ctx *c = w->c;

	if (!name_match(c, dwarf_diename(fn)))
		return DWARF_CB_OK;
	char fb[4096];

	if (c->spec->file && !pf_file_match(pf_decl_file(fn, fb, sizeof(fb)), c->spec->file))
		return DWARF_CB_OK;
	if (dwarf_func_inline(fn)) {
		if (!c->opts->no_inlines)
			dwarf_func_inline_instances(fn, inline_cb, c);
		if (c->err[0])
			w->r = -EINVAL;
	} else {
		w->r = place_func(c, fn, 0);
	}
	return w->r ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static int find_func_dwarf(struct pf_ctx *c)
{
	struct func_walk w = { c, 0 };
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;

	while (!w.r && (cu = dwfl_module_nextcu(c->bin->mod, cu, &bias)))
		dwarf_getfuncs(cu, func_cb, &w, 0);
	if (w.r && !c->err[0])
		pf_fail(c->err, c->errlen, w.r, "'%s': %s", c->point, err_str(w.r));
	return w.r;
}

static int find_func_symtab(struct pf_ctx *c)
{
	const struct probe_spec *s = c->spec;
	int i, n = dwfl_module_getsymtab(c->bin->mod), r;

	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name = dwfl_module_getsym_info(c->bin->mod, i, &sym, &addr, &shndx,
							   &elf, &bias);
		int type = GELF_ST_TYPE(sym.st_info);
		char ev[256];
		uint64_t v;

		if (!name || shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    !name_match(c, name))
			continue;
		v = addr - c->bin->ebias + (s->has_offset ? s->offset : 0);
		snprintf(ev, sizeof(ev), "%s%s", name, s->is_return ? "__return" : "");
		r = pf_add_trace(c, ev, s->is_return, v, NULL, 0);
		if (r)
			return r;
	}
	return 0;
}

int pf_add_line_probe(struct pf_ctx *c, Dwarf_Die *cu, Dwarf_Addr a, int line, const char *event)
{
	Dwarf_Die sc;
	const char *name = event			     ? event
			   : pf_line_scope(cu, a, line, &sc) ? dwarf_diename(&sc)
							     : NULL;
	size_t nr = c->nr;
	int r = pf_add_trace(c, name ? name : "line", 0, pf_dwarf_to_vaddr(c->bin, a), cu, a);

	if (!r && c->nr > nr)
		c->traces[nr].line = line;
	return r;
}

static int find_line(struct pf_ctx *c)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	int r, found = 0;

	while ((cu = dwfl_module_nextcu(c->bin->mod, cu, &bias))) {
		r = pf_walk_line(c, cu, NULL, c->spec->file, (int)c->spec->line, NULL);
		if (r < 0)
			return r;
		found += r;
	}
	if (!found && c->line_skipped)
		return pf_fail(c->err, c->errlen, -ENOENT,
			       "'%s': this line shares its address with another line (see the "
			       "numbered lines of flare probe -L FUNC)",
			       c->point);
	if (!found)
		return pf_fail(c->err, c->errlen, -ENOENT,
			       "'%s': no code at this line in any compilation unit "
			       "(see flare probe -L %s)",
			       c->point, c->spec->file);
	return 0;
}

static int find_addr(struct pf_ctx *c)
{
	Dwarf_Addr bias, mod = c->spec->addr + c->bin->ebias;
	Dwarf_Die *cu = pf_dw(c->bin) ? dwfl_module_addrdie(c->bin->mod, mod, &bias) : NULL;
	char ev[64];

	snprintf(ev, sizeof(ev), "abs_%llx", (unsigned long long)c->spec->addr);
	return pf_add_trace(c, ev, 0, c->spec->addr, cu, cu ? mod - bias : 0);
}

static int needs_dwarf(const struct probe_spec *s)
{
	size_t i;

	for (i = 0; i < s->nr_args; i++)
		if (probe_arg_needs_dwarf(&s->args[i]))
			return 1;
	return s->line >= 0 || s->lazy;
}

/* No line of FUNC matches ;PTN: perf then probes the function's entry, and so does flare */
static int find_lazy_fallback(struct pf_ctx *c)
{
	const struct probe_spec *s = c->spec;
	struct probe_spec entry = *s;
	int r;

	entry.lazy = NULL;
	c->spec = &entry;
	r = find_func_dwarf(c);
	c->spec = s;
	if (!r && c->nr)
		log_warn("no line of %s matches '%s': probing its entry, as perf probe does",
			 s->func, s->lazy);
	return r || c->nr ? r
			  : pf_fail(c->err, c->errlen, -ENOENT,
				    "'%s': no function '%s' with debug information", c->point,
				    s->func);
}

static int find_point(struct pf_ctx *c, const char *path)
{
	const struct probe_spec *s = c->spec;
	int r;

	if (s->kind == PP_ADDR)
		return find_addr(c);
	if (s->kind == PP_SDT)
		return pf_find_sdt(c);
	if (s->kind != PP_FUNC) {
		if (!pf_dw(c->bin))
			goto no_dwarf;
		return s->kind == PP_LAZY_FILE ? pf_find_lazy_file(c) : find_line(c);
	}
	if (pf_dw(c->bin)) {
		r = find_func_dwarf(c);
		if (r || c->nr)
			return r;
		if (s->lazy)
			return find_lazy_fallback(c);
	}
	if (!needs_dwarf(s)) {
		r = find_func_symtab(c);
		if (r || c->nr)
			return r;
	} else if (!pf_dw(c->bin)) {
		goto no_dwarf;
	}
	if (c->found_inline_return)
		return pf_fail(c->err, c->errlen, -ENOENT,
			       "'%s': %s is only inlined here; a return probe needs a real "
			       "function (probe a line after the inlined copy instead)",
			       c->point, s->func);
	return pf_fail(c->err, c->errlen, -ENOENT,
		       "'%s': no function '%s' in %s (see flare probe -x %s -F)", c->point, s->func,
		       path, path);
no_dwarf : {
	char hint[1024];

	const char *main_file = NULL;

	dwfl_module_info(c->bin->mod, NULL, NULL, NULL, NULL, NULL, &main_file, NULL);
	probe_bin_debug_hint(c->bin, main_file ? main_file : path, hint, sizeof(hint));
	return pf_fail(c->err, c->errlen, -ENOENT,
		       "'%s': %s has no debug information, which lines and variables need "
		       "(%s; or give registers such as %%di)",
		       c->point, path, hint);
}
}

int probe_find(struct probe_bin *bin, const struct probe_spec *spec,
	       const struct probe_find_opts *opts, struct probe_trace **traces, size_t *nr,
	       char *err, size_t errlen)
{
	struct pf_ctx c = { .bin = bin, .spec = spec, .opts = opts, .err = err, .errlen = errlen };
	char *point = probe_spec_point_str(spec);
	const char *path = dwfl_module_info(bin->mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	int r;

	if (!point)
		return -ENOMEM;
	err[0] = '\0';
	c.point = point;
	c.max = opts->max_probes > 0 ? opts->max_probes : 128;
	r = find_point(&c, path ? path : "the binary");
	if (!r && c.nr_missing) /* a variable not at every place: perf's magic number there */
		r = pf_fill_missing(&c);
	free(point);
	if (r) {
		probe_traces_free(c.traces, c.nr);
		return r;
	}
	*traces = c.traces;
	*nr = c.nr;
	return 0;
}

/* "func:LINE" (relative to the function, or to the inlined function the address is in) or
 * "func+OFF" when no line fits, as perf's --list describes a probe */
static int describe_dwarf(Dwarf_Die *cu, Dwarf_Addr a, char *buf, size_t len, const char **file)
{
	Dwarf_Die sp, in;
	Dwarf_Addr entry, ie;
	Dwarf_Attribute at;
	Dwarf_Word cl;
	const char *func, *base;
	int ln = 0, baseline = 0;

	if (!pf_real_func(cu, a, &sp) || pf_die_entry(&sp, &entry) ||
	    !(base = func = dwarf_diename(&sp)) || dwarf_decl_line(&sp, &baseline))
		return -ENOENT;
	*file = dwarf_decl_file(&sp);
	if (a == entry) {
		snprintf(buf, len, "%s", func);
		return 0;
	}
	pf_stmt_line_at(cu, a, &ln);
	while (pf_inlined_at(&sp, a, &in)) {
		if (!pf_die_entry(&in, &ie) && ie == a) { /* at the call: the caller's line */
			if (dwarf_attr(&in, DW_AT_call_line, &at) && !dwarf_formudata(&at, &cl))
				ln = (int)cl;
			break;
		}
		if (!dwarf_diename(&in) || dwarf_decl_line(&in, &baseline))
			break;
		func = dwarf_diename(&in);
		sp = in;
	}
	if (ln)
		snprintf(buf, len, "%s:%d", func, ln - baseline);
	else
		snprintf(buf, len, "%s+%llu", base, (unsigned long long)(a - entry));
	return 0;
}

char *probe_bin_describe(struct probe_bin *bin, uint64_t off, int is_return)
{
	uint64_t vaddr;
	Dwarf_Addr bias, mod;
	Dwarf_Die *cu;
	const char *file = NULL;
	char *out = NULL, where[512];

	if (pf_off_to_vaddr(bin, off, &vaddr))
		return NULL;
	mod = vaddr + bin->ebias;
	cu = pf_dw(bin) ? dwfl_module_addrdie(bin->mod, mod, &bias) : NULL;
	if (cu && !describe_dwarf(cu, mod - bias, where, sizeof(where), &file)) {
		if (asprintf(&out, "%s%s@%s", where, is_return ? "%return" : "",
			     file ? file : "?") < 0)
			out = NULL;
		return out;
	}
	{
		GElf_Off soff;
		GElf_Sym sym;
		const char *name = dwfl_module_addrinfo(bin->mod, mod, &soff, &sym, NULL, NULL,
							NULL);

		if (name && asprintf(&out, "%s%s%.0llu%s", name, soff ? "+" : "",
				     (unsigned long long)soff, is_return ? "%return" : "") < 0)
			out = NULL;
	}
	return out;
}

int probe_bin_sym_off(struct probe_bin *bin, uint64_t vaddr, char *buf, size_t len)
{
	GElf_Addr mod = vaddr + bin->ebias;
	GElf_Off off;
	GElf_Sym sym;
	int i, n = dwfl_module_getsymtab(bin->mod);
	const char *name = NULL;

	for (i = 0; i < n && !name; i++) { /* a function first: perf names the place by it */
		GElf_Addr a;
		const char *nm = dwfl_module_getsym_info(bin->mod, i, &sym, &a, NULL, NULL, NULL);

		if (nm && *nm && GELF_ST_TYPE(sym.st_info) == STT_FUNC && a <= mod &&
		    mod < a + sym.st_size) {
			name = nm;
			off = mod - a;
		}
	}
	if (!name)
		name = dwfl_module_addrinfo(bin->mod, mod, &off, &sym, NULL, NULL, NULL);
	if (!name || !*name)
		return -ENOENT;
	snprintf(buf, len, "%s+%llu", name, (unsigned long long)off);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int probe_bin_for_each_func(struct probe_bin *bin, int funcs_only, probe_func_fn fn, void *ctx)
{
	int i, n = dwfl_module_getsymtab(bin->mod), r = 0;
	const char **names;
	size_t nr = 0, k;

	if (n < 0)
		return -ERR_FORMAT;
	names = calloc((size_t)n + 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(bin->mod, i, &sym, &addr, &shndx, NULL,
							   NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || shndx == SHN_UNDEF || shndx == SHN_ABS)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    (funcs_only || (type != STT_OBJECT && type != STT_NOTYPE)))
			continue;
		names[nr++] = name;
	}
	qsort(names, nr, sizeof(*names), cmp_str);
	for (k = 0; k < nr && !r; k++) /* a name twice is two symbols, as perf lists them */
		r = fn(names[k], ctx);
	free(names);
	return r;
}
