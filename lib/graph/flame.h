/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flame: the flame-graph layout of folded stacks, as flamegraph.pl computes it. Lines are
 * sorted (or kept in order for a flame chart), each stack is merged with the one before it,
 * and every frame becomes a node with its depth and its start and end on the count axis.
 * Differential input (two counts) gives each node the change of its own stack (delta).
 * Nodes narrower than minwidth are dropped. The writers (SVG, HTML) draw a struct flame.
 *
 * A flame owns its nodes and any stack text it had to rewrite (--reverse, chain); names
 * of the other nodes point into the caller's lines, which must outlive the flame.
 */
#ifndef FLARE_GRAPH_FLAME_H
#define FLARE_GRAPH_FLAME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/base/arena.h"
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"
#include "lib/graph/folded.h"

struct palette;

struct flame_opts {
	const char *title;    /* NULL: "Flame Graph", "Icicle Graph" or "Flame Chart" */
	const char *subtitle; /* NULL or "": none */
	const char *notes;
	const char *fonttype;
	const char *countname;
	const char *nametype;
	const char *colors;   /* palette: hot, mem, io, wakeup, chain, java, js, perl, ...;
				 * "kinds": by the _[k] _[j] _[i] marks (kernel orange, JIT green,
				 * inlined aqua, C++ yellow, other red) */
	const char *bgcolors; /* NULL: from the palette; yellow, blue, green, grey, #rrggbb */
	int width;
	int frameheight;
	double fontsize;
	double fontwidth;
	double minwidth; /* pixels, or percent of the total when minwidth_pct */
	bool minwidth_pct;
	bool hash;	      /* colors from the name's hash (flamegraph.pl --hash) */
	double total;	      /* --total: widths as if the counts summed to this; 0 or less
				 * than the real sum: the real sum */
	double factor;	      /* --factor: counts are shown multiplied by this (1) */
	const char *encoding; /* --encoding: the SVG's XML encoding attribute, or NULL */
	bool reverse, inverted, flamechart, negate;
	bool marks_hidden;  /* the _[k] _[j] marks were added for the colors only: frames are
				 * ordered as the stacks folded without them */
	struct palette *cp; /* --cp: consistent colors, NULL when off */
};

/* Fills o with flamegraph.pl's defaults. */
void flame_opts_default(struct flame_opts *o);
/* 0, or -EINVAL with a reason in why when an option value is out of range. */
int flame_opts_check(const struct flame_opts *o, const char **why);

struct fg_node {
	const char *name;
	uint32_t len;
	uint32_t depth;
	double stime, etime;
	double delta;
	bool has_delta;
};

struct flame {
	VEC(struct fg_node) nodes; /* parents before children (by depth, then left to right) */
	double total;		   /* the root's width: the counts' sum, or --total */
	double maxdelta;
	uint32_t depthmax;
	bool diff;
	uint64_t ignored; /* lines without a count */
	struct arena arena;
};

/* Lays out n lines (sorted in place unless o->flamechart). 0 or -ENOMEM. */
int flame_build(struct flame *f, struct fg_line *lines, size_t n, const struct flame_opts *o);
void flame_release(struct flame *f);

/* Writes the interactive SVG (flamegraph.pl's structure and behaviour). */
int flame_svg(const struct flame *f, const struct flame_opts *o, struct strbuf *out);
/* Writes a self-contained HTML page drawing the graph on a canvas. */
int flame_html(const struct flame *f, const struct flame_opts *o, struct strbuf *out);

/* Shared by the writers: the frame's fill color into buf ("rgb(r,g,b)"). */
void flame_node_color(const struct flame *f, const struct flame_opts *o, const struct fg_node *n,
		      char buf[32]);
/* Room for any finite double grouped: 309 digits, 102 commas, a sign and the NUL. */
#define FLAME_COUNT_MAX 416
/* "1,234,567" for the rounded count; returns buf. */
char *flame_count_str(double v, char buf[FLAME_COUNT_MAX]);
/* The tooltip text of a node ("main (123 samples, 45.00%)"), HTML-escaped when escape. */
int flame_node_info(const struct flame *f, const struct flame_opts *o, const struct fg_node *n,
		    bool escape, struct strbuf *out);
/* Frame name length without a trailing _[k] _[w] _[i] _[j] annotation. */
size_t flame_name_len(const char *name, size_t len);
/* Bytes of the one valid UTF-8 sequence at s that is an XML 1.0 character, or 0 (a
 * control byte, a stray or overlong byte, a surrogate, U+FFFE/U+FFFF). */
size_t fg_utf8_char(const char *s, size_t len);
#define FG_XML_QUOTES 1u /* escape '"' too (attribute values, titles) */
#define FG_XML_BYTES 2u	 /* a single-byte --encoding: any byte from 0x80 is a character */
/* FG_XML_BYTES when o->encoding names an encoding other than UTF-8, else 0. */
unsigned flame_xml_flags(const struct flame_opts *o);
/* s as XML character data: & < > (and " with FG_XML_QUOTES) escaped, and whatever is no XML
 * character (control bytes, invalid UTF-8) replaced by U+FFFD, so the document stays
 * well-formed whatever bytes the names hold. */
int strbuf_add_xml(struct strbuf *sb, const char *s, size_t len, unsigned flags);
/* strbuf_add_xml() for UTF-8 text. */
int strbuf_add_escaped(struct strbuf *sb, const char *s, size_t len, bool quotes);
/* A JSON (and JS) string literal of s, safe inside <script> and CDATA. */
int fg_add_json_str(struct strbuf *out, const char *s, size_t len);
/* The title: --title, else "Flame Graph", "Icicle Graph" or "Flame Chart". */
const char *flame_title(const struct flame_opts *o);

/* Palette (--cp): names mapped to colors, read from and written to a file such as
 * palette.map ("name->rgb(r,g,b)" lines, sorted). A missing file is an empty palette; the file
 * must be a regular one: a symlink gives -ELOOP, anything else -EINVAL (never followed,
 * never written through), text past 256 MiB -EFBIG, a NUL byte -EILSEQ. */
int palette_load(const char *path, struct palette **ret);
/* The color of name: the remembered one, else computed and remembered. */
const char *palette_color(struct palette *p, const char *name, size_t len, const char *fresh);
/* Writes the palette over path, created if missing; -ELOOP or -EINVAL as palette_load. */
int palette_save(struct palette *p, const char *path);
void palette_free(struct palette *p);

/* The palette color of a frame name as flamegraph.pl picks it (without --cp). */
void fg_color(const char *palette, bool hash, const char *name, size_t len, char buf[32]);

#endif
