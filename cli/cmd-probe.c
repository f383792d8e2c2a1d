// SPDX-License-Identifier: GPL-2.0
/*
 * flare probe: perf probe 6.1's command. Define uprobes (-x BINARY) from function names,
 * lines, offsets and variables found in DWARF; print kprobe definitions from the same syntax;
 * list (-l) and delete (-d) probe events; show functions (-F), variables (-V) and probe-able
 * lines (-L). Every definition is resolved and checked before anything is written to tracefs,
 * and a batch is added all or none.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/probe.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/probe/events.h"
#include "lib/probe/finder.h"
#include "lib/probe/spec.h"

static const char *const probe_usage[] = {
	"flare probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
	"flare probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
	"flare probe [<options>] --del '[GROUP:]EVENT' ...",
	"flare probe --list [GROUP:]EVENT ...",
	"flare probe [<options>] --line 'LINEDESC'",
	"flare probe [<options>] --vars 'PROBEPOINT'",
	"flare probe [<options>] --funcs",
	NULL,
};

/* perf's exit status for a failure is its negative errno, truncated to a byte */
static int exit_of(int err)
{
	if (err >= 0)
		return 0;
	if (err <= -ERR_BASE)
		return 1;
	return (256 + err) & 0xff;
}

/* probe_<basename up to the first '-' or '.'>, other characters turned into '_' (perf's) */
static void exec_group(const char *exec, char *buf, size_t len)
{
	const char *b = strrchr(exec, '/');
	char *p;
	size_t n;

	b = b ? b + 1 : exec;
	n = strcspn(b, "-.");
	snprintf(buf, len, "probe_%.*s", (int)n, b);
	for (p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
}

struct planned {
	char *line; /* the uprobe_events / kprobe_events line */
	char *name; /* group:event */
	char *desc; /* "(on func_2 in /bin with number)" */
};

struct plan {
	struct planned *v;
	size_t nr;
	enum probe_kind kind;
};

static void plan_release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		free(p->v[i].line);
		free(p->v[i].name);
		free(p->v[i].desc);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int plan_has(const struct plan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->v[i].name, name))
			return 1;
	return 0;
}

/* Picks the event name: base, or base_1, base_2... when taken (the first of a definition
 * only with -f, as perf). */
static int pick_name(const struct plan *p, const char *group, const char *base, int suffix_ok,
		     char *out, size_t len)
{
	int i;

	for (i = 0; i < 1000; i++) {
		char name[600];

		if (i)
			snprintf(out, len, "%s_%d", base, i);
		else
			snprintf(out, len, "%s", base);
		snprintf(name, sizeof(name), "%s:%s", group, out);
		if (!probe_event_exists(group, out) && !plan_has(p, name))
			return 0;
		if (!suffix_ok) {
			pr_err("event \"%s\" already exists (remove it with 'flare probe -d %s', "
			       "or add a numbered duplicate with -f)",
			       base, name);
			return -EEXIST;
		}
	}
	return -EEXIST;
}

static int plan_add(struct plan *p, char *line, char *name, char *desc)
{
	struct planned *n = realloc(p->v, (p->nr + 1) * sizeof(*n));

	if (!n || !line || !name || !desc) {
		free(line);
		free(name);
		free(desc);
		return -ENOMEM;
	}
	p->v = n;
	n[p->nr].line = line;
	n[p->nr].name = name;
	n[p->nr].desc = desc;
	p->nr++;
	return 0;
}

static char *with_str(const char *point, const char *exec, const char *names)
{
	char *s;

	if (asprintf(&s, "(on %s%s%s%s%s)", point, exec ? " in " : "", exec ? exec : "",
		     names && *names ? " with" : "", names && *names ? names : "") < 0)
		return NULL;
	return s;
}

/* One user definition on a binary: resolved, named, appended to the plan. */
static int plan_uprobe(struct probe_ctx *pc, struct probe_bin *bin, const char *exec,
		       const char *text, struct plan *p, int check_names)
{
	struct probe_spec spec;
	struct probe_trace *t = NULL;
	size_t nr = 0, i;
	char err[512], group[300], ev[300];
	int r = probe_spec_parse(text, &spec, err, sizeof(err));

	if (r) {
		pr_err("invalid probe definition '%s': %s", text, err);
		return r;
	}
	r = probe_find(bin, &spec, &pc->find, &t, &nr, err, sizeof(err));
	if (r) {
		pr_err("cannot place probe: %s", err);
		goto out;
	}
	for (i = 0; i < nr && !r; i++) {
		if (spec.group)
			snprintf(group, sizeof(group), "%s", spec.group);
		else if (t[i].group)
			snprintf(group, sizeof(group), "%s", t[i].group);
		else
			exec_group(exec, group, sizeof(group));
		char *line, *name, *point = probe_spec_point_str(&spec);

		/* a dry run names as perf's does: no look at tracefs, no suffixes */
		if (check_names)
			r = pick_name(p, group, spec.event ? spec.event : t[i].event,
				      pc->force || i > 0, ev, sizeof(ev));
		else
			snprintf(ev, sizeof(ev), "%s", spec.event ? spec.event : t[i].event);
		if (r) {
			free(point);
			break;
		}
		line = probe_trace_uprobe_def(&t[i], group, ev, exec);
		if (asprintf(&name, "%s:%s", group, ev) < 0)
			name = NULL;
		r = plan_add(p, line, name, with_str(point ? point : "?", exec, t[i].argnames));
		free(point);
	}
out:
	probe_traces_free(t, nr);
	probe_spec_release(&spec);
	return r;
}

static int resolve_exec(const char *x, char *out)
{
	if (!realpath(x, out)) {
		int e = errno;

		pr_err("cannot open '%s': %s (give -x the path of a program or library)", x,
		       strerror(e));
		return -e;
	}
	if (access(out, R_OK)) {
		pr_err("cannot read '%s': %s", out, strerror(errno));
		return -errno;
	}
	return 0;
}

static void print_added(const struct probe_ctx *pc, const struct plan *p)
{
	size_t i;

	if (pc->quiet)
		return;
	fprintf(stderr, "Added new event%s:\n", p->nr > 1 ? "s" : "");
	for (i = 0; i < p->nr; i++)
		fprintf(stderr, "  %-20s %s\n", p->v[i].name, p->v[i].desc);
	fprintf(stderr,
		"\nYou can now use it in all flare tools, such as:\n\n"
		"\tflare record -e %s -aR sleep 1\n\n",
		p->v[p->nr - 1].name);
}

int probe_cmd_add(struct probe_ctx *pc, char *const *defs, size_t ndefs, int definition_only)
{
	struct plan p = { 0 };
	struct probe_bin *bin = NULL;
	char exec[PATH_MAX], err[512];
	size_t i, failed = 0;
	int r;

	if (!pc->exec) {
		r = probe_plan_kprobes(pc, defs, ndefs, definition_only);
		return exit_of(r);
	}
	p.kind = PROBE_UPROBE;
	r = resolve_exec(pc->exec, exec);
	if (r)
		return exit_of(r);
	r = probe_bin_open(exec, &bin, err, sizeof(err));
	if (r) {
		pr_err("%s", err);
		return exit_of(r);
	}
	for (i = 0; i < ndefs && !r; i++)
		r = plan_uprobe(pc, bin, exec, defs[i], &p, !definition_only && !pc->dry_run);
	probe_bin_close(bin);
	if (r)
		goto out;
	if (definition_only) {
		for (i = 0; i < p.nr; i++)
			printf("%s\n", p.v[i].line);
		goto out;
	}
	if (!pc->dry_run) {
		char **lines = calloc(p.nr, sizeof(*lines));

		if (!lines) {
			r = -ENOMEM;
			goto out;
		}
		for (i = 0; i < p.nr; i++)
			lines[i] = p.v[i].line;
		r = probe_events_add(PROBE_UPROBE, lines, p.nr, &failed);
		free(lines);
		if (r) {
			pr_err("tracefs refused '%s': %s (nothing was added)", p.v[failed].line,
			       err_str(r));
			goto out;
		}
	}
	print_added(pc, &p);
out:
	plan_release(&p);
	return exit_of(r);
}

int probe_cmd_del(struct probe_ctx *pc, const struct opt_strlist *pats)
{
	struct probe_def *d[2] = { NULL, NULL };
	size_t nr[2] = { 0, 0 }, i, k;
	int kind, r = 0, removed = 0;

	for (kind = 0; kind < 2; kind++)
		if (probe_events_available((enum probe_kind)kind))
			probe_events_read((enum probe_kind)kind, &d[kind], &nr[kind]);
	for (k = 0; k < pats->nr; k++) {
		const char *pat = pats->items[k], *colon = strchr(pat, ':');
		char gpat[256];
		const char *epat = colon ? colon + 1 : pat;
		int matched = 0;

		snprintf(gpat, sizeof(gpat), "%.*s", colon ? (int)(colon - pat) : 1,
			 colon ? pat : "*");
		for (kind = 0; kind < 2; kind++)
			for (i = 0; i < nr[kind]; i++) {
				struct probe_def *e = &d[kind][i];
				int rr;

				if (!e->group || fnmatch(gpat, e->group, 0) ||
				    fnmatch(epat, e->event, 0))
					continue;
				matched = 1;
				rr = probe_event_remove((enum probe_kind)kind, e->group, e->event);
				if (rr) {
					pr_err("cannot remove %s:%s: %s%s", e->group, e->event,
					       err_str(rr),
					       rr == -EBUSY
						       ? " (it is in use: stop the tool recording it)"
						       : "");
					r = rr;
					continue;
				}
				removed++;
				if (!pc->quiet)
					fprintf(stderr, "Removed event: %s:%s\n", e->group,
						e->event);
				free(e->group); /* removed: not matched again */
				e->group = NULL;
			}
		if (!matched) {
			pr_err("\"%s\" does not hit any event (see flare probe -l)", pat);
			r = -ENOENT;
		}
	}
	probe_defs_free(d[0], nr[0]);
	probe_defs_free(d[1], nr[1]);
	return exit_of(r);
}

static void list_one(struct probe_def *e, struct probe_bin **bin, const char **binpath)
{
	char name[600], *on = NULL;
	struct strbuf names = STRBUF_INIT;
	const char *a = e->args;

	while (*a) { /* "x=+0(%si):s32 y=..." -> " x y" */
		size_t n = strcspn(a, " "), eq = strcspn(a, "=");

		strbuf_addf(&names, " %.*s", (int)(eq < n ? eq : n), a);
		a += n;
		a += strspn(a, " ");
	}
	snprintf(name, sizeof(name), "%s:%s", e->group, e->event);
	if (e->kind == PROBE_UPROBE) {
		char err[256];

		if (!*binpath || strcmp(*binpath, e->path)) {
			probe_bin_close(*bin);
			*bin = NULL;
			*binpath = e->path;
			if (probe_bin_open(e->path, bin, err, sizeof(err)))
				*bin = NULL;
		}
		on = *bin ? probe_bin_describe(*bin, e->offset, e->is_return) : NULL;
		if (!on && asprintf(&on, "0x%llx", (unsigned long long)e->offset) < 0)
			on = NULL;
		printf("  %-20s (on %s in %s%s%s)\n", name, on ? on : "?", e->path,
		       names.len ? " with" : "", names.buf);
	} else {
		printf("  %-20s (on %s%s%s%s)\n", name, e->target, e->is_return ? "%return" : "",
		       names.len ? " with" : "", names.buf);
	}
	free(on);
	strbuf_release(&names);
}

int probe_cmd_list(struct probe_ctx *pc, const char *filter)
{
	struct probe_bin *bin = NULL;
	const char *binpath = NULL;
	int kind;

	for (kind = PROBE_KPROBE; kind >= PROBE_UPROBE; kind--) {
		struct probe_def *d;
		size_t nr, i;

		if (!probe_events_available((enum probe_kind)kind) ||
		    probe_events_read((enum probe_kind)kind, &d, &nr))
			continue;
		for (i = 0; i < nr; i++) {
			char name[600];

			snprintf(name, sizeof(name), "%s:%s", d[i].group, d[i].event);
			if (filter && fnmatch(filter, name, 0) &&
			    (strchr(filter, ':') || fnmatch(filter, d[i].event, 0)))
				continue;
			list_one(&d[i], &bin, &binpath);
		}
		probe_bin_close(bin);
		bin = NULL;
		binpath = NULL;
		probe_defs_free(d, nr);
	}
	return 0;
}

/* Joins argv[0..argc) with blanks: perf reads 'func_2 number' and func_2 number alike */
static char *join_args(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < argc; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", argv[i]);
	return strbuf_detach(&sb);
}

static int set_optarg(const struct opt *o, const char *arg, int unset)
{
	*(int *)o->value = 1;
	if (arg)
		*(const char **)o->data = arg;
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_ctx pc = { 0 };
	struct opt_strlist add = { 0 }, del = { 0 }, defs = { 0 };
	const char *list_arg = NULL, *funcs_arg = NULL, *vars = NULL, *line = NULL;
	const char *module = NULL;
	int list = 0, funcs = 0, verbose = 0, no_inlines = 0, max_probes = 0, nmodes, r;
	char *joined = NULL;
	struct opt opts[] = {
		OPT_STRLIST(
			'a', "add", &add,
			"[EVENT=]FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT [[NAME=]ARG ...]",
			"probe point definition"),
		OPT_STRLIST('D', "definition", &defs, "PROBEDEF",
			    "Show trace event definition of given traceevent for k/uprobe_events."),
		OPT_STRLIST('d', "del", &del, "[GROUP:]EVENT", "delete a probe event."),
		OPT_BOOL('f', "force", &pc.force, "forcibly add events with existing name"),
		OPT_CALLBACK_OPTARG('F', "funcs", &funcs, "[FILTER]",
				    "Show potential probe-able functions.", set_optarg),
		OPT_STRING('k', "vmlinux", &pc.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING('L', "line", &line, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
			   "Show source code lines."),
		OPT_CALLBACK_OPTARG('l', "list", &list, "[GROUP:]EVENT", "list up probe events",
				    set_optarg),
		OPT_STRING('m', "module", &module, "modname|path",
			   "target module name (for online) or path (for offline)"),
		OPT_BOOL('n', "dry-run", &pc.dry_run, "dry run"),
		OPT_BOOL('q', "quiet", &pc.quiet,
			 "be quiet (do not show any warnings or messages)"),
		OPT_STRING('s', "source", &pc.source, "directory", "path to kernel source"),
		OPT_STRING('V', "vars", &vars, "FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT",
			   "Show accessible variables on PROBEDEF"),
		OPT_COUNT('v', "verbose", &verbose, "be more verbose (show parsed arguments, etc)"),
		OPT_STRING('x', "exec", &pc.exec, "executable|path",
			   "target executable name or path"),
		OPT_BOOL(0, "externs", &pc.externs,
			 "Show external variables too (with --vars only)"),
		OPT_STRING(0, "filter", &pc.filter, "[!]FILTER",
			   "Set a filter (with --vars/funcs only)"),
		OPT_INT(0, "max-probes", &max_probes, "n",
			"Set how many probe points can be found for a probe."),
		OPT_BOOL(0, "no-inlines", &no_inlines, "Don't search inlined functions"),
		OPT_END(),
	};

	opts[4].data = (intptr_t)&funcs_arg;
	opts[7].data = (intptr_t)&list_arg;
	argc = opt_parse(argc, argv, opts, probe_usage, 0);
	out_verbose = verbose;
	pc.find.no_inlines = no_inlines;
	pc.find.max_probes = max_probes;
	pc.find.x_types = 1;
	if (module && !strchr(module, '/') && !strchr(module, '.'))
		opt_usage_error(
			opts, probe_usage,
			"-m/--module: this kernel has no kprobe_events "
			"(CONFIG_KPROBE_EVENTS is off), so loaded modules cannot be probed; "
			"give the path of a module with debug info (-m ./mod.ko) for -L, -F, "
			"-V and -D, or use -x for user space");
	pc.kobj = module ? module : pc.vmlinux;
	pc.find.source_prefix = pc.source;
	nmodes = !!(add.nr || argc > 0) + !!del.nr + !!list + !!funcs + !!vars + !!line + !!defs.nr;
	if (nmodes > 1 && !(list && argc == 1 && nmodes == 2 && !add.nr) &&
	    !(funcs && argc == 1 && nmodes == 2 && !add.nr))
		opt_usage_error(opts, probe_usage, "another command except --add is set.");
	if (list) {
		if (pc.exec)
			opt_usage_error(opts, probe_usage, "Don't use --list with --exec.");
		r = probe_cmd_list(&pc, list_arg ? list_arg : argc ? argv[0] : NULL);
	} else if (funcs) {
		r = probe_cmd_funcs(&pc, funcs_arg ? funcs_arg : argc ? argv[0] : NULL);
	} else if (vars) {
		r = probe_cmd_vars(&pc, vars);
	} else if (line) {
		r = probe_cmd_lines(&pc, line);
	} else if (del.nr) {
		r = probe_cmd_del(&pc, &del);
	} else if (defs.nr) {
		r = probe_cmd_add(&pc, (char *const *)defs.items, defs.nr, 1);
	} else if (add.nr || argc > 0) {
		if (argc > 0) {
			joined = join_args(argc, argv);
			r = probe_cmd_add(&pc, &joined, 1, 0);
		} else {
			r = probe_cmd_add(&pc, (char *const *)add.items, add.nr, 0);
		}
	} else {
		opt_usage_exit(opts, probe_usage, 0, 129);
	}
	free(joined);
	opt_strlist_free(&add);
	opt_strlist_free(&del);
	opt_strlist_free(&defs);
	return r;
}
