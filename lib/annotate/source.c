// SPDX-License-Identifier: GPL-2.0
/*
 * source: the lines of one annotated symbol, as perf 6.1 makes them (see annotate.h).
 *
 * perf runs `objdump --start-address --stop-address -l -d [--no-show-raw-insn] [-S] -C` and
 * reads its output line by line: each line is trimmed and its tabs expanded; a line naming a
 * source location ("/path/file.c:12") sets the current line number and is not shown; a line
 * "addr:" inside the symbol is an instruction; every other line is text, numbered with a
 * counter that such a location resets and each shown line advances. Here the same lines are
 * made without objdump (capstone for the instructions, libdw for -l and -S, as objdump's
 * show_line() prints them) and read by the same rules, so the numbers and the text come out
 * as perf shows them.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/annotate/annotate.h"
#include "lib/annotate/lineinfo.h"
#include "lib/annotate/objfile.h"
#include "lib/base/vec.h"

struct ann_object {
	struct objfile *obj;
	struct lineinfo *li; /* NULL: no line tables */
	bool li_tried;
	struct disasm *dis;
	bool debug_syms; /* the debug file's symbols were added */
};

int ann_object_open(const char *path, const struct ann_object_opts *o, struct ann_object **ret)
{
	struct ann_object *obj = calloc(1, sizeof(*obj));
	int err;

	if (!obj)
		return -ENOMEM;
	err = objfile_open(path, &obj->obj);
	if (!err)
		err = disasm_new(o->syntax, &obj->dis);
	if (err) {
		ann_object_free(obj);
		return err;
	}
	*ret = obj;
	return 0;
}

void ann_object_free(struct ann_object *obj)
{
	if (!obj)
		return;
	objfile_free(obj->obj);
	lineinfo_free(obj->li);
	disasm_free(obj->dis);
	free(obj);
}

bool ann_object_symbol_addr(struct ann_object *obj, const char *name, uint64_t *addr)
{
	return objfile_symbol_addr(obj->obj, name, addr);
}

bool ann_object_section(struct ann_object *obj, const char *name, uint64_t *addr, uint64_t *size)
{
	return objfile_section(obj->obj, name, addr, size);
}

static struct lineinfo *object_lines(struct ann_object *obj)
{
	if (!obj->li_tried) {
		obj->li_tried = true;
		if (lineinfo_open(objfile_path(obj->obj), &obj->li))
			obj->li = NULL;
	}
	return obj->li;
}

/* What reading objdump's output keeps between lines: perf's side (its line counter) and
 * objdump's (show_line()'s last function, line and discriminator, and how far each source
 * file was printed). */
struct srcfile_state {
	const char *path;
	unsigned int last_line, max_printed;
	struct srcfile_state *next;
};

struct builder {
	struct ann_source *src;
	size_t alloc;
	int line_nr;
	uint64_t start, end;
	/* objdump's show_line() */
	const char *prev_func;
	unsigned int prev_line, prev_discr;
	struct srcfile_state *files;
};

static int push_line(struct builder *b, int64_t offset, const char *text, size_t len)
{
	struct ann_source *src = b->src;
	struct ann_line *l;
	char *t;

	if (vec_reserve_((void **)&src->lines, &b->alloc, src->nr_lines + 1, sizeof(*src->lines)))
		return -ENOMEM;
	t = arena_strndup(&src->arena, text, len);
	if (!t)
		return -ENOMEM;
	l = &src->lines[src->nr_lines++];
	memset(l, 0, sizeof(*l));
	l->offset = offset;
	l->text = t;
	l->line_nr = b->line_nr;
	return 0;
}

/* perf's file_lineno regex, "^/[^:]+:([0-9]+)": the number, or -1 when line is no location. */
static int location_line(const char *s)
{
	const char *c;

	if (s[0] != '/')
		return -1;
	c = strchr(s + 1, ':');
	if (!c || c == s + 1 || !isdigit((unsigned char)c[1]))
		return -1;
	return atoi(c + 1);
}

/* One line of objdump's output, read as perf reads it. */
static int objdump_line(struct builder *b, const char *raw)
{
	char buf[1024], *s, *end, *tmp;
	size_t n = 0, i;
	uint64_t ip;
	int64_t offset = -1;
	int loc;

	while (isspace((unsigned char)*raw))
		raw++;
	/* expand tabs to columns of 8 from the trimmed start, as perf's expand_tabs() */
	for (i = 0; raw[i] && n + 9 < sizeof(buf); i++) {
		if (raw[i] == '\t') {
			do
				buf[n++] = ' ';
			while (n % 8);
		} else {
			buf[n++] = raw[i];
		}
	}
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	s = buf;
	loc = location_line(s);
	if (loc >= 0) {
		b->line_nr = loc;
		return 0;
	}
	ip = strtoull(s, &tmp, 16);
	if (tmp != s && tmp[0] == ':' && tmp[1] != '\0') {
		if (ip >= b->start && ip < b->end) {
			offset = (int64_t)(ip - b->start);
			s = tmp + 1;
		}
	}
	end = buf + n;
	if (push_line(b, offset, s, (size_t)(end - s)))
		return -ENOMEM;
	b->line_nr++;
	if (offset >= 0)
		b->src->has_insns = true;
	return 0;
}

static int objdump_linef(struct builder *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int objdump_linef(struct builder *b, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return objdump_line(b, buf);
}

/* objdump's show_line(): the function, the location and the source lines of addr. */
static int show_line(struct builder *b, struct lineinfo *li, uint64_t addr, bool source)
{
	struct line_loc loc;
	struct srcfile_state *f;
	unsigned int l, k;
	int err = 0;

	if (!li || !lineinfo_find(li, addr, &loc))
		return 0;
	if (loc.func && (!b->prev_func || strcmp(loc.func, b->prev_func))) {
		err = objdump_linef(b, "%s:", loc.func);
		b->prev_line = (unsigned int)-1;
	}
	if (!err && loc.line && (loc.line != b->prev_line || loc.discr != b->prev_discr)) {
		if (loc.discr)
			err = objdump_linef(b, "%s:%u (discriminator %u)",
					    loc.file ? loc.file : "???", loc.line, loc.discr);
		else
			err = objdump_linef(b, "%s:%u", loc.file ? loc.file : "???", loc.line);
	}
	if (!err && source && loc.file && loc.line) {
		for (f = b->files; f; f = f->next)
			if (!strcmp(f->path, loc.file))
				break;
		if (!f && lineinfo_source_line(li, loc.file, 1)) {
			f = calloc(1, sizeof(*f));
			if (!f)
				return -ENOMEM;
			f->path = loc.file;
			f->next = b->files;
			b->files = f;
		}
		if (f && loc.line != f->last_line) {
			l = loc.line - 5;
			if (l >= loc.line)
				l = 1;
			if (f->max_printed >= l)
				l = f->max_printed < loc.line ? f->max_printed + 1 : loc.line;
			for (k = l; k <= loc.line && !err; k++) {
				const char *text = lineinfo_source_line(li, loc.file, k);

				if (!text)
					break;
				err = objdump_line(b, text);
			}
			if (f->max_printed < loc.line)
				f->max_printed = loc.line;
			f->last_line = loc.line;
		}
	}
	if (loc.func)
		b->prev_func = loc.func;
	if (loc.line && loc.line != b->prev_line)
		b->prev_line = loc.line;
	b->prev_discr = loc.discr;
	return err;
}

/* The instruction line as objdump prints it, with its bytes when raw (7 to a line, the rest
 * on lines of their own, as perf then reads them too). */
static int insn_lines(struct builder *b, const struct disasm_insn *in, bool raw)
{
	char bytes[64];
	unsigned int i, n;
	int err;

	if (!raw)
		return objdump_linef(b, "%8" PRIx64 ":\t%s", in->addr, in->text);
	n = in->size < 7 ? in->size : 7;
	for (i = 0; i < 7; i++)
		snprintf(bytes + i * 3, sizeof(bytes) - i * 3, i < n ? "%02x " : "   ",
			 in->bytes[i]);
	err = objdump_linef(b, "%8" PRIx64 ":\t%s\t%s", in->addr, bytes, in->text);
	for (i = 7; !err && i < in->size; i += 7) {
		unsigned int j, m = in->size - i < 7 ? in->size - i : 7;

		for (j = 0; j < m; j++)
			snprintf(bytes + j * 3, sizeof(bytes) - j * 3, "%02x ", in->bytes[i + j]);
		err = objdump_linef(b, "%8" PRIx64 ":\t%s", in->addr + i, bytes);
	}
	return err;
}

static int disassemble(struct builder *b, struct ann_object *obj, const struct ann_source_opts *o,
		       const uint8_t *code, size_t avail)
{
	struct lineinfo *li = object_lines(obj);
	struct disasm_insn in;
	uint64_t addr = b->start;
	int err = 0;

	while (!err && addr < b->end && avail) {
		size_t len = b->end - addr < avail ? b->end - addr : avail;
		unsigned int n;
		const char *label;

		if (addr != b->start && (label = objfile_label(obj->obj, addr))) {
			err = objdump_line(b, "");
			if (!err)
				err = objdump_linef(b, "%016" PRIx64 " <%s>:", addr, label);
		}
		if (!err)
			err = show_line(b, li, addr, o->source);
		n = disasm_one(obj->dis, code, len, addr, objfile_sym, obj->obj, &in);
		if (!err)
			err = insn_lines(b, &in, o->asm_raw);
		code += n;
		avail -= n;
		addr += n;
	}
	return err;
}

int ann_source_build(struct ann_object *obj, uint64_t start, uint64_t end,
		     const struct ann_source_opts *o, struct ann_source **ret)
{
	struct builder b = { .start = start, .end = end };
	const char *section = NULL, *name;
	struct srcfile_state *f, *next;
	const uint8_t *code;
	uint64_t sym_start = 0;
	size_t avail = 0;
	char label[640];
	int err;

	code = objfile_code(obj->obj, start, &avail, &section);
	if (!code)
		return -ENOENT;
	if (o->source && !obj->debug_syms) {
		/* objdump -S names addresses with the separate debug file's symbols */
		struct lineinfo *li = object_lines(obj);
		const char *dbg = li ? lineinfo_debug_file(li) : NULL;

		obj->debug_syms = true;
		if (dbg && strcmp(dbg, objfile_path(obj->obj)))
			objfile_add_debug_syms(obj->obj, dbg);
	}
	b.src = calloc(1, sizeof(*b.src));
	if (!b.src)
		return -ENOMEM;
	b.src->start = start;
	b.src->size = end - start;
	/* objdump's head: a blank line, the file format (which perf skips), the section */
	name = objfile_sym(obj->obj, start, &sym_start);
	if (!name)
		snprintf(label, sizeof(label), "%016" PRIx64 ":", start);
	else if (sym_start == start)
		snprintf(label, sizeof(label), "%016" PRIx64 " <%s>:", start, name);
	else
		snprintf(label, sizeof(label), "%016" PRIx64 " <%s+0x%" PRIx64 ">:", start, name,
			 start - sym_start);
	err = objdump_line(&b, "");
	if (!err)
		err = objdump_line(&b, "");
	if (!err)
		err = objdump_line(&b, "");
	if (!err)
		err = objdump_linef(&b, "Disassembly of section %s:", section);
	if (!err)
		err = objdump_line(&b, "");
	if (!err)
		err = objdump_line(&b, label);
	if (!err)
		err = disassemble(&b, obj, o, code, avail);
	for (f = b.files; f; f = next) {
		next = f->next;
		free(f);
	}
	if (err) {
		ann_source_free(b.src);
		return err;
	}
	for (size_t i = b.src->nr_lines; i-- > 0;)
		if (b.src->lines[i].offset >= 0) {
			b.src->addr_width = snprintf(label, sizeof(label), "%" PRIx64,
						     start + (uint64_t)b.src->lines[i].offset);
			break;
		}
	*ret = b.src;
	return 0;
}

void ann_source_free(struct ann_source *src)
{
	if (!src)
		return;
	free(src->lines);
	arena_release(&src->arena);
	free(src);
}

int ann_source_srclines(struct ann_source *src, struct ann_object *obj, const struct ann_sym *s,
			const struct ann_hist *h, enum ann_percent t, bool full_path,
			const char *dso_name)
{
	struct lineinfo *li = object_lines(obj);
	char buf[1200];
	size_t i;

	for (i = 0; i < src->nr_lines; i++) {
		struct ann_line *l = &src->lines[i];
		uint64_t addr = src->start + (uint64_t)l->offset;
		struct line_loc loc;

		if (l->offset < 0 || ann_percent(&l->hits, s, h, t) <= 0.5)
			continue;
		if (li && lineinfo_find(li, addr, &loc) && loc.file && loc.line) {
			const char *file = loc.file, *slash = strrchr(file, '/');

			if (!full_path && slash)
				file = slash + 1;
			snprintf(buf, sizeof(buf), "%s:%u", file, loc.line);
		} else {
			snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso_name, addr);
		}
		l->path = arena_strdup(&src->arena, buf);
		if (!l->path)
			return -ENOMEM;
	}
	return 0;
}
