/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strbuf: a growable, always NUL-terminated byte buffer (git's strbuf, done small).
 * A strbuf owns buf; strbuf_release() frees it, strbuf_detach() hands it to the caller.
 * STRBUF_INIT gives an empty buffer that allocates nothing until the first append.
 * Appending functions return 0 or -ENOMEM; on -ENOMEM the buffer is unchanged.
 */
#ifndef FLARE_BASE_STRBUF_H
#define FLARE_BASE_STRBUF_H
#include <stddef.h>
#include <stdarg.h>

struct strbuf {
	char *buf; /* never NULL: points at a static "" until something is appended */
	size_t len;
	size_t alloc;
};

extern char strbuf_empty[];
#define STRBUF_INIT                                                                                \
	{                                                                                          \
		.buf = strbuf_empty, .len = 0, .alloc = 0                                          \
	}

int strbuf_grow(struct strbuf *sb, size_t extra);
int strbuf_add(struct strbuf *sb, const void *data, size_t len);
int strbuf_adds(struct strbuf *sb, const char *s);
int strbuf_addch(struct strbuf *sb, char c);
int strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
/* Returns the buffer (caller frees; never NULL unless out of memory) and empties sb. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Reads the whole file at path into sb (appending). Returns 0 or -errno. */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* strbuf_read_file() for a text file from outside (kallsyms, maps): a device or FIFO can be
 * endless, so it fails with -EFBIG past max bytes and -EILSEQ at a NUL byte, which no text
 * holds (/dev/zero fails at once). */
int strbuf_read_text(struct strbuf *sb, const char *path, size_t max);

#endif
