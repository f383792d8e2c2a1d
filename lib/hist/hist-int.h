/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist internals shared by hist.c (entries, ordering) and paths.c (the trie of distinct
 * chains, counting entries from it, call-graph trees). Not for use outside lib/hist.
 */
#ifndef FLARE_HIST_HIST_INT_H
#define FLARE_HIST_HIST_INT_H
#include "lib/hist/hist.h"

static inline uint64_t hist_mix(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* Hash of the sample's own key fields (comm, pid, cpu, trace): the start of entry hashes. */
uint64_t hist_sample_hash(const struct hist *h, const struct hist_sample *s);

/* The entry of frame f of sample s (sh: hist_sample_hash(s)), made on first use from s's
 * fields and f. NULL on -ENOMEM. */
struct hist_entry *hist_entry_get(struct hist *h, const struct hist_sample *s,
				  const struct hist_frame *f, uint64_t sh);

bool hist_str_eq(const char *a, const char *b);

void hist_paths_init(struct hist *h);
void hist_paths_release(struct hist *h);

#endif
