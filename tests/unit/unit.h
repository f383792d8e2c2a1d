/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit: a tiny unit-test harness. Each tests/unit/<module>.c is one binary:
 *
 *	TEST(strbuf_addf) { struct strbuf sb = STRBUF_INIT; ...; CHECK(sb.len == 3); }
 *	int main(void) { RUN(strbuf_addf); return unit_done(); }
 *
 * It prints one line per test in the format tests/run.sh tallies:
 *	ok - unit/<file>: <test>      FAIL - unit/<file>: <test>: <where>: <what>
 */
#ifndef FLARE_TESTS_UNIT_H
#define FLARE_TESTS_UNIT_H
#include <stdio.h>
#include <string.h>

static int unit_failed_now, unit_nfail;

#define TEST(name) static void name(void)
#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("FAIL - unit/%s: %s: %s:%d: %s\n", UNIT_FILE, unit_cur, __FILE__,   \
			       __LINE__, #cond);                                                   \
			unit_failed_now = 1;                                                       \
			return;                                                                    \
		}                                                                                  \
	} while (0)
#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *a_ = (a), *b_ = (b);                                                   \
		if (!a_ || !b_ || strcmp(a_, b_)) {                                                \
			printf("FAIL - unit/%s: %s: %s:%d: '%s' != '%s'\n", UNIT_FILE, unit_cur,   \
			       __FILE__, __LINE__, a_ ? a_ : "(null)", b_ ? b_ : "(null)");        \
			unit_failed_now = 1;                                                       \
			return;                                                                    \
		}                                                                                  \
	} while (0)

static const char *unit_cur = "";
#define UNIT_FILE (strrchr(__FILE__, '/') ? strrchr(__FILE__, '/') + 1 : __FILE__)
#define RUN(name)                                                                                  \
	do {                                                                                       \
		unit_cur = #name;                                                                  \
		unit_failed_now = 0;                                                               \
		name();                                                                            \
		if (unit_failed_now)                                                               \
			unit_nfail++;                                                              \
		else                                                                               \
			printf("ok - unit/%s: %s\n", UNIT_FILE, #name);                            \
	} while (0)
#define SKIP(name, why) printf("skip - unit/%s: %s # %s\n", UNIT_FILE, #name, why)

static inline int unit_done(void)
{
	fflush(stdout);
	return unit_nfail ? 1 : 0;
}

#endif
