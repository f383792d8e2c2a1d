/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe/spec: perf probe's probe definitions, parsed (no DWARF, no tracefs here).
 *
 *   [[GROUP:]EVENT=]FUNC[@SRC][:RLN|+OFFS|%return|;PTN] [[NAME=]ARG[:TYPE] ...]
 *   [[GROUP:]EVENT=]SRC:ALN [ARG ...]      [[GROUP:]EVENT=]SRC;PTN     [EVENT=]0xADDR
 *   %[sdt_]PROVIDER:NAME   %NAME   sdt_PROVIDER:NAME     (SDT markers; func is NAME and
 *                                                        file the provider, or NULL)
 *
 * An ARG is a local variable with C member and element access (p->a.b[2]), $retval,
 * $params, $vars, a register (%di), @SYMBOL, or a raw fetch argument (+8(%si)); TYPE is the
 * tracer's (u8..u64, s8..s64, x8..x64, string, ustring, bN@O/S). A probe_spec owns every
 * string it points to; probe_spec_release() frees them.
 */
#ifndef FLARE_PROBE_SPEC_H
#define FLARE_PROBE_SPEC_H
#include <stddef.h>
#include <stdint.h>

struct probe_arg {
	char *name; /* NAME= given by the user, or NULL */
	char *expr; /* the argument without NAME= and :TYPE */
	char *type; /* TYPE, or NULL */
};

enum probe_point_kind {
	PP_FUNC,      /* FUNC[@SRC] with optional +OFFS / %return / :RLN / ;PTN */
	PP_LINE,      /* SRC:ALN */
	PP_LAZY_FILE, /* SRC;PTN */
	PP_ADDR,      /* 0xADDR */
	PP_SDT,	      /* %[sdt_]PROVIDER:NAME, %NAME or sdt_PROVIDER:NAME: an SDT marker */
};

struct probe_spec {
	char *group, *event; /* NULL when not given */
	enum probe_point_kind kind;
	char *func;	 /* PP_FUNC */
	char *file;	 /* @SRC or SRC */
	long line;	 /* :RLN (relative, PP_FUNC) or ALN (PP_LINE); -1 when none */
	uint64_t offset; /* +OFFS */
	int has_offset;
	int is_return;
	char *lazy;    /* ;PTN */
	uint64_t addr; /* PP_ADDR */
	struct probe_arg *args;
	size_t nr_args;
};

/* Parses text (a whole definition, point and arguments separated by blanks) into *spec.
 * Returns 0, or -EINVAL with a one-line reason naming the bad part in err. */
int probe_spec_parse(const char *text, struct probe_spec *spec, char *err, size_t errlen);
void probe_spec_release(struct probe_spec *spec);

/* True when the argument needs debug information (a variable or $params/$vars), false for
 * registers, raw fetch arguments, @SYMBOL, $retval, $stackN, $argN, $comm. */
int probe_arg_needs_dwarf(const struct probe_arg *arg);

/* The name perf gives a probe point: "func_2", "func_2%return", "func_1+4", "@t.c:5",
 * "0x1149" (a lazy pattern left out: "func_2", "@t.c"). Caller frees. */
char *probe_spec_point_str(const struct probe_spec *spec);

#endif
