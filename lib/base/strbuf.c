// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/base/strbuf.h"

char strbuf_empty[1];

int strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	size_t n;
	char *p;

	if (want <= sb->alloc)
		return 0;
	n = sb->alloc ? sb->alloc : 64;
	while (n < want)
		n *= 2;
	p = realloc(sb->alloc ? sb->buf : NULL, n);
	if (!p)
		return -ENOMEM;
	if (!sb->alloc)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = n;
	return 0;
}

int strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (strbuf_grow(sb, len))
		return -ENOMEM;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_adds(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

int strbuf_addch(struct strbuf *sb, char c)
{
	return strbuf_add(sb, &c, 1);
}

int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return -EINVAL;
	if (sb->len + (size_t)n + 1 > sb->alloc) {
		if (strbuf_grow(sb, n))
			return -ENOMEM;
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += n;
	return 0;
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return ret;
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->alloc ? sb->buf : strdup("");

	sb->buf = strbuf_empty;
	sb->len = sb->alloc = 0;
	return p;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb->buf = strbuf_empty;
	sb->len = sb->alloc = 0;
}

static int read_file(struct strbuf *sb, const char *path, size_t max, bool text)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int ret = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		if (strbuf_grow(sb, 8192)) {
			ret = -ENOMEM;
			break;
		}
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		if (text && memchr(sb->buf + sb->len, 0, (size_t)n)) {
			ret = -EILSEQ;
			break;
		}
		sb->len += n;
		sb->buf[sb->len] = '\0';
		if (sb->len > max) {
			ret = -EFBIG;
			break;
		}
	}
	close(fd);
	return ret;
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	return read_file(sb, path, SIZE_MAX, false);
}

int strbuf_read_text(struct strbuf *sb, const char *path, size_t max)
{
	return read_file(sb, path, max, true);
}
