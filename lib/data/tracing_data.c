// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_data: walks perf's tracing data blob (format 0.5/0.6, see doc/perf-data-format.md
 * 8.1) and feeds each part to libtraceevent. Every length is checked against the blob.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/data/reader-priv.h"
#include "lib/data/tracing_data.h"

static const char td_magic[] = "\x17\x08\x44tracing";

struct td {
	const uint8_t *p, *start, *end;
	char *err;
	size_t errlen;
	struct tep_handle *tep;
};

static int td_err(struct td *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int td_err(struct td *t, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!t->err || !t->errlen)
		return err;
	n = snprintf(t->err, t->errlen, "tracing data at byte %zu: ", (size_t)(t->p - t->start));
	if (n < 0 || (size_t)n >= t->errlen)
		return err;
	va_start(ap, fmt);
	vsnprintf(t->err + n, t->errlen - n, fmt, ap);
	va_end(ap);
	return err;
}

static bool td_take(struct td *t, uint64_t n, const uint8_t **at)
{
	if ((uint64_t)(t->end - t->p) < n)
		return false;
	*at = t->p;
	t->p += n;
	return true;
}

/* A NUL-terminated string in the blob. */
static const char *td_str(struct td *t)
{
	const uint8_t *z = memchr(t->p, 0, t->end - t->p);
	const char *s = (const char *)t->p;

	if (!z)
		return NULL;
	t->p = z + 1;
	return s;
}

/* A {uN size; text} part: returns a pointer to the text and its size. */
static bool td_sized(struct td *t, int width, const uint8_t **text, uint64_t *size)
{
	const uint8_t *at;

	if (!td_take(t, width, &at))
		return false;
	*size = width == 8 ? pd_u64(at) : pd_u32(at);
	return td_take(t, *size, text);
}

/*
 * libtraceevent 1.7's tep_parse_printk_formats() reads past a line with no "ADDR : FMT"
 * shape, and before the start of a FMT shorter than 3 characters, so only lines of that
 * shape with a format of at least 3 characters are kept (perf writes nothing else).
 */
static void td_keep_printk_lines(char *s)
{
	char *out = s, *line = s;

	while (*line) {
		char *nl = strchrnul(line, '\n'), *colon = memchr(line, ':', nl - line);
		size_t n = nl - line;
		bool last = !*nl;

		if (colon && nl - colon > 5) {
			memmove(out, line, n);
			out += n;
			if (!last)
				*out++ = '\n';
		}
		line = last ? nl : nl + 1;
	}
	*out = 0;
}

/* tep's parsers of whole texts want a NUL-terminated copy. */
static int td_feed_text(struct td *t, const uint8_t *text, uint64_t size,
			int (*fn)(struct tep_handle *, const char *))
{
	char *s = malloc(size + 1);
	int ret;

	if (!s)
		return -ENOMEM;
	memcpy(s, text, size);
	s[size] = 0;
	if (fn == tep_parse_printk_formats)
		td_keep_printk_lines(s);
	ret = fn(t->tep, s);
	free(s);
	if (ret)
		log_debug("tracing data: a text part did not parse (%d)", ret);
	return 0;
}

static int td_events(struct td *t, const char *sys)
{
	const uint8_t *at, *text;
	uint32_t n, i;
	uint64_t size;

	if (!td_take(t, 4, &at))
		return td_err(t, -ERR_TRUNCATED, "event count of '%s' is cut off", sys);
	n = pd_u32(at);
	for (i = 0; i < n; i++) {
		if (!td_sized(t, 8, &text, &size))
			return td_err(t, -ERR_TRUNCATED, "format %u of '%s' is cut off", i, sys);
		if (tep_parse_event(t->tep, (const char *)text, size, sys))
			log_debug("tracing data: a format of '%s' did not parse", sys);
	}
	return 0;
}

static int td_header(struct td *t)
{
	const uint8_t *at, *text;
	const char *ver, *name;
	uint64_t size;
	int long_size;

	if (!td_take(t, 10, &at) || memcmp(at, td_magic, 10))
		return td_err(t, -ERR_FORMAT, "bad magic");
	ver = td_str(t);
	if (!ver)
		return td_err(t, -ERR_TRUNCATED, "version string is cut off");
	if (!td_take(t, 6, &at))
		return td_err(t, -ERR_TRUNCATED, "endianness and sizes are cut off");
	if (at[0] != 0)
		return td_err(t, -ERR_ENDIAN, "written on a big-endian machine");
	long_size = at[1];
	if (long_size != 4 && long_size != 8)
		return td_err(t, -ERR_FORMAT, "sizeof(long) %d is not 4 or 8", long_size);
	tep_set_file_bigendian(t->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, (int)pd_u32(at + 2));
	name = td_str(t);
	if (!name || strcmp(name, "header_page") || !td_sized(t, 8, &text, &size))
		return td_err(t, -ERR_FORMAT, "header_page is missing or cut off");
	tep_parse_header_page(t->tep, (char *)text, size, long_size);
	name = td_str(t);
	if (!name || strcmp(name, "header_event") || !td_sized(t, 8, &text, &size))
		return td_err(t, -ERR_FORMAT, "header_event is missing or cut off");
	log_debug("tracing data version %s", ver);
	return 0;
}

static int td_walk(struct td *t)
{
	const uint8_t *at, *text;
	uint64_t size;
	uint32_t n, i;
	int err;

	err = td_header(t);
	if (err)
		return err;
	err = td_events(t, "ftrace");
	if (err)
		return err;
	if (!td_take(t, 4, &at))
		return td_err(t, -ERR_TRUNCATED, "system count is cut off");
	n = pd_u32(at);
	for (i = 0; i < n; i++) {
		const char *sys = td_str(t);

		if (!sys)
			return td_err(t, -ERR_TRUNCATED, "name of system %u is cut off", i);
		err = td_events(t, sys);
		if (err)
			return err;
	}
	if (!td_sized(t, 4, &text, &size))
		return td_err(t, -ERR_TRUNCATED, "kallsyms is cut off");
	err = size ? td_feed_text(t, text, size, tep_parse_kallsyms) : 0;
	if (err)
		return err;
	if (!td_sized(t, 4, &text, &size))
		return td_err(t, -ERR_TRUNCATED, "printk formats are cut off");
	err = size ? td_feed_text(t, text, size, tep_parse_printk_formats) : 0;
	if (err || t->p == t->end)
		return err;
	if (!td_sized(t, 8, &text, &size))
		return td_err(t, -ERR_TRUNCATED, "saved cmdlines are cut off");
	return size ? td_feed_text(t, text, size, tep_parse_saved_cmdlines) : 0;
}

int tracing_data_parse(const void *buf, size_t size, struct tep_handle **ret, char *errbuf,
		       size_t errlen)
{
	struct td t = { buf, buf, (const uint8_t *)buf + size, errbuf, errlen, NULL };
	int err;

	*ret = NULL;
	t.tep = tep_alloc();
	if (!t.tep)
		return -ENOMEM;
	err = td_walk(&t);
	if (err) {
		tep_free(t.tep);
		return err;
	}
	*ret = t.tep;
	return 0;
}

struct tep_handle *perf_data_tep(struct perf_data *pd)
{
	struct pd_priv *p = pd_priv(pd);
	const void *buf = p->tdata;
	size_t size = p->tdata_size;
	char err[200];

	if (p->tep || p->tep_tried)
		return p->tep;
	if (!buf)
		buf = perf_data_feature(pd, FEAT_TRACING_DATA, &size);
	if (!buf)
		return NULL; /* pipe mode: the record may still come */
	p->tep_tried = true;
	if (tracing_data_parse(buf, size, &p->tep, err, sizeof(err)))
		log_warn("%s: cannot read the tracing data: %s", pd->path, err);
	return p->tep;
}
