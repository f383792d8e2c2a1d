// SPDX-License-Identifier: GPL-2.0
/*
 * resolved: from a session's resolved sample to hist's (see resolved.h).
 */
#include "lib/hist/resolved.h"
#include "lib/session/filter.h"
#include "lib/session/frame.h"

size_t hist_frames_from(const struct resolved_sample *rs, bool only_resolved,
			struct hist_frame *out)
{
	size_t i, nr;

	for (i = nr = 0; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];

		if (only_resolved && !f->sym)
			continue;
		out[nr++] = (struct hist_frame){ f->ip, f->addr, f->dso, f->sym, frame_level(f) };
	}
	return nr;
}

void hist_sample_from(const struct resolved_sample *rs, const struct hist_frame *frames, size_t nr,
		      struct hist_sample *s)
{
	bool has_cpu = !rs->attr || (rs->attr->attr.sample_type & PERF_SAMPLE_CPU);

	*s = (struct hist_sample){
		.comm = rs->thread->comm,
		.pid = rs->thread->pid,
		.tid = rs->thread->tid,
		.cpu = has_cpu ? rs->s->cpu : (uint32_t)-1,
		.period = rs->s->period,
		.frames = frames,
		.nr_frames = nr,
	};
	s->no_chain = sample_chain_dropped(rs->s); /* the entry stays, its chain goes */
}
