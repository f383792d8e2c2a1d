// SPDX-License-Identifier: GPL-2.0
/*
 * report-fmt: hand-made printf conversions for report's lines (see report-fmt.h).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "cli/report-fmt.h"

void lb_flush(struct lbuf *b)
{
	if (b->len)
		fwrite(b->buf, 1, b->len, b->out);
	b->len = 0;
}

void lb_mem(struct lbuf *b, const char *s, size_t n)
{
	if (n > sizeof(b->buf) - b->len) {
		lb_flush(b);
		if (n > sizeof(b->buf)) {
			fwrite(s, 1, n, b->out);
			return;
		}
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

void lb_str(struct lbuf *b, const char *s)
{
	lb_mem(b, s, strlen(s));
}

void lb_fill(struct lbuf *b, char c, int n)
{
	while (n > 0) {
		size_t k = (size_t)n < sizeof(b->buf) - b->len ? (size_t)n
							       : sizeof(b->buf) - b->len;

		if (!k) {
			lb_flush(b);
			continue;
		}
		memset(b->buf + b->len, c, k);
		b->len += k;
		n -= (int)k;
	}
}

void lb_left(struct lbuf *b, const char *s, int w)
{
	size_t n = w > 0 ? strnlen(s, (size_t)w) : 0;

	lb_mem(b, s, n);
	lb_fill(b, ' ', w - (int)n);
}

/* Decimal digits of v, right-aligned at the end of buf (of 24); returns where they start. */
static char *utoa(uint64_t v, char *end)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void lb_u64(struct lbuf *b, uint64_t v, int w)
{
	char tmp[24], *p = utoa(v, tmp + sizeof(tmp));
	int n = (int)(tmp + sizeof(tmp) - p);

	lb_fill(b, ' ', w - n);
	lb_mem(b, p, (size_t)n);
}

void lb_hex16(struct lbuf *b, uint64_t v, int hex0x)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[18];
	int i;

	tmp[0] = '0';
	tmp[1] = 'x';
	for (i = 17; i >= 2; i--, v >>= 4)
		tmp[i] = digits[v & 15];
	lb_mem(b, hex0x ? tmp : tmp + 2, hex0x ? 18 : 16);
}

/* "%.2f" of x >= 0 into p (of 64); returns the length. Exact: the rounding is done on x * 100
 * in integers unless it lies within 1e-6 of a half, where printf's exact decimal rounding of
 * the double decides. */
static int pct2(char *p, double x)
{
	double r = x * 100.0, fl = floor(r), fr = r - fl;
	char tmp[24], *d;
	uint64_t n;
	int len;

	if (!(r >= 0 && r < 1e15) || fabs(fr - 0.5) < 1e-6)
		return snprintf(p, 64, "%.2f", x);
	n = (uint64_t)fl + (fr > 0.5);
	d = utoa(n / 100, tmp + sizeof(tmp));
	len = (int)(tmp + sizeof(tmp) - d);
	memcpy(p, d, (size_t)len);
	p[len++] = '.';
	p[len++] = (char)('0' + n % 100 / 10);
	p[len++] = (char)('0' + n % 10);
	return len;
}

void lb_percent(struct lbuf *b, uint64_t v, uint64_t total, int w)
{
	char tmp[64];
	int n = pct2(tmp, total ? (double)v * 100.0 / (double)total : 0.0);

	tmp[n++] = '%';
	lb_fill(b, ' ', w - n);
	lb_mem(b, tmp, (size_t)n);
}
