/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collapse: turns samples into folded stacks exactly as FlameGraph's stackcollapse-perf.pl
 * does with `perf script` text: the same header and frame-line parsing, the same name tidying
 * (offsets stripped, arguments cut, ';' made ':', quotes dropped), the same annotations
 * (_[k] kernel, _[j] JIT, _[i] inlined), the same [dso] / [unknown] / [x <addr>] names, the
 * same per-pid and per-tid roots, the same default event filter (the first event seen).
 *
 * Two ways in: collapse_text() feeds perf script text line by line; the sample API
 * (collapse_header() / collapse_frame() / collapse_end()) feeds samples taken from a perf.data
 * replay, as the lines perf script would print for them. Both end in the same stackset.
 * Filters by comm, pid, tid and time are flare's own; with none set nothing is filtered.
 *
 * The collapse owns its stackset; collapse_free() frees everything.
 */
#ifndef FLARE_GRAPH_COLLAPSE_H
#define FLARE_GRAPH_COLLAPSE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/base/strbuf.h"
#include "lib/graph/folded.h"
#include "lib/session/filter.h"

struct collapse_opts {
	bool kernel;		  /* --kernel: kernel frames get _[k] */
	bool jit;		  /* --jit: frames from /tmp/perf-PID.map get _[j] */
	bool pid;		  /* --pid: root is comm-PID */
	bool tid;		  /* --tid: root is comm-PID/TID */
	bool addrs;		  /* --addrs: unresolved frames show their address */
	bool srcline;		  /* --srcline: a source line follows each resolved frame line */
	bool keep_seq;		  /* remember the sample order (flame charts) */
	const char *event_filter; /* NULL or "": the first event seen */
	/* flare's filters; NULL / 0 entries mean no filter */
	const char *const *comms;
	size_t nr_comms;
	const long *pids;
	size_t nr_pids;
	const long *tids;
	size_t nr_tids;
	const struct time_ranges *times; /* --time (perf's grammar), or NULL */
};

struct collapse;

int collapse_new(const struct collapse_opts *opts, struct collapse **ret);
void collapse_free(struct collapse *c);

/* The stacks collected so far (owned by the collapse). */
struct stackset *collapse_stacks(struct collapse *c);
/* Lines perf script text had that stackcollapse-perf.pl would warn about. */
uint64_t collapse_unrecognized(const struct collapse *c);
/* The event the default filter settled on, or NULL. */
const char *collapse_event(const struct collapse *c);

/* The longest line the text may hold: perf script's are short, and a stream without a
 * newline (a device, binary data) must not be kept without end. */
#define COLLAPSE_LINE_MAX ((size_t)64 << 20)
/* Feeds `perf script` text; may be called with consecutive chunks of lines. A last line
 * without its newline is taken as a line. Returns 0, -ENOMEM, or -E2BIG when an unfinished
 * line grows past COLLAPSE_LINE_MAX. */
int collapse_text(struct collapse *c, const char *buf, size_t len);
/* Ends the text input: a sample not followed by a blank line is dropped, as the script does. */
void collapse_text_end(struct collapse *c);

/*
 * The sample API: one call of collapse_header() with the header line perf script prints for
 * the sample ("comm tid [cpu] time: period event: args"), collapse_frame() for each callchain
 * line, leaf first, then collapse_end(). pc is the hex address printed (without 0x), func the
 * symbol name or "[unknown]", mod the dso name in the parentheses or "[unknown]".
 */
int collapse_header(struct collapse *c, const char *line, size_t len, double time);

/*
 * A header cut into its parts once, for callers that see the same thread again and again:
 * collapse_header_parsed() reports where the script's patterns cut line (offsets into it),
 * and collapse_header_fields() does what collapse_header() does with such parts. A caller
 * that knows its next lines cut the same way (the same comm, pid and tid, the same event
 * name ending the line) may skip making and matching them. Returns 1 when line is a header.
 */
struct collapse_hdr {
	bool matched, has_event;
	size_t comm_len, pid_off, pid_len, tid_off, tid_len, end;
	size_t ev_off, ev_len, per_off, per_len;
};
int collapse_header_parsed(struct collapse *c, const char *line, size_t len,
			   struct collapse_hdr *out);
int collapse_header_fields(struct collapse *c, const char *comm, size_t comm_len, const char *pid,
			   size_t pid_len, const char *tid, size_t tid_len, const char *event,
			   size_t event_len, uint64_t period, double time);
int collapse_frame(struct collapse *c, const char *pc, const char *func, const char *mod);
int collapse_end(struct collapse *c);

/*
 * For callers that cache frame names (a perf.data replay sees the same frames again and
 * again): whether the open sample is kept (frames of a dropped sample need no work), whether
 * its root is a Java process (names are tidied differently), the block of names
 * collapse_frame() added for a frame (valid until the next call; *len 0 when it added none),
 * and collapse_push_block() to add such a block again for an identical frame.
 */
bool collapse_active(const struct collapse *c);
bool collapse_java(const struct collapse *c);
int collapse_frame_block(struct collapse *c, const char *pc, const char *func, const char *mod,
			 const char **block, size_t *len);
int collapse_push_block(struct collapse *c, const char *block, size_t len);
/*
 * For callers that know when a sample folds to the same stack as an earlier one (the same
 * thread header and the same frames): collapse_end_ent() is collapse_end() that also gives
 * the stack's entry (NULL when the sample was dropped), and collapse_end_to() ends the open
 * sample by adding its period to such an entry, without its frames.
 */
int collapse_end_ent(struct collapse *c, struct stack_ent **ent);
/* The root of the open sample's stack (its comm, comm-pid or comm-pid/tid); NULL when no
 * sample is open. Stacks of samples with the same root and the same frames are the same. */
const char *collapse_root(const struct collapse *c, size_t *len);
int collapse_end_to(struct collapse *c, struct stack_ent *e);

#endif
