/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hits: which dsos the samples of a recording hit, for the BUILD_ID feature (perf lists
 * only those, plus [vdso] and the kernel when a sample was in it). It follows the address
 * space of every process from the MMAP/MMAP2/FORK/COMM records going into the file and looks
 * up each sample ip. It owns its tables; hits_free() frees them.
 */
#ifndef FLARE_RECORD_HITS_H
#define FLARE_RECORD_HITS_H
#include <stdint.h>
#include <linux/perf_event.h>
#include "lib/data/writer.h"

struct hits;

int hits_new(struct hits **ret);
void hits_free(struct hits *h);

/* A non-sample record (MMAP, MMAP2, FORK, COMM; others are ignored). 0 or -ENOMEM. */
int hits_record(struct hits *h, const struct perf_event_header *ev);
/* A sample at ip in process pid with the cpumode of its record. */
void hits_sample(struct hits *h, uint32_t pid, uint64_t ip, uint16_t cpumode);

/* The build-ids of the dsos hit (kernel first, then in the order they were mapped; [vdso]
 * always when mapped). *ret is an array the caller frees with hits_buildids_free(). */
int hits_buildids(struct hits *h, struct pw_buildid **ret, size_t *nr);
void hits_buildids_free(struct pw_buildid *b, size_t nr);

#endif
