/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader-priv: the reader's private state, shared by reader.c (open, sources, iteration),
 * reader-sample.c (record decoding, id lookup) and reader-names.c (event names). Nothing
 * outside lib/data/reader*.c includes this.
 */
#ifndef FLARE_DATA_READER_PRIV_H
#define FLARE_DATA_READER_PRIV_H
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "lib/base/arena.h"
#include "lib/base/hashmap.h"
#include "lib/data/reader.h"

/* Where a stream (pipe format) comes from: a file descriptor or a memory buffer. */
struct pd_src {
	int fd; /* -1: read from mem */
	const uint8_t *mem;
	size_t mem_len, mem_pos;
	uint8_t *buf; /* fd: read-ahead buffer (read() returns what the pipe has) */
	size_t buf_len, buf_pos;
};

/* Storage for records copied out of a stream or a decompressed block; freed at close. */
struct pd_chunk {
	struct pd_chunk *next;
	size_t used, cap;
	uint64_t data[]; /* 8-aligned */
};

/* A record read ahead (pipe prelude) and not yet handed out. */
struct pd_pending {
	const struct perf_event_header *ev;
	uint64_t off;
};

enum pd_name_src { NAME_DERIVED, NAME_UPDATE, NAME_DESC };

struct pd_feat {
	const uint8_t *p;
	uint64_t size;
};

struct pd_priv {
	int fd;
	const uint8_t *map; /* the whole file (seekable mode) or the caller's buffer */
	size_t map_len;
	bool own_map;	      /* munmap at close */
	struct pd_src src;    /* pipe mode */
	uint64_t pos;	      /* offset of the next record (file offset; stream offset) */
	uint64_t end;	      /* file mode: end of the readable data */
	uint64_t data_end;    /* file mode: end of the data section as the header says */
	uint64_t dropped;     /* file mode: pages below this were given back (drop_behind) */
	const uint8_t *cur;   /* file mode: the mapping being walked (map, or a data.N file) */
	const char *cur_name; /* "" or " of data.N", for messages */
	/* perf.data directories (record --threads): the data.N files after data */
	struct pd_dir_file *dir_files;
	size_t nr_dir_files, next_dir_file;
	bool in_dir;
	bool eof;
	bool open_end; /* file mode: data size 0 in the header, read to the file's end */
	struct pd_chunk *chunks;
	/* PD_STREAM: the kernel's records after the prelude are read into recbuf, each valid
	 * until the next record is read (a live stream of any length in bounded memory) */
	bool stream, prelude_done;
	uint8_t *recbuf;
	size_t recbuf_cap;
	struct pd_pending *pending;
	size_t nr_pending, pending_pos;
	uint64_t nr_compressed; /* COMPRESSED records read (their records are handed out) */
	struct hashmap id2attr; /* id -> attr index + 1 */
	struct {
		uint64_t id;
		size_t idx;	 /* attr index + 1; 0: empty */
	} id_cache[16];		 /* recent lookups of id2attr, by id % 16 (ids are small numbers) */
	struct hashmap id_index; /* id -> struct pd_id_info * (arena) */
	struct pd_feat feat[256];
	uint8_t *name_src; /* per attr: enum pd_name_src */
	size_t attrs_alloc;
	/* COMPRESSED records: the decompressed block being handed out */
	void *zctx;
	uint8_t *zbuf; /* chunk memory */
	size_t zpos, zlen;
	uint64_t zoff;	   /* offset of the COMPRESSED record */
	uint8_t *zscratch; /* decompression output, reused */
	size_t zscratch_cap;
	/* tracing data (TRACING_DATA feature or HEADER_TRACING_DATA record) */
	const uint8_t *tdata;
	uint64_t tdata_size;
	struct tep_handle *tep;
	bool tep_tried;
	time_t mtime;
	struct arena arena;
	/* id position for records without IDENTIFIER, as perf's id_pos / is_pos */
	int id_pos, is_pos;
};

static inline struct pd_priv *pd_priv(struct perf_data *pd)
{
	return pd->priv;
}

/* Unaligned-safe loads (feature payloads and pipe records are packed). */
static inline uint64_t pd_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t pd_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int pd_err(struct perf_data *pd, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Copies n bytes into chunk storage (8-aligned, valid until close); NULL on -ENOMEM. */
void *pd_chunk_alloc(struct pd_priv *p, size_t n);

/* reader-names.c */
int pd_names_init(struct perf_data *pd);
int pd_name_update(struct perf_data *pd, const struct perf_event_header *ev);
int pd_name_tracepoints(struct perf_data *pd);
int pd_attr_name(const struct perf_event_attr *attr, char *buf, size_t len);

/* reader-sample.c */
int pd_index_ids(struct perf_data *pd);
int pd_add_id_index(struct perf_data *pd, const struct perf_event_header *ev);
int pd_absorb_attr(struct perf_data *pd, const struct perf_event_header *ev);

/* reader.c: opens a regular file, a pipe, or (reader-dir.c) a perf.data directory */
int pd_open_path(struct perf_data *pd, const char *path, unsigned int flags);

/* reader-dir.c */
int pd_dir_open(struct perf_data *pd, const char *path, unsigned int flags);
bool pd_dir_next_file(struct pd_priv *p);
void pd_dir_free(struct pd_priv *p);

/* reader.c: opens a regular file, a pipe, or (reader-dir.c) a perf.data directory */
int pd_open_path(struct perf_data *pd, const char *path, unsigned int flags);

/* reader-dir.c */
int pd_dir_open(struct perf_data *pd, const char *path, unsigned int flags);
bool pd_dir_next_file(struct pd_priv *p);
void pd_dir_free(struct pd_priv *p);

/* reader-zstd.c */
int pd_decompress(struct perf_data *pd, const struct perf_event_header *ev, uint64_t off);
void pd_zstd_free(struct pd_priv *p);

#endif
