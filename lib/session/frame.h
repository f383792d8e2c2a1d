/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame: how perf prints a resolved frame, shared by report, script and flamegraph so the
 * three agree with perf and with each other:
 *   symbol   "main", or "[unknown]"                         (perf script, flame graphs)
 *   report   "main", or "0x0000000000001234" when unresolved (perf report's Symbol column)
 *   symoff   "main+0x1c", or "[unknown]"                    (perf script's sym+off)
 *   dso      "libc.so.6" / "/usr/lib/x86_64-linux-gnu/libc.so.6", or "[unknown]"
 *   level    'k' kernel, '.' user, 'H' hypervisor, 'g' guest kernel, 'u' guest user
 * Addresses: perf script prints f->addr (map-relative) for the entries of a call chain and
 * the raw f->ip for a sample printed without one.
 * Functions that write into buf return the length of the string (snprintf's contract).
 */
#ifndef FLARE_SESSION_FRAME_H
#define FLARE_SESSION_FRAME_H
#include <stddef.h>
#include "lib/session/session.h"

const char *frame_sym_name(const struct frame *f);
int frame_report_sym(const struct frame *f, char *buf, size_t len);
int frame_symoff(const struct frame *f, char *buf, size_t len);
/* Offset of the frame's address from its symbol's start (0 without a symbol). */
unsigned long long frame_sym_offset(const struct frame *f);
const char *frame_dso_short(const struct frame *f);
const char *frame_dso_long(const struct frame *f);
char frame_level(const struct frame *f);
/* "[k] main" / "[.] 0x0000000000001234": perf report's Symbol column with its level mark. */
int frame_report_sym_level(const struct frame *f, char *buf, size_t len);

#endif
