// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "lib/base/err.h"

static const char *const err_names[] = {
	[ERR_FORMAT - ERR_BASE] = "malformed data",
	[ERR_TRUNCATED - ERR_BASE] = "data ends early (truncated)",
	[ERR_NO_TRACEFS - ERR_BASE] = "tracefs is not mounted",
	[ERR_EVENT_SYNTAX - ERR_BASE] = "event syntax error",
	[ERR_EVENT_UNKNOWN - ERR_BASE] = "unknown event",
	[ERR_NOT_SUPPORTED - ERR_BASE] = "not supported by this kernel or machine",
	[ERR_NO_SYMBOL - ERR_BASE] = "symbol not found",
	[ERR_ENDIAN - ERR_BASE] = "file has the other byte order",
	[ERR_UNSUPPORTED_FILE - ERR_BASE] = "file uses a feature flare does not read",
};

const char *err_str(int err)
{
	if (err < 0)
		err = -err;
	if (err > ERR_BASE && err < ERR_LAST && err_names[err - ERR_BASE])
		return err_names[err - ERR_BASE];
	if (err == 0)
		return "success";
	if (err < ERR_BASE)
		return strerrordesc_np(err) ? strerrordesc_np(err) : "unknown error";
	return "unknown error";
}
