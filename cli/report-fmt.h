/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-fmt: the printf conversions `flare report` prints hundreds of thousands of times
 * (a period as "%.2f%%", a count as "%*lu", a name as "%-*.*s"), done by hand into a line
 * buffer that goes out with one fwrite. Each produces exactly the bytes printf would.
 */
#ifndef FLARE_CLI_REPORT_FMT_H
#define FLARE_CLI_REPORT_FMT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lbuf {
	FILE *out;
	size_t len;
	char buf[4096];
};

/* Writes what the buffer holds to its FILE. */
void lb_flush(struct lbuf *b);
void lb_mem(struct lbuf *b, const char *s, size_t n);
void lb_str(struct lbuf *b, const char *s);
void lb_fill(struct lbuf *b, char c, int n);
/* printf("%-*.*s", w, w, s): s cut to w bytes, padded to w */
void lb_left(struct lbuf *b, const char *s, int w);
/* printf("%*" PRIu64, w, v) */
void lb_u64(struct lbuf *b, uint64_t v, int w);
/* printf("%016" PRIx64, v), with prefix "0x" if hex0x */
void lb_hex16(struct lbuf *b, uint64_t v, int hex0x);
/* printf("%*s", w, "<v * 100 / total as %.2f>%") */
void lb_percent(struct lbuf *b, uint64_t v, uint64_t total, int w);

#endif
