/* SPDX-License-Identifier: GPL-2.0 */
/*
 * err: flare's error codes. A function that can fail returns int: >= 0 on success, a negative
 * errno value or a negative project code (below) on failure. err_str() names either kind.
 * Project codes start at ERR_BASE so they never collide with errno values.
 */
#ifndef FLARE_BASE_ERR_H
#define FLARE_BASE_ERR_H

enum flare_err {
	ERR_BASE = 4096,
	ERR_FORMAT,	      /* malformed input file or record */
	ERR_TRUNCATED,	      /* input ends early */
	ERR_NO_TRACEFS,	      /* tracefs not mounted and cannot be mounted */
	ERR_EVENT_SYNTAX,     /* event spec does not parse */
	ERR_EVENT_UNKNOWN,    /* event name not known */
	ERR_NOT_SUPPORTED,    /* kernel cannot do it (no PMU, no kprobes, ...) */
	ERR_NO_SYMBOL,	      /* symbol not found */
	ERR_ENDIAN,	      /* file of the other byte order */
	ERR_UNSUPPORTED_FILE, /* valid file, feature flare does not read */
	ERR_LAST,
};

/* Static string describing err (negative or positive errno, or a project code). Never NULL. */
const char *err_str(int err);

#endif
