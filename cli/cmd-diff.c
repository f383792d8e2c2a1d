// SPDX-License-Identifier: GPL-2.0
/*
 * flare diff: two or more recordings side by side, as perf diff 6.1 prints them: the
 * baseline's percentages, then for each later file the change (delta of percentages by
 * default, sorted by its size; ratio or weighted diff of periods with -c), entries matched
 * by their sort keys (dso,sym). lib/hist/pair.c matches and orders; this file reads the
 * files into histograms and prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/session/filter.h"
#include "lib/base/err.h"
#include "lib/base/hashmap.h"
#include "lib/hist/pair.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"

struct diff_opts {
	int verbose, quiet, baseline_only, period, formula, force;
	const char *compute, *sort, *kallsyms, *symfs;
	const char *dsos, *comms, *symbols, *cpus, *pids, *tids;
	int order;
	/* parsed */
	enum pair_compute c;
	int64_t w1, w2;
};

/* One recording: its session and a histogram per event of the file. */
struct diff_file {
	const char *path;
	struct session *sess;
	struct hist *hists; /* per attr */
	uint64_t *nr_samples;
	struct hashmap unresolved;  /* (dso, level) -> struct unres */
	struct hashmap dso_by_name; /* hash of a short name -> the first dso of that name */
	const struct diff_opts *o;
};

/* perf diff merges a dso's unresolved addresses (of one level) into one entry, named by
 * the lowest of them: samples go to the first address seen, the lowest is printed. */
struct unres {
	uint64_t first, lowest;
};

static uint64_t unres_key(const struct dso *dso, char level)
{
	return hash_u64((uint64_t)(uintptr_t)dso) ^ (uint64_t)(unsigned char)level;
}

#define MAX_COLS 16

struct col {
	char header[64];
	int width;
	int kind; /* COL_* */
	size_t file;
};

enum { COL_BASELINE, COL_BASE_PERIOD, COL_VALUE, COL_FORMULA, COL_PERIOD };

static const char *const compute_header[] = { "Delta", "Delta Abs", "Ratio", "Weighted diff" };
static const int compute_width[] = { 7, 7, 14, 14 };

static int parse_compute(struct diff_opts *o)
{
	const char *s = o->compute;

	o->c = PAIR_DELTA_ABS;
	if (!s || !strcmp(s, "delta-abs"))
		return 0;
	if (!strcmp(s, "delta")) {
		o->c = PAIR_DELTA;
		return 0;
	}
	if (!strcmp(s, "ratio")) {
		o->c = PAIR_RATIO;
		return 0;
	}
	if (!strncmp(s, "wdiff:", 6)) {
		char *end;

		o->c = PAIR_WDIFF;
		o->w1 = strtoll(s + 6, &end, 10);
		if (*end == ',' && end[1])
			o->w2 = strtoll(end + 1, &end, 10);
		if (!*end && o->w1 && o->w2)
			return 0;
		pr_err("wrong weights in '-c %s': use -c wdiff:W1,W2 with two non-zero integers",
		       s);
		return -1;
	}
	pr_err("'%s' is not a computation method: use delta, delta-abs, ratio or wdiff:W1,W2", s);
	return -1;
}

/*
 * perf diff's filters: -C/-d/-S/--pid/--tid hide an entry (its comm, dso, symbol or thread, as
 * its first sample had them) but keep it for matching and in the totals; --cpu drops samples.
 */
static bool entry_hidden(const struct diff_opts *o, const struct hist_entry *e)
{
	if (o->comms && !filter_list_has(o->comms, e->comm ? e->comm : ""))
		return true;
	if (o->dsos && !filter_list_has(o->dsos, e->dso ? e->dso->short_name : "[unknown]"))
		return true;
	if (o->symbols && !(e->sym && filter_list_has(o->symbols, e->sym->name)))
		return true;
	if (o->pids && !filter_list_has_num(o->pids, e->pid))
		return true;
	return o->tids && !filter_list_has_num(o->tids, e->tid);
}

/* A filter naming one item elides its column, as perf's sort__setup_elide. */
static bool key_elided(const struct diff_opts *o, enum hist_key k)
{
	const char *list = k == HK_COMM	 ? o->comms
			   : k == HK_DSO ? o->dsos
			   : k == HK_SYM ? o->symbols
					 : NULL;

	return list && !strchr(list, ',');
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct diff_file *df = ctx;
	const struct frame *f = rs->nr_frames ? &rs->frames[0] : NULL;
	struct hist_frame hf;
	struct hist_sample hs;
	int idx = rs->attr ? rs->attr->idx : 0;

	if (!f || idx < 0 || (size_t)idx >= df->sess->pd->nr_attrs ||
	    (df->o->cpus && !filter_list_has_num(df->o->cpus, rs->s->cpu)))
		return 0;
	hf = (struct hist_frame){ f->ip, f->addr, f->dso, f->sym, frame_level(f) };
	if (f->dso) {
		/* perf tells dsos apart by name: one object at two paths is one entry */
		void **d = hashmap_slot(&df->dso_by_name, hash_str(f->dso->short_name));

		if (!d)
			return -ENOMEM;
		if (!*d)
			*d = f->dso;
		if (*d != f->dso && !strcmp(((struct dso *)*d)->short_name, f->dso->short_name)) {
			/* and a symbol is one entry when the two objects have it at the same
			 * addresses (perf compares the range); else it stays apart */
			const struct symbol *cs = f->sym ? dso_find_symbol(df->sess->symtab, *d,
									   f->sym->start)
							 : NULL;

			if (!f->sym ||
			    (cs && cs->start == f->sym->start && cs->end == f->sym->end)) {
				hf.dso = *d;
				hf.sym = f->sym ? cs : NULL;
			}
		}
	}
	if (!f->sym) {
		void **slot = hashmap_slot(&df->unresolved, unres_key(hf.dso, hf.level));
		struct unres *u;

		if (!slot || (!*slot && !(*slot = calloc(1, sizeof(struct unres)))))
			return -ENOMEM;
		u = *slot;
		if (!u->first && !u->lowest)
			u->first = u->lowest = hf.dso_ip;
		if (hf.dso_ip < u->lowest)
			u->lowest = hf.dso_ip;
		hf.dso_ip = hf.ip = u->first;
	}
	hs = (struct hist_sample){ .comm = rs->thread->comm,
				   .pid = rs->thread->pid,
				   .tid = rs->thread->tid,
				   .cpu = rs->s->cpu,
				   .period = rs->s->period,
				   .frames = &hf,
				   .nr_frames = 1,
				   .no_chain = true };
	df->nr_samples[idx]++;
	return hist_add(&df->hists[idx], &hs);
}

static int file_load(struct diff_file *df, const struct diff_opts *o, const struct hist_opts *ho)
{
	struct session_opts so = { .open_flags = o->force ? PD_FORCE : 0,
				   .symfs = o->symfs,
				   .kallsyms = o->kallsyms,
				   .no_callchain = true };
	char err[256];
	size_t i;
	int ret;

	df->o = o;
	ret = session_open(df->path, &so, &df->sess, err, sizeof(err));
	if (ret < 0) {
		pr_err("cannot read '%s': %s (perf diff compares perf.data.old with perf.data, or "
		       "the files named)",
		       df->path, err);
		return ret;
	}
	df->hists = calloc(df->sess->pd->nr_attrs, sizeof(*df->hists));
	df->nr_samples = calloc(df->sess->pd->nr_attrs, sizeof(*df->nr_samples));
	if (!df->hists || !df->nr_samples)
		return -ENOMEM;
	for (i = 0; i < df->sess->pd->nr_attrs; i++)
		if (hist_init(&df->hists[i], ho))
			return -ENOMEM;
	ret = session_process(df->sess, on_sample, NULL, df);
	if (ret < 0) {
		pr_err("cannot read '%s': %s", df->path, df->sess->pd->err_msg);
		return ret;
	}
	for (i = 0; i < df->sess->pd->nr_attrs; i++)
		if (hist_collapse(&df->hists[i]))
			return -ENOMEM;
	return 0;
}

static void file_release(struct diff_file *df)
{
	void *v;
	size_t i;

	for (i = 0; df->hists && i < df->sess->pd->nr_attrs; i++)
		hist_release(&df->hists[i]);
	free(df->hists);
	free(df->nr_samples);
	for (size_t it = 0; hashmap_next(&df->unresolved, &it, NULL, &v);)
		free(v);
	hashmap_release(&df->unresolved);
	hashmap_release(&df->dso_by_name);
	session_free(df->sess);
}

/* The event of file f matching the baseline's attr a (same type and config, as perf). */
static const struct hist *match_event(const struct diff_file *df, const struct pd_attr *a)
{
	size_t i;

	for (i = 0; df->sess && i < df->sess->pd->nr_attrs; i++) {
		const struct perf_event_attr *b = &df->sess->pd->attrs[i].attr;

		if (b->type == a->attr.type && b->config == a->attr.config)
			return &df->hists[i];
	}
	return NULL;
}

static int add_col(struct col *cols, int n, int kind, size_t file, const char *name, int width,
		   size_t nr_files)
{
	struct col *c = &cols[n];
	int len;

	if (nr_files > 2)
		snprintf(c->header, sizeof(c->header), "%s/%zu", name, file);
	else
		snprintf(c->header, sizeof(c->header), "%s", name);
	len = (int)strlen(c->header);
	c->width = width > len ? width : len;
	c->kind = kind;
	c->file = file;
	return n + 1;
}

static int make_cols(const struct diff_opts *o, size_t nr_files, struct col *cols)
{
	int n = 0;
	size_t f;

	for (f = 0; f < nr_files && n + 3 <= MAX_COLS; f++) {
		if (!f) {
			n = add_col(cols, n, COL_BASELINE, f, "Baseline", 0, nr_files);
			if (o->period)
				n = add_col(cols, n, COL_BASE_PERIOD, f, "Base period", 14,
					    nr_files);
			continue;
		}
		n = add_col(cols, n, COL_VALUE, f, compute_header[o->c], compute_width[o->c],
			    nr_files);
		if (o->formula)
			n = add_col(cols, n, COL_FORMULA, f, "Formula", 70, nr_files);
		if (o->period)
			n = add_col(cols, n, COL_PERIOD, f, "Period", 14, nr_files);
	}
	return n;
}

static void value_text(const struct pair_set *ps, const struct pair_row *r, const struct col *c,
		       char *buf, size_t len)
{
	const struct hist_entry *base = r->cols[0], *e = r->cols[c->file];
	uint64_t old = base ? base->self : 0;

	buf[0] = 0;
	switch (c->kind) {
	case COL_BASELINE:
		if (base)
			snprintf(buf, len, "%6.2f%%", pair_shown_percent(ps, base));
		return;
	case COL_BASE_PERIOD:
		snprintf(buf, len, "%" PRIu64, old);
		return;
	}
	if (!e)
		return;
	switch (c->kind) {
	case COL_PERIOD:
		snprintf(buf, len, "%" PRIu64, e->self);
		break;
	case COL_FORMULA:
		if (ps->compute == PAIR_RATIO)
			snprintf(buf, len, "%.0F / %.0F", (double)e->self, (double)old);
		else if (ps->compute == PAIR_WDIFF)
			snprintf(buf, len,
				 "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
				 e->self, ps->w2, old, ps->w1);
		else
			snprintf(buf, len,
				 "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64
				 ")",
				 e->self, ps->totals[c->file], old, ps->shown_total0);
		break;
	default:
		if (ps->compute == PAIR_DELTA || ps->compute == PAIR_DELTA_ABS)
			snprintf(buf, len, "%+4.2F%%", r->delta[c->file]);
		else if (!base)
			snprintf(buf, len, "N/A"); /* no ratio or weight without a baseline */
		else if (ps->compute == PAIR_RATIO && r->ratio[c->file] > 0.0)
			snprintf(buf, len, "%14.6F", r->ratio[c->file]);
		else if (ps->compute == PAIR_WDIFF) /* perf 6.1 prints a zero too */
			snprintf(buf, len, "%14" PRId64, r->wdiff[c->file]);
	}
}

static const char *key_header(enum hist_key k)
{
	switch (k) {
	case HK_COMM:
		return "Command";
	case HK_DSO:
		return "Shared Object";
	case HK_SYM:
		return "Symbol";
	default:
		return hist_key_name(k);
	}
}

static void key_text(const struct diff_file *df, const struct hist_entry *e, enum hist_key k,
		     char *buf, size_t len)
{
	void *v = NULL;
	uint64_t ip = e->ip;

	switch (k) {
	case HK_COMM:
		snprintf(buf, len, "%s", e->comm ? e->comm : "");
		break;
	case HK_DSO:
		snprintf(buf, len, "%s",
			 e->dso && e->dso->short_name ? e->dso->short_name : "[unknown]");
		break;
	case HK_SYM:
		if (e->sym) {
			snprintf(buf, len, "[%c] %s", e->level, e->sym->name);
			break;
		}
		if (hashmap_get(&df->unresolved, unres_key(e->dso, e->level), &v))
			ip = ((const struct unres *)v)->lowest;
		snprintf(buf, len, ip ? "[%c] %#018" PRIx64 : "[%c] %016" PRIx64, e->level, ip);
		break;
	default:
		buf[0] = 0;
	}
}

static void print_rule(const struct col *cols, int nc, const int *kw, size_t nk)
{
	int i;
	size_t k;

	printf("#");
	for (i = 0; i < nc; i++)
		printf(" %s%.*s", i ? " " : "", cols[i].width,
		       "......................................................................");
	for (k = 0; k < nk; k++) {
		printf("  ");
		for (i = 0; i < kw[k]; i++)
			putchar('.');
	}
	printf("\n#\n");
}

static void print_event(const struct diff_opts *o, const struct diff_file *files,
			const struct pair_set *ps, const struct hist_opts *ho)
{
	struct col cols[MAX_COLS];
	int nc = make_cols(o, ps->nr_files, cols), kw[HIST_MAX_KEYS], i;
	enum hist_key keys[HIST_MAX_KEYS];
	size_t r, k, nk = 0;
	char buf[512];

	for (k = 0; k < ho->nr_keys; k++)
		if (!key_elided(o, ho->keys[k]))
			keys[nk++] = ho->keys[k];
	/* widths from the rows shown, as perf's */
	for (k = 0; k < nk; k++) {
		kw[k] = (int)strlen(key_header(keys[k]));
		for (r = 0; r < ps->nr_rows; r++) {
			if (entry_hidden(o, ps->rows[r].key))
				continue;
			key_text(&files[ps->rows[r].key_file], ps->rows[r].key, keys[k], buf,
				 sizeof(buf));
			if ((int)strlen(buf) > kw[k])
				kw[k] = (int)strlen(buf);
		}
	}
	if (!o->quiet) {
		printf("#");
		for (i = 0; i < nc; i++)
			printf(" %s%*s", i ? " " : "", cols[i].width, cols[i].header);
		for (k = 0; k < nk; k++)
			printf("  %-*s", kw[k], key_header(keys[k]));
		printf("\n");
		print_rule(cols, nc, kw, nk);
	}
	for (r = 0; r < ps->nr_rows; r++) {
		const struct pair_row *row = &ps->rows[r];

		if (entry_hidden(o, row->key))
			continue;
		printf(" ");
		for (i = 0; i < nc; i++) {
			value_text(ps, row, &cols[i], buf, sizeof(buf));
			printf(" %s%*s", i ? " " : "", cols[i].width, buf[0] ? buf : " ");
		}
		for (k = 0; k < nk; k++) {
			key_text(&files[row->key_file], row->key, keys[k], buf, sizeof(buf));
			/* perf pads every column but a symbol that ends the line */
			printf("  %-*s", k + 1 < nk || keys[k] != HK_SYM ? kw[k] : 0, buf);
		}
		printf("\n");
	}
}

static int diff_files(const struct diff_opts *o, struct diff_file *files, size_t nr,
		      const struct hist_opts *ho)
{
	const struct perf_data *pd = files[0].sess->pd;
	const struct hist **hs = calloc(nr, sizeof(*hs));
	struct pair_set ps;
	size_t a, f;
	bool first = true;

	if (!hs)
		return -ENOMEM;
	for (a = 0; a < pd->nr_attrs; a++) {
		hs[0] = &files[0].hists[a];
		for (f = 1; f < nr; f++)
			hs[f] = match_event(&files[f], &pd->attrs[a]);
		if (pair_set_build(&ps, hs, nr, o->baseline_only) ||
		    pair_set_sort(&ps, o->c, o->w1, o->w2, (size_t)o->order)) {
			pair_set_release(&ps);
			free(hs);
			return -ENOMEM;
		}
		if (!o->quiet)
			printf("%s# Event '%s'\n#\n", first ? "" : "\n", pd->attrs[a].name);
		first = false;
		if (o->verbose || (nr > 2 && !o->quiet)) {
			printf("# Data files:\n");
			for (f = 0; f < nr; f++)
				printf("#  [%zu] %s %s\n", f, files[f].path, f ? "" : "(Baseline)");
			printf("#\n");
		}
		print_event(o, files, &ps, ho);
		pair_set_release(&ps);
	}
	free(hs);
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .sort = "dso,sym", .order = 1 };
	static const char *const usage[] = { "flare diff [<options>] [old_file] [new_file]", NULL };
	const struct opt opts[] = {
		OPT_COUNT('v', "verbose", &o.verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOL('q', "quiet", &o.quiet, "Do not show any warnings or messages"),
		OPT_BOOL('b', "baseline-only", &o.baseline_only,
			 "Show only items with match in baseline"),
		OPT_STRING('c', "compute", &o.compute, "delta,delta-abs,ratio,wdiff:w1,w2",
			   "Entries differential computation selection (default delta-abs)"),
		OPT_BOOL('p', "period", &o.period, "Show period values."),
		OPT_BOOL('F', "formula", &o.formula, "Show formula."),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING('d', "dsos", &o.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_STRING('C', "comms", &o.comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING('S', "symbols", &o.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING('s', "sort", &o.sort, "key[,key2...]",
			   "sort by key(s): comm, dso, symbol"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_INT('o', "order", &o.order, "n", "Specify compute sorting."),
		OPT_STRING(0, "cpu", &o.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "pid", &o.pids, "pid[,pid...]",
			   "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o.tids, "tid[,tid...]",
			   "only consider symbols in these tids"),
		OPT_END(),
	};
	const char *defaults[2] = { "perf.data.old", "perf.data" };
	struct hist_opts ho = { 0 };
	struct diff_file *files;
	size_t nr, i, k;
	char bad[64];
	int ret = 0;

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (parse_compute(&o))
		return 129;
	if (hist_parse_sort(o.sort, &ho, bad, sizeof(bad)) < 0)
		opt_usage_error(opts, usage, "unknown --sort key '%s'", bad);
	for (k = 0; k < ho.nr_keys; k++)
		if (ho.keys[k] != HK_COMM && ho.keys[k] != HK_DSO && ho.keys[k] != HK_SYM)
			opt_usage_error(opts, usage,
					"diff sorts by comm, dso and sym only, not '%s'",
					hist_key_name(ho.keys[k]));
	nr = argc > 1 ? (size_t)argc : 2;
	if (argc == 1)
		defaults[1] = argv[0];
	if (o.order < 0 || (size_t)o.order >= nr) {
		pr_err("-o %d is out of range: files are numbered 0 (the baseline) to %zu", o.order,
		       nr - 1);
		return 255;
	}
	files = calloc(nr, sizeof(*files));
	if (!files)
		return 1;
	for (i = 0; i < nr && !ret; i++) {
		files[i].path = argc > 1 ? argv[i] : defaults[i];
		ret = file_load(&files[i], &o, &ho);
	}
	if (!ret) {
		ret = diff_files(&o, files, nr, &ho);
		if (ret)
			pr_err("diff failed: %s", err_str(ret));
		else if (nr == 2 && !o.quiet && isatty(STDOUT_FILENO))
			fprintf(stderr,
				"\nflare: the same as a picture: flare flamegraph --diff %s %s "
				"-o diff.svg\n",
				files[0].path, files[1].path);
	}
	for (i = 0; i < nr; i++)
		if (files[i].sess)
			file_release(&files[i]);
	free(files);
	return ret ? 255 : 0; /* perf's status for a file it cannot read */
}
