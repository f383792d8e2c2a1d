/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawtrace: the kernel's raw trace pages turned into the lines its own trace and trace_pipe
 * files show ("comm-pid [cpu] flags secs.usecs: event: fields"), through libtraceevent: the
 * event formats it is given (tracefs' format files, live or stored in a file), the tasks'
 * names (saved_cmdlines), then pages of any CPU, merged by time (rawbuf.h). Kernel-only
 * events are written as the kernel writes them: syscalls ("sys_openat(dfd: 0x..)",
 * "sys_openat -> 0x3"), trace_marker lines ("tracing_mark_write: text"), stack traces
 * ("<stack trace>" then " => func" lines), lost events ("CPU:1 [LOST 12 EVENTS]").
 *
 * A struct rawtrace owns its tep, its merger and its text buffer; kernel addresses are named
 * through a symtab it borrows (lib/sym), or shown in hex without one. Nothing here prints.
 */
#ifndef FLARE_TRACE_RAWTRACE_H
#define FLARE_TRACE_RAWTRACE_H
#include <stdbool.h>
#include <stddef.h>

struct rawtrace;
struct symtab;

/* long_size: 4 or 8, the kernel's; big_endian: the kernel's byte order. 0 or -ENOMEM. */
int rawtrace_new(int long_size, bool big_endian, struct rawtrace **ret);
void rawtrace_free(struct rawtrace *rt);

/* The trace options the lines depend on: irq_info (the "d.h1." column, on by default) and
 * whether the clock counts nanoseconds (local, global, mono...: "secs.usecs") or not
 * (counter, x86-tsc: a plain number). */
void rawtrace_set_style(struct rawtrace *rt, bool irq_info, bool clock_ns);

/* Names kernel addresses (markers' callers, stack traces) through st's kernel symbols; st
 * must outlive rt's use of it. NULL: hex. */
void rawtrace_set_symtab(struct rawtrace *rt, struct symtab *st);

/* An event's format file (events/SYS/NAME/format, or events/header_page with sys
 * "header_page"). 0, or -ERR_FORMAT when libtraceevent cannot parse it (the event's lines
 * then show as unknown). */
int rawtrace_add_format(struct rawtrace *rt, const char *sys, const char *text, size_t len);
/* saved_cmdlines text ("pid comm" lines): the names shown for those pids from now on. */
void rawtrace_add_cmdlines(struct rawtrace *rt, const char *text, size_t len);
/* A raw page of cpu, copied. 0, -ERR_FORMAT or -ENOMEM. */
int rawtrace_add_page(struct rawtrace *rt, int cpu, const void *page, size_t size);

/* Told each line (with its '\n'; a stack trace is one call of several lines). */
typedef int (*rawtrace_line_fn)(void *ctx, const char *line, size_t len);
/* Formats the events of the pages added so far in time order, then forgets the pages. A
 * non-zero return from fn stops and is returned; else 0. */
int rawtrace_flush(struct rawtrace *rt, rawtrace_line_fn fn, void *ctx);

#endif
