/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format: perf.data's on-disk layout as perf 6.1 writes it (see doc/perf-data-format.md
 * for the verified description). Shared by the reader (reader.c) and the writer (writer.c);
 * only declarations and constants live here. All values are host byte order on disk.
 */
#ifndef FLARE_DATA_FORMAT_H
#define FLARE_DATA_FORMAT_H
#include <stdint.h>
#include <linux/perf_event.h>

#define PERF_MAGIC2 0x32454c4946524550ULL /* "PERFILE2" */
#define PERF_ATTR_SIZE_FILE 128		  /* sizeof(perf_event_attr) perf 6.1 writes */

struct perf_file_section {
	uint64_t offset;
	uint64_t size;
};

struct perf_file_header {
	uint64_t magic;
	uint64_t size;	    /* 104 for a file, 16 for a pipe */
	uint64_t attr_size; /* 144 */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;
	uint64_t features[4];
};

struct perf_pipe_file_header {
	uint64_t magic;
	uint64_t size; /* 16 */
};

/* Records perf itself adds to the data stream (type >= 64). */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
};

/* Feature bits (header.h of perf 6.1). */
enum perf_feat {
	FEAT_RESERVED = 0,
	FEAT_TRACING_DATA = 1,
	FEAT_BUILD_ID,
	FEAT_HOSTNAME,
	FEAT_OSRELEASE,
	FEAT_VERSION,
	FEAT_ARCH,
	FEAT_NRCPUS,
	FEAT_CPUDESC,
	FEAT_CPUID,
	FEAT_TOTAL_MEM,
	FEAT_CMDLINE,
	FEAT_EVENT_DESC,
	FEAT_CPU_TOPOLOGY,
	FEAT_NUMA_TOPOLOGY,
	FEAT_BRANCH_STACK,
	FEAT_PMU_MAPPINGS,
	FEAT_GROUP_DESC,
	FEAT_AUXTRACE,
	FEAT_STAT,
	FEAT_CACHE,
	FEAT_SAMPLE_TIME,
	FEAT_MEM_TOPOLOGY,
	FEAT_CLOCKID,
	FEAT_DIR_FORMAT,
	FEAT_BPF_PROG_INFO,
	FEAT_BPF_BTF,
	FEAT_COMPRESSED,
	FEAT_CPU_PMU_CAPS,
	FEAT_CLOCK_DATA,
	FEAT_HYBRID_TOPOLOGY,
	FEAT_PMU_CAPS,
	FEAT_LAST = 32,
};

/* The perf_event_header every record starts with is struct perf_event_header (UAPI). */

#define PERF_NAME_ALIGN 64 /* header strings are padded to this */

/* misc bits perf uses beyond the UAPI ones */
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

#endif
