// SPDX-License-Identifier: GPL-2.0
/*
 * html: the flame graph as one self-contained page: the frames as compact JSON arrays, a
 * canvas, and the script of html-js.h. Nothing is fetched from anywhere.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lib/base/hashmap.h"
#include "lib/graph/flame.h"
#include "lib/graph/html-js.h"

struct intern {
	struct hashmap map; /* hash -> index + 1 (first string with that hash) */
	VEC(const char *) s;
	VEC(uint32_t) len;
};

/* Index of s in the table (collisions fall back to a linear scan of equal hashes). */
static long intern(struct intern *t, const char *s, size_t len)
{
	uint64_t h = hash_bytes(s, len);
	void *v;
	size_t i;

	for (; hashmap_get(&t->map, h, &v); h++) {
		i = (size_t)(uintptr_t)v - 1;
		if (t->len.items[i] == len && !memcmp(t->s.items[i], s, len))
			return (long)i;
	}
	if (vec_push(&t->s, s) || vec_push(&t->len, (uint32_t)len) ||
	    hashmap_put(&t->map, h, (void *)(uintptr_t)t->s.nr))
		return -1;
	return (long)t->s.nr - 1;
}

static void intern_release(struct intern *t)
{
	hashmap_release(&t->map);
	vec_free(&t->s);
	vec_free(&t->len);
}

static int add_table(struct strbuf *out, const char *key, const struct intern *t)
{
	size_t i;
	int err = strbuf_addf(out, ",\n\"%s\":[", key);

	for (i = 0; i < t->s.nr && !err; i++) {
		if (i)
			err = strbuf_addch(out, ',');
		err = err ? err : fg_add_json_str(out, t->s.items[i], t->len.items[i]);
	}
	return err ? err : strbuf_addch(out, ']');
}

static int html_data(const struct flame *f, const struct flame_opts *o, struct strbuf *out)
{
	struct intern names = { HASHMAP_INIT, VEC_INIT, VEC_INIT };
	struct intern colors = { HASHMAP_INIT, VEC_INIT, VEC_INIT };
	char col[32], *cs;
	size_t i;
	long ni, ci;
	int err = strbuf_adds(out, "\"nodes\":[");

	for (i = 0; i < f->nodes.nr && !err; i++) {
		const struct fg_node *n = &f->nodes.items[i];

		flame_node_color(f, o, n, col);
		ni = intern(&names, n->name, n->len);
		cs = strstr(col, "rgb") ? col : col;
		ci = ni < 0 ? -1 : intern(&colors, cs, strlen(cs));
		if (ci >= 0 && colors.s.items[ci] == cs) {
			/* keep a stable copy of the color text in the flame's arena */
			char *copy = arena_strdup((struct arena *)&f->arena, cs);

			if (!copy)
				ci = -1;
			else
				colors.s.items[ci] = copy;
		}
		if (ci < 0) {
			err = -ENOMEM;
			break;
		}
		err = strbuf_addf(out, "%s%u,%.17g,%.17g,%ld,%ld", i ? "," : "", n->depth, n->stime,
				  n->etime - n->stime, ni, ci);
	}
	err = err ? err : strbuf_addch(out, ']');
	err = err ? err : add_table(out, "names", &names);
	err = err ? err : add_table(out, "colors", &colors);
	if (!err && f->diff) {
		err = strbuf_adds(out, ",\n\"deltas\":[");
		for (i = 0; i < f->nodes.nr && !err; i++)
			err = strbuf_addf(out, "%s%.17g", i ? "," : "", f->nodes.items[i].delta);
		err = err ? err : strbuf_addch(out, ']');
	}
	intern_release(&names);
	intern_release(&colors);
	return err;
}

static int html_settings(const struct flame *f, const struct flame_opts *o, struct strbuf *out)
{
	int err = strbuf_addf(out,
			      "var D = {\"total\":%.17g,\"factor\":%.17g,"
			      "\"frameheight\":%d,\"fontsize\":%g,"
			      "\"fontwidth\":%g,\"inverted\":%s,\"negate\":%s,"
			      "\"searchcolor\":\"rgb(230,0,230)\",\"countname\":",
			      f->total, o->factor, o->frameheight, o->fontsize, o->fontwidth,
			      o->inverted ? "true" : "false", o->negate ? "true" : "false");

	err = err ? err : fg_add_json_str(out, o->countname, strlen(o->countname));
	err = err ? err : strbuf_adds(out, ",\"nametype\":");
	err = err ? err : fg_add_json_str(out, o->nametype, strlen(o->nametype));
	err = err ? err : strbuf_adds(out, ",\"fonttype\":");
	err = err ? err : fg_add_json_str(out, o->fonttype, strlen(o->fonttype));
	err = err ? err : strbuf_adds(out, ",\n");
	err = err ? err : html_data(f, o, out);
	return err ? err : strbuf_adds(out, "};\n");
}

int flame_html(const struct flame *f, const struct flame_opts *o, struct strbuf *out)
{
	const char *title = flame_title(o);
	int err = strbuf_adds(
		out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");

	err = err ? err : strbuf_add_escaped(out, title, strlen(title), false);
	err = err ? err
		  : strbuf_adds(
			    out,
			    "</title>\n<style>\n"
			    "body { margin: 10px; background: linear-gradient(#eeeeee, #eeeeb0); "
			    "font-family: Verdana, sans-serif; font-size: 12px; }\n"
			    "h1 { font-size: 17px; text-align: center; margin: 4px; font-weight: normal; }\n"
			    "h2 { font-size: 12px; text-align: center; margin: 2px; font-weight: normal; color: #555; }\n"
			    "#bar { display: flex; gap: 12px; align-items: center; margin: 6px 0; }\n"
			    "#bar .grow { flex: 1; }\n#unzoom { cursor: pointer; visibility: hidden; }\n"
			    "#fg { display: block; cursor: pointer; }\n"
			    "#tip { position: absolute; display: none; background: #fffff0; border: 1px solid #888;"
			    " padding: 3px 6px; pointer-events: none; white-space: nowrap; }\n"
			    "#details { height: 16px; margin-top: 4px; }\n</style>\n</head>\n<body>\n<h1>");
	err = err ? err : strbuf_add_escaped(out, title, strlen(title), false);
	err = err ? err : strbuf_adds(out, "</h1>\n");
	if (!err && o->subtitle && *o->subtitle) {
		err = strbuf_adds(out, "<h2>");
		err = err ? err : strbuf_add_escaped(out, o->subtitle, strlen(o->subtitle), false);
		err = err ? err : strbuf_adds(out, "</h2>\n");
	}
	err = err ? err
		  : strbuf_adds(
			    out,
			    "<div id=\"bar\"><button id=\"unzoom\">Reset Zoom</button>"
			    "<span class=\"grow\"></span><label>Search <input id=\"q\" size=\"24\" "
			    "placeholder=\"regex, e.g. ^ext4_\"></label><label><input type=\"checkbox\" id=\"ic\">"
			    "ignore case</label><span id=\"matched\"></span></div>\n"
			    "<canvas id=\"fg\"></canvas>\n<div id=\"details\"> </div>\n<div id=\"tip\"></div>\n"
			    "<script>\n");
	err = err ? err : html_settings(f, o, out);
	err = err ? err : strbuf_adds(out, html_script);
	return err ? err : strbuf_adds(out, "</script>\n</body>\n</html>\n");
}
