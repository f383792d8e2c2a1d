// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <locale.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/out.h"
#include "lib/base/log.h"

int out_verbose;
const char *out_progname = "flare";
static pid_t pager_pid;
static bool pager_off;

void pr_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", out_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void pr_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: warning: ", out_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void log_sink(enum log_level level, const char *fmt, va_list ap)
{
	if (level == LOG_DEBUG && out_verbose < 1)
		return;
	if (level == LOG_INFO && out_verbose < 1)
		return;
	fflush(stdout);
	fprintf(stderr, "%s: %s", out_progname, level == LOG_WARN ? "warning: " : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void out_set_progname(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	base = base ? base + 1 : argv0;
	if (!strcmp(base, "perf"))
		out_progname = "perf";
}

void out_init_log(void)
{
	log_set_sink(log_sink);
}

static void pager_wait(void)
{
	int st;

	if (!pager_pid)
		return;
	fflush(stdout);
	fclose(stdout);
	waitpid(pager_pid, &st, 0);
}

void out_pager_disable(void)
{
	pager_off = true;
}

void out_pager_start(void)
{
	const char *pager = getenv("FLARE_PAGER");
	int fds[2];
	pid_t pid;

	if (pager_off || !isatty(STDOUT_FILENO) || pager_pid)
		return;
	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return;
	if (pipe(fds))
		return;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pid) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", "FRSX", 0);
		execlp("sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	close(fds[0]);
	close(fds[1]);
	pager_pid = pid;
	atexit(pager_wait);
}

static char *group3(char *out, size_t outsz, const char *digits)
{
	size_t n = strlen(digits), i, o = 0;
	int neg = digits[0] == '-';

	if (neg)
		out[o++] = '-', digits++, n--;
	for (i = 0; i < n && o + 2 < outsz; i++) {
		out[o++] = digits[i];
		if ((n - i - 1) % 3 == 0 && i + 1 < n)
			out[o++] = ',';
	}
	out[o] = '\0';
	return out;
}

char *out_thousands(char buf[32], uint64_t v)
{
	char tmp[24];

	snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	return group3(buf, 32, tmp);
}

/* The user's LC_NUMERIC (LC_ALL, LC_NUMERIC, LANG), as perf stat takes it with
 * setlocale(LC_ALL, ""), held apart so that only these numbers follow it; the C locale
 * when it names none that is installed. Made once, never freed. */
static locale_t numeric_locale(void)
{
	static locale_t loc;

	if (!loc)
		loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
	if (!loc)
		loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	return loc;
}

char *out_thousands_f(char buf[48], double v, int decimals)
{
	locale_t loc = numeric_locale(), old = loc ? uselocale(loc) : (locale_t)0;

	/* printf's ' flag groups as the locale does: not at all under C and C.UTF-8 */
	snprintf(buf, 48, "%'.*f", decimals, v);
	if (loc)
		uselocale(old);
	return buf;
}
