/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader: opens a perf.data file (written by flare or by Linux perf, file or pipe format) and
 * hands out its attrs, feature sections and records. It owns the mapping/buffer behind every
 * pointer it returns; they stay valid until perf_data_close(), in every mode (pipe streams and
 * decompressed records are kept in chunks until close). Every record handed out is 8-byte
 * aligned. It never prints; errors come back as -errno / -ERR_* with a description and the
 * file offset in pd->err_msg.
 *
 * A perf.data directory (perf record --threads) reads as one file: data's section, then each
 * data.N file in numeric order; offsets are then relative to the file being walked.
 *
 * Pipe mode: perf_data_open() reads ahead the stream's prelude (HEADER_ATTR, HEADER_FEATURE,
 * HEADER_TRACING_DATA, EVENT_UPDATE ... up to FINISHED_INIT or the first SAMPLE), so attrs,
 * names and features are known right after open; those records are still returned by
 * perf_data_next(). COMPRESSED records (record -z) are not returned: the records inside them
 * are, with the COMPRESSED record's offset.
 */
#ifndef FLARE_DATA_READER_H
#define FLARE_DATA_READER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/data/format.h"

/* One event of the file: its attr, the ids of its fds, and its name. */
struct pd_attr {
	struct perf_event_attr attr; /* zero-extended to the UAPI size */
	uint64_t *ids;
	size_t nr_ids;
	char *name; /* from EVENT_DESC / EVENT_UPDATE, else made from the attr ("cpu-clock") */
	int idx;    /* position in the file */
};

/* A SAMPLE record decoded with its attr's sample_type. Pointers point into the record. */
struct perf_sample {
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period; /* from the record, or attr.sample_period when PERIOD is absent */
	const uint64_t *callchain; /* callchain[0..nr_callchain) incl. PERF_CONTEXT_* markers */
	uint64_t nr_callchain;
	const void *raw; /* RAW (tracepoint record) */
	uint32_t raw_size;
	uint64_t user_abi; /* REGS_USER */
	const uint64_t *user_regs;
	uint64_t user_regs_mask;
	const void *user_stack;	  /* STACK_USER */
	uint64_t user_stack_size; /* dyn_size: bytes really copied */
	uint64_t weight, data_src;
	uint16_t cpumode; /* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	bool exact_ip;
	const struct pd_attr *attr;
	/* READ: read_nr entries of read_stride u64s {value, [id], [lost]} in read_values */
	const uint64_t *read; /* the raw read_format block; NULL when absent */
	uint64_t read_nr;     /* GROUP: nr of members; else 1 */
	uint64_t read_time_enabled, read_time_running;
	const uint64_t *read_values; /* into the record, or read_one (single counter) */
	uint32_t read_stride;
	uint64_t read_one[3];
	/* BRANCH_STACK */
	uint64_t branch_nr;
	uint64_t branch_hw_idx; /* -1ULL when the attr has no HW_INDEX */
	const struct perf_branch_entry *branches;
	/* REGS_INTR */
	uint64_t intr_abi;
	const uint64_t *intr_regs;
	uint64_t intr_regs_mask;
	uint64_t user_stack_alloc; /* STACK_USER size field (bytes reserved in the record) */
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size, code_page_size;
	const void *aux;
	uint64_t aux_size;
};

/* What an ID_INDEX record says about an id. */
struct pd_id_info {
	uint64_t id, idx, cpu, tid;
};

/* The sample_id trailer of a non-sample record (fields absent read as 0). */
struct perf_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

struct perf_data {
	const char *path;
	bool is_pipe;
	struct perf_file_header header; /* for a pipe: magic and size only */
	struct pd_attr *attrs;
	size_t nr_attrs;
	uint64_t data_offset, data_size;
	uint64_t file_size;
	/* the records ended before the data section did (a file cut short, a killed
	 * recording): perf_data_next() ended there, after a warning saying what was lost */
	bool cut_short;
	char err_msg[256]; /* set when a call fails: what and at which offset */
	void *priv;	   /* reader state */
};

#define PD_FORCE 1 /* read files owned by another user (perf's -f) */
/* A pipe stream read for as long as it lasts (flare top): after the prelude, a record of the
 * kernel's types (below PERF_RECORD_USER_TYPE_START) is valid only until the next
 * perf_data_next() call, so memory stays bounded. */
#define PD_STREAM 2

/* Opens path ("-" for stdin). On failure returns < 0, sets *ret to NULL and writes one line
 * into errbuf saying what is wrong and where ("bad magic at offset 0", "not owned by you"). */
int perf_data_open(const char *path, unsigned int flags, struct perf_data **ret, char *errbuf,
		   size_t errlen);
void perf_data_close(struct perf_data *pd);
/* The same over a memory buffer the caller keeps alive until perf_data_close() (tests, fuzz).
 * name is used in messages. Ownership checks do not apply. */
int perf_data_open_mem(const void *buf, size_t len, const char *name, struct perf_data **ret,
		       char *errbuf, size_t errlen);

/* Next record in file order. Returns 1 with *ev (and its file offset in *off, may be NULL),
 * 0 at the end, < 0 on a corrupt or truncated record (pd->err_msg says where). In pipe mode
 * HEADER_ATTR / HEADER_FEATURE / HEADER_TRACING_DATA records are absorbed into pd (attrs,
 * features) and also returned. */
int perf_data_next(struct perf_data *pd, const struct perf_event_header **ev, uint64_t *off);
/* COMPRESSED records (record -z) read so far: perf_data_next() hands out what they hold,
 * never themselves. */
uint64_t perf_data_nr_compressed(struct perf_data *pd);

/* The attr a record belongs to (by its sample id, or the only attr). NULL when unknown. */
const struct pd_attr *perf_data_attr_of(struct perf_data *pd, const struct perf_event_header *ev);
const struct pd_attr *perf_data_attr_by_id(struct perf_data *pd, uint64_t id);
/* The ID_INDEX entry for id (cpu, tid of the fd), NULL when the file has none. */
const struct pd_id_info *perf_data_id_info(struct perf_data *pd, uint64_t id);
/* The sample id of a record (IDENTIFIER or ID by position); 0 and false when it has none. */
bool perf_data_record_id(struct perf_data *pd, const struct perf_event_header *ev, uint64_t *id);

/* Decodes a PERF_RECORD_SAMPLE. 0, or -ERR_FORMAT when the fields overrun the record. */
int perf_data_parse_sample(struct perf_data *pd, const struct perf_event_header *ev,
			   struct perf_sample *s);
/* Decodes the sample_id trailer of a non-sample record. */
int perf_data_parse_id(struct perf_data *pd, const struct perf_event_header *ev,
		       struct perf_sample_id *sid);

/* Payload of a feature section; NULL when absent. */
const void *perf_data_feature(struct perf_data *pd, int feat, size_t *size);
bool perf_data_has_feature(struct perf_data *pd, int feat);
/* A string feature (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID) or NULL. */
const char *perf_data_feature_str(struct perf_data *pd, int feat);

/* The name perf gives an attr without a recorded name: "cpu-clock:pppH", "cycles:u",
 * "dummy:HG", "raw 0x1a", "mem:0x1000:rw", "unknown tracepoint" (the reader names
 * tracepoints "sys:name" from the tracing data instead), "unknown attr type: 8".
 * Writes a NUL-terminated string; returns its length. */
int perf_attr_name(const struct perf_event_attr *attr, char *buf, size_t len);

/* A record type's name as perf prints it after "PERF_RECORD_": "MMAP2", "FINISHED_ROUND";
 * NULL for a type perf 6.1 does not know. */
const char *perf_record_name(uint32_t type);

/* The file's modification time ("captured on"), 0 for a stream. */
long long perf_data_mtime(struct perf_data *pd);

#endif
