/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session: replays a perf.data file in time order and turns each SAMPLE into a resolved
 * sample: the thread (pid, tid, comm at that time), and the call chain as frames with dso and
 * symbol. It keeps threads and their maps (COMM, FORK, EXIT, MMAP, MMAP2), owns the reader
 * and the symtab, and frees all with session_free().
 *
 * Ordering: records are delivered in time order (stable: file order among equal times),
 * released round by round at FINISHED_ROUND as perf's ordered-events queue does; records
 * without a time (0: synthesized, or no sample_id) and records perf makes itself (type >= 64)
 * are handed on where they stand, a FINISHED_ROUND before the round it closes is released. Frames and the resolved_sample are valid during the callback
 * only; dsos, symbols, threads and comm strings live until session_free().
 */
#ifndef FLARE_SESSION_SESSION_H
#define FLARE_SESSION_SESSION_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/data/reader.h"
#include "lib/sym/sym.h"

struct thread {
	uint32_t pid, tid;
	int32_t ppid;	  /* the parent's tid from the FORK that made it, else -1, as perf */
	const char *comm; /* current name; ":<tid>" when no COMM was seen, as perf */
};

struct frame {
	uint64_t ip;		  /* as in the call chain (return address for callers) */
	uint64_t dso_ip;	  /* ip in the dso's address space */
	struct dso *dso;	  /* NULL: unknown mapping ([unknown] in output) */
	const struct symbol *sym; /* NULL: no symbol ([unknown] or the address) */
	uint8_t cpumode;	  /* PERF_RECORD_MISC_KERNEL / _USER / ... */
	bool unwound;		  /* unwound from a stack copy: perf 6.1 shows its inline frames */
	/* What perf prints for the address of this frame (perf script's ip column of a call
	 * chain, perf report's "0x..." of an unresolved symbol): ip - map start + pgoff for a
	 * file mapping, ip itself for the kernel, JIT/anon maps and unknown mappings. */
	uint64_t addr;
};

struct resolved_sample {
	const struct perf_sample *s; /* the decoded record */
	const struct pd_attr *attr;
	const struct thread *thread;
	struct frame *frames; /* frames[0] is the sample ip (leaf), then its callers */
	size_t nr_frames;     /* 1 when the sample has no call chain */
	const struct perf_event_header *ev; /* the record itself */
	uint64_t offset;		    /* file offset of the record */
	/* The chain held a context marker perf does not know (a corrupt stack walk): perf
	 * drops the chain and keeps the sample; nr_frames is 1. */
	bool chain_discarded;
};

struct session_opts {
	unsigned int open_flags; /* PD_FORCE */
	const char *symfs;	 /* "" or NULL for / */
	const char *kallsyms;	 /* kernel symbols from this file, or NULL */
	bool no_demangle;	 /* C++/Rust names as mangled */
	bool no_callchain;	 /* resolve only the sample ip */
	bool file_order;	 /* replay in file order (script -D, debugging) */
	bool no_resolve;	 /* no frames at all (nr_frames 0), no kernel symbols read:
					 * for readers of tracepoint fields (sched) */
	bool threads_only;	 /* only COMM, FORK and EXIT are replayed: the task tree
					 * as perf report --tasks builds it (no sample callbacks) */
};

struct session {
	struct perf_data *pd;
	struct symtab *symtab;
	uint64_t nr_samples;
	uint64_t nr_lost; /* sum of LOST_SAMPLES (perf's total_lost_samples) */
	uint64_t first_time, last_time;
	void *priv;
};

/* Non-sample records are passed to this too when set (for script -D / --show-*-events). */
typedef int (*session_record_cb)(void *ctx, const struct perf_event_header *ev, uint64_t off);
/* Return < 0 to stop the replay with that error. */
typedef int (*session_sample_cb)(void *ctx, const struct resolved_sample *rs);

int session_open(const char *path, const struct session_opts *opts, struct session **ret,
		 char *errbuf, size_t errlen);
void session_free(struct session *sess);

/* Replays the file. On a corrupt or truncated record, the records before it are delivered
 * and the reader's error is returned (sess->pd->err_msg says where). */
int session_process(struct session *sess, session_sample_cb on_sample, session_record_cb on_other,
		    void *ctx);

/* Thread lookup after or during replay. NULL when never seen. */
const struct thread *session_thread(struct session *sess, uint32_t tid);
/* The live threads (a tid reused by a later FORK replaces the earlier one), in no order, as a
 * malloc'ed array of *nr the caller frees. 0 or -ENOMEM. */
int session_threads(struct session *sess, const struct thread ***ret, size_t *nr);

/* Resolves a kernel address through the recording's kernel maps (the kernel, its modules) into
 * f, as a kernel sample ip would be. False when no dso holds it (f->sym may still be NULL). */
bool session_kernel_addr(struct session *sess, uint64_t addr, struct frame *f);
/* Resolves ip in thread t (a resolved_sample's, during the replay) at cpumode into f, as a
 * call-chain entry is resolved; for tools that walk a raw chain themselves. */
void session_resolve_ip(struct session *sess, const struct thread *t, uint8_t cpumode, uint64_t ip,
			struct frame *f);

/* The name of the data mapping (no dso: "//anon", "[stack]", "[heap]") holding addr in
 * thread t at cpumode, as perf names the map; NULL when none. Valid until session_free(). */
const char *session_data_map(struct session *sess, const struct thread *t, uint8_t cpumode,
			     uint64_t addr);

/* perf's --max-stack, before session_process(): at most n frames of each call chain (the
 * innermost ones, or with outermost the outermost as perf keeps them for caller-ordered
 * graphs) and at most n unwound from a stack copy; 0, the default, keeps all. */
void session_set_max_stack(struct session *sess, unsigned int n, bool outermost);

/*
 * The inline entries perf 6.1 shows in place of f (lib/sym/srcline.h: innermost first, f's
 * own function last), for a frame unwound from a stack copy; 0 (*ret NULL) for any other
 * frame, or when its object has no DWARF for it: f is then shown as it is.
 */
struct inline_entry;
size_t session_frame_inlines(struct session *sess, const struct frame *f,
			     const struct inline_entry **ret);
/* perf's srcline of f: "file.c:42" or "??:0" (owned by the session). */
const char *session_frame_srcline(struct session *sess, const struct frame *f);
/* The session's source-line tables (lib/sym/srcline.h), made on first use; NULL without
 * memory. Owned by the session. */
struct srclines *session_srclines(struct session *sess);

/* How the DWARF unwinds of --call-graph dwarf samples ended (lib/unwind/unwind.h); NULL when
 * the replay met none. */
struct unwind_stats;
const struct unwind_stats *session_unwind_stats(const struct session *sess);

#endif
