/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind: the user part of a `--call-graph dwarf` sample, unwound from the registers and the
 * stack copy the sample carries (REGS_USER, STACK_USER), with the CFI of each mapped object
 * (.eh_frame, .debug_frame, separate debug info by build-id and .gnu_debuglink) read by
 * libdwfl. The one unwinder every reader uses, through the session.
 *
 * Caching: one Dwfl per address space (a process's maps), kept while its maps generation is
 * unchanged; objects are reported to it on first use, so each object's ELF and CFI are read
 * once per address space and libdw caches the FDEs it found by address. The unwinder owns its
 * Dwfls and frees them with unwinder_free().
 *
 * An unwind that stops early is not an error: the chain ends where it stopped and the reason
 * is counted in the stats (printed once by the readers' headers).
 */
#ifndef FLARE_UNWIND_UNWIND_H
#define FLARE_UNWIND_UNWIND_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/data/reader.h"
#include "lib/sym/sym.h"

struct unwinder;

/* A mapping of the address space, as the session's maps know it. */
struct unwind_map {
	uint64_t start, end, pgoff;
	struct dso *dso;
};

/* Fills *out with the mapping holding addr; false when none. ctx is the caller's. */
typedef bool (*unwind_find_map_cb)(void *ctx, uint64_t addr, struct unwind_map *out);

enum unwind_stop {
	UNWIND_DONE,	  /* reached the outermost frame */
	UNWIND_MAX_STACK, /* stopped at the frame limit */
	UNWIND_NO_REGS,	  /* no user registers or stack copy (a kernel thread) */
	UNWIND_STACK_END, /* needed stack beyond the sample's copy (truncated) */
	UNWIND_NO_MAP,	  /* an address outside any mapped object */
	UNWIND_NO_CFI,	  /* an object without usable unwind info (or unreadable) */
	UNWIND__NR
};

struct unwind_stats {
	uint64_t samples;	    /* samples with user regs and a stack copy */
	uint64_t stops[UNWIND__NR]; /* why each unwind ended */
};

/* 0 or -ENOMEM. st resolves paths (symfs, build-id cache) and is borrowed. */
int unwinder_new(struct symtab *st, struct unwinder **ret);
void unwinder_free(struct unwinder *u);

/* True when s carries what unwinding needs (64-bit user regs with ip and sp, a stack copy). */
bool unwind_sample_has_stack(const struct perf_sample *s);

/*
 * Unwinds s in the address space `space` (any stable pointer naming it; find tells its maps as
 * they are now, and a Dwfl that disagrees with them is rebuilt): writes at most max addresses into ips, ips[0] being the user ip of the
 * registers and the others return addresses less one (in the call, as perf prints them). Returns the number written; *why says why it
 * stopped (may be NULL).
 */
size_t unwind_user(struct unwinder *u, const void *space, unwind_find_map_cb find, void *ctx,
		   const struct perf_sample *s, uint64_t *ips, size_t max, enum unwind_stop *why);

const struct unwind_stats *unwinder_stats(const struct unwinder *u);
/* Writes "3 of 455 user stacks end early: 2 stack copy too short, 1 no unwind info" into buf
 * and returns its length; 0 (buf "") when every unwind ended normally. st may be NULL. */
int unwind_stats_summary(const struct unwind_stats *st, char *buf, size_t len);

/* "stack copy too short" and such, for the header line. */
const char *unwind_stop_str(enum unwind_stop why);

#endif
