// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <linux/perf_event.h>
#include "lib/session/frame.h"

static const char unknown[] = "[unknown]";

const char *frame_sym_name(const struct frame *f)
{
	return f->sym ? f->sym->name : unknown;
}

int frame_report_sym(const struct frame *f, char *buf, size_t len)
{
	if (f->sym)
		return snprintf(buf, len, "%s", f->sym->name);
	return snprintf(buf, len, "%#.16llx", (unsigned long long)f->addr);
}

unsigned long long frame_sym_offset(const struct frame *f)
{
	return f->sym ? (unsigned long long)(f->dso_ip - f->sym->start) : 0;
}

int frame_symoff(const struct frame *f, char *buf, size_t len)
{
	if (!f->sym)
		return snprintf(buf, len, "%s", unknown);
	return snprintf(buf, len, "%s+0x%llx", f->sym->name, frame_sym_offset(f));
}

const char *frame_dso_short(const struct frame *f)
{
	return f->dso ? f->dso->short_name : unknown;
}

const char *frame_dso_long(const struct frame *f)
{
	return f->dso ? f->dso->long_name : unknown;
}

char frame_level(const struct frame *f)
{
	switch (f->cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_USER:
		return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	default:
		return 'H';
	}
}

int frame_report_sym_level(const struct frame *f, char *buf, size_t len)
{
	int n = snprintf(buf, len, "[%c] ", frame_level(f));

	if (n < 0 || (size_t)n >= len)
		return n;
	return n + frame_report_sym(f, buf + n, len - (size_t)n);
}
