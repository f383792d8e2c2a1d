/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log: the only way lib/ reports anything to a human. lib/ code calls log_warn()/log_debug();
 * the front end installs a sink with log_set_sink(). The default sink discards everything, so
 * a library user that installs nothing sees nothing (libbpf's libbpf_set_print, done small).
 */
#ifndef FLARE_BASE_LOG_H
#define FLARE_BASE_LOG_H
#include <stdarg.h>

enum log_level { LOG_WARN, LOG_INFO, LOG_DEBUG };

typedef void (*log_sink_fn)(enum log_level level, const char *fmt, va_list ap);

/* Install sink (NULL restores the silent default). Returns the previous sink. */
log_sink_fn log_set_sink(log_sink_fn sink);

void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
