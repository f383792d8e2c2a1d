// SPDX-License-Identifier: GPL-2.0
/*
 * The 'flare ftrace' subcommands that look at tracefs or poke it once (show, marker,
 * snapshot, report, -F), and what flare says when the kernel refuses something.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tracefs.h>
#include "cli/ftrace.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/sym/sym.h"
#include "lib/trace/ftfile.h"
#include "lib/trace/tp.h"

#define WHAT_WORKS                                                                                 \
	"what works here: events (flare ftrace -e SUBSYS:EVENT), uprobes, and "                    \
	"sampling (flare record)"

static const char *tdir(void)
{
	const char *dir = NULL;

	if (tp_tracefs_dir(&dir)) {
		pr_err("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		return NULL;
	}
	return dir;
}

/* The first line of a top-level tracefs file, or NULL; free() it. */
static char *read_line(const char *dir, const char *file, int *err)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096];
	int e;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	e = strbuf_read_file(&sb, path);
	if (err)
		*err = e;
	if (e < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	while (sb.len && (sb.buf[sb.len - 1] == '\n' || sb.buf[sb.len - 1] == ' '))
		sb.buf[--sb.len] = '\0';
	return strbuf_detach(&sb);
}

int ftrace_refused(const char *what, const char *file, int err)
{
	const char *dir = tdir();
	char *avail = dir ? read_line(dir, "available_tracers", NULL) : NULL;
	bool listed = false;

	if (avail) {
		char *save = NULL, *tok, *dup = strdup(avail);

		for (tok = dup ? strtok_r(dup, " ", &save) : NULL; tok;
		     tok = strtok_r(NULL, " ", &save))
			listed |= !strcmp(tok, what);
		free(dup);
	}
	if (err == -EPERM)
		pr_err("the kernel refuses the function tracer here (%s, for %s: %s); " WHAT_WORKS,
		       file, what, err_str(err));
	else if (!listed && strstr(what, "function"))
		pr_err("this kernel has no %s tracer (available_tracers: %s); " WHAT_WORKS, what,
		       avail ? avail : "unreadable");
	else
		pr_err("the kernel refuses %s (%s: %s); " WHAT_WORKS, what, file, err_str(err));
	free(avail);
	return 1;
}

struct trig_find {
	char *avail;
};

static int trig_first(const char *sys, const char *name, void *arg)
{
	struct trig_find *f = arg;
	const char *dir = NULL;
	char file[1024];
	struct strbuf sb = STRBUF_INIT;
	char *p;

	if (tp_tracefs_dir(&dir))
		return 1;
	snprintf(file, sizeof(file), "%s/events/%s/%s/trigger", dir, sys, name);
	if (!strbuf_read_file(&sb, file) && (p = strstr(sb.buf, "# Available triggers:\n# "))) {
		p += strlen("# Available triggers:\n# ");
		f->avail = strndup(p, strcspn(p, "\n"));
	}
	strbuf_release(&sb);
	return 1;
}

int ftrace_check_trigger(const char *sys, const char *name, const char *trigger)
{
	struct trig_find f = { NULL };
	size_t n = strcspn(trigger, ": ");
	char *word = strndup(trigger, n), *save = NULL, *tok;
	bool ok = false;

	tp_for_each(sys, name, 0, trig_first, &f);
	if (!f.avail || !word) {
		free(word);
		free(f.avail);
		return 0; /* no list to judge by: the kernel says at the write */
	}
	for (tok = strtok_r(f.avail, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		ok |= !strcmp(tok, word);
	if (!ok) {
		free(f.avail);
		f.avail = NULL;
		tp_for_each(sys, name, 0, trig_first, &f);
		pr_err("this kernel has no '%s' trigger on %s:%s (it offers: %s)%s", word, sys,
		       name ? name : "*", f.avail ? f.avail : "",
		       !strcmp(word, "snapshot") ? "; the snapshot buffer is not built in"
		       : !strcmp(word, "hist")	 ? "; hist triggers are not built in"
						 : "");
	}
	free(word);
	free(f.avail);
	return ok ? 0 : 1;
}

int ftrace_list_funcs(const char *glob)
{
	const char *dir = tdir();
	char path[4096], line[512];
	FILE *f;

	if (!dir)
		return 1;
	snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
	f = fopen(path, "r");
	if (!f)
		return ftrace_refused("function", "reading available_filter_functions", -errno);
	while (fgets(line, sizeof(line), f)) {
		char *sp = strpbrk(line, " \t\n");

		if (sp)
			*sp = '\0';
		if (!glob || !fnmatch(glob, line, 0))
			printf("%s\n", line);
	}
	fclose(f);
	return 0;
}

int ftrace_marker(int argc, char **argv)
{
	const char *dir = tdir();
	struct strbuf sb = STRBUF_INIT;
	char path[4096];
	FILE *f;
	int i, rc = 0;

	if (!dir)
		return 1;
	if (argc < 2) {
		pr_err("usage: flare ftrace marker TEXT...");
		return 129;
	}
	for (i = 1; i < argc; i++)
		strbuf_addf(&sb, "%s%s", i > 1 ? " " : "", argv[i]);
	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	f = fopen(path, "w");
	if (!f || fputs(sb.buf, f) < 0 || fclose(f)) {
		pr_err("cannot write to %s: %s", path, strerror(errno));
		rc = 1;
	}
	strbuf_release(&sb);
	return rc;
}

int ftrace_snapshot(int argc, char **argv)
{
	const char *dir = tdir(), *what = argc > 1 ? argv[1] : "show";
	char path[4096];
	FILE *f;
	int c;

	if (!dir)
		return 1;
	snprintf(path, sizeof(path), "%s/snapshot", dir);
	if (strcmp(what, "take") && strcmp(what, "show") && strcmp(what, "free")) {
		pr_err("unknown snapshot action '%s' (use take, show or free)", what);
		return 129;
	}
	if (access(path, F_OK)) {
		pr_err("this kernel has no snapshot buffer (no 'snapshot' file in tracefs: "
		       "CONFIG_TRACER_SNAPSHOT is off); record the events instead (flare ftrace record)");
		return 1;
	}
	if (!strcmp(what, "show")) {
		f = fopen(path, "r");
		if (!f) {
			pr_err("cannot read %s: %s", path, strerror(errno));
			return 1;
		}
		while ((c = getc(f)) != EOF)
			putchar(c);
		fclose(f);
		return 0;
	}
	f = fopen(path, "w");
	if (!f || fputs(!strcmp(what, "take") ? "1" : "0", f) < 0 || fclose(f)) {
		pr_err("cannot write %s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

struct show_ctx {
	const char *dir;
	int filters, triggers;
};

static int show_event(const char *sys, const char *name, void *arg)
{
	struct show_ctx *c = arg;
	struct strbuf sb = STRBUF_INIT;
	char path[4096], *p, *l;

	snprintf(path, sizeof(path), "%s/events/%s/%s/filter", c->dir, sys, name);
	if (!strbuf_read_file(&sb, path) && sb.len && strcmp(sb.buf, "none\n")) {
		printf("  filter   %s:%s  %s", sys, name, sb.buf);
		c->filters++;
	}
	strbuf_reset(&sb);
	snprintf(path, sizeof(path), "%s/events/%s/%s/trigger", c->dir, sys, name);
	if (!strbuf_read_file(&sb, path)) {
		for (p = sb.buf; (l = strsep(&p, "\n"));)
			if (*l && *l != '#') {
				printf("  trigger  %s:%s  %s\n", sys, name, l);
				c->triggers++;
			}
	}
	strbuf_release(&sb);
	return 0;
}

static void show_file(const char *dir, const char *label, const char *file)
{
	int err = 0;
	char *v = read_line(dir, file, &err);

	printf("%-16s %s\n", label, v ? (*v ? v : "(empty)") : err_str(err));
	free(v);
}

int ftrace_show(int argc, char **argv)
{
	const char *dir = tdir();
	struct show_ctx c = { dir, 0, 0 };
	struct strbuf sb = STRBUF_INIT;
	char path[4096], *p, *l;
	char **inst;
	size_t i;

	if (!dir)
		return 1;
	show_file(dir, "tracer", "current_tracer");
	show_file(dir, "tracing_on", "tracing_on");
	show_file(dir, "trace_clock", "trace_clock");
	show_file(dir, "buffer_size_kb", "buffer_size_kb");
	show_file(dir, "tracing_cpumask", "tracing_cpumask");
	show_file(dir, "tracing_thresh", "tracing_thresh");
	show_file(dir, "set_event_pid", "set_event_pid");
	show_file(dir, "set_ftrace_pid", "set_ftrace_pid");
	show_file(dir, "set_ftrace_filter", "set_ftrace_filter");
	snprintf(path, sizeof(path), "%s/set_event", dir);
	printf("enabled events:\n");
	if (!strbuf_read_file(&sb, path))
		for (p = sb.buf; (l = strsep(&p, "\n"));)
			if (*l)
				printf("  %s\n", l);
	printf("filters and triggers:\n");
	tp_for_each(NULL, NULL, TP_SORTED, show_event, &c);
	if (!c.filters && !c.triggers)
		printf("  none\n");
	strbuf_reset(&sb);
	printf("probes (uprobe_events):\n");
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	if (!strbuf_read_file(&sb, path))
		for (p = sb.buf; (l = strsep(&p, "\n"));)
			if (*l)
				printf("  %s\n", l);
	strbuf_release(&sb);
	printf("instances:\n");
	snprintf(path, sizeof(path), "%s/instances", dir);
	inst = tracefs_instances(NULL);
	for (i = 0; inst && inst[i]; i++) {
		char file[512], *tr, *on;

		snprintf(file, sizeof(file), "instances/%s/current_tracer", inst[i]);
		tr = read_line(dir, file, NULL);
		snprintf(file, sizeof(file), "instances/%s/tracing_on", inst[i]);
		on = read_line(dir, file, NULL);
		printf("  %-24s tracer %s, tracing_on %s\n", inst[i], tr ? tr : "?", on ? on : "?");
		free(tr);
		free(on);
	}
	tracefs_list_free(inst);
	return 0;
}

/* The name a trace_pipe line shows ("comm-pid [cpu] flags ts: name: info"; a syscall
 * event shows "sys_getppid()", named up to its parenthesis). */
static bool line_event(const char *line, char *name, size_t size)
{
	const char *p = strstr(line, "] "), *q, *e;

	if (!p || !(q = strstr(p, ": ")))
		return false;
	q += 2;
	e = q + strcspn(q, ":( \n");
	if (e == q || !*e)
		return false;
	if (!e || (size_t)(e - q) >= size)
		return false;
	memcpy(name, q, (size_t)(e - q));
	name[e - q] = '\0';
	return true;
}

struct count {
	char name[64];
	unsigned long n;
};

struct report {
	bool stats;
	struct count counts[256];
	size_t nr;
};

static int report_line(void *ctx, const char *line, size_t len)
{
	struct report *r = ctx;
	char name[64];
	size_t i;

	if (!r->stats)
		return fwrite(line, 1, len, stdout) == len ? 0 : -EIO;
	if (!line_event(line, name, sizeof(name)))
		return 0;
	for (i = 0; i < r->nr && strcmp(r->counts[i].name, name); i++)
		;
	if (i == r->nr && r->nr < 256) {
		snprintf(r->counts[r->nr].name, sizeof(r->counts[r->nr].name), "%s", name);
		r->counts[r->nr++].n = 0;
	}
	if (i < r->nr)
		r->counts[i].n++;
	return 0;
}

int ftrace_report(int argc, char **argv)
{
	const char *input = "flare.ftrace";
	struct report *r = calloc(1, sizeof(*r));
	unsigned long long lost = 0;
	struct symtab *syms;
	int stats = 0, fd, err, rc = 1;
	struct stat st;
	void *map;
	size_t i;
	const char *const usage[] = { "flare ftrace report [-i FILE] [--stats]", NULL };
	const struct opt opts[] = {
		OPT_STRING('i', "input", &input, "file", "the file 'flare ftrace record' wrote"),
		OPT_BOOL('s', "stats", &stats, "count the events by name instead of printing them"),
		OPT_END(),
	};

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (argc)
		opt_usage_error(opts, usage, "unexpected argument '%s'", argv[0]);
	if (!r)
		return 1;
	r->stats = stats;
	fd = open(input, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		pr_err("cannot open '%s': %s (write one with 'flare ftrace record')", input,
		       strerror(errno));
		goto out;
	}
	map = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (map == MAP_FAILED) {
		pr_err("cannot read '%s': %s", input, strerror(errno));
		goto out;
	}
	if (symtab_new(NULL, &syms))
		syms = NULL; /* kernel addresses then show in hex */
	err = ftfile_decode(map, (size_t)st.st_size, syms, report_line, r, &lost);
	symtab_free(syms);
	if (map)
		munmap(map, (size_t)st.st_size);
	if (err == -ERR_FORMAT)
		pr_err("'%s' is not a file of 'flare ftrace record' (or it is cut short or damaged)",
		       input);
	else if (err)
		pr_err("cannot read '%s': %s", input, err_str(err));
	if (err)
		goto out;
	for (i = 0; i < r->nr; i++)
		printf("%12lu  %s\n", r->counts[i].n, r->counts[i].name);
	if (lost)
		pr_warn("%llu events lost while recording: the buffer was full (a bigger -m helps)",
			lost);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(r);
	return rc;
}
