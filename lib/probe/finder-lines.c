// SPDX-License-Identifier: GPL-2.0
/*
 * probe/finder-lines: the source lines a probe can be placed on, walked as perf 6.1 walks
 * them. Inside a function: its declaration line at its entry, then each is_stmt row in its
 * range, a row inside an inlined copy counting as the line of the call. In a whole
 * compilation unit: each function's declaration line at its entry, then every is_stmt row.
 * Either way a row at an address an earlier line already has is no place of its own
 * ("skipped": perf's "this line is sharing the address with other lines").
 */
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/probe/finder-int.h"

const char *pf_decl_file(Dwarf_Die *die, char *buf, size_t len)
{
	const char *f = dwarf_decl_file(die), *dir;
	Dwarf_Die cumem, *cu;
	Dwarf_Attribute a;

	if (!f || f[0] == '/')
		return f;
	cu = dwarf_diecu(die, &cumem, NULL, NULL);
	dir = cu && dwarf_attr(cu, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
	if (!dir)
		return f;
	snprintf(buf, len, "%s/%s", dir, f);
	return buf;
}

static int lines_walk(Dwarf_Die *cu, Dwarf_Die *die, int decl_last, pf_line_fn fn, void *ctx);

/* The outermost inlined copy inside die that holds addr, or NULL */
Dwarf_Die *pf_inlined_at(Dwarf_Die *die, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die ch;

	if (dwarf_child(die, &ch))
		return NULL;
	do {
		int tag = dwarf_tag(&ch);

		if (dwarf_haspc(&ch, addr) <= 0)
			continue;
		if (tag == DW_TAG_inlined_subroutine) {
			*out = ch;
			return out;
		}
		if (tag == DW_TAG_lexical_block)
			return pf_inlined_at(&ch, addr, out);
	} while (!dwarf_siblingof(&ch, &ch));
	return NULL;
}

/* The block or inlined copy among die's children that holds addr */
static int scope_child_at(Dwarf_Die *die, Dwarf_Addr addr, Dwarf_Die *out)
{
	if (dwarf_child(die, out))
		return 0;
	do {
		int tag = dwarf_tag(out);

		if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
		    dwarf_haspc(out, addr) > 0)
			return 1;
	} while (!dwarf_siblingof(out, out));
	return 0;
}

int pf_concrete_scopes(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die **scopes)
{
	Dwarf_Die cur, *v = NULL;
	int n = 0, alloc = 0, i, more;

	if (!pf_real_func(cu, addr, &cur))
		return 0;
	do { /* outermost first, reversed below */
		if (n + 2 > alloc) {
			Dwarf_Die *m = realloc(v, (size_t)(alloc = alloc ? alloc * 2 : 8) *
							  sizeof(*m));

			if (!m) {
				free(v);
				return -ENOMEM;
			}
			v = m;
		}
		v[n++] = cur;
		more = scope_child_at(&v[n - 1], addr, &cur);
	} while (more);
	v[n++] = *cu;
	for (i = 0; i < n / 2; i++) {
		Dwarf_Die t = v[i];

		v[i] = v[n - 1 - i];
		v[n - 1 - i] = t;
	}
	*scopes = v;
	return n;
}

Dwarf_Die *pf_line_scope(Dwarf_Die *cu, Dwarf_Addr a, int line, Dwarf_Die *out)
{
	Dwarf_Die *scopes = NULL;
	int i, diff = -1, inner = -1, best = -1, n = pf_concrete_scopes(cu, a, &scopes);

	for (i = n - 1; i >= 0; i--) { /* outermost first: the outer wins a tie */
		int tag = dwarf_tag(&scopes[i]), decl;

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		inner = i;
		if (dwarf_decl_line(&scopes[i], &decl) || decl > line)
			continue;
		if (diff < 0 || line - decl < diff) {
			diff = line - decl;
			best = i;
		}
	}
	if (best < 0)
		best = inner;
	if (best >= 0)
		*out = scopes[best];
	free(scopes);
	return best >= 0 ? out : NULL;
}

static int cu_func_lines(Dwarf_Die *cu, pf_line_fn fn, void *ctx)
{
	Dwarf_Die ch;
	char buf[4096];
	int r = 0;

	if (dwarf_child(cu, &ch))
		return 0;
	do {
		Dwarf_Addr entry;
		int decl;
		const char *f;

		if (dwarf_tag(&ch) != DW_TAG_subprogram || pf_die_entry(&ch, &entry) ||
		    dwarf_decl_line(&ch, &decl))
			continue;
		f = pf_decl_file(&ch, buf, sizeof(buf));
		if (f)
			r = fn(f, decl, entry, 0, ctx);
	} while (!r && !dwarf_siblingof(&ch, &ch));
	return r;
}

/* Addresses already given a line: a later row there is skipped, as perf skips it */
struct seen {
	Dwarf_Addr *v;
	size_t nr, alloc;
};

static int seen_add(struct seen *s, Dwarf_Addr a)
{
	size_t i;

	for (i = s->nr; i-- > 0;)
		if (s->v[i] == a)
			return 1;
	if (s->nr == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 64;
		Dwarf_Addr *m = realloc(s->v, na * sizeof(*m));

		if (!m)
			return -ENOMEM;
		s->v = m;
		s->alloc = na;
	}
	s->v[s->nr++] = a;
	return 0;
}

struct walk_ctx {
	pf_line_fn fn;
	void *ctx;
	struct seen seen;
};

static int seen_cb(const char *file, int line, Dwarf_Addr addr, int skipped, void *ctx)
{
	struct walk_ctx *w = ctx;
	int r = seen_add(&w->seen, addr);

	if (r < 0)
		return r;
	return w->fn(file, line, addr, skipped || r, w->ctx);
}

int pf_lines_walk(Dwarf_Die *cu, Dwarf_Die *die, pf_line_fn fn, void *ctx)
{
	struct walk_ctx w = { fn, ctx, { NULL, 0, 0 } };
	int r = lines_walk(cu, die, 0, seen_cb, &w);

	free(w.seen.v);
	return r;
}

int pf_lines_walk_all(Dwarf_Die *cu, Dwarf_Die *die, pf_line_fn fn, void *ctx)
{
	return lines_walk(cu, die, 1, fn, ctx);
}

/* The declaration line of die, or of each function of cu when die is NULL, at its entry */
static int decl_lines(Dwarf_Die *cu, Dwarf_Die *die, const char *dfile, pf_line_fn fn, void *ctx)
{
	Dwarf_Addr entry;
	int decl;

	if (!die)
		return cu_func_lines(cu, fn, ctx);
	if (pf_die_entry(die, &entry) || dwarf_decl_line(die, &decl))
		return 0;
	return fn(dfile, decl, entry, 0, ctx);
}

static int lines_walk(Dwarf_Die *cu, Dwarf_Die *die, int decl_last, pf_line_fn fn, void *ctx)
{
	Dwarf_Lines *lines;
	Dwarf_Addr entry;
	Dwarf_Attribute ca;
	char buf[4096], sbuf[4096];
	const char *dfile = NULL,
		   *dir = dwarf_attr(cu, DW_AT_comp_dir, &ca) ? dwarf_formstring(&ca) : NULL;
	size_t i, n;
	int r = 0, decl;

	if (dwarf_getsrclines(cu, &lines, &n))
		return 0;
	if (die) {
		dfile = pf_decl_file(die, buf, sizeof(buf));
		if (!dfile || pf_die_entry(die, &entry) || dwarf_decl_line(die, &decl))
			return 0;
	}
	if (!decl_last)
		r = decl_lines(cu, die, dfile, fn, ctx);
	for (i = 0; i < n && !r; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Die inl;
		Dwarf_Addr a;
		bool stmt, endseq;
		int ln;
		const char *src;

		if (!l || dwarf_lineno(l, &ln) || dwarf_lineaddr(l, &a) ||
		    dwarf_lineendsequence(l, &endseq) || endseq ||
		    dwarf_linebeginstatement(l, &stmt) || !stmt)
			continue;
		src = dwarf_linesrc(l, NULL, NULL);
		if (src && src[0] != '/' && dir) {
			snprintf(sbuf, sizeof(sbuf), "%s/%s", dir, src);
			src = sbuf;
		}
		if (die) {
			Dwarf_Attribute at;
			Dwarf_Word cl;

			if (dwarf_haspc(die, a) <= 0)
				continue;
			if (pf_inlined_at(die, a, &inl)) {
				if (!dwarf_attr(&inl, DW_AT_call_line, &at) ||
				    dwarf_formudata(&at, &cl))
					continue;
				ln = (int)cl;
				src = dfile;
			}
		}
		if (src)
			r = fn(src, ln, a, 0, ctx);
	}
	if (!r && decl_last)
		r = decl_lines(cu, die, dfile, fn, ctx);
	return r;
}

Dwarf_Die *pf_real_func(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die ch;

	if (dwarf_child(cu, &ch))
		return NULL;
	do {
		if (dwarf_tag(&ch) == DW_TAG_subprogram && dwarf_haspc(&ch, addr) > 0) {
			*out = ch;
			return out;
		}
	} while (!dwarf_siblingof(&ch, &ch));
	return NULL;
}

/* The first is_stmt row at addr, of the rows at that address (perf's choice of line) */
int pf_stmt_line_at(Dwarf_Die *cu, Dwarf_Addr addr, int *line)
{
	Dwarf_Lines *lines;
	size_t i, n;

	if (dwarf_getsrclines(cu, &lines, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		bool stmt;

		if (!l || dwarf_lineaddr(l, &a) || a != addr ||
		    dwarf_linebeginstatement(l, &stmt) || !stmt)
			continue;
		return dwarf_lineno(l, line) ? -ENOENT : 0;
	}
	return -ENOENT;
}
