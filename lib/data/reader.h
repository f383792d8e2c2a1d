/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader: opens a perf.data file (written by flare or by Linux perf, file or pipe format) and
 * hands out its attrs, feature sections and records. It owns the mapping/buffer behind every
 * pointer it returns; they stay valid until perf_data_close() (records in pipe mode: until
 * the next perf_data_next() call). It never prints; errors come back as -errno / -ERR_*
 * with a description and the file offset in pd->err_msg.
 */
#ifndef FLARE_DATA_READER_H
#define FLARE_DATA_READER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/data/format.h"

/* One event of the file: its attr, the ids of its fds, and its name. */
struct pd_attr {
	struct perf_event_attr attr;	/* zero-extended to the UAPI size */
	uint64_t *ids;
	size_t nr_ids;
	char *name;	/* from EVENT_DESC / EVENT_UPDATE, else made from the attr ("cpu-clock") */
	int idx;	/* position in the file */
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
	uint64_t period;	/* from the record, or attr.sample_period when PERIOD is absent */
	const uint64_t *callchain;	/* callchain[0..nr_callchain) incl. PERF_CONTEXT_* markers */
	uint64_t nr_callchain;
	const void *raw;	/* RAW (tracepoint record) */
	uint32_t raw_size;
	uint64_t user_abi;	/* REGS_USER */
	const uint64_t *user_regs;
	uint64_t user_regs_mask;
	const void *user_stack;	/* STACK_USER */
	uint64_t user_stack_size;	/* dyn_size: bytes really copied */
	uint64_t weight, data_src;
	uint16_t cpumode;	/* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	bool exact_ip;
	const struct pd_attr *attr;
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
	struct perf_file_header header;	/* for a pipe: magic and size only */
	struct pd_attr *attrs;
	size_t nr_attrs;
	uint64_t data_offset, data_size;
	uint64_t file_size;
	char err_msg[256];	/* set when a call fails: what and at which offset */
	void *priv;		/* reader state */
};

#define PD_FORCE 1	/* read files owned by another user (perf's -f) */

/* Opens path ("-" for stdin). On failure returns < 0, sets *ret to NULL and writes one line
 * into errbuf saying what is wrong and where ("bad magic at offset 0", "not owned by you"). */
int perf_data_open(const char *path, unsigned int flags, struct perf_data **ret,
		   char *errbuf, size_t errlen);
void perf_data_close(struct perf_data *pd);

/* Next record in file order. Returns 1 with *ev (and its file offset in *off, may be NULL),
 * 0 at the end, < 0 on a corrupt or truncated record (pd->err_msg says where). In pipe mode
 * HEADER_ATTR / HEADER_FEATURE / HEADER_TRACING_DATA records are absorbed into pd (attrs,
 * features) and also returned. */
int perf_data_next(struct perf_data *pd, const struct perf_event_header **ev, uint64_t *off);

/* The attr a record belongs to (by its sample id, or the only attr). NULL when unknown. */
const struct pd_attr *perf_data_attr_of(struct perf_data *pd, const struct perf_event_header *ev);
const struct pd_attr *perf_data_attr_by_id(struct perf_data *pd, uint64_t id);

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

#endif
