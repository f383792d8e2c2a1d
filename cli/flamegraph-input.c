// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph input: reads a profile of any kind flare draws from (folded stacks, perf script
 * text, perf.data) and turns it into folded lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cli/flamegraph.h"
#include "cli/out.h"
#include "lib/base/err.h"

#define CHUNK (1 << 20)

/* Appends from fd until the end (returns 1) or until sb holds limit bytes or more (0). */
static int read_fd(int fd, struct strbuf *sb, size_t limit)
{
	ssize_t n;

	while (sb->len < limit) {
		if (strbuf_grow(sb, 1 << 16))
			return -ENOMEM;
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 1;
		strbuf_setlen(sb, sb->len + (size_t)n);
	}
	return 0;
}

/* The first line that is not blank or a comment parses as folded stacks. */
static bool looks_folded(const char *s, size_t len)
{
	size_t i = 0, e;
	struct fg_line l;

	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);

		e = nl ? (size_t)(nl - s) : len;
		if (e > i && s[i] != '#')
			return s[i] != ' ' && s[i] != '\t' && !folded_parse_line(s + i, e - i, &l);
		i = e + 1;
	}
	return false;
}

static int folded_lines(struct profile *p)
{
	const char *s = p->text.buf;
	size_t i = 0, e, len = p->text.len;
	struct fg_line l;

	p->folded = true;
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);

		e = nl ? (size_t)(nl - s) : len;
		if (!folded_parse_line(s + i, e - i, &l)) {
			if (vec_push(&p->lines, l))
				return -ENOMEM;
		} else {
			p->ignored++;
		}
		i = e + 1;
	}
	return 0;
}

/* Lines from the collapse's stacks: sorted, or in sample order for a flame chart. */
static int stack_lines(struct profile *p, bool in_order)
{
	struct stackset *set = collapse_stacks(p->col);
	struct stack_ent **v;
	size_t i;

	if (in_order) {
		if (vec_reserve(&p->lines, set->seq.nr))
			return -ENOMEM;
		for (i = 0; i < set->seq.nr; i++)
			p->lines.items[p->lines.nr++] = (struct fg_line){
				set->seq.items[i].ent->stack, set->seq.items[i].ent->len,
				(double)set->seq.items[i].count, 0, false
			};
		return 0;
	}
	if (!set->ents.nr)
		return 0;
	v = stackset_sorted(set);
	if (!v || vec_reserve(&p->lines, set->ents.nr)) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < set->ents.nr; i++)
		p->lines.items[p->lines.nr++] = (struct fg_line){ v[i]->stack, v[i]->len,
								  (double)v[i]->count, 0, false };
	free(v);
	return 0;
}

static bool is_magic(const char *m)
{
	return !memcmp(m, "PERFILE2", 8) || !memcmp(m, "2ELIFREP", 8);
}

static bool is_perf_data(int fd)
{
	char magic[8];

	return pread(fd, magic, sizeof(magic), 0) == 8 && is_magic(magic);
}

/* perf.data piped in (flare record -o - | flare flamegraph): replayed from a memory file. */
static int data_from_memory(struct profile *p, const struct fg_cli *cli)
{
	char path[64];
	int fd = memfd_create("flare-flamegraph-input", MFD_CLOEXEC), err = 0;
	size_t off = 0;

	if (fd < 0) {
		err = -errno;
		pr_err("cannot hold perf.data from standard input: %s", strerror(errno));
		return err;
	}
	while (off < p->text.len && !err) {
		ssize_t n = write(fd, p->text.buf + off, p->text.len - off);

		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0)
			off += (size_t)n;
	}
	strbuf_release(&p->text);
	if (err) {
		pr_err("cannot hold perf.data from standard input: %s", strerror(-err));
	} else {
		p->from_data = true;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		err = fg_collapse_data(path, cli, p->col);
	}
	close(fd);
	return err ? err : stack_lines(p, cli->fo.flamechart);
}

static const char *name_of(const char *path)
{
	return path && strcmp(path, "-") ? path : "standard input";
}

/* perf script text, folded as it streams in: the text is not kept. */
static int script_text(struct profile *p, const struct fg_cli *cli, int fd, int eof,
		       const char *path)
{
	int err = 0;

	for (;;) {
		err = collapse_text(p->col, p->text.buf, p->text.len);
		strbuf_reset(&p->text);
		if (err || eof)
			break;
		eof = read_fd(fd, &p->text, CHUNK);
		if (eof < 0) {
			pr_err("cannot read '%s': %s", name_of(path), err_str(eof));
			return eof;
		}
	}
	strbuf_release(&p->text);
	if (err == -E2BIG) {
		pr_err("'%s' has a line longer than %zu MiB: it is not 'perf script' output",
		       name_of(path), COLLAPSE_LINE_MAX >> 20);
		return err;
	}
	if (!err)
		collapse_text_end(p->col);
	if (!err && collapse_unrecognized(p->col))
		pr_warn("%llu lines of '%s' are neither sample headers nor stack frames (is it "
			"'perf script' output?)",
			(unsigned long long)collapse_unrecognized(p->col), name_of(path));
	err = err ? err : stack_lines(p, cli->fo.flamechart);
	if (err)
		pr_err("out of memory reading '%s'", name_of(path));
	return err;
}

/* Text or a perf.data stream: the first megabyte tells which. */
static int from_stream(struct profile *p, const struct fg_cli *cli, int fd, const char *path)
{
	bool std = !path || !strcmp(path, "-");
	int eof = read_fd(fd, &p->text, CHUNK);
	bool whole;

	if (eof < 0) {
		pr_err("cannot read '%s': %s", name_of(path), err_str(eof));
		return eof;
	}
	if (std && !p->text.len)
		return -ENODATA; /* the caller may fall back to ./perf.data */
	whole = p->text.len >= 8 && is_magic(p->text.buf);
	/* no text holds NUL bytes: binary input (or /dev/zero) is refused before it is read */
	if (!whole && memchr(p->text.buf, 0, p->text.len)) {
		pr_err("'%s' is neither perf.data nor text (it holds NUL bytes): give perf.data, "
		       "'perf script' output or folded stacks",
		       name_of(path));
		return -EINVAL;
	}
	if (!whole && !looks_folded(p->text.buf, p->text.len))
		return script_text(p, cli, fd, eof, path);
	if (!eof)
		eof = read_fd(fd, &p->text, (size_t)-1);
	if (eof < 0) {
		pr_err("cannot read '%s': %s", name_of(path), err_str(eof));
		return eof;
	}
	return whole ? data_from_memory(p, cli) : folded_lines(p);
}

int profile_load(const char *path, const struct fg_cli *cli, struct profile *p)
{
	bool std = !path || !strcmp(path, "-");
	int fd = std ? 0 : open(path, O_RDONLY), err;

	memset(p, 0, sizeof(*p));
	p->text = (struct strbuf)STRBUF_INIT;
	if (fd < 0) {
		err = -errno;
		pr_err("cannot open '%s': %s (%s)", path, strerror(errno),
		       errno == ENOENT ? "check the path, or record one with 'flare record -g'"
				       : "check its permissions");
		return err;
	}
	err = collapse_new(&cli->co, &p->col);
	if (err) {
		pr_err("out of memory reading '%s'", name_of(path));
	} else if (!std && is_perf_data(fd)) {
		p->from_data = true;
		err = fg_collapse_data(path, cli, p->col);
		err = err ? err : stack_lines(p, cli->fo.flamechart);
	} else {
		err = from_stream(p, cli, fd, path);
	}
	if (!std)
		close(fd);
	return err;
}

void profile_release(struct profile *p)
{
	if (!p)
		return;
	strbuf_release(&p->text);
	collapse_free(p->col);
	vec_free(&p->lines);
}
