// SPDX-License-Identifier: GPL-2.0
/*
 * flare flamegraph: flame graphs (SVG, HTML), folded stacks and differential graphs from
 * perf.data, perf script text or folded stacks, with flamegraph.pl's and
 * stackcollapse-perf.pl's options.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/flamegraph.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/base/outfile.h"
#include "lib/graph/diff.h"

struct fg_args {
	struct fg_cli cli;
	const char *input, *output, *format, *minwidth, *time, *event, *colors;
	struct opt_strlist comms;
	VEC(long) pids, tids;
	struct time_ranges times; /* --time */
	int folded, all, cp, diff, diff_table, per_pid, per_tid, top;
	/* OPT_BOOL stores an int: the flags land here, then in the bool fields of the opts */
	int kernel, jit, addrs, srcline, hash, reverse, inverted, negate, flamechart;
	char *comm_buf;
};

static const char *const fg_usage[] = {
	"flare flamegraph [<options>] [-i perf.data] [-o flame.svg|flame.html]",
	"flare flamegraph [<options>] < stacks.folded|perf-script.txt > flame.svg",
	"flare flamegraph --folded [<options>] [-i perf.data]",
	"flare flamegraph --diff [<options>] before after",
	NULL,
};

/* "1,2,3" appended to a list of numbers. */
static int parse_ids(const char *arg, void *vec, const char *what)
{
	VEC(long) *v = vec;
	const char *s = arg;
	char *end;

	while (*s) {
		long x = strtol(s, &end, 10);

		if (end == s || x < 0 || (*end && *end != ',')) {
			pr_err("'%s' is not a list of %ss (use numbers separated by commas)", arg,
			       what);
			return -1;
		}
		if (vec_push(v, x))
			return -1;
		s = *end ? end + 1 : end;
	}
	return 0;
}

/* --pid alone: a root per process (stackcollapse-perf.pl); --pid=LIST: only those (perf). */
static int opt_pid(const struct opt *o, const char *arg, int unset)
{
	struct fg_args *a = o->value;

	if (unset) {
		a->per_pid = 0;
		a->pids.nr = 0;
		return 0;
	}
	if (!arg) {
		a->per_pid = 1;
		return 0;
	}
	return parse_ids(arg, &a->pids, "process id");
}

static int opt_tid(const struct opt *o, const char *arg, int unset)
{
	struct fg_args *a = o->value;

	if (unset) {
		a->per_tid = 0;
		a->tids.nr = 0;
		return 0;
	}
	if (!arg) {
		a->per_tid = 1;
		return 0;
	}
	return parse_ids(arg, &a->tids, "thread id");
}

static int parse_minwidth(const char *s, struct flame_opts *fo)
{
	char *end;

	if (!s)
		return 0;
	fo->minwidth = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")) || fo->minwidth < 0)
		return -1;
	fo->minwidth_pct = *end == '%';
	return 0;
}

/* Splits each --comm value on commas into one list the collapse can use. */
static int comm_list(struct fg_args *a, const char ***out, size_t *nr)
{
	size_t i, n = 0, total = 0;
	const char **v;
	char *p;

	for (i = 0; i < a->comms.nr; i++)
		total += strlen(a->comms.items[i]) + 1;
	a->comm_buf = malloc(total + 1);
	v = calloc(total + 1, sizeof(*v));
	if (!a->comm_buf || !v) {
		free(v);
		return -ENOMEM;
	}
	p = a->comm_buf;
	for (i = 0; i < a->comms.nr; i++) {
		char *tok, *save = NULL;

		strcpy(p, a->comms.items[i]);
		for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			v[n++] = tok;
		p += strlen(a->comms.items[i]) + 1;
	}
	*out = v;
	*nr = n;
	return 0;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcasecmp(s + a - b, suf);
}

/* Writes data to path ("-" or NULL: stdout); nothing is left behind on failure. */
static int write_out(const char *path, const struct strbuf *data)
{
	struct outfile of;
	int err;

	if (!path || !strcmp(path, "-")) {
		if (fwrite(data->buf, 1, data->len, stdout) != data->len) {
			pr_err("write error on standard output: %s", strerror(errno));
			return -EIO;
		}
		return 0;
	}
	/* a regular file is replaced whole; a device, FIFO or terminal is written in place */
	err = outfile_open(&of, path, 0666, 0);
	if (err) {
		pr_err("cannot write '%s': %s (check that its directory exists and is writable)",
		       path, strerror(-err));
		return -EIO;
	}
	err = outfile_write(&of, data->buf, data->len);
	if (!err)
		err = outfile_commit(&of);
	else
		outfile_abort(&of);
	if (err)
		pr_err("cannot write '%s': %s", path, strerror(-err));
	return err;
}

/* kinds: the stacks were folded here, with kernel, JIT and inline marks, so the default
 * colors can tell the kinds of frames apart. */
static int draw(struct fg_args *a, struct fg_line *lines, size_t nr, bool kinds, struct strbuf *out)
{
	struct flame f;
	bool html = a->format ? !strcmp(a->format, "html")
			      : a->output && (ends_with(a->output, ".html") ||
					      ends_with(a->output, ".htm"));
	struct flame_opts fo = a->cli.fo;
	int err;

	/* the page merges sub-pixel frames as it draws, and zooming reveals them: keep all */
	if (html && !a->minwidth)
		fo.minwidth = 0;
	if (kinds && !a->colors)
		fo.colors = "kinds";
	/* marks the user did not ask for must not order the frames differently from the Perl
	 * pipeline's (stackcollapse-perf.pl without --kernel) */
	fo.marks_hidden = kinds && !a->colors && !a->kernel && !a->jit && !a->all;
	err = flame_build(&f, lines, nr, &fo);
	if (err == -ERANGE)
		pr_err("cannot draw the flame graph: the counts add up past a double's range "
		       "(scale them down, or lower --factor or --total)");
	if (!err && f.total <= 0) {
		flame_release(&f);
		return -ENODATA;
	}
	if (!err && fo.total > 0 && fo.total < f.total)
		pr_warn("--total %.17g is less than the sum of the counts (%.17g): ignored",
			fo.total, f.total);
	if (!err)
		err = html ? flame_html(&f, &fo, out) : flame_svg(&f, &fo, out);
	flame_release(&f);
	return err;
}

/* Folded stacks: merged and sorted as stackcollapse-perf.pl prints them, or in sample order
 * for a flame chart; folded input is printed as read. */
static int print_folded(struct profile *p, bool in_order, struct strbuf *out)
{
	size_t i;
	int err = 0;

	if (!p->folded && !in_order)
		return stackset_print(collapse_stacks(p->col), out);
	for (i = 0; i < p->lines.nr && !err; i++) {
		err = strbuf_add(out, p->lines.items[i].stack, p->lines.items[i].len);
		err = err ? err : strbuf_addf(out, " %.15g\n", p->lines.items[i].c1);
	}
	return err;
}

/* Why palette.map could not be used, in the user's terms. */
static const char *palette_why(int err)
{
	if (err == -ELOOP)
		return "it is a symbolic link, which --cp does not follow";
	if (err == -EINVAL)
		return "it is not a regular file";
	return err_str(err);
}

#define usage_exit(opts, ...) opt_usage_error(opts, fg_usage, __VA_ARGS__)

/* Fills the library options from the parsed arguments; exits EXIT_STATUS_USAGE on a bad value. */
static int setup(struct fg_args *a, const struct opt *opts)
{
	struct fg_cli *c = &a->cli;
	const char *why;
	int err;

	c->co.kernel = a->kernel;
	c->co.jit = a->jit;
	c->co.addrs = a->addrs;
	c->co.srcline = a->srcline;
	c->fo.hash = a->hash;
	c->fo.reverse = a->reverse;
	c->fo.inverted = a->inverted;
	c->fo.negate = a->negate;
	c->fo.flamechart = a->flamechart;
	if (parse_minwidth(a->minwidth, &c->fo))
		usage_exit(opts,
			   "--minwidth expects pixels or a percentage such as 0.5%%, not '%s'",
			   a->minwidth);
	/* perf's --time grammar, but percents: stacks read as text have no span to take them of */
	if (a->time && (strchr(a->time, '%') || time_ranges_parse(&a->times, a->time, 0, 0)))
		usage_exit(opts,
			   "--time expects START,END in seconds (either may be empty), not '%s'",
			   a->time);
	if (a->time)
		c->co.times = &a->times;
	if (a->format && strcmp(a->format, "svg") && strcmp(a->format, "html") &&
	    strcmp(a->format, "folded"))
		usage_exit(opts, "--format expects svg, html or folded, not '%s'", a->format);
	if (a->format && !strcmp(a->format, "folded"))
		a->folded = 1;
	if (a->colors)
		c->fo.colors = a->colors;
	if (flame_opts_check(&c->fo, &why))
		usage_exit(opts, "%s", why);
	if (a->all)
		c->co.kernel = c->co.jit = true;
	if (!a->colors && !a->folded && !a->diff_table) {
		/* the default graph colors frames by kind: kernel, JIT and inlined frames are
		 * marked while folding (the marks are not shown) and drawn in their own hues */
		c->co.kernel = c->co.jit = true;
	}
	c->co.pid = a->per_pid;
	c->co.tid = a->per_tid;
	c->co.pids = a->pids.items;
	c->co.nr_pids = a->pids.nr;
	c->co.tids = a->tids.items;
	c->co.nr_tids = a->tids.nr;
	c->co.event_filter = a->event;
	c->co.keep_seq = c->fo.flamechart;
	err = comm_list(a, (const char ***)&c->co.comms, &c->co.nr_comms);
	if (err)
		return err;
	if (a->cp) {
		err = palette_load("palette.map", &c->fo.cp);
		if (err)
			pr_err("cannot read 'palette.map': %s (remove it, or drop --cp)",
			       palette_why(err));
	}
	return err;
}

static int run_diff(struct fg_args *a, int argc, char **argv, struct strbuf *out)
{
	struct profile p1, p2;
	struct fg_diff d;
	int err;

	err = profile_load(argv[0], &a->cli, &p1);
	if (err) {
		profile_release(&p1);
		return err;
	}
	err = profile_load(argv[1], &a->cli, &p2);
	if (err)
		goto out;
	err = fg_diff_build(p1.lines.items, p1.lines.nr, p2.lines.items, p2.lines.nr, true, &d);
	if (err)
		goto out;
	if (a->diff_table)
		err = fg_diff_table(&d, (size_t)a->top, out);
	else if (a->folded)
		for (size_t i = 0; i < d.nr && !err; i++) {
			err = strbuf_add(out, d.lines[i].stack, d.lines[i].len);
			err = err ? err
				  : strbuf_addf(out, " %.15g %.15g\n", d.lines[i].c1,
						d.lines[i].c2);
		}
	else
		err = draw(a, d.lines, d.nr, !p1.folded && !p2.folded, out);
	if (err == -ENODATA)
		pr_err("no stacks in '%s' to draw (record with -g, or check the filters)", argv[1]);
	fg_diff_release(&d);
out:
	profile_release(&p1);
	profile_release(&p2);
	return err;
}

static int run_one(struct fg_args *a, int argc, char **argv, struct strbuf *out)
{
	const char *path = a->input ? a->input : argc ? argv[0] : NULL;
	struct profile p;
	struct stat st;
	int err;

	if (!path && isatty(0)) {
		path = "perf.data";
		if (stat(path, &st)) {
			pr_err("no input: 'perf.data' does not exist here (record one with 'flare "
			       "record -g -- <command>', give -i <file>, or pipe 'perf script' or "
			       "folded stacks in)");
			return -ENOENT;
		}
	}
	err = profile_load(path, &a->cli, &p);
	if (err == -ENODATA && !path && !stat("perf.data", &st)) {
		/* nothing piped in: draw ./perf.data as perf's commands default to */
		profile_release(&p);
		path = "perf.data";
		err = profile_load(path, &a->cli, &p);
	} else if (err == -ENODATA) {
		pr_err("no input: standard input is empty and there is no 'perf.data' here (give "
		       "-i <file>, or pipe 'perf script' output or folded stacks in)");
	}
	if (err) {
		profile_release(&p);
		return err;
	}
	if (p.ignored)
		pr_warn("ignored %llu lines with invalid format", (unsigned long long)p.ignored);
	if (a->folded)
		err = print_folded(&p, a->cli.fo.flamechart, out);
	else
		err = draw(a, p.lines.items, p.lines.nr, !p.folded, out);
	if (err == -ENODATA)
		pr_err("no stacks in '%s' to draw (%s)", path ? path : "standard input",
		       p.from_data ? "record with -g, or check the filters"
				   : "give 'perf script' output or folded stacks");
	else if (err && err != -ERANGE)
		pr_err("cannot draw the flame graph: %s", err_str(err));
	profile_release(&p);
	return err;
}

int cmd_flamegraph(int argc, char **argv)
{
	struct fg_args a = { .top = 20 };
	struct strbuf out = STRBUF_INIT;
	const struct opt opts[] = {
		OPT_GROUP("Input and output"),
		OPT_STRING('i', "input", &a.input, "file",
			   "perf.data, perf script text or folded stacks"),
		OPT_STRING('o', "output", &a.output, "file",
			   "write here (.svg, .html; default stdout)"),
		OPT_STRING(0, "format", &a.format, "fmt", "svg, html or folded (default: from -o)"),
		OPT_BOOL(0, "folded", &a.folded, "print folded stacks instead of a graph"),
		OPT_BOOL(0, "diff", &a.diff, "differential graph of two profiles: before after"),
		OPT_BOOL(0, "diff-table", &a.diff_table,
			 "with --diff: table of the frames that changed most"),
		OPT_INT(0, "top", &a.top, "n", "rows of --diff-table (default 20)"),
		OPT_BOOL('f', "force", &a.cli.force, "read perf.data files owned by others"),
		OPT_GROUP("Stacks (stackcollapse-perf.pl)"),
		OPT_BOOL(0, "kernel", &a.kernel, "annotate kernel frames with _[k]"),
		OPT_BOOL(0, "jit", &a.jit, "annotate JIT frames with _[j]"),
		OPT_BOOL(0, "all", &a.all, "all annotations (--kernel --jit)"),
		OPT_CALLBACK_OPTARG(0, "pid", &a, "pids",
				    "alone: a root per process; =LIST: only those", opt_pid),
		OPT_CALLBACK_OPTARG(0, "tid", &a, "tids",
				    "alone: a root per thread; =LIST: only those", opt_tid),
		OPT_BOOL(0, "addrs", &a.addrs, "show the address of unresolved frames"),
		OPT_BOOL(0, "srcline", &a.srcline,
			 "perf script -F+srcline input: add source lines"),
		OPT_STRING(0, "event-filter", &a.event, "event",
			   "only this event (default: the first)"),
		OPT_STRLIST(0, "comm", &a.comms, "comms", "only these commands (comma-separated)"),
		OPT_STRLIST(0, "comms", &a.comms, "comms", "same as --comm"),
		OPT_STRING(0, "time", &a.time, "start,end",
			   "only samples in this time range (seconds)"),
		OPT_GROUP("Graph (flamegraph.pl)"),
		OPT_STRING(0, "title", &a.cli.fo.title, "text", "title (default \"Flame Graph\")"),
		OPT_STRING(0, "subtitle", &a.cli.fo.subtitle, "text", "second title line"),
		OPT_INT(0, "width", &a.cli.fo.width, "px", "image width (default 1200)"),
		OPT_INT(0, "height", &a.cli.fo.frameheight, "px", "frame height (default 16)"),
		OPT_STRING(0, "minwidth", &a.minwidth, "px|pct%",
			   "omit narrower frames (default 0.1)"),
		OPT_STRING(0, "fonttype", &a.cli.fo.fonttype, "font", "font (default Verdana)"),
		OPT_DOUBLE(0, "fontsize", &a.cli.fo.fontsize, "size", "font size (default 12)"),
		OPT_DOUBLE(0, "fontwidth", &a.cli.fo.fontwidth, "ratio",
			   "average glyph width / size (0.59)"),
		OPT_STRING(0, "countname", &a.cli.fo.countname, "text",
			   "count unit (default samples)"),
		OPT_STRING(0, "nametype", &a.cli.fo.nametype, "text",
			   "name label (default Function:)"),
		OPT_STRING(
			0, "colors", &a.colors, "palette",
			"hot mem io wakeup chain java js perl red green blue aqua yellow purple orange"),
		OPT_STRING(0, "bgcolors", &a.cli.fo.bgcolors, "color",
			   "yellow blue green grey or #rrggbb"),
		OPT_BOOL(0, "hash", &a.hash, "colors from a hash of the name"),
		OPT_BOOL(0, "cp", &a.cp, "consistent palette kept in ./palette.map"),
		OPT_BOOL(0, "reverse", &a.reverse, "stack-reversed graph"),
		OPT_BOOL(0, "inverted", &a.inverted, "icicle graph (roots on top)"),
		OPT_BOOL(0, "negate", &a.negate, "switch differential hues"),
		OPT_BOOL(0, "flamechart", &a.flamechart, "flame chart: time order, not merged"),
		OPT_STRING(0, "notes", &a.cli.fo.notes, "text", "notes comment in the SVG"),
		OPT_DOUBLE(0, "total", &a.cli.fo.total, "count",
			   "widths as if the counts summed to this"),
		OPT_DOUBLE(0, "factor", &a.cli.fo.factor, "x", "show counts multiplied by this"),
		OPT_STRING(0, "encoding", &a.cli.fo.encoding, "name", "XML encoding of the SVG"),
		OPT_END(),
	};
	int err;

	flame_opts_default(&a.cli.fo);
	argc = opt_parse(argc, argv, opts, fg_usage, 0);
	err = setup(&a, opts);
	if (!err && (a.diff || a.diff_table)) {
		if (argc != 2 || a.input)
			usage_exit(opts, "%s needs two profiles: before after", "--diff");
		err = run_diff(&a, argc, argv, &out);
	} else if (!err) {
		if (argc > 1 || (argc && a.input))
			usage_exit(opts, "one input only (got '%s' too; use --diff for two)",
				   argv[argc - 1]);
		err = run_one(&a, argc, argv, &out);
	}
	if (!err)
		err = write_out(a.folded || a.diff_table ? (a.output ? a.output : NULL) : a.output,
				&out);
	if (!err && a.cli.fo.cp) {
		int perr = palette_save(a.cli.fo.cp, "palette.map");

		if (perr)
			pr_warn("cannot write 'palette.map': %s", palette_why(perr));
	}
	strbuf_release(&out);
	palette_free(a.cli.fo.cp);
	free((void *)a.cli.co.comms);
	free(a.comm_buf);
	opt_strlist_free(&a.comms);
	vec_free(&a.pids);
	vec_free(&a.tids);
	time_ranges_release(&a.times);
	return err ? 1 : 0;
}
