// SPDX-License-Identifier: GPL-2.0
/*
 * probe/finder: probe points and arguments from DWARF (libdw), file offsets from the ELF
 * program headers. Placement rules follow perf 6.1's: an out-of-line function and each of
 * its inlined instances get one probe each; SRC:LINE and FUNC:RLN probe every is_stmt row of
 * that line; a return probe only on a real (out-of-line) function entry.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fnmatch.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/base/strbuf.h"
#include "lib/probe/finder.h"
#include "lib/probe/finder-int.h"

static const Dwfl_Callbacks offline_cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

int pf_fail(char *err, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return code;
}

int probe_bin_open(const char *path, struct probe_bin **ret, char *err, size_t errlen)
{
	struct probe_bin *b = calloc(1, sizeof(*b));
	const char *base = strrchr(path, '/');

	if (!b)
		return -ENOMEM;
	b->dwfl = dwfl_begin(&offline_cbs);
	if (!b->dwfl) {
		free(b);
		return -ENOMEM;
	}
	dwfl_report_begin(b->dwfl);
	b->mod = dwfl_report_elf(b->dwfl, base ? base + 1 : path, path, -1, 0, true);
	dwfl_report_end(b->dwfl, NULL, NULL);
	if (!b->mod) {
		pf_fail(err, errlen, -ERR_FORMAT, "cannot read '%s': %s", path, dwfl_errmsg(-1));
		probe_bin_close(b);
		return -ERR_FORMAT;
	}
	b->elf = dwfl_module_getelf(b->mod, &b->ebias);
	if (!b->elf) {
		pf_fail(err, errlen, -ERR_FORMAT, "cannot read '%s': not an ELF file", path);
		probe_bin_close(b);
		return -ERR_FORMAT;
	}
	*ret = b;
	return 0;
}

void probe_bin_close(struct probe_bin *bin)
{
	if (!bin)
		return;
	dwfl_end(bin->dwfl);
	free(bin);
}

Dwarf *pf_dw(struct probe_bin *b)
{
	if (!b->dw_tried) { /* -F and SDT markers need none: read it when first asked */
		b->dw_tried = 1;
		b->dw = dwfl_module_getdwarf(b->mod, &b->dbias);
	}
	return b->dw;
}

int probe_bin_has_dwarf(struct probe_bin *bin)
{
	return pf_dw(bin) != NULL;
}

/* ELF virtual address of a DWARF address, and back */
uint64_t pf_dwarf_to_vaddr(const struct probe_bin *b, Dwarf_Addr a)
{
	return a + b->dbias - b->ebias;
}

/* addr mapped through the PT_LOAD segment holding it: a virtual address to its file offset
 * (to_off), or a file offset to its virtual address. */
static int pf_map_addr(const struct probe_bin *b, uint64_t addr, bool to_off, uint64_t *out)
{
	size_t i, n;

	if (elf_getphdrnum(b->elf, &n))
		return -ERR_FORMAT;
	for (i = 0; i < n; i++) {
		uint64_t from, to;
		GElf_Phdr ph;

		if (!gelf_getphdr(b->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		from = to_off ? ph.p_vaddr : ph.p_offset;
		to = to_off ? ph.p_offset : ph.p_vaddr;
		if (addr >= from && addr < from + ph.p_filesz) {
			*out = addr - from + to;
			return 0;
		}
	}
	return -ENOENT;
}

int pf_vaddr_to_off(const struct probe_bin *b, uint64_t vaddr, uint64_t *off)
{
	return pf_map_addr(b, vaddr, true, off);
}

int pf_off_to_vaddr(const struct probe_bin *b, uint64_t off, uint64_t *vaddr)
{
	return pf_map_addr(b, off, false, vaddr);
}

void probe_traces_free(struct probe_trace *t, size_t nr)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < nr; i++) {
		free(t[i].event);
		free(t[i].group);
		free(t[i].args);
		free(t[i].argnames);
	}
	free(t);
}

int pf_add_trace(struct pf_ctx *c, const char *event, int is_return, uint64_t vaddr, Dwarf_Die *cu,
		 Dwarf_Addr daddr)
{
	struct probe_trace *t, *n;
	struct strbuf args = STRBUF_INIT, names = STRBUF_INIT;
	uint64_t off;
	int r;

	if (c->nr >= (size_t)c->max) {
		return pf_fail(c->err, c->errlen, -E2BIG,
			       "'%s' has more than %d probe points (raise --max-probes)", c->point,
			       c->max);
	}
	if (pf_vaddr_to_off(c->bin, vaddr, &off)) {
		return pf_fail(c->err, c->errlen, -ENOENT,
			       "'%s': address 0x%llx is in no loadable segment of the binary",
			       c->point, (unsigned long long)vaddr);
	}
	for (size_t k = 0; k < c->nr; k++) /* aliases and repeated rows: one probe each */
		if (c->traces[k].offset == off && c->traces[k].is_return == is_return)
			return 0;
	r = pf_convert_args(c, cu, daddr, is_return, &args, &names);
	if (r) {
		strbuf_release(&args);
		strbuf_release(&names);
		return r;
	}
	n = realloc(c->traces, (c->nr + 1) * sizeof(*n));
	if (!n) {
		strbuf_release(&args);
		strbuf_release(&names);
		return -ENOMEM;
	}
	c->traces = n;
	t = &n[c->nr++];
	memset(t, 0, sizeof(*t));
	t->event = strdup(event);
	t->is_return = is_return;
	t->offset = off;
	t->vaddr = vaddr;
	t->args = strbuf_detach(&args);
	t->argnames = strbuf_detach(&names);
	return 0;
}

/* The first address of die (entry_pc, low_pc, or the lowest range) */
int pf_die_entry(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off;

	if (!dwarf_entrypc(die, addr))
		return 0;
	if (!dwarf_lowpc(die, addr))
		return 0;
	off = dwarf_ranges(die, 0, &base, &start, &end);
	if (off > 0) {
		*addr = start;
		return 0;
	}
	return -ENOENT;
}

static int tail_match(const char *path, const char *want)
{
	size_t pl, wl;

	if (!path || !want)
		return 0;
	pl = strlen(path);
	wl = strlen(want);
	if (wl > pl || strcmp(path + pl - wl, want))
		return 0;
	return wl == pl || path[pl - wl - 1] == '/' || want[0] == '/';
}

int pf_file_match(const char *path, const char *want)
{
	return !want || tail_match(path, want);
}

struct line_place {
	struct pf_ctx *c;
	Dwarf_Die *cu;
	const char *file, *event;
	int line, found;
};

static int place_line_cb(const char *file, int line, Dwarf_Addr addr, int skipped, void *ctx)
{
	struct line_place *p = ctx;
	int r;

	if (line != p->line || (p->file && !tail_match(file, p->file)))
		return 0;
	if (skipped) {
		p->c->line_skipped = 1;
		return 0;
	}
	r = pf_add_line_probe(p->c, p->cu, addr, line, p->event);
	if (!r)
		p->found++;
	return r;
}

int pf_walk_line(struct pf_ctx *c, Dwarf_Die *cu, Dwarf_Die *die, const char *file, int line,
		 const char *event)
{
	struct line_place p = { c, cu, file, event, line, 0 };
	int r = pf_lines_walk(cu, die, place_line_cb, &p);

	return r < 0 ? r : p.found;
}

char *probe_trace_uprobe_def(const struct probe_trace *t, const char *group, const char *event,
			     const char *path)
{
	char ref[40] = "", *line;

	if (t->ref_ctr) /* an SDT semaphore: the uprobe's reference counter */
		snprintf(ref, sizeof(ref), "(0x%llx)", (unsigned long long)t->ref_ctr);
	if (asprintf(&line, "%c:%s/%s %s:0x%llx%s%s", t->is_return ? 'r' : 'p', group, event, path,
		     (unsigned long long)t->offset, ref, t->args) < 0)
		return NULL;
	return line;
}
