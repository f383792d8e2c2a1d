/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine: the state a replay rebuilds, as perf's struct machine does: threads by tid (COMM,
 * FORK, EXIT), the maps of each process (MMAP, MMAP2; a forked process gets a copy of its
 * parent's, threads share their process's), the kernel's maps, and the resolution of
 * addresses and call chains into frames. Everything lives in the machine's arena and dies
 * with machine_free(). Resolved frames are cached per (address space, address).
 */
#ifndef FLARE_SESSION_MACHINE_H
#define FLARE_SESSION_MACHINE_H
#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include "lib/data/reader.h"
#include "lib/session/session.h"
#include "lib/sym/sym.h"

struct machine;
struct unwind_stats;

int machine_new(struct symtab *st, struct machine **ret);
void machine_free(struct machine *m);

/* Applies COMM, FORK, EXIT, MMAP and MMAP2 (other records are ignored). 0 or -ENOMEM. */
int machine_process(struct machine *m, struct perf_data *pd, const struct perf_event_header *ev);

/* The thread of a sample, created (":tid") when never seen. NULL only on -ENOMEM. */
struct thread *machine_findnew_thread(struct machine *m, uint32_t pid, uint32_t tid);
struct thread *machine_find_thread(struct machine *m, uint32_t tid);
/* The threads in the table, in no order: a malloc'ed array the caller frees. */
int machine_threads(struct machine *m, const struct thread ***ret, size_t *nr);

/* Resolves ip (cpumode: PERF_RECORD_MISC_KERNEL / _USER / ...) in thread's address space. */
/* The name of the data mapping ("//anon", "[stack]": no dso to resolve in) of t's process
 * holding addr at cpumode (user only), or NULL; valid until machine_free(). */
const char *machine_data_map(struct machine *m, struct thread *t, uint8_t cpumode, uint64_t addr);
void machine_resolve(struct machine *m, struct thread *t, uint8_t cpumode, uint64_t ip,
		     struct frame *f);

/* The most user frames unwound from a sample's stack copy (perf's default --max-stack). */
#define MACHINE_UNWIND_MAX 127

/*
 * Fills frames (room for 1 + s->nr_callchain, + MACHINE_UNWIND_MAX when the sample carries a
 * user stack copy) with the sample ip and, unless no_callchain,
 * its callers from the call chain: context markers switch the mode, the first entry is
 * skipped when it repeats the ip; then the user frames DWARF-unwound from the stack copy. Returns the number of frames. A chain holding a marker perf
 * does not know is dropped, as perf does: 1 frame and *discarded set.
 */
size_t machine_resolve_sample(struct machine *m, struct thread *t, const struct perf_sample *s,
			      bool no_callchain, struct frame *frames, bool *discarded);

/* perf's --max-stack: at most n frames from the call chain, the innermost (or with
 * outermost, for caller-ordered graphs, the outermost ones besides the sample ip), and at
 * most n more unwound from a stack copy, from the leaf (perf limits the two apart); 0, the
 * default, for no limit. */
void machine_set_max_stack(struct machine *m, size_t n, bool outermost);

/* How the DWARF unwinds of the samples so far ended; NULL when none was tried. */
const struct unwind_stats *machine_unwind_stats(const struct machine *m);

#endif
