// SPDX-License-Identifier: GPL-2.0
/*
 * svg: the interactive SVG, laid out as flamegraph.pl lays it out (same element ids, frame
 * groups with a <title> tooltip, a rect and a label), with flare's own script: click to
 * zoom, "Reset Zoom", regex search with the matched share, case toggle, details line on
 * hover, and the zoom and search kept in the URL (?x=&y=&s=) as flamegraph.pl does.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lib/graph/flame.h"

#define XPAD 10

/* The script: plain ES5, no libraries. FG holds the settings written by flame_svg(). */
// clang-format off
static const char svg_script[] =
"\"use strict\";\n"
"var details, searchbtn, unzoombtn, matchedtxt, icbtn, frames, svg, ignorecase = false;\n"
"var term = null, zoomed = null;\n"
"function init(evt) {\n"
"\tdetails = document.getElementById(\"details\").firstChild;\n"
"\tsearchbtn = document.getElementById(\"search\");\n"
"\ticbtn = document.getElementById(\"ignorecase\");\n"
"\tunzoombtn = document.getElementById(\"unzoom\");\n"
"\tmatchedtxt = document.getElementById(\"matched\");\n"
"\tframes = document.getElementById(\"frames\");\n"
"\tsvg = document.getElementsByTagName(\"svg\")[0];\n"
"\tvar p = params();\n"
"\tif (p.x && p.y) {\n"
"\t\tvar r = frames.querySelector('rect[x=\"' + p.x + '\"][y=\"' + p.y + '\"]');\n"
"\t\tif (r) zoom(r.parentNode);\n"
"\t}\n"
"\tif (p.s) search(p.s);\n"
"}\n"
"function group_of(n) {\n"
"\tfor (; n && n.parentNode; n = n.parentNode)\n"
"\t\tif (n.parentNode.id == \"frames\") return n;\n"
"\treturn null;\n"
"}\n"
"function rect_of(g) { return g.getElementsByTagName(\"rect\")[0]; }\n"
"function num(e, a) { return parseFloat(e.getAttribute(a)); }\n"
"function orig(e, a) {\n"
"\tif (!e.hasAttribute(\"fg-\" + a)) e.setAttribute(\"fg-\" + a, e.getAttribute(a));\n"
"\treturn parseFloat(e.getAttribute(\"fg-\" + a));\n"
"}\n"
"function info(g) { return g.getElementsByTagName(\"title\")[0].textContent; }\n"
"function func_of(g) { return info(g).replace(/ \\([^(]*\\)$/, \"\"); }\n"
"function params() {\n"
"\tvar out = {}, kv = window.location.search.substr(1).split(\"&\");\n"
"\tfor (var i = 0; i < kv.length; i++) {\n"
"\t\tvar t = kv[i].split(\"=\");\n"
"\t\tif (t[0] && t[1]) out[t[0]] = decodeURIComponent(t[1]);\n"
"\t}\n"
"\treturn out;\n"
"}\n"
"function set_params(p) {\n"
"\tvar q = [];\n"
"\tfor (var k in p) q.push(k + \"=\" + encodeURIComponent(p[k]));\n"
"\ttry {\n"
"\t\thistory.replaceState(null, null, q.length ? \"?\" + q.join(\"&\") :\n"
"\t\t\t\t     window.location.href.split(\"?\")[0]);\n"
"\t} catch (e) { }\n"
"}\n"
"function label(g) {\n"
"\tvar r = rect_of(g), t = g.getElementsByTagName(\"text\")[0];\n"
"\tvar name = func_of(g).replace(/_\\[[kwij]\\]$/, \"\");\n"
"\tvar w = num(r, \"width\"), chars = Math.floor(w / (FG.fontsize * FG.fontwidth));\n"
"\tt.setAttribute(\"x\", (num(r, \"x\") + 3).toFixed(2));\n"
"\tif (chars < 3) t.textContent = \"\";\n"
"\telse if (chars >= name.length) t.textContent = name;\n"
"\telse t.textContent = name.substring(0, chars - 2) + \"..\";\n"
"}\n"
"/* Zoom so that frame g spans the width; its ancestors stay, dimmed, the rest hides. */\n"
"function zoom(g) {\n"
"\tvar r = rect_of(g), gx = orig(r, \"x\"), gw = orig(r, \"width\"), gy = num(r, \"y\");\n"
"\tvar full = FG.width - 2 * FG.xpad, ratio = full / gw, eps = 0.0001;\n"
"\tunzoombtn.classList.remove(\"hide\");\n"
"\tzoomed = g;\n"
"\tfor (var i = 0, el = frames.children; i < el.length; i++) {\n"
"\t\tvar e = el[i], er = rect_of(e), x = orig(er, \"x\"), w = orig(er, \"width\");\n"
"\t\tvar y = num(er, \"y\"), below = FG.inverted ? y < gy : y > gy;\n"
"\t\te.classList.remove(\"parent\");\n"
"\t\te.classList.remove(\"hide\");\n"
"\t\tif (below) {\n"
"\t\t\tif (x <= gx + eps && x + w + eps >= gx + gw) {\n"
"\t\t\t\te.classList.add(\"parent\");\n"
"\t\t\t\ter.setAttribute(\"x\", FG.xpad);\n"
"\t\t\t\ter.setAttribute(\"width\", full);\n"
"\t\t\t} else {\n"
"\t\t\t\te.classList.add(\"hide\");\n"
"\t\t\t}\n"
"\t\t} else if (x + eps < gx || x + eps >= gx + gw) {\n"
"\t\t\te.classList.add(\"hide\");\n"
"\t\t} else {\n"
"\t\t\ter.setAttribute(\"x\", ((x - gx) * ratio + FG.xpad).toFixed(1));\n"
"\t\t\ter.setAttribute(\"width\", (w * ratio).toFixed(1));\n"
"\t\t}\n"
"\t\tlabel(e);\n"
"\t}\n"
"\tvar p = params();\n"
"\tp.x = gx.toFixed(1);\n"
"\tp.y = r.getAttribute(\"y\");\n"
"\tif (gw >= full - eps) { delete p.x; delete p.y; unzoombtn.classList.add(\"hide\"); }\n"
"\tset_params(p);\n"
"\tif (term !== null) search(term);\n"
"}\n"
"function unzoom() {\n"
"\tzoomed = null;\n"
"\tunzoombtn.classList.add(\"hide\");\n"
"\tfor (var i = 0, el = frames.children; i < el.length; i++) {\n"
"\t\tvar e = el[i], r = rect_of(e);\n"
"\t\te.classList.remove(\"parent\");\n"
"\t\te.classList.remove(\"hide\");\n"
"\t\tr.setAttribute(\"x\", orig(r, \"x\").toFixed(1));\n"
"\t\tr.setAttribute(\"width\", orig(r, \"width\").toFixed(1));\n"
"\t\tlabel(e);\n"
"\t}\n"
"\tvar p = params();\n"
"\tdelete p.x;\n"
"\tdelete p.y;\n"
"\tset_params(p);\n"
"\tif (term !== null) search(term);\n"
"}\n"
"function reset_search() {\n"
"\tvar el = frames.getElementsByTagName(\"rect\");\n"
"\tfor (var i = 0; i < el.length; i++)\n"
"\t\tif (el[i].hasAttribute(\"fg-fill\")) el[i].setAttribute(\"fill\", el[i].getAttribute(\"fg-fill\"));\n"
"\tterm = null;\n"
"\tsearchbtn.classList.remove(\"show\");\n"
"\tsearchbtn.firstChild.nodeValue = \"Search\";\n"
"\tmatchedtxt.classList.add(\"hide\");\n"
"\tmatchedtxt.firstChild.nodeValue = \" \";\n"
"\tvar p = params();\n"
"\tdelete p.s;\n"
"\tset_params(p);\n"
"}\n"
"/* Highlights the frames whose name matches the regex s; prints their share of all samples,\n"
"   counting nested matches once. Returns the share in percent. */\n"
"function search(s) {\n"
"\tvar re;\n"
"\ttry { re = new RegExp(s, ignorecase ? \"i\" : \"\"); } catch (e) { return -1; }\n"
"\treset_search();\n"
"\tterm = s;\n"
"\tvar el = frames.children, spans = [], total = FG.width - 2 * FG.xpad;\n"
"\tfor (var i = 0; i < el.length; i++) {\n"
"\t\tvar r = rect_of(el[i]);\n"
"\t\tif (!re.test(func_of(el[i]))) continue;\n"
"\t\torig(r, \"fill\");\n"
"\t\tr.setAttribute(\"fill\", FG.searchcolor);\n"
"\t\tspans.push([orig(r, \"x\"), orig(r, \"width\")]);\n"
"\t}\n"
"\tspans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
"\tvar sum = 0, end = -1;\n"
"\tfor (var j = 0; j < spans.length; j++) {\n"
"\t\tif (spans[j][0] + 0.0001 < end) continue;\n"
"\t\tsum += spans[j][1];\n"
"\t\tend = spans[j][0] + spans[j][1];\n"
"\t}\n"
"\tsearchbtn.classList.add(\"show\");\n"
"\tsearchbtn.firstChild.nodeValue = \"Reset Search\";\n"
"\tvar pct = 100 * sum / total;\n"
"\tmatchedtxt.classList.remove(\"hide\");\n"
"\tmatchedtxt.firstChild.nodeValue = \"Matched: \" + (pct >= 99.95 ? \"100\" : pct.toFixed(1)) + \"%\";\n"
"\tvar p = params();\n"
"\tp.s = s;\n"
"\tset_params(p);\n"
"\treturn pct;\n"
"}\n"
"function search_prompt() {\n"
"\tif (term !== null) { reset_search(); return; }\n"
"\tvar s = prompt(\"Enter a search term (regexp allowed, eg: ^ext4_)\" +\n"
"\t\t(ignorecase ? \", ignoring case\" : \"\") + \"\\nPress Ctrl-i to toggle case sensitivity\", \"\");\n"
"\tif (s) search(s);\n"
"}\n"
"function toggle_ignorecase() {\n"
"\tignorecase = !ignorecase;\n"
"\ticbtn.classList.toggle(\"show\", ignorecase);\n"
"\tif (term !== null) search(term);\n"
"}\n"
"window.addEventListener(\"click\", function (e) {\n"
"\tvar g = group_of(e.target);\n"
"\tif (g) {\n"
"\t\tif (g === zoomed) return;\n"
"\t\tzoom(g);\n"
"\t} else if (e.target.id == \"unzoom\") unzoom();\n"
"\telse if (e.target.id == \"search\") search_prompt();\n"
"\telse if (e.target.id == \"ignorecase\") toggle_ignorecase();\n"
"}, false);\n"
"window.addEventListener(\"mouseover\", function (e) {\n"
"\tvar g = group_of(e.target);\n"
"\tif (g) details.nodeValue = FG.nametype + \" \" + info(g);\n"
"}, false);\n"
"window.addEventListener(\"mouseout\", function (e) {\n"
"\tif (group_of(e.target)) details.nodeValue = \" \";\n"
"}, false);\n"
"window.addEventListener(\"keydown\", function (e) {\n"
"\tif (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) {\n"
"\t\te.preventDefault();\n"
"\t\tsearch_prompt();\n"
"\t} else if (e.ctrlKey && e.keyCode === 73) {\n"
"\t\te.preventDefault();\n"
"\t\ttoggle_ignorecase();\n"
"\t}\n"
"}, false);\n";
// clang-format on

/* flamegraph.pl's background gradients. */
static void bg_colors(const struct flame_opts *o, const char **c1, const char **c2)
{
	const char *bg = o->bgcolors;

	if (!bg) {
		if (!strcmp(o->colors, "mem"))
			bg = "green";
		else if (!strcmp(o->colors, "io") || !strcmp(o->colors, "wakeup") ||
			 !strcmp(o->colors, "chain"))
			bg = "blue";
		else if (strstr("red green blue aqua yellow purple orange", o->colors))
			bg = "grey";
		else
			bg = "yellow";
	}
	if (!strcmp(bg, "blue"))
		*c1 = "#eeeeee", *c2 = "#e0e0ff";
	else if (!strcmp(bg, "green"))
		*c1 = "#eef2ee", *c2 = "#e0ffe0";
	else if (!strcmp(bg, "grey"))
		*c1 = "#f8f8f8", *c2 = "#e8e8e8";
	else if (bg[0] == '#')
		*c1 = *c2 = bg;
	else
		*c1 = "#eeeeee", *c2 = "#eeeeb0";
}

const char *flame_title(const struct flame_opts *o)
{
	if (o->title && *o->title)
		return o->title;
	if (o->flamechart)
		return "Flame Chart";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

static int svg_head(const struct flame_opts *o, double H, struct strbuf *out)
{
	const char *c1, *c2;
	int err;

	bg_colors(o, &c1, &c2);
	err = strbuf_adds(out, "<?xml version=\"1.0\"");
	if (!err && o->encoding)
		err = strbuf_addf(out, " encoding=\"%s\"", o->encoding);
	err = err ? err
		  : strbuf_addf(
			    out,
			    " standalone=\"no\"?>\n"
			    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
			    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
			    "<svg version=\"1.1\" width=\"%d\" height=\"%g\" onload=\"init(evt)\" "
			    "viewBox=\"0 0 %d %g\" xmlns=\"http://www.w3.org/2000/svg\" "
			    "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
			    "<!-- Flame graph stack visualization, drawn by flare flamegraph. -->\n"
			    "<!-- NOTES: ",
			    o->width, H, o->width, H);
	err = err ? err
		  : strbuf_add_xml(out, o->notes ? o->notes : "", o->notes ? strlen(o->notes) : 0,
				   flame_xml_flags(o));
	err = err ? err
		  : strbuf_addf(
			    out,
			    " -->\n<defs>\n"
			    "\t<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\" >\n"
			    "\t\t<stop stop-color=\"%s\" offset=\"5%%\" />\n"
			    "\t\t<stop stop-color=\"%s\" offset=\"95%%\" />\n"
			    "\t</linearGradient>\n</defs>\n<style type=\"text/css\">\n"
			    "\ttext { font-family:",
			    c1, c2);
	err = err ? err : strbuf_add_xml(out, o->fonttype, strlen(o->fonttype), flame_xml_flags(o));
	err = err ? err
		  : strbuf_addf(
			    out,
			    "; font-size:%gpx; fill:rgb(0,0,0); }\n"
			    "\t#search, #ignorecase { opacity:0.1; cursor:pointer; }\n"
			    "\t#search:hover, #search.show, #ignorecase:hover, #ignorecase.show { opacity:1; }\n"
			    "\t#subtitle { text-anchor:middle; font-color:rgb(160,160,160); }\n"
			    "\t#title { text-anchor:middle; font-size:%gpx}\n"
			    "\t#unzoom { cursor:pointer; }\n"
			    "\t#frames > *:hover { stroke:black; stroke-width:0.5; cursor:pointer; }\n"
			    "\t.hide { display:none; }\n\t.parent { opacity:0.5; }\n</style>\n"
			    "<script type=\"text/ecmascript\">\n<![CDATA[\n"
			    "var FG = { width: %d, xpad: %d, fontsize: %g, fontwidth: %g, inverted: %d, "
			    "searchcolor: \"rgb(230,0,230)\", nametype: ",
			    o->fontsize, o->fontsize + 5, o->width, XPAD, o->fontsize, o->fontwidth,
			    o->inverted ? 1 : 0);
	return err;
}

int fg_add_json_str(struct strbuf *out, const char *s, size_t len)
{
	size_t i;
	int err = strbuf_addch(out, '"');

	for (i = 0; i < len && !err; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t n = c >= 0x80 ? fg_utf8_char(s + i, len - i) : 1;

		if (c == '"' || c == '\\')
			err = strbuf_addf(out, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == ']')
			err = strbuf_addf(out, "\\u%04x", c);
		else if (!n) /* not UTF-8: the page (or SVG) must stay well-formed */
			err = strbuf_adds(out, "\\ufffd");
		else
			err = strbuf_add(out, s + i, n), i += n - 1;
	}
	return err ? err : strbuf_addch(out, '"');
}

static int svg_text(struct strbuf *out, const struct flame_opts *o, const char *id, double x,
		    double y, const char *txt, const char *extra)
{
	int err = strbuf_addf(out, "<text id=\"%s\" x=\"%.2f\" y=\"%g\" %s>", id, x, y, extra);

	err = err ? err : strbuf_add_xml(out, txt, strlen(txt), flame_xml_flags(o));
	return err ? err : strbuf_adds(out, "</text>\n");
}

/* Number of characters (UTF-8 sequences) in s[0..len). */
static size_t utf8_chars(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* Byte length of the first k characters. */
static size_t utf8_prefix(const char *s, size_t len, size_t k)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && k-- == 0)
			return i;
	return len;
}

static int svg_frame(const struct flame *f, const struct flame_opts *o, const struct fg_node *n,
		     double H, struct strbuf *out)
{
	double wpt = (o->width - 2.0 * XPAD) / f->total, ypad2 = o->fontsize * 2 + 10;
	double x1 = XPAD + n->stime * wpt, x2 = XPAD + n->etime * wpt, y1, y2, rx1, rx2;
	size_t nl = flame_name_len(n->name, n->len), chars, cut;
	double room;
	char color[32];
	int err;

	if (!o->inverted) {
		y1 = H - ypad2 - (n->depth + 1.0) * o->frameheight + 1;
		y2 = H - ypad2 - (double)n->depth * o->frameheight;
	} else {
		y1 = o->fontsize * 3 + (double)n->depth * o->frameheight;
		y2 = o->fontsize * 3 + (n->depth + 1.0) * o->frameheight - 1;
	}
	flame_node_color(f, o, n, color);
	err = strbuf_adds(out, "<g>\n<title>");
	err = err ? err : flame_node_info(f, o, n, true, out);
	rx1 = round(x1 * 10) / 10;
	rx2 = round(x2 * 10) / 10;
	err = err ? err
		  : strbuf_addf(out,
				"</title><rect x=\"%.1f\" y=\"%g\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\" rx=\"2\" ry=\"2\" />\n"
				"<text  x=\"%.2f\" y=\"%g\" >",
				x1, y1, rx2 - rx1, y2 - y1, color, x1 + 3, 3 + (y1 + y2) / 2);
	room = (x2 - x1) / (o->fontsize * o->fontwidth);
	/* a tiny --fontwidth makes room for more characters than any name has */
	chars = room < 1e9 ? (size_t)room : (size_t)1e9;
	if (!err && chars >= 3 && !(n->depth == 0 && !n->len)) {
		if (chars >= utf8_chars(n->name, nl)) {
			err = strbuf_add_xml(out, n->name, nl, flame_xml_flags(o));
		} else {
			cut = utf8_prefix(n->name, nl, chars - 2);
			err = strbuf_add_xml(out, n->name, cut, flame_xml_flags(o));
			err = err ? err : strbuf_adds(out, "..");
		}
	} else if (!err && chars >= 3) {
		err = strbuf_adds(out, "all");
	}
	return err ? err : strbuf_adds(out, "</text>\n</g>\n");
}

int flame_svg(const struct flame *f, const struct flame_opts *o, struct strbuf *out)
{
	double fs = o->fontsize, ypad1 = fs * 3, ypad2 = fs * 2 + 10, H;
	const char *sub = o->subtitle && *o->subtitle ? o->subtitle : NULL;
	size_t i;
	int err;

	if (!f->nodes.nr) {
		H = fs * 5;
		err = strbuf_addf(out,
				  "<?xml version=\"1.0\" standalone=\"no\"?>\n"
				  "<svg version=\"1.1\" width=\"%d\" height=\"%g\" "
				  "xmlns=\"http://www.w3.org/2000/svg\">\n",
				  o->width, H);
		err = err ? err
			  : svg_text(out, o, "error", o->width / 2, fs * 2,
				     "ERROR: No valid input provided to flare flamegraph.", "");
		return err ? err : strbuf_adds(out, "</svg>\n");
	}
	H = (f->depthmax + 1.0) * o->frameheight + ypad1 + ypad2 + (sub ? fs * 2 : 0);
	err = svg_head(o, H, out);
	err = err ? err : fg_add_json_str(out, o->nametype, strlen(o->nametype));
	err = err ? err : strbuf_addf(out, " };\n%s]]>\n</script>\n", svg_script);
	err = err ? err
		  : strbuf_addf(out,
				"<rect x=\"0.0\" y=\"0\" width=\"%d.0\" height=\"%.1f\" "
				"fill=\"url(#background)\"  />\n",
				o->width, H);
	err = err ? err : svg_text(out, o, "title", o->width / 2, fs * 2, flame_title(o), "");
	if (sub)
		err = err ? err : svg_text(out, o, "subtitle", o->width / 2, fs * 4, sub, "");
	err = err ? err : svg_text(out, o, "details", XPAD, H - ypad2 / 2, " ", "");
	err = err ? err : svg_text(out, o, "unzoom", XPAD, fs * 2, "Reset Zoom", "class=\"hide\"");
	err = err ? err : svg_text(out, o, "search", o->width - XPAD - 100, fs * 2, "Search", "");
	err = err ? err : svg_text(out, o, "ignorecase", o->width - XPAD - 16, fs * 2, "ic", "");
	err = err ? err
		  : svg_text(out, o, "matched", o->width - XPAD - 100, H - ypad2 / 2, " ", "");
	err = err ? err : strbuf_adds(out, "<g id=\"frames\">\n");
	for (i = 0; i < f->nodes.nr && !err; i++)
		err = svg_frame(f, o, &f->nodes.items[i], H, out);
	return err ? err : strbuf_adds(out, "</g>\n</svg>\n");
}
