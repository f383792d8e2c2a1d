/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe/kernel: kprobe targets as perf writes them, "_text+OFFSET" from the running kernel's
 * /proc/kallsyms (module symbols are not probe targets here).
 */
#ifndef FLARE_PROBE_KERNEL_H
#define FLARE_PROBE_KERNEL_H
#include <stdint.h>

/* The offset of function name from _text in the kallsyms file at path (NULL: /proc/kallsyms).
 * 0, -ENOENT (no such text symbol) or -errno; -EPERM when the addresses read as zero. */
int probe_kallsyms_offset(const char *path, const char *name, uint64_t *off);

#endif
