/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp: tracepoints as tracefs lists them, through libtracefs. Finds tracefs and mounts it at
 * /sys/kernel/tracing when it is not mounted; enumerates "sys:name" pairs (sorted as perf
 * sorts them) with optional globs; reads an event's id. Nothing here enables any event.
 */
#ifndef FLARE_TRACE_TP_H
#define FLARE_TRACE_TP_H
#include <stdint.h>

/* The tracefs directory (mounting it if needed) in *dir. 0 or -ERR_NO_TRACEFS. */
int tp_tracefs_dir(const char **dir);

typedef int (*tp_fn)(const char *sys, const char *name, void *arg);

#define TP_SORTED 1 /* alphabetical order (perf list's); else tracefs' own order (perf -e's) */

/* Calls fn for each tracepoint whose system matches sys_glob and whose name matches
 * name_glob (fnmatch globs; NULL matches all), in the order flags asks for.
 * A non-zero return from fn stops the walk and is returned. Returns the number of events
 * visited (>= 0), or -ERR_NO_TRACEFS / -ENOMEM. */
int tp_for_each(const char *sys_glob, const char *name_glob, int flags, tp_fn fn, void *arg);

/* The perf_event_attr.config (tracepoint id) of sys:name. 0, -ENOENT or -ERR_NO_TRACEFS. */
int tp_id(const char *sys, const char *name, uint64_t *id);

/* True when s contains a glob character (* ? [). */
int tp_is_glob(const char *s);

#endif
