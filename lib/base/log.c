// SPDX-License-Identifier: GPL-2.0
#include "lib/base/log.h"

static log_sink_fn cur_sink;

log_sink_fn log_set_sink(log_sink_fn sink)
{
	log_sink_fn old = cur_sink;

	cur_sink = sink;
	return old;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	if (!cur_sink)
		return;
	va_start(ap, fmt);
	cur_sink(level, fmt, ap);
	va_end(ap);
}
