/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing_data: perf's TRACING_DATA blob (the TRACING_DATA feature of a file, or what follows
 * a HEADER_TRACING_DATA record in a pipe stream) parsed into a libtraceevent tep_handle: the
 * header_page/header_event formats, every event format (by system), kallsyms, printk formats
 * and saved cmdlines, so tracepoint samples' RAW data can be formatted and named.
 */
#ifndef FLARE_DATA_TRACING_DATA_H
#define FLARE_DATA_TRACING_DATA_H
#include <stddef.h>

struct tep_handle;
struct perf_data;

/* Parses size bytes at buf into a new tep_handle (the caller frees it with tep_free()).
 * 0, or -ERR_FORMAT / -ERR_TRUNCATED / -ERR_ENDIAN / -ENOMEM with errbuf saying where. */
int tracing_data_parse(const void *buf, size_t size, struct tep_handle **ret, char *errbuf,
		       size_t errlen);

/* The tep_handle of pd's tracing data, made on first call and owned by pd (freed by
 * perf_data_close()). NULL when the file has no tracing data or it does not parse (the
 * reason goes to log_warn). In pipe mode it exists once the HEADER_TRACING_DATA record has
 * been read (perf_data_open() reads ahead to it). */
struct tep_handle *perf_data_tep(struct perf_data *pd);

#endif
