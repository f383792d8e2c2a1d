/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resolved: a session's resolved sample as hist counts it, for every command that builds a
 * histogram from a replay or a live stream (report, top).
 */
#ifndef FLARE_HIST_RESOLVED_H
#define FLARE_HIST_RESOLVED_H
#include "lib/hist/hist.h"
#include "lib/session/session.h"

/* rs's frames into out (room for rs->nr_frames), leaf first; with only_resolved the frames
 * without a symbol are left out (report -U, as perf). Returns how many were written. */
size_t hist_frames_from(const struct resolved_sample *rs, bool only_resolved,
			struct hist_frame *out);

/* The sample's thread, cpu (-1 when the event does not sample it) and period into s, with
 * frames and no chain when perf drops the sample's chain. */
void hist_sample_from(const struct resolved_sample *rs, const struct hist_frame *frames, size_t nr,
		      struct hist_sample *s);

#endif
