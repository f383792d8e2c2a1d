// SPDX-License-Identifier: GPL-2.0
/*
 * flame: flamegraph.pl's merge of sorted stacks into frames (its flow()), in C.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/graph/flame.h"

void flame_opts_default(struct flame_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->fonttype = "Verdana";
	o->countname = "samples";
	o->nametype = "Function:";
	o->colors = "hot";
	o->width = 1200;
	o->frameheight = 16;
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->minwidth = 0.1;
	o->factor = 1;
}

static const char *const palettes[] = {
	"hot", "mem",	"io",	"wakeup", "chain",  "java",   "js",	"perl",
	"red", "green", "blue", "aqua",	  "yellow", "purple", "orange", NULL,
};

int flame_opts_check(const struct flame_opts *o, const char **why)
{
	size_t i;

	for (i = 0; palettes[i] && strcmp(palettes[i], o->colors); i++)
		;
	if (!palettes[i]) {
		*why = "unknown palette (use hot, mem, io, wakeup, chain, java, js, perl, red, green, "
		       "blue, aqua, yellow, purple or orange)";
		return -EINVAL;
	}
	if (o->width < 1 || o->width > 1000000 || o->frameheight < 1 || o->frameheight > 10000) {
		*why = "width and height must be positive pixel counts";
		return -EINVAL;
	}
	if (!(o->fontsize > 0) || o->fontsize > 1000 || !(o->fontwidth > 0) ||
	    !(o->minwidth >= 0)) {
		*why = "font size, font width and minimum width must be positive numbers";
		return -EINVAL;
	}
	if (!(o->factor > 0) || !(o->total >= 0)) {
		*why = "--factor must be a positive number and --total a count";
		return -EINVAL;
	}
	if (o->encoding && strpbrk(o->encoding, "<>\"&'")) {
		*why = "an encoding is a name such as utf-8 or iso-8859-1";
		return -EINVAL;
	}
	if (o->notes && strpbrk(o->notes, "<>")) {
		*why = "notes cannot contain < or >";
		return -EINVAL;
	}
	if (o->bgcolors && strcmp(o->bgcolors, "yellow") && strcmp(o->bgcolors, "blue") &&
	    strcmp(o->bgcolors, "green") && strcmp(o->bgcolors, "grey") &&
	    !(o->bgcolors[0] == '#' && strlen(o->bgcolors) == 7)) {
		*why = "unknown background (use yellow, blue, green, grey or #rrggbb)";
		return -EINVAL;
	}
	return 0;
}

struct open_frame {
	const char *name;
	uint32_t len;
	double stime, delta;
	bool has_delta;
};

struct flow {
	struct flame *f;
	VEC(struct open_frame) open;
	VEC(struct fg_node) done; /* closed frames, children before parents */
	VEC(const char *) fields;
	VEC(uint32_t) flen;
};

/* Perl's split ";" : fields kept, trailing empty ones dropped. Root "" first. */
static int split_stack(struct flow *w, const char *s, size_t len)
{
	size_t i = 0, j;

	w->fields.nr = w->flen.nr = 0;
	if (vec_push(&w->fields, "") || vec_push(&w->flen, 0))
		return -ENOMEM;
	while (len && s[len - 1] == ';')
		len--;
	while (i < len) {
		const char *p = memchr(s + i, ';', len - i);

		j = p ? (size_t)(p - s) : len;
		if (vec_push(&w->fields, s + i) || vec_push(&w->flen, (uint32_t)(j - i)))
			return -ENOMEM;
		i = j + 1;
	}
	return 0;
}

static int close_to(struct flow *w, size_t keep, double t)
{
	while (w->open.nr > keep) {
		struct open_frame *o = &w->open.items[--w->open.nr];
		struct fg_node n = { o->name, o->len,	(uint32_t)w->open.nr, o->stime,
				     t,	      o->delta, o->has_delta };

		if (vec_push(&w->done, n))
			return -ENOMEM;
	}
	return 0;
}

/* flow(): merge one stack with the open path. */
static int flow_line(struct flow *w, const struct fg_line *l, double t)
{
	size_t same = 0, i, nb;

	if (split_stack(w, l->stack, l->len))
		return -ENOMEM;
	nb = w->fields.nr;
	while (same < w->open.nr && same < nb && w->open.items[same].len == w->flen.items[same] &&
	       !memcmp(w->open.items[same].name, w->fields.items[same], w->flen.items[same]))
		same++;
	if (close_to(w, same, t) || vec_reserve(&w->open, nb))
		return -ENOMEM;
	for (i = same; i < nb; i++) {
		struct open_frame o = { w->fields.items[i], w->flen.items[i], t, 0, l->has2 };

		if (l->has2 && i == nb - 1)
			o.delta = l->c2 - l->c1;
		w->open.items[w->open.nr++] = o;
	}
	return 0;
}

/* --reverse and --colors chain rewrite the stack text; the copies live in the flame. */
static int rewrite(struct flame *f, struct fg_line *l, const struct flame_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	size_t end = l->len, i, k;
	char *copy;
	int err = 0;

	if (o->reverse) {
		while (end && l->stack[end - 1] == ';')
			end--;
		for (i = end; !err;) {
			for (k = i; k > 0 && l->stack[k - 1] != ';'; k--)
				;
			err = strbuf_add(&sb, l->stack + k, i - k);
			if (k == 0)
				break;
			err = err ? err : strbuf_addch(&sb, ';');
			i = k - 1;
		}
	} else {
		err = strbuf_add(&sb, l->stack, l->len);
	}
	if (!err && !strcmp(o->colors, "chain")) {
		/* waker frames (after ";--;") are marked _[w]; a "--" frame closes the stack */
		char *p = strstr(sb.buf, ";--;");
		struct strbuf t = STRBUF_INIT;

		err = strbuf_add(&t, sb.buf, p ? (size_t)(p - sb.buf) : sb.len);
		err = err ? err : strbuf_adds(&t, ";--;");
		while (!err && p) {
			char *q = strstr(p + 4, ";--;"), *s = p + 4, *e = q ? q : sb.buf + sb.len;

			for (; s < e && !err; s++)
				err = *s == ';' ? strbuf_adds(&t, "_[w];") : strbuf_addch(&t, *s);
			err = err ? err : strbuf_adds(&t, q ? "_[w];--;" : "_[w]");
			p = q;
		}
		strbuf_release(&sb);
		sb = t;
	}
	copy = err ? NULL : arena_strndup(&f->arena, sb.buf, sb.len);
	if (copy) {
		l->stack = copy;
		l->len = sb.len;
	}
	strbuf_release(&sb);
	return copy ? 0 : -ENOMEM;
}

static int node_cmp(const void *a, const void *b)
{
	const struct fg_node *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->stime < y->stime ? -1 : x->stime > y->stime;
}

/* Drops nodes narrower than the minimum, and orders parents before children. */
static int finish(struct flame *f, struct flow *w, const struct flame_opts *o)
{
	double wpt = (o->width - 20) / f->total, minw;
	size_t i;

	minw = o->minwidth_pct ? f->total * o->minwidth / 100 : o->minwidth / wpt;
	if (vec_reserve(&f->nodes, w->done.nr))
		return -ENOMEM;
	for (i = w->done.nr; i-- > 0;) {
		struct fg_node *n = &w->done.items[i];

		if (n->depth == 0 && !n->len)
			n->etime = f->total;
		if (n->etime - n->stime < minw)
			continue;
		if (n->depth > f->depthmax)
			f->depthmax = n->depth;
		if (n->has_delta && fabs(n->delta) > f->maxdelta)
			f->maxdelta = fabs(n->delta);
		f->nodes.items[f->nodes.nr++] = *n;
	}
	qsort(f->nodes.items, f->nodes.nr, sizeof(*f->nodes.items), node_cmp);
	return 0;
}

int flame_build(struct flame *f, struct fg_line *lines, size_t n, const struct flame_opts *o)
{
	struct flow w = { .f = f };
	double t = 0;
	size_t i;
	int err = 0;

	memset(f, 0, sizeof(*f));
	f->maxdelta = 1;
	for (i = 0; i < n && !err; i++) {
		if (o->reverse || !strcmp(o->colors, "chain"))
			err = rewrite(f, &lines[i], o);
		if (lines[i].has2)
			f->diff = true;
	}
	if (!err && !o->flamechart && n && o->marks_hidden)
		err = fg_lines_sort_unmarked(lines, n);
	else if (!err && !o->flamechart && n)
		qsort(lines, n, sizeof(*lines), fg_line_cmp);
	for (i = 0; i < n && !err; i++) {
		err = flow_line(&w, &lines[i], t);
		t += lines[i].has2 ? lines[i].c2 : lines[i].c1;
	}
	err = err ? err : close_to(&w, 0, t);
	f->total = t > 0 && o->total > t ? o->total : t; /* flamegraph.pl's $timemax */
	/* a sum (or its --factor multiple) beyond a double would lay out frames of width NaN */
	if (!err && (!isfinite(f->total) || !isfinite(f->total * o->factor)))
		err = -ERANGE;
	if (!err && t > 0)
		err = finish(f, &w, o);
	vec_free(&w.open);
	vec_free(&w.done);
	vec_free(&w.fields);
	vec_free(&w.flen);
	return err;
}

void flame_release(struct flame *f)
{
	if (!f)
		return;
	vec_free(&f->nodes);
	arena_release(&f->arena);
}

char *flame_count_str(double v, char buf[FLAME_COUNT_MAX])
{
	char tmp[FLAME_COUNT_MAX];
	int n, i, j = 0;

	n = snprintf(tmp, sizeof(tmp), "%.0f", v);
	/* only inf and nan have no digits to group; flame_build refuses those sums */
	if (n <= 0 || n >= (int)sizeof(tmp) || tmp[n - 1] < '0' || tmp[n - 1] > '9') {
		snprintf(buf, FLAME_COUNT_MAX, "%s", tmp);
		return buf;
	}
	i = tmp[0] == '-' ? 1 : 0;
	if (i)
		buf[j++] = '-';
	for (; i < n; i++) {
		buf[j++] = tmp[i];
		if (i + 1 < n && ((n - i - 1) % 3 == 0))
			buf[j++] = ',';
	}
	buf[j] = 0;
	return buf;
}

size_t flame_name_len(const char *name, size_t len)
{
	if (len >= 4 && name[len - 4] == '_' && name[len - 3] == '[' && name[len - 1] == ']' &&
	    strchr("kwij", name[len - 2]) && name[len - 2])
		return len - 4;
	return len;
}

size_t fg_utf8_char(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t c;
	size_t n, i;

	if (!len)
		return 0;
	if (s[0] < 0x80) /* XML 1.0 allows only tab, newline and return below 0x20 */
		return s[0] >= 0x20 || s[0] == '\t' || s[0] == '\n' || s[0] == '\r';
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF, and the non-characters U+FFFE/FFFF */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

unsigned flame_xml_flags(const struct flame_opts *o)
{
	/* a single-byte encoding makes every byte from 0x80 a character */
	if (o->encoding && strcasecmp(o->encoding, "utf-8") && strcasecmp(o->encoding, "utf8"))
		return FG_XML_BYTES;
	return 0;
}

int strbuf_add_xml(struct strbuf *sb, const char *s, size_t len, unsigned flags)
{
	size_t i = 0, from = 0, n;
	int err = 0;

	while (i < len && !err) {
		const char *rep = NULL;

		n = (flags & FG_XML_BYTES) && (unsigned char)s[i] >= 0x80
			    ? 1
			    : fg_utf8_char(s + i, len - i);
		switch (n ? s[i] : 0) {
		case 0:
			rep = "&#xfffd;";
			break; /* no XML character: U+FFFD stands in */
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = flags & FG_XML_QUOTES ? "&quot;" : NULL;
			break;
		default:
			break;
		}
		i += n ? n : 1;
		if (!rep)
			continue;
		err = strbuf_add(sb, s + from, i - (n ? n : 1) - from);
		err = err ? err : strbuf_adds(sb, rep);
		from = i;
	}
	return err ? err : strbuf_add(sb, s + from, len - from);
}

int strbuf_add_escaped(struct strbuf *sb, const char *s, size_t len, bool quotes)
{
	return strbuf_add_xml(sb, s, len, quotes ? FG_XML_QUOTES : 0);
}

int flame_node_info(const struct flame *f, const struct flame_opts *o, const struct fg_node *n,
		    bool escape, struct strbuf *out)
{
	/* rint: perl's sprintf "%.0f" rounds half to even */
	double samples = rint((n->etime - n->stime) * o->factor), d, total = f->total * o->factor;
	char cnt[FLAME_COUNT_MAX];
	int err;

	flame_count_str(samples, cnt);
	if (n->depth == 0 && !n->len)
		err = strbuf_addf(out, "all (%s ", cnt);
	else if (escape)
		err = strbuf_add_xml(out, n->name, flame_name_len(n->name, n->len),
				     FG_XML_QUOTES | flame_xml_flags(o));
	else
		err = strbuf_add(out, n->name, flame_name_len(n->name, n->len));
	if (!err && !(n->depth == 0 && !n->len))
		err = strbuf_addf(out, " (%s ", cnt);
	if (!err && escape) /* --countname is the user's text: '&' too */
		err = strbuf_add_xml(out, o->countname, strlen(o->countname),
				     FG_XML_QUOTES | flame_xml_flags(o));
	else if (!err)
		err = strbuf_adds(out, o->countname);
	if (err)
		return err;
	if (n->depth == 0 && !n->len)
		return strbuf_adds(out, ", 100%)");
	if (!n->has_delta)
		return strbuf_addf(out, ", %.2f%%)", 100 * samples / total);
	d = o->negate ? -n->delta : n->delta;
	if (d == 0)
		d = 0; /* no "-0.00%" */
	return strbuf_addf(out, ", %.2f%%; %s%.2f%%)", 100 * samples / total, d > 0 ? "+" : "",
			   100 * d / total);
}

/* 210 * k for k in [0, 1]; a k that is not a number there (deltas summed past a double's
 * range) is clamped instead of overflowing the int */
static int scale_210(double k)
{
	if (!(k > 0))
		return 0;
	return k < 1 ? (int)(210 * k) : 210;
}

/* flamegraph.pl's color_scale(): white to red for growth, to blue for shrinkage. */
static void color_scale(double value, double max, bool negate, char buf[32])
{
	int r = 255, g = 255, b = 255;

	if (negate)
		value = -value;
	if (value > 0)
		g = b = scale_210((max - value) / max);
	else if (value < 0)
		r = g = scale_210((max + value) / max);
	snprintf(buf, 32, "rgb(%d,%d,%d)", r, g, b);
}

void flame_node_color(const struct flame *f, const struct flame_opts *o, const struct fg_node *n,
		      char buf[32])
{
	if (n->len == 2 && !memcmp(n->name, "--", 2)) {
		snprintf(buf, 32, "rgb(160,160,160)");
	} else if (n->len == 1 && n->name[0] == '-') {
		snprintf(buf, 32, "rgb(200,200,200)");
	} else if (n->has_delta) {
		color_scale(n->delta, f->maxdelta, o->negate, buf);
	} else {
		fg_color(o->colors, o->hash, n->name, n->len, buf);
		if (o->cp) {
			const char *c = palette_color(o->cp, n->name, n->len, buf);

			if (c && c != buf)
				snprintf(buf, 32, "%s", c);
		}
	}
}
