// SPDX-License-Identifier: GPL-2.0
/*
 * reader against Linux perf: records made here by perf 6.1 (-g, --call-graph dwarf, -a -g,
 * a tracepoint, several events, -z, pipe mode through a real pipe, a uprobe) are read and
 * compared with what perf itself says about the same file: sample counts and call-chain
 * lengths (perf report -D), event names (perf evlist), the header (perf report
 * --header-only, byte for byte). Skips when perf or the workloads are missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "tests/unit/unit.h"
#include "lib/base/strbuf.h"
#include "lib/data/features.h"
#include "lib/data/reader.h"
#include "lib/data/tracing_data.h"

static char dir[64], wl[512];

/* Runs cmd in dir with sh; its stdout goes into out (when non-NULL). Returns the exit code. */
static int run(struct strbuf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(struct strbuf *out, const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	char buf[4096];
	va_list ap;
	size_t n;
	FILE *f;
	int rc;

	strbuf_addf(&cmd, "cd %s && ", dir);
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	f = popen(cmd.buf, "r");
	strbuf_release(&cmd);
	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (out)
			strbuf_add(out, buf, n);
	rc = pclose(f);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

struct counts {
	unsigned long samples, chain, regs, stacks;
};

static int count(struct perf_data *pd, struct counts *c)
{
	const struct perf_event_header *ev;
	struct perf_sample s;
	int r;

	memset(c, 0, sizeof(*c));
	while ((r = perf_data_next(pd, &ev, NULL)) == 1) {
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		if (perf_data_parse_sample(pd, ev, &s))
			return -1;
		c->samples++;
		c->chain += s.nr_callchain;
		c->regs += s.user_abi != 0;
		c->stacks += s.user_stack_alloc != 0;
	}
	return r;
}

/* perf's own numbers for file: SAMPLE events and the sum of "FP chain: nr:" */
static void perf_counts(const char *file, struct counts *c)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;

	memset(c, 0, sizeof(*c));
	run(&sb,
	    "perf report -D -i %s 2>/dev/null | grep -E 'SAMPLE events:|chain: nr:|"
	    "user regs: mask|ustack: size'",
	    file);
	p = strstr(sb.buf, "SAMPLE events:");
	if (p)
		c->samples = strtoul(p + 14, NULL, 10);
	for (p = sb.buf; (p = strstr(p, "chain: nr:")); p += 10)
		c->chain += strtoul(p + 10, NULL, 10);
	for (p = sb.buf; (p = strstr(p, "user regs: mask")); p += 10)
		c->regs++;
	for (p = sb.buf; (p = strstr(p, "ustack: size")); p += 10)
		c->stacks++;
	strbuf_release(&sb);
}

static struct perf_data *open_rec(const char *file)
{
	char path[256], err[256];
	struct perf_data *pd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (perf_data_open(path, 0, &pd, err, sizeof(err))) {
		printf("# %s: %s\n", file, err);
		return NULL;
	}
	return pd;
}

/* Opens file, checks counts and event names against perf's. */
static bool same_as_perf(const char *file, struct counts *mine)
{
	struct strbuf names = STRBUF_INIT, ours = STRBUF_INIT;
	struct perf_data *pd = open_rec(file);
	struct counts theirs;
	bool ok;
	size_t i;

	if (!pd)
		return false;
	for (i = 0; i < pd->nr_attrs; i++)
		strbuf_addf(&ours, "%s\n", pd->attrs[i].name);
	ok = count(pd, mine) == 0;
	perf_data_close(pd);
	perf_counts(file, &theirs);
	/* perf 6.1 cannot name tracepoints of a pipe stream ("unknown tracepoint"): ask
	 * perf script, which reads the tracing data, for those */
	run(&names,
	    "perf evlist -i %s 2>/dev/null | grep -v '^#' | while read -r n; do "
	    "if [ \"$n\" = 'unknown tracepoint' ]; then perf script -F event -i %s "
	    "2>/dev/null | grep -oE '[a-z_]+:[a-z_]+' | head -1; else echo \"$n\"; fi; done",
	    file, file);
	if (!ok || mine->samples != theirs.samples || mine->chain != theirs.chain ||
	    mine->regs != theirs.regs || mine->stacks != theirs.stacks || mine->samples == 0 ||
	    strcmp(names.buf, ours.buf)) {
		printf("# %s: samples %lu/%lu chain %lu/%lu regs %lu/%lu stacks %lu/%lu "
		       "names '%s'/'%s'\n",
		       file, mine->samples, theirs.samples, mine->chain, theirs.chain, mine->regs,
		       theirs.regs, mine->stacks, theirs.stacks, ours.buf, names.buf);
		ok = false;
	}
	strbuf_release(&names);
	strbuf_release(&ours);
	return ok;
}

static void drop_hash_lines(struct strbuf *sb)
{
	char *p;

	while ((p = strstr(sb->buf, "\n#\n"))) {
		memmove(p + 1, p + 3, sb->len - (p + 3 - sb->buf) + 1);
		sb->len -= 2;
	}
}

static bool header_as_perf(const char *file, bool full)
{
	struct strbuf theirs = STRBUF_INIT, ours = STRBUF_INIT;
	struct perf_data *pd = open_rec(file);
	struct pd_features *f;
	bool ok;

	if (!pd)
		return false;
	run(&theirs, "perf report --header-only %s -i %s 2>/dev/null | grep -v '^#$'",
	    full ? "-I" : "", file);
	ok = pd_features_read(pd, &f) == 0 && pd_features_render(pd, f, full, &ours) == 0;
	drop_hash_lines(&ours); /* as the grep above does to perf's */
	if (strcmp(theirs.buf, ours.buf)) {
		printf("# %s header differs:\n# perf:  %.300s\n# flare: %.300s\n", file, theirs.buf,
		       ours.buf);
		ok = false;
	}
	pd_features_free(f);
	perf_data_close(pd);
	strbuf_release(&theirs);
	strbuf_release(&ours);
	return ok;
}

TEST(perf_fp)
{
	struct counts c;

	CHECK(run(NULL, "perf record -q -F 999 -g -o fp.data %s/cpu_burn 0.3 >/dev/null 2>&1",
		  wl) == 0);
	CHECK(same_as_perf("fp.data", &c));
	CHECK(c.chain > c.samples * 3);
	CHECK(header_as_perf("fp.data", false));
	CHECK(header_as_perf("fp.data", true));
}

TEST(perf_dwarf)
{
	struct counts c;

	CHECK(run(NULL,
		  "perf record -q -F 999 --call-graph dwarf -o dw.data %s/cpu_burn 0.3 "
		  ">/dev/null 2>&1",
		  wl) == 0);
	CHECK(same_as_perf("dw.data", &c));
	CHECK(c.regs == c.samples && c.stacks == c.samples);
}

TEST(perf_system_wide)
{
	struct counts c;

	CHECK(run(NULL, "perf record -q -a -g -o sw.data -- %s/mt_burn 0.3 >/dev/null 2>&1", wl) ==
	      0);
	CHECK(same_as_perf("sw.data", &c));
	CHECK(header_as_perf("sw.data", true));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the lines of sb as LC_ALL=C sort does. */
static void sort_lines(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	char **lines = NULL, *p, *save = NULL;
	size_t n = 0, i;

	for (p = strtok_r(sb->buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		lines = realloc(lines, (n + 1) * sizeof(*lines));
		lines[n++] = p;
	}
	qsort(lines, n, sizeof(*lines), cmp_str);
	for (i = 0; i < n; i++)
		strbuf_addf(&out, "%s\n", lines[i]);
	free(lines);
	strbuf_release(sb);
	*sb = out;
}

/* Every tracepoint sample's RAW formatted through the file's tep equals perf script -F trace. */
static bool trace_text_as_perf(const char *file)
{
	struct strbuf theirs = STRBUF_INIT, ours = STRBUF_INIT;
	const struct perf_event_header *ev;
	struct perf_data *pd = open_rec(file);
	struct tep_handle *tep = pd ? perf_data_tep(pd) : NULL;
	struct perf_sample s;
	bool ok = tep != NULL;

	while (ok && perf_data_next(pd, &ev, NULL) == 1) {
		struct tep_record rec = { 0 };
		struct trace_seq seq;

		if (ev->type != PERF_RECORD_SAMPLE || perf_data_parse_sample(pd, ev, &s) ||
		    !s.raw_size)
			continue;
		rec.data = (void *)s.raw;
		rec.size = s.raw_size;
		trace_seq_init(&seq);
		tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		strbuf_addf(&ours, "%s\n", seq.buffer);
		trace_seq_destroy(&seq);
	}
	perf_data_close(pd);
	/* perf script prints in time order, the file holds per-CPU buffers: compare sorted */
	run(&theirs, "perf script -G -F trace -i %s 2>/dev/null | LC_ALL=C sort", file);
	sort_lines(&ours);
	if (!ok || !ours.len || strcmp(ours.buf, theirs.buf)) {
		printf("# %s trace text differs:\n# perf:  %.200s\n# flare: %.200s\n", file,
		       theirs.buf, ours.buf);
		ok = false;
	}
	strbuf_release(&theirs);
	strbuf_release(&ours);
	return ok;
}

TEST(perf_tracepoint)
{
	struct perf_data *pd;
	struct tep_handle *tep;
	struct tep_event *e;
	struct counts c;

	CHECK(run(NULL,
		  "perf record -q -e syscalls:sys_enter_openat -o tp.data %s/open_n 50 "
		  ">/dev/null 2>&1",
		  wl) == 0);
	CHECK(same_as_perf("tp.data", &c));
	CHECK(c.samples >= 50);
	CHECK(header_as_perf("tp.data", false));
	pd = open_rec("tp.data");
	CHECK(pd);
	tep = perf_data_tep(pd);
	e = tep ? tep_find_event(tep, (int)pd->attrs[0].attr.config) : NULL;
	if (!e || !tep_find_field(e, "filename")) {
		perf_data_close(pd);
		CHECK(!"tracepoint format with a filename field");
	}
	CHECK_STR(e->name, "sys_enter_openat");
	perf_data_close(pd);
	CHECK(trace_text_as_perf("tp.data"));
}

TEST(perf_multi_event)
{
	struct counts c;

	CHECK(run(NULL,
		  "perf record -q -e cpu-clock -e page-faults -c 10000 -o me.data "
		  "%s/touch_pages >/dev/null 2>&1",
		  wl) == 0);
	CHECK(same_as_perf("me.data", &c));
}

TEST(perf_compressed)
{
	struct counts c;

	CHECK(run(NULL, "perf record -q -z -F 999 -g -o z.data %s/cpu_burn 0.3 >/dev/null 2>&1",
		  wl) == 0);
	CHECK(same_as_perf("z.data", &c));
	CHECK(header_as_perf("z.data", false));
}

/* perf record --threads writes a directory: data (header, features) and data.N files. */
TEST(perf_directory)
{
	struct counts c;

	CHECK(run(NULL,
		  "perf record -q --threads -F 999 -g -o thr.data %s/mt_burn 0.3 "
		  "> /dev/null 2>&1",
		  wl) == 0);
	CHECK(same_as_perf("thr.data", &c));
	CHECK(c.samples > 0);
	CHECK(header_as_perf("thr.data", false));
}

/* perf's pipe format read from a real pipe on stdin, and from a regular file. */
TEST(perf_pipe)
{
	struct counts c, from_stdin;
	struct perf_data *pd;
	char err[256], cmd[256];
	int saved, r;
	FILE *f;

	CHECK(run(NULL,
		  "perf record -q -F 999 -g -e syscalls:sys_enter_openat -e cpu-clock "
		  "-o - %s/open_n 20 > pipe.data 2>/dev/null",
		  wl) == 0);
	CHECK(same_as_perf("pipe.data", &c));
	CHECK(header_as_perf("pipe.data", false));
	CHECK(trace_text_as_perf("pipe.data"));
	snprintf(cmd, sizeof(cmd), "cat %s/pipe.data", dir);
	f = popen(cmd, "r");
	CHECK(f);
	saved = dup(0);
	dup2(fileno(f), 0);
	r = perf_data_open("-", 0, &pd, err, sizeof(err));
	dup2(saved, 0);
	close(saved);
	if (!r) {
		r = pd->is_pipe && !strcmp(pd->attrs[0].name, "syscalls:sys_enter_openat") ? 0 : -1;
		r = r ? r : count(pd, &from_stdin);
		perf_data_close(pd);
	}
	pclose(f);
	CHECK(r == 0);
	CHECK(from_stdin.samples == c.samples && from_stdin.chain == c.chain);
}

TEST(perf_uprobe)
{
	struct counts c;
	int rc;

	run(NULL, "perf probe -q -d 'probe_cpu_burn:*' >/dev/null 2>&1");
	CHECK(run(NULL, "perf probe -q -x %s/cpu_burn flare_rd_b=b >/dev/null 2>&1", wl) == 0);
	rc = run(NULL,
		 "perf record -q -e probe_cpu_burn:flare_rd_b -o up.data %s/cpu_burn 0.2 "
		 ">/dev/null 2>&1",
		 wl);
	run(NULL, "perf probe -q -d 'probe_cpu_burn:*' >/dev/null 2>&1");
	CHECK(rc == 0);
	CHECK(same_as_perf("up.data", &c));
	CHECK(c.samples >= 10);
	CHECK(trace_text_as_perf("up.data"));
	CHECK(header_as_perf("up.data", false));
}

/* Files flare record writes: the reader and perf agree on them too. */
TEST(flare_written)
{
	const char *flare = getenv("FLARE");
	struct counts c;

	CHECK(run(NULL, "%s record -q -F 999 -g -o fl.data %s/cpu_burn 0.3 >/dev/null 2>&1", flare,
		  wl) == 0);
	CHECK(same_as_perf("fl.data", &c));
	CHECK(c.samples > 0 && c.chain > c.samples);
	CHECK(header_as_perf("fl.data", true));
	CHECK(run(NULL,
		  "%s record -q -e syscalls:sys_enter_openat -o - %s/open_n 20 "
		  "> flpipe.data 2>/dev/null",
		  flare, wl) == 0);
	CHECK(same_as_perf("flpipe.data", &c));
	CHECK(c.samples >= 20);
}

int main(void)
{
	const char *w = getenv("WL");

	if (system("perf --version >/dev/null 2>&1") || !w) {
		SKIP(perf_recordings, "needs Linux perf and the workloads ($WL)");
		return unit_done();
	}
	snprintf(wl, sizeof(wl), "%s", w);
	snprintf(dir, sizeof(dir), "/tmp/flare-reader-perf-XXXXXX");
	if (!mkdtemp(dir)) {
		printf("FAIL - unit/reader-perf.c: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	RUN(perf_fp);
	RUN(perf_dwarf);
	RUN(perf_system_wide);
	RUN(perf_tracepoint);
	RUN(perf_multi_event);
	RUN(perf_compressed);
	RUN(perf_pipe);
	RUN(perf_directory);
	if (geteuid() == 0)
		RUN(perf_uprobe);
	else
		SKIP(perf_uprobe, "perf probe needs root");
	if (getenv("FLARE") && !access(getenv("FLARE"), X_OK))
		RUN(flare_written);
	else
		SKIP(flare_written, "needs the flare binary ($FLARE)");
	run(NULL, "cd / && rm -rf %s", dir);
	return unit_done();
}
