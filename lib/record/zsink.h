/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zsink: record -z. The rings' bytes go through one zstd stream into COMPRESSED records
 * (header + payload, at most 64 KiB each, not padded: as perf 6.1 writes them); the stream
 * is flushed after each chunk, so a reader decompresses every record as it comes. What the
 * session writes itself (synthesized records, FINISHED_ROUND) stays uncompressed.
 */
#ifndef FLARE_RECORD_ZSINK_H
#define FLARE_RECORD_ZSINK_H
#include <stddef.h>
#include <stdint.h>
#include "lib/data/writer.h"

struct zsink;

/* level 1 (fastest) to 22. 0, -EINVAL for a level out of range, or -ENOMEM. */
int zsink_new(int level, struct zsink **ret);
/* Compresses len bytes of whole records into COMPRESSED records written to w. 0 or < 0. */
int zsink_write(struct zsink *z, struct perf_writer *w, const void *buf, size_t len);
/* Bytes given, and bytes of COMPRESSED records written (headers included). */
uint64_t zsink_bytes_in(const struct zsink *z);
uint64_t zsink_bytes_out(const struct zsink *z);
void zsink_free(struct zsink *z);

#endif
