// SPDX-License-Identifier: GPL-2.0
/*
 * flare annotate: reads perf.data (flare's or perf's) and prints each symbol with samples
 * instruction by instruction, with the share of the symbol's samples at each, as
 * `perf annotate --stdio` does: the symbols in perf's order (by their samples), perf 6.1's
 * header, objdump's text (capstone's, rewritten into objdump's form: lib/annotate/disasm.h),
 * source lines interleaved from the line tables. No objdump is run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/exit-status.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/read-opts.h"
#include "lib/annotate/annotate.h"
#include "lib/base/err.h"
#include "lib/base/vec.h"
#include "lib/data/writer.h"
#include "lib/hist/hist.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"

static const char *const annotate_usage[] = {
	"flare annotate [<options>] [<symbol>...]",
	NULL,
};

struct annotate_opts {
	const char *input;
	const char *dsos;
	const char *cpu_list;
	const char *symfs;
	const char *vmlinux;
	const char *style;
	const char *percent_type;
	const char *objdump;
	const char *stdio_color;
	struct opt_strlist symbols; /* -s and the arguments */
	double percent_limit;
	int force, verbose, quiet, print_line, full_paths, skip_missing, source, asm_raw;
	int stdio, stdio2, tui, show_nr, show_period, demangle, demangle_kernel, ignore_vmlinux;
	int modules;
	enum ann_percent ptype;
};

struct ann_event {
	const char *name;
	struct hist hist;   /* perf's entries (dso, sym): the order symbols print in */
	struct ann_hist ah; /* samples by symbol and address */
	bool used;
};

/* A dso opened for annotation, or the reason it cannot be (said once, as perf does). */
struct ann_dso {
	struct dso *dso;
	struct ann_object *obj;
	uint64_t delta; /* the dso's addresses less the object's (a relocated kernel) */
	bool failed;
	struct ann_dso *next;
};

struct annotate_ctx {
	struct annotate_opts *o;
	struct session *sess;
	struct ann_event *events; /* by attr idx */
	size_t nr_events;
	struct sample_filter filter;
	struct ann_dso *dsos;
	struct hashmap done;   /* symbols printed */
	const char *prev_path; /* --print-line: the last "file:line" shown */
	uint64_t nr_filtered;
};

/* ---- replay ---- */

static bool wanted_symbol(const struct annotate_opts *o, const struct symbol *sym)
{
	size_t i;

	if (!o->symbols.nr)
		return true;
	for (i = 0; sym && i < o->symbols.nr; i++)
		if (!strcmp(sym->name, o->symbols.items[i]))
			return true;
	return false;
}

static struct ann_event *event_of(struct annotate_ctx *c, const struct pd_attr *attr)
{
	size_t idx = attr ? (size_t)attr->idx : 0;

	if (idx >= c->nr_events) {
		size_t n = idx + 4, i;
		struct ann_event *p = realloc(c->events, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + c->nr_events, 0, (n - c->nr_events) * sizeof(*p));
		c->events = p;
		for (i = c->nr_events; i < n; i++) {
			struct hist_opts ho = { .keys = { HK_DSO, HK_SYM }, .nr_keys = 2 };

			if (hist_init(&c->events[i].hist, &ho))
				return NULL;
		}
		c->nr_events = n;
	}
	if (!c->events[idx].used) {
		c->events[idx].used = true;
		c->events[idx].name = attr && attr->name ? attr->name : "unknown";
	}
	return &c->events[idx];
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct annotate_ctx *c = ctx;
	const struct frame *f = rs->nr_frames ? &rs->frames[0] : NULL;
	struct ann_event *ev;
	struct hist_frame hf;
	struct hist_sample hs;
	int err;

	if (!f || !sample_filter_when(&c->filter, rs->s) || !sample_filter_what(&c->filter, rs))
		return 0;
	/* perf counts only the samples of the symbols asked for */
	if (!wanted_symbol(c->o, f->sym))
		return 0;
	ev = event_of(c, rs->attr);
	if (!ev)
		return -ENOMEM;
	c->nr_filtered++;
	hf = (struct hist_frame){ f->ip, f->addr, f->dso, f->sym, frame_level(f) };
	hs = (struct hist_sample){ .comm = rs->thread->comm,
				   .pid = rs->thread->pid,
				   .tid = rs->thread->tid,
				   .period = rs->s->period,
				   .frames = &hf,
				   .nr_frames = 1,
				   .no_chain = true };
	err = hist_add(&ev->hist, &hs);
	if (!err)
		err = ann_hist_add(&ev->ah, f->dso, f->sym, f->dso_ip, rs->s->period);
	return err;
}

/* ---- objects ---- */

/* Whether the ELF file (or for "/proc/kcore" the running kernel) has the build-id the
 * recording names for dso; true when either is unknown. */
static bool same_build(struct dso *dso, const char *path)
{
	uint8_t id[20];
	int n;

	if (!dso->build_id_size)
		return true;
	n = strcmp(path, "/proc/kcore") ? elf_read_build_id(path, id, sizeof(id))
					: buildid_of("[kernel.kallsyms]", id, sizeof(id));
	return n <= 0 || (n == dso->build_id_size && !memcmp(id, dso->build_id, (size_t)n));
}

/* The file holding the dso's code: -k's vmlinux or /proc/kcore for the kernel when its
 * build-id is the recorded kernel's, else the object (under --symfs) or the build-id cache's
 * copy. NULL with the reason in why. */
static const char *object_path(struct annotate_ctx *c, struct dso *dso, char *buf, size_t len,
			       char *why, size_t whylen)
{
	const struct annotate_opts *o = c->o;
	const char *path;

	if (dso->kind == DSO_KERNEL || dso->kind == DSO_KMODULE) {
		if (dso->kind == DSO_KERNEL && o->vmlinux && !o->ignore_vmlinux) {
			if (same_build(dso, o->vmlinux))
				return o->vmlinux;
			snprintf(why, whylen,
				 "'%s' is not the kernel the recording ran (another "
				 "build-id; give that kernel's vmlinux with -k)",
				 o->vmlinux);
			return NULL;
		}
		if (dso->kind == DSO_KERNEL && access("/proc/kcore", R_OK) == 0) {
			if (same_build(dso, "/proc/kcore"))
				return "/proc/kcore";
			snprintf(why, whylen,
				 "this machine runs another kernel than the recording "
				 "(give the recorded kernel's vmlinux with -k)");
			return NULL;
		}
		snprintf(why, whylen,
			 "no vmlinux and no readable /proc/kcore for %s (give the "
			 "kernel's image with -k VMLINUX)",
			 dso->short_name);
		return NULL;
	}
	if (dso->kind != DSO_USER) {
		snprintf(why, whylen, "%s has no file to disassemble", dso->short_name);
		return NULL;
	}
	path = dso_elf_path(c->sess->symtab, dso, buf, len);
	if (!path) {
		snprintf(why, whylen,
			 "cannot read '%s' as recorded: no file of its build-id (was it "
			 "rebuilt or removed? 'flare buildid-cache -a FILE' keeps a copy)",
			 dso->long_name);
		return NULL;
	}
	if (path != buf)
		snprintf(buf, len, "%s", path);
	return buf;
}

/* A vmlinux is linked where the kernel would run without KASLR: the offset to where it ran
 * is the difference of _text in the recording's kernel symbols and in the image. */
static void kernel_delta(struct annotate_ctx *c, struct ann_dso *d, const char *path)
{
	const struct symbol *run;
	uint64_t img;

	if (d->dso->kind != DSO_KERNEL || !strcmp(path, "/proc/kcore"))
		return;
	run = dso_find_symbol_by_name(c->sess->symtab, d->dso, "_text");
	if (!run)
		run = dso_find_symbol_by_name(c->sess->symtab, d->dso, "_stext");
	if (run && (ann_object_symbol_addr(d->obj, "_text", &img) ||
		    ann_object_symbol_addr(d->obj, "_stext", &img)))
		d->delta = run->start - img;
}

static struct ann_dso *object_of(struct annotate_ctx *c, struct dso *dso, const struct symbol *sym)
{
	struct ann_object_opts oo = { .syntax = DISASM_ATT };
	char path[4096], why[4300];
	const char *p;
	struct ann_dso *d;
	int err;

	for (d = c->dsos; d; d = d->next)
		if (d->dso == dso)
			return d->failed ? NULL : d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->dso = dso;
	d->next = c->dsos;
	c->dsos = d;
	if (c->o->style && !strcmp(c->o->style, "intel"))
		oo.syntax = DISASM_INTEL;
	p = object_path(c, dso, path, sizeof(path), why, sizeof(why));
	if (p) {
		err = ann_object_open(p, &oo, &d->obj);
		if (err)
			snprintf(why, sizeof(why), "cannot read '%s': %s", p, err_str(err));
	}
	if (!d->obj) {
		d->failed = true;
		if (!c->o->skip_missing && !c->o->quiet)
			pr_err("cannot annotate %s: %s", sym->name, why);
		return NULL;
	}
	kernel_delta(c, d, p);
	return d;
}

/* ---- output ---- */

static int column_width(const struct annotate_opts *o)
{
	return o->show_period ? 12 : 8;
}

static void print_summary(struct annotate_ctx *c, const struct ann_source *src,
			  const struct ann_sym *s, const struct ann_hist *h, const char *dso_path)
{
	struct sum {
		const char *path;
		double pct;
	} *v = NULL;
	size_t n = 0, i, j;

	printf("\nSorted summary for file %s\n", dso_path);
	printf("----------------------------------------------\n\n");
	for (i = 0; i < src->nr_lines; i++) {
		const struct ann_line *l = &src->lines[i];

		if (!l->path)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(v[j].path, l->path))
				break;
		if (j == n) {
			struct sum *p = realloc(v, (n + 1) * sizeof(*v));

			if (!p)
				break;
			v = p;
			v[n++] = (struct sum){ l->path, 0.0 };
		}
		v[j].pct += ann_percent(&l->hits, s, h, c->o->ptype);
	}
	/* perf: by the summed percent, ties by path, the greater first */
	for (i = 1; i < n; i++)
		for (j = i;
		     j > 0 && (v[j].pct > v[j - 1].pct ||
			       (v[j].pct == v[j - 1].pct && strcmp(v[j].path, v[j - 1].path) > 0));
		     j--) {
			struct sum t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	if (!n)
		printf(" Nothing higher than %1.1f%%\n", 0.5);
	for (i = 0; i < n; i++)
		printf(" %7.2f %s\n", v[i].pct, v[i].path);
	free(v);
}

static void print_lines(struct annotate_ctx *c, const struct ann_source *src,
			const struct ann_sym *s, const struct ann_hist *h)
{
	const struct annotate_opts *o = c->o;
	int width = column_width(o), aw = src->addr_width;
	size_t i;

	for (i = 0; i < src->nr_lines; i++) {
		const struct ann_line *l = &src->lines[i];

		if (l->offset < 0) {
			if (!l->text[0])
				printf(" %*s:\n", width, " ");
			else
				printf(" %*s: %-*d %s\n", width, " ", aw, l->line_nr, l->text);
			continue;
		}
		if (o->show_period)
			printf(" %11" PRIu64, l->hits.period);
		else if (o->show_nr)
			printf(" %7" PRIu64, l->hits.nr);
		else
			printf(" %7.2f", ann_percent(&l->hits, s, h, o->ptype));
		printf(" :   %*" PRIx64 ":%s", aw, src->start + (uint64_t)l->offset, l->text);
		if (l->path && (!c->prev_path || strcmp(c->prev_path, l->path))) {
			printf(" // %s", l->path);
			c->prev_path = l->path;
		}
		putchar('\n');
	}
}

static int annotate_symbol(struct annotate_ctx *c, struct ann_event *ev, const struct ann_sym *s)
{
	const struct annotate_opts *o = c->o;
	struct ann_source_opts so = { .source = o->source, .asm_raw = o->asm_raw };
	struct ann_dso *d = object_of(c, s->dso, s->sym);
	const char *name = s->dso->long_name, *slash;
	struct ann_source *src = NULL;
	struct ann_object *obj;
	int width = column_width(o), len, err;

	if (!d)
		return 0;
	obj = d->obj;
	err = ann_source_build(obj, s->sym->start - d->delta, s->sym->end - d->delta, &so, &src);
	if (err) {
		if (!o->quiet)
			pr_err("cannot annotate %s: no code for it in %s", s->sym->name, name);
		return err == -ENOMEM ? err : 0;
	}
	ann_source_count(src, s);
	if (o->print_line) {
		err = ann_source_srclines(src, obj, s, &ev->ah, o->ptype, o->full_paths,
					  s->dso->short_name);
		if (err) {
			ann_source_free(src);
			return err;
		}
		print_summary(c, src, s, &ev->ah, name);
	}
	slash = strrchr(name, '/');
	if (!o->full_paths && slash)
		name = slash + 1;
	len = printf(" %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, "
		     "percent: %s)\n",
		     width, width,
		     o->show_period ? "Period"
		     : o->show_nr   ? "Samples"
				    : "Percent",
		     name, ev->name, s->total.nr, ann_percent_str(o->ptype));
	for (int i = 0; i < len + 4; i++)
		putchar('-');
	putchar('\n');
	print_lines(c, src, s, &ev->ah);
	ann_source_free(src);
	return 0;
}

static int annotate_event(struct annotate_ctx *c, struct ann_event *ev)
{
	const struct annotate_opts *o = c->o;
	struct hist *h = &ev->hist;
	size_t i;
	int err = hist_sort(h);

	for (i = 0; !err && i < h->nr_entries; i++) {
		const struct hist_entry *e = h->sorted[i];
		const struct ann_sym *s;
		void **slot;

		if (!e->sym || !e->dso)
			continue;
		if (o->percent_limit > 0 && h->total_period &&
		    100.0 * e->self / h->total_period < o->percent_limit)
			continue;
		s = ann_hist_find(&ev->ah, e->sym);
		if (!s)
			continue;
		slot = hashmap_slot(&c->done, (uint64_t)(uintptr_t)e->sym);
		if (!slot)
			return -ENOMEM;
		if (*slot)
			continue; /* one symbol, several entries: printed once, as perf */
		*slot = (void *)1;
		err = annotate_symbol(c, ev, s);
	}
	return err;
}

/* ---- options and setup ---- */

static int check_opts(struct annotate_opts *o, const struct opt *opts)
{
	int t;

	if (o->percent_type) {
		t = ann_percent_parse(o->percent_type);
		if (t < 0)
			opt_usage_error(opts, annotate_usage,
					"--percent-type '%s' is not one of "
					"local-period, global-period, local-hits, global-hits",
					o->percent_type);
		o->ptype = (enum ann_percent)t;
	}
	if (o->style && strcmp(o->style, "intel") && strcmp(o->style, "att"))
		opt_usage_error(opts, annotate_usage,
				"-M '%s': the disassembler styles are 'att' "
				"and 'intel'",
				o->style);
	if (o->percent_limit < 0)
		opt_usage_error(opts, annotate_usage,
				"--percent-limit %g: give a percentage of 0 "
				"or more",
				o->percent_limit);
	if (o->stdio2)
		opt_usage_error(opts, annotate_usage, "--stdio2 is not supported (use --stdio)");
	if (o->vmlinux && access(o->vmlinux, R_OK)) {
		pr_err("cannot read vmlinux '%s': %s (give the kernel image the recording ran, "
		       "with symbols)",
		       o->vmlinux, strerror(errno));
		return -1;
	}
	return 0;
}

static int open_session(struct annotate_opts *o, struct session **sess)
{
	struct session_opts so = { .open_flags = o->force ? PD_FORCE : 0,
				   .no_callchain = true,
				   .symfs = o->symfs,
				   .no_demangle = !o->demangle };
	char err[512];
	int ret = session_open(o->input, &so, sess, err, sizeof(err));

	if (ret == -ENOENT)
		pr_err("cannot open '%s': %s (record a profile first with 'flare record')",
		       o->input, err);
	else if (ret < 0)
		pr_err("cannot read '%s': %s", o->input, err);
	return ret;
}

static void ctx_release(struct annotate_ctx *c)
{
	struct ann_dso *d, *next;
	size_t i;

	for (i = 0; i < c->nr_events; i++) {
		hist_release(&c->events[i].hist);
		ann_hist_release(&c->events[i].ah);
	}
	free(c->events);
	for (d = c->dsos; d; d = next) {
		next = d->next;
		ann_object_free(d->obj);
		free(d);
	}
	hashmap_release(&c->done);
	sample_filter_release(&c->filter);
}

static int run(struct annotate_ctx *c)
{
	struct annotate_opts *o = c->o;
	size_t i;
	int err;

	if (o->cpu_list && read_opts_cpus(&c->filter, c->sess->pd, o->input, o->cpu_list))
		return EXIT_STATUS_PERF_ERR; /* perf's status for a -C it cannot use */
	c->filter.dso = o->dsos;
	err = session_process(c->sess, on_sample, NULL, c);
	if (err < 0) {
		pr_err("cannot read '%s': %s", o->input,
		       c->sess->pd->err_msg[0] ? c->sess->pd->err_msg : err_str(err));
		return EXIT_STATUS_FAIL;
	}
	if (!c->nr_filtered) {
		if (o->symbols.nr)
			pr_err("'%s' has no samples in '%s' (see the symbols with samples with "
			       "'flare report -i %s')",
			       o->input, o->symbols.items[0], o->input);
		else
			pr_err("'%s' has no samples", o->input);
		return EXIT_STATUS_OK;
	}
	out_pager_start();
	for (i = 0; i < c->nr_events; i++) {
		if (!c->events[i].used)
			continue;
		err = annotate_event(c, &c->events[i]);
		if (err) {
			pr_err("annotate of '%s' failed: %s", o->input, err_str(err));
			return EXIT_STATUS_FAIL;
		}
	}
	return EXIT_STATUS_OK;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o = { .input = "perf.data", .source = 1, .demangle = 1 };
	const struct opt opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_STRING('d', "dsos", &o.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_STRLIST('s', "symbol", &o.symbols, "symbol", "symbol to annotate"),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_COUNT('v', "verbose", &o.verbose, "be more verbose"),
		OPT_BOOL('q', "quiet", &o.quiet, "do not show any warnings or messages"),
		OPT_BOOL(0, "stdio", &o.stdio, "use the stdio interface"),
		OPT_BOOL(0, "stdio2", &o.stdio2, "perf's other stdio layout (not supported)"),
		OPT_BOOL(0, "tui", &o.tui, "use the TUI interface (prints as --stdio)"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file", "vmlinux pathname"),
		OPT_BOOL(0, "ignore-vmlinux", &o.ignore_vmlinux,
			 "don't load vmlinux even if found"),
		OPT_BOOL('m', "modules", &o.modules, "load module symbols (accepted, as perf)"),
		OPT_BOOL('l', "print-line", &o.print_line, "print matching source lines"),
		OPT_BOOL('P', "full-paths", &o.full_paths, "Don't shorten the displayed pathnames"),
		OPT_BOOL(0, "skip-missing", &o.skip_missing,
			 "Skip symbols that cannot be annotated"),
		OPT_STRING('C', "cpu", &o.cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOL(0, "source", &o.source,
			 "Interleave source code with assembly code (default)"),
		OPT_BOOL(0, "asm-raw", &o.asm_raw, "Display raw encoding of assembly instructions"),
		OPT_STRING('M', "disassembler-style", &o.style, "disassembler style",
			   "Specify disassembler style (e.g. -M intel for intel syntax)"),
		OPT_STRING(0, "objdump", &o.objdump, "path",
			   "accepted, as perf; flare disassembles with capstone, runs no objdump"),
		OPT_BOOL(0, "demangle", &o.demangle, "Enable symbol demangling"),
		OPT_BOOL(0, "demangle-kernel", &o.demangle_kernel,
			 "Enable kernel symbol demangling"),
		OPT_BOOL('n', "show-nr-samples", &o.show_nr,
			 "Show a column with the number of samples"),
		OPT_BOOL(0, "show-total-period", &o.show_period,
			 "Show a column with the sum of periods"),
		OPT_STRING(0, "stdio-color", &o.stdio_color, "mode",
			   "'always', 'never' or 'auto' (flare prints no color)"),
		OPT_STRING(0, "percent-type", &o.percent_type, "local-period",
			   "Set percent type local/global-period/hits"),
		OPT_DOUBLE(0, "percent-limit", &o.percent_limit, "percent",
			   "Don't show entries under that percent"),
		OPT_END(),
	};
	struct annotate_ctx c = { .o = &o };
	int i, ret;

	argc = opt_parse(argc, argv, opts, annotate_usage, 0);
	for (i = 0; i < argc; i++)
		if (vec_push(&o.symbols, (const char *)argv[i]))
			return EXIT_STATUS_FAIL;
	out_verbose = o.verbose;
	if (check_opts(&o, opts))
		return EXIT_STATUS_FAIL;
	if (open_session(&o, &c.sess) < 0) {
		opt_strlist_free(&o.symbols);
		return EXIT_STATUS_PERF_ERR;
	}
	ret = run(&c);
	ctx_release(&c);
	session_free(c.sess);
	opt_strlist_free(&o.symbols);
	return ret;
}
