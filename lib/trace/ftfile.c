// SPDX-License-Identifier: GPL-2.0
/*
 * ftfile: 'flare ftrace record' files and the formats a raw trace needs (see ftfile.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/trace/ftfile.h"

struct sect {
	uint32_t kind;
	uint32_t cpu;
	uint64_t len;
};

int ftfile_format_sum(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return (int)(h & 0x7fffffff);
}

int ftfile_write_magic(FILE *f)
{
	return fwrite(FTFILE_MAGIC, 1, FTFILE_MAGIC_LEN, f) == FTFILE_MAGIC_LEN ? 0 : -EIO;
}

int ftfile_write(FILE *f, enum ftfile_kind kind, int cpu, const void *data, size_t len)
{
	static const char zero[8];
	struct sect s = { (uint32_t)kind, (uint32_t)cpu, len };
	size_t pad = (8 - len % 8) % 8;

	if (fwrite(&s, sizeof(s), 1, f) != 1 || (len && fwrite(data, 1, len, f) != len) ||
	    (pad && fwrite(zero, 1, pad, f) != pad))
		return -EIO;
	return 0;
}

int ftfile_parse(const void *buf, size_t len, ftfile_fn fn, void *ctx)
{
	const char *p = buf;
	size_t off = FTFILE_MAGIC_LEN;
	int ret;

	if (len < FTFILE_MAGIC_LEN || memcmp(p, FTFILE_MAGIC, FTFILE_MAGIC_LEN))
		return -ERR_FORMAT;
	while (off < len) {
		struct sect s;

		if (len - off < sizeof(s))
			return -ERR_FORMAT;
		memcpy(&s, p + off, sizeof(s));
		off += sizeof(s);
		if (s.len > len - off || s.cpu > INT32_MAX)
			return -ERR_FORMAT;
		ret = fn(ctx, (enum ftfile_kind)s.kind, (int)s.cpu, p + off, (size_t)s.len);
		if (ret)
			return ret;
		off += (size_t)s.len;
		off += (8 - off % 8) % 8;
	}
	return 0;
}

static int one_format(const char *dir, const char *sys, const char *name, ftfile_format_fn fn,
		      void *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, name);
	ret = strbuf_read_file(&sb, path);
	if (!ret)
		ret = fn(ctx, sys, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

int ftfile_formats(const char *dir, ftfile_format_fn fn, void *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096], *line, *save = NULL;
	struct dirent *de;
	DIR *d;
	int ret;

	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	ret = strbuf_read_file(&sb, path);
	if (!ret)
		ret = fn(ctx, "header_page", sb.buf, sb.len);
	if (ret)
		goto out;
	snprintf(path, sizeof(path), "%s/events/ftrace", dir);
	d = opendir(path);
	while (d && (de = readdir(d)) && !ret)
		if (de->d_name[0] != '.')
			ret = one_format(dir, "ftrace", de->d_name, fn, ctx);
	if (d)
		closedir(d);
	if (ret == -ENOENT || ret == -EPERM)
		ret = 0; /* an ftrace event without a format: not one a trace has */
	if (ret)
		goto out;
	strbuf_reset(&sb);
	snprintf(path, sizeof(path), "%s/set_event", dir);
	ret = strbuf_read_file(&sb, path);
	for (line = ret ? NULL : strtok_r(sb.buf, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		ret = one_format(dir, line, colon + 1, fn, ctx);
	}
out:
	strbuf_release(&sb);
	return ret;
}

int ftfile_meta(const char *dir, char **text)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	char path[4096], clock[32] = "local";
	struct utsname u;
	int irq_info = 1;
	char *l, *r;

	snprintf(path, sizeof(path), "%s/trace_clock", dir);
	if (!strbuf_read_file(&sb, path) && (l = strchr(sb.buf, '[')) && (r = strchr(l, ']')))
		snprintf(clock, sizeof(clock), "%.*s", (int)(r - l - 1), l + 1);
	strbuf_reset(&sb);
	snprintf(path, sizeof(path), "%s/options/irq-info", dir);
	if (!strbuf_read_file(&sb, path))
		irq_info = atoi(sb.buf);
	strbuf_release(&sb);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	strbuf_addf(&out, "long_size=%zu\nbig_endian=%d\nirq_info=%d\nclock=%s\nkernel=%s\n",
		    sizeof(long), __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, irq_info, clock,
		    u.release);
	*text = strbuf_detach(&out);
	return *text ? 0 : -ENOMEM;
}

/* The value of key in a META text, copied into val ("" when absent). */
static void meta_get(const char *text, size_t len, const char *key, char *val, size_t size)
{
	size_t klen = strlen(key), i = 0;

	*val = '\0';
	while (i < len) {
		const char *l = text + i, *nl = memchr(l, '\n', len - i);
		size_t n = nl ? (size_t)(nl - l) : len - i;

		if (n > klen && !memcmp(l, key, klen) && l[klen] == '=') {
			snprintf(val, size, "%.*s", (int)(n - klen - 1), l + klen + 1);
			return;
		}
		i += n + 1;
	}
}

void ftfile_meta_apply(struct rawtrace *rt, const char *text, size_t len)
{
	char irq[8], clock[32];

	meta_get(text, len, "irq_info", irq, sizeof(irq));
	meta_get(text, len, "clock", clock, sizeof(clock));
	/* the kernel's clocks that do not count nanoseconds print plain numbers */
	rawtrace_set_style(rt, strcmp(irq, "0") != 0,
			   strcmp(clock, "counter") && strcmp(clock, "uptime") &&
				   strcmp(clock, "x86-tsc"));
}

int ftfile_meta_long_size(const char *text, size_t len)
{
	char v[8];

	meta_get(text, len, "long_size", v, sizeof(v));
	return !strcmp(v, "4") ? 4 : 8;
}

struct decode {
	struct rawtrace *rt;
	unsigned long long lost;
	int long_size;
	int pass;
};

static int decode_sect(void *ctx, enum ftfile_kind kind, int cpu, const void *data, size_t len)
{
	struct decode *d = ctx;
	const char *t = data, *nl;
	char sys[256];

	if (d->pass == 0) {
		if (kind == FTFILE_META)
			d->long_size = ftfile_meta_long_size(t, len);
		return 0;
	}
	switch (kind) {
	case FTFILE_META:
		ftfile_meta_apply(d->rt, t, len);
		return 0;
	case FTFILE_FORMAT:
		if (cpu != ftfile_format_sum(data, len))
			return -ERR_FORMAT; /* damaged: kept from libtraceevent */
		nl = memchr(t, '\n', len);
		if (!nl || nl == t || (size_t)(nl - t) >= sizeof(sys))
			return -ERR_FORMAT;
		snprintf(sys, sizeof(sys), "%.*s", (int)(nl - t), t);
		rawtrace_add_format(d->rt, sys, nl + 1, len - (size_t)(nl + 1 - t));
		return 0; /* an event libtraceevent cannot parse shows as unknown */
	case FTFILE_CMDLINES:
		rawtrace_add_cmdlines(d->rt, t, len);
		return 0;
	case FTFILE_PAGE:
		return rawtrace_add_page(d->rt, cpu, data, len);
	case FTFILE_LOST:
		d->lost += strtoull(strndupa(t, len < 32 ? len : 32), NULL, 10);
		return 0;
	}
	return 0; /* a kind from a later flare: skipped */
}

int ftfile_decode(const void *buf, size_t len, struct symtab *st, rawtrace_line_fn fn, void *ctx,
		  unsigned long long *lost)
{
	struct decode d = { .long_size = 8 };
	int ret = ftfile_parse(buf, len, decode_sect, &d);

	if (ret)
		return ret;
	ret = rawtrace_new(d.long_size, false, &d.rt);
	if (ret)
		return ret;
	rawtrace_set_symtab(d.rt, st);
	d.pass = 1;
	ret = ftfile_parse(buf, len, decode_sect, &d);
	if (!ret)
		ret = rawtrace_flush(d.rt, fn, ctx);
	rawtrace_free(d.rt);
	*lost = d.lost;
	return ret;
}
