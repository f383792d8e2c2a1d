// SPDX-License-Identifier: GPL-2.0
/*
 * flare probe, kernel side: the same definitions as for user space become kprobe definitions
 * ("p:probe/tcp_sendmsg _text+16837680 bytes=%cx"), printed with -D and -n. Adding them needs
 * kprobe_events; without it (CONFIG_KPROBE_EVENTS off) flare says so and changes nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/out.h"
#include "cli/probe.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/probe/events.h"
#include "lib/probe/finder.h"
#include "lib/probe/kernel.h"
#include "lib/probe/spec.h"

static int kprobe_line(struct probe_ctx *pc, const char *text, char **line, char **name,
		       char **desc)
{
	struct probe_spec s;
	char err[512], ev[300];
	const char *group;
	struct strbuf args = STRBUF_INIT, names = STRBUF_INIT;
	uint64_t off;
	size_t i;
	int r = probe_spec_parse(text, &s, err, sizeof(err));

	if (r) {
		pr_err("invalid probe definition '%s': %s", text, err);
		return r;
	}
	r = -EINVAL;
	if (s.kind != PP_FUNC || s.line >= 0 || s.lazy || s.file) {
		pr_err("'%s': kernel lines and source files need the kernel's debug info, which "
		       "flare does not read (probe a function, FUNC or FUNC+OFFS)",
		       text);
		goto out;
	}
	for (i = 0; i < s.nr_args; i++) {
		const struct probe_arg *a = &s.args[i];

		if (probe_arg_needs_dwarf(a)) {
			pr_err("'%s': kernel variables need the kernel's debug info; give the "
			       "register or memory it is in instead (%s=%%si, +18(%%si):u8)",
			       a->expr, a->name ? a->name : a->expr);
			goto out;
		}
		strbuf_addf(&args, " %s%s%s%s%s", a->name ?: "", a->name ? "=" : "", a->expr,
			    a->type ? ":" : "", a->type ?: "");
		strbuf_addf(&names, " %s%s%s%s%s", a->name ?: "", a->name ? "=" : "", a->expr,
			    a->type ? ":" : "", a->type ?: "");
	}
	r = probe_kallsyms_offset(NULL, s.func, &off);
	if (r) {
		pr_err("'%s': %s", s.func,
		       r == -ENOENT
			       ? "no such kernel function in /proc/kallsyms (see flare probe -F)"
			       : "kernel addresses are hidden (kptr_restrict): run as root");
		goto out;
	}
	group = s.group ? s.group : "probe";
	snprintf(ev, sizeof(ev), "%s%s", s.event ? s.event : s.func,
		 !s.event && s.is_return ? "__return" : "");
	if (!pc->force && probe_event_exists(group, ev)) {
		pr_err("event \"%s\" already exists (remove it with 'flare probe -d %s:%s')", ev,
		       group, ev);
		r = -EEXIST;
		goto out;
	}
	/* perf writes a return probe on the symbol (kretprobes need one), others from _text */
	if (s.is_return && asprintf(line, "r:%s/%s %s+%llu%s", group, ev, s.func,
				    (unsigned long long)s.offset, args.buf) < 0)
		*line = NULL;
	else if (!s.is_return && asprintf(line, "p:%s/%s _text+%llu%s", group, ev,
					  (unsigned long long)(off + s.offset), args.buf) < 0)
		*line = NULL;
	if (asprintf(name, "%s:%s", group, ev) < 0)
		*name = NULL;
	{
		char *pt = probe_spec_point_str(&s);

		if (asprintf(desc, "(on %s%s%s)", pt ? pt : "?", names.len ? " with" : "",
			     names.buf) < 0)
			*desc = NULL;
		free(pt);
	}
	r = *line && *name && *desc ? 0 : -ENOMEM;
out:
	strbuf_release(&args);
	strbuf_release(&names);
	probe_spec_release(&s);
	return r;
}

/* The kprobe definitions of one definition in a vmlinux or module with debug info, as perf
 * prints them: "p:probe/kfunc kfunc+0 size=%si:s32", appended to *out */
static int debuginfo_lines(struct probe_ctx *pc, struct probe_bin *bin, const char *text,
			   struct strbuf *out)
{
	struct probe_spec s;
	struct probe_trace *t = NULL;
	size_t nr = 0, i;
	char err[512], where[512];
	int r = probe_spec_parse(text, &s, err, sizeof(err));

	if (r) {
		pr_err("invalid probe definition '%s': %s", text, err);
		return r;
	}
	r = probe_find(bin, &s, &pc->find, &t, &nr, err, sizeof(err));
	if (r)
		pr_err("cannot place probe: %s", err);
	for (i = 0; i < nr && !r; i++) {
		if (probe_bin_sym_off(bin, t[i].vaddr, where, sizeof(where))) {
			pr_err("'%s': no symbol holds address 0x%llx in %s", text,
			       (unsigned long long)t[i].vaddr, pc->kobj);
			r = -ENOENT;
			break;
		}
		strbuf_addf(out, "%c:%s/%s %s%s\n", t[i].is_return ? 'r' : 'p',
			    s.group ? s.group : "probe", s.event ? s.event : t[i].event, where,
			    t[i].args);
	}
	probe_traces_free(t, nr);
	probe_spec_release(&s);
	return r;
}

/* -k VMLINUX / -m MODULE: definitions from the object's debug info. They are printed (-D);
 * adding them needs the running kernel to be that object, and kprobe_events */
static int kprobes_from_debuginfo(struct probe_ctx *pc, char *const *defs, size_t ndefs,
				  int definition_only)
{
	struct probe_bin *bin = NULL;
	struct strbuf out = STRBUF_INIT;
	char err[512];
	size_t i;
	int r;

	if (!definition_only) {
		if (!probe_events_available(PROBE_KPROBE))
			pr_err("cannot add kernel probes: this kernel has no kprobe_events "
			       "(CONFIG_KPROBE_EVENTS is off); use -x BINARY to probe user space");
		else
			pr_err("%s: flare adds kernel probes without debug info only (FUNC+OFFS "
			       "and registers); -D prints the definitions from it",
			       pc->kobj);
		return -ENOENT;
	}
	r = probe_bin_open(pc->kobj, &bin, err, sizeof(err));
	if (r) {
		pr_err("%s", err);
		return r;
	}
	for (i = 0; i < ndefs && !r; i++)
		r = debuginfo_lines(pc, bin, defs[i], &out);
	if (!r)
		fputs(out.buf, stdout);
	strbuf_release(&out);
	probe_bin_close(bin);
	return r;
}

int probe_plan_kprobes(struct probe_ctx *pc, char *const *defs, size_t ndefs, int definition_only)
{
	char **lines = calloc(ndefs, sizeof(*lines)), **names = calloc(ndefs, sizeof(*names));
	char **descs = calloc(ndefs, sizeof(*descs));
	size_t i, failed = 0;
	int r = lines && names && descs ? 0 : -ENOMEM;

	if (pc->kobj && !r) {
		free(lines);
		free(names);
		free(descs);
		return kprobes_from_debuginfo(pc, defs, ndefs, definition_only);
	}
	for (i = 0; i < ndefs && !r; i++)
		r = kprobe_line(pc, defs[i], &lines[i], &names[i], &descs[i]);
	if (r)
		goto out;
	if (definition_only) {
		for (i = 0; i < ndefs; i++)
			printf("%s\n", lines[i]);
		goto out;
	}
	if (!pc->dry_run) {
		if (!probe_events_available(PROBE_KPROBE)) {
			pr_err("cannot add %s: this kernel has no kprobe_events (CONFIG_KPROBE_EVENTS "
			       "is off); use -x BINARY to probe user space",
			       names[0]);
			r = -ENOENT;
			goto out;
		}
		r = probe_events_add(PROBE_KPROBE, lines, ndefs, &failed);
		if (r) {
			pr_err("tracefs refused '%s': %s (nothing was added)", lines[failed],
			       err_str(r));
			goto out;
		}
	}
	if (!pc->quiet) {
		fprintf(stderr, "Added new event%s:\n", ndefs > 1 ? "s" : "");
		for (i = 0; i < ndefs; i++)
			fprintf(stderr, "  %-20s %s\n", names[i], descs[i]);
		fprintf(stderr,
			"\nYou can now use it in all flare tools, such as:\n\n"
			"\tflare record -e %s -aR sleep 1\n\n",
			names[ndefs - 1]);
	}
out:
	for (i = 0; i < ndefs && lines; i++) {
		free(lines[i]);
		free(names ? names[i] : NULL);
		free(descs ? descs[i] : NULL);
	}
	free(lines);
	free(names);
	free(descs);
	return r;
}
