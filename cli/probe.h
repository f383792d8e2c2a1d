/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe: what the parts of 'flare probe' share (cmd-probe.c: options, add, delete, list;
 * probe-kernel.c: kprobe definitions; probe-show.c: -F, -V, -L). Each returns an exit status.
 */
#ifndef FLARE_CLI_PROBE_H
#define FLARE_CLI_PROBE_H
#include <stddef.h>
#include "cli/opt.h"
#include "lib/probe/finder.h"

struct probe_ctx {
	const char *exec;    /* -x, or NULL: the kernel */
	const char *vmlinux; /* -k */
	const char *kobj;    /* -m PATH, else -k: the kernel object with debug info, or NULL */
	const char *source;  /* -s: where the sources are, or NULL */
	const char *filter;  /* --filter */
	int force, dry_run, quiet, externs;
	struct probe_find_opts find;
};

int probe_cmd_add(struct probe_ctx *pc, char *const *defs, size_t ndefs, int definition_only);
int probe_cmd_del(struct probe_ctx *pc, const struct opt_strlist *pats);
int probe_cmd_list(struct probe_ctx *pc, const char *filter);
/* Kernel definitions: printed with -D/-n, refused with the reason when kprobe_events is
 * missing. Returns 0 or -errno. */
int probe_plan_kprobes(struct probe_ctx *pc, char *const *defs, size_t ndefs, int definition_only);
int probe_cmd_funcs(struct probe_ctx *pc, const char *filter);
int probe_cmd_vars(struct probe_ctx *pc, const char *point);
int probe_cmd_lines(struct probe_ctx *pc, const char *desc);

#endif
