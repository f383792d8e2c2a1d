/* SPDX-License-Identifier: GPL-2.0 */
/*
 * out: what every subcommand shares for talking to the user: error and warning lines
 * ("flare: ..."), the log sink for lib/, the pager, and number formatting.
 */
#ifndef FLARE_CLI_OUT_H
#define FLARE_CLI_OUT_H
#include <stdint.h>
#include <stdio.h>

extern int out_verbose; /* -v count of the running command; debug lines at >= 1 */
/* "flare", or "perf" when flare runs under that name (a symlink), so that scripts reading
 * perf's messages ("[ perf record: ... ]", "Usage: perf stat") work unchanged. */
extern const char *out_progname;
void out_set_progname(const char *argv0);

/* "flare: <msg>\n" (out_progname) on stderr. */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "flare: warning: <msg>\n" on stderr. */
void pr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Installs the stderr sink for lib/'s log_*() calls. */
void out_init_log(void);

/* Pipes stdout through $PAGER (default "less -FRSX") when stdout is a terminal and
 * FLARE_PAGER/PAGER is not "cat" or empty. The pager is waited for at exit. */
void out_pager_start(void);
/* flare --no-pager: out_pager_start() does nothing from now on. */
void out_pager_disable(void);

/* Formats v with thousands separators ("1,234,567") into buf and returns buf. */
char *out_thousands(char buf[32], uint64_t v);
/* A double with the given decimals, grouped as perf stat's "%'" does under the user's
 * LC_NUMERIC: "1,234.57" under en_US, "1234.57" under C and C.UTF-8. */
char *out_thousands_f(char buf[48], double v, int decimals);

#endif
