/* SPDX-License-Identifier: GPL-2.0 */
/*
 * writer: writes perf.data as perf 6.1 does, in the file format (header, ids, attrs, data
 * section, feature index and payloads) or the pipe format (a 16-byte header, then HEADER_ATTR,
 * HEADER_FEATURE and data records on a stream).
 *
 * The target is opened through lib/base/outfile.h: a regular file is written under its own
 * name from the start (an existing one first becomes "<target>.old", perf's perf.data ->
 * perf.data.old), with its ids, attrs and a header written as soon as the events are set and
 * the header's data size brought up to date by perf_writer_sync(): a recording killed
 * outright (SIGKILL) leaves a file perf and flare read up to its last synced record, without
 * the feature sections. perf_writer_free() without a finish removes the file (and puts the
 * .old back), so a failed recording leaves nothing behind. A device is written in place
 * (/dev/null); a FIFO, socket or terminal gets the pipe format, as does "-" (stdout).
 *
 * The writer owns copies of everything handed to it. Records are buffered and written in
 * large chunks. It never prints; functions return 0 or -errno.
 *
 * Feature payloads (writer-feat.c) are built from the running system as perf builds them:
 * hostname, osrelease, version, arch, nrcpus, cpudesc, cpuid, total_mem, cmdline,
 * event_desc, cpu_topology, numa_topology, pmu_mappings, cache, sample_time, mem_topology,
 * bpf_prog_info, bpf_btf, pmu_caps, clockid, build-id, and tracing_data (tracing_data_write.c).
 */
#ifndef FLARE_DATA_WRITER_H
#define FLARE_DATA_WRITER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/base/strbuf.h"
#include "lib/data/format.h"

/* One event as it goes into the attr section: its attr, name and the ids of its fds. */
struct pw_event {
	struct perf_event_attr attr;
	const char *name;
	const uint64_t *ids;
	size_t nr_ids;
	const char *tp_sys, *tp_name; /* tracepoints and uprobes: for TRACING_DATA */
};

/* A dso that samples hit, for the BUILD_ID feature. */
struct pw_buildid {
	const char *filename; /* "[kernel.kallsyms]", "[vdso]" or a path */
	uint8_t id[20];
	uint8_t size;
	uint16_t cpumode; /* PERF_RECORD_MISC_KERNEL or _USER */
};

/* What the feature payloads are made of, besides the running system. */
struct pw_feat_info {
	int argc;
	char *const *argv; /* CMDLINE; argv[0] is replaced by the binary's path */
	const struct pw_event *events;
	size_t nr_events;
	uint64_t first_sample, last_sample; /* SAMPLE_TIME */
	const struct pw_buildid *buildids;
	size_t nr_buildids;
	int clockid; /* CLOCKID when use_clockid */
	bool use_clockid;
	bool no_buildid; /* no BUILD_ID feature at all (record -B) */
	/* COMPRESSED (record -z) when comp_level is set: zstd level, ratio, ring size */
	uint32_t comp_level, comp_ratio, comp_mmap_len;
};

struct perf_writer;

/* Opens path for writing ("-": the pipe format on stdout; see above for other targets). */
int perf_writer_open(const char *path, struct perf_writer **ret);
/* The pipe format on fd (not closed by the writer): for `-o -` when stdout was moved. */
int perf_writer_open_pipe_fd(int fd, struct perf_writer **ret);
bool perf_writer_is_pipe(const struct perf_writer *w);
/* Whether the file format is written in place to something not a regular file (a device:
 * what is written there cannot be read back). */
bool perf_writer_in_place(const struct perf_writer *w);
/* Whether perf_writer_open(path) would write the pipe format ("-", a FIFO, a terminal). */
bool perf_writer_path_is_pipe(const char *path);

/* Sets the events (once, before any record). In pipe mode this writes HEADER_ATTR records. */
int perf_writer_set_events(struct perf_writer *w, const struct pw_event *evs, size_t nr);

/* Appends records (whole records, sizes multiple of 8) to the data section. */
int perf_writer_write(struct perf_writer *w, const void *buf, size_t len);
/* Writes out what is buffered and, in the file format, the data size into the header, so
 * that the file is readable as it stands. 0 or -errno. */
int perf_writer_sync(struct perf_writer *w);
/* Bytes of records written so far. */
uint64_t perf_writer_data_size(const struct perf_writer *w);

/* Adds the payload of one feature. File mode: kept for the feature section written at
 * finish (a later call for the same bit replaces it). Pipe mode: written at once as a
 * HEADER_FEATURE record; call perf_writer_end_features() after the last one. */
int perf_writer_add_feature(struct perf_writer *w, int feat, const void *payload, size_t len);
int perf_writer_end_features(struct perf_writer *w);
/* Pipe mode: a HEADER_TRACING_DATA record followed by the payload. */
int perf_writer_tracing_data(struct perf_writer *w, const void *payload, size_t len);

/* Builds every feature perf 6.1 writes for such a recording and adds it: for the file
 * format all of them, for the pipe format those perf writes at the start (no BUILD_ID,
 * TRACING_DATA, CACHE), then the end marker. */
int perf_writer_add_std_features(struct perf_writer *w, const struct pw_feat_info *info);

/* File mode: writes the feature section, the attrs and the header, and closes the file.
 * Pipe mode: flushes. */
int perf_writer_finish(struct perf_writer *w);
/* Frees w; without a successful finish the file is removed. Accepts NULL. */
void perf_writer_free(struct perf_writer *w);

/* Builds the payload of feature feat into out. Returns 0, 1 when the feature does not apply
 * (nothing to write, e.g. TRACING_DATA without tracepoints), or -errno. */
int perf_feat_build(int feat, const struct pw_feat_info *info, struct strbuf *out);

/* Appends a header string ({u32 len; char s[len]} padded to 64 bytes) to out. */
int perf_feat_put_string(struct strbuf *out, const char *s);

/* Builds the TRACING_DATA payload for the tracepoint events of evs from tracefs. Returns 0,
 * 1 when no event is a tracepoint, or -errno / -ERR_NO_TRACEFS. */
int tracing_data_build(const struct pw_event *evs, size_t nr, struct strbuf *out);

#endif
