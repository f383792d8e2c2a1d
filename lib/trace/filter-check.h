/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter-check: names the part of a tracepoint filter the kernel refused. The kernel only says
 * EINVAL; this reads the event's format file and finds the first name in the filter that is
 * not one of the event's fields, so the message can say which and list the fields there are.
 */
#ifndef FLARE_TRACE_FILTER_CHECK_H
#define FLARE_TRACE_FILTER_CHECK_H
#include <stddef.h>

/* For the tracepoint "sys:name": 1 when filter names a field the event does not have (that
 * name in bad, the event's own fields, blank-separated, in fields); 0 when every name is a
 * field (the error is elsewhere: an operator or a value); -errno when the format cannot be
 * read. */
int tp_filter_unknown_field(const char *event, const char *filter, char *bad, size_t badlen,
			    char *fields, size_t fieldslen);

#endif
