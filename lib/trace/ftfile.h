/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftfile: the file 'flare ftrace record' writes, and what a raw trace of a tracefs instance
 * needs to be read later. The file is the kernel's raw pages as they came from
 * trace_pipe_raw, with what formats them: the event format files, saved_cmdlines, the trace
 * options the lines depend on and the kernel's lost-event counts. Layout (host byte order):
 *
 *   "FLAREFT" 0x01                           8 bytes of magic
 *   { u32 kind; u32 cpu; u64 len; len bytes; zeroes to a multiple of 8 } ...
 *
 * kinds: META ("key=value\n" lines: long_size, big_endian, irq_info, clock, kernel),
 * FORMAT ("SYS\n" then the format file; SYS "header_page" for events/header_page; its cpu
 * field holds ftfile_format_sum() of the payload, so that a damaged format is refused before
 * libtraceevent, whose parser crashes on some malformed texts, sees it),
 * CMDLINES (saved_cmdlines), PAGE (one raw page of cpu), LOST (decimal: events the kernel
 * lost, all CPUs). Pages may come before the CMDLINES and LOST written at the end.
 * Nothing here prints.
 */
#ifndef FLARE_TRACE_FTFILE_H
#define FLARE_TRACE_FTFILE_H
#include <stddef.h>
#include <stdio.h>
#include "lib/trace/rawtrace.h"

#define FTFILE_MAGIC "FLAREFT\x01"
#define FTFILE_MAGIC_LEN 8

enum ftfile_kind {
	FTFILE_META = 1,
	FTFILE_FORMAT,
	FTFILE_CMDLINES,
	FTFILE_PAGE,
	FTFILE_LOST,
};

/* A 31-bit FNV-1a sum of a FORMAT payload. */
int ftfile_format_sum(const void *data, size_t len);

/* Writes the magic. 0 or -EIO. */
int ftfile_write_magic(FILE *f);
/* Writes one section. 0 or -EIO. */
int ftfile_write(FILE *f, enum ftfile_kind kind, int cpu, const void *data, size_t len);

typedef int (*ftfile_fn)(void *ctx, enum ftfile_kind kind, int cpu, const void *data, size_t len);
/* Calls fn for each section of the file held in buf (magic first). A non-zero return from
 * fn stops and is returned. -ERR_FORMAT when buf is not such a file or a section is cut. */
int ftfile_parse(const void *buf, size_t len, ftfile_fn fn, void *ctx);

/* Calls fn(ctx, sys, text, len) with every format a trace of the instance at dir needs:
 * events/header_page, the ftrace system's events (markers, stacks) and each event its
 * set_event enables. A non-zero return from fn stops and is returned; else 0 or -errno. */
typedef int (*ftfile_format_fn)(void *ctx, const char *sys, const char *text, size_t len);
int ftfile_formats(const char *dir, ftfile_format_fn fn, void *ctx);

/* The META text of the instance at dir (its clock and irq-info option, this machine's long
 * size and byte order, the kernel's release), in *text; free() it. 0 or -errno. */
int ftfile_meta(const char *dir, char **text);
/* Applies a META text to rt's style. */
void ftfile_meta_apply(struct rawtrace *rt, const char *text, size_t len);
/* The long size META names (4 or 8; 8 when it names none). */
int ftfile_meta_long_size(const char *text, size_t len);

/* Formats every event of the file in buf, in time order, through fn, kernel addresses named
 * through st (NULL: hex); *lost gets the kernel's count of lost events. 0, -ERR_FORMAT (also
 * for a FORMAT whose sum does not match), -ENOMEM, or fn's non-zero return. */
int ftfile_decode(const void *buf, size_t len, struct symtab *st, rawtrace_line_fn fn, void *ctx,
		  unsigned long long *lost);

#endif
