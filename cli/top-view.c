// SPDX-License-Identifier: GPL-2.0
/*
 * top-view: the live hists of `flare top` and their rendering (see top.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli/top.h"
#include "lib/event/live.h"
#include "lib/hist/resolved.h"
#include "lib/session/frame.h"

static int grow_frames(struct top_view *v, size_t n)
{
	struct hist_frame *p;

	if (n <= v->frames_alloc)
		return 0;
	p = realloc(v->frames, n * 2 * sizeof(*p));
	if (!p)
		return -ENOMEM;
	v->frames = p;
	v->frames_alloc = n * 2;
	return 0;
}

int top_view_sample(void *ctx, const struct resolved_sample *rs)
{
	struct top_view *v = ctx;
	struct report_event *ev = report_event_of(&v->events, &v->nr_events, rs->attr, &v->hopts);
	bool kernel = rs->s->cpumode == PERF_RECORD_MISC_KERNEL;
	struct hist_sample hs;
	size_t nr;

	if (!ev || grow_frames(v, rs->nr_frames))
		return -ENOMEM;
	v->samples++;
	v->kernel += kernel;
	v->exact += rs->s->exact_ip;
	/* -K, -U: those samples are not shown, nor counted in the percentages */
	if ((v->hide_kernel && kernel) || (v->hide_user && !kernel))
		return 0;
	if (!sample_filter_what(&v->filter, rs))
		return 0;
	ev->nr_samples++;
	ev->total_period += rs->s->period;
	nr = hist_frames_from(rs, false, v->frames);
	hist_sample_from(rs, v->frames, nr, &hs);
	if (v->need_trace)
		hs.trace = tpfmt_sample(&v->tt, top_session(v->top), rs->s);
	return hist_add(&ev->hist, &hs);
}

/* perf top's line: "   PerfTop:    7214 irqs/sec  kernel:15.9%  exact:  0.0% lost: 0/0
 * drop: 0/0 [4000Hz cpu-clock:ppp],  (all, 2 CPUs)" and its rule. */
static void print_header(struct top_view *v, FILE *out, const char *name, double secs,
			 uint64_t lost)
{
	double n = (double)v->samples;

	fprintf(out,
		"   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %" PRIu64
		"/%" PRIu64 " drop: 0/0 [%s%s],  %s\n",
		secs > 0 ? n / secs : 0, n ? (double)v->kernel * 100.0 / n : 0.0,
		n ? (double)v->exact * 100.0 / n : 0.0, lost - v->lost_shown, lost, v->rate, name,
		v->target);
	fputs("-------------------------------------------------------------------------------"
	      "\n\n",
	      out);
}

/* Sorts an event's hist and orders its call graphs for printing. */
int top_view_sort(struct top_view *v, struct report_event *ev)
{
	struct hist *h = &ev->hist;
	int err = hist_sort(h);
	size_t n = v->ro.max_entries > 0 ? (size_t)v->ro.max_entries : h->nr_entries;

	if (err || !h->o.callchain)
		return err;
	/* the trees grow by the chains that got samples since the last refresh; the graphs
	 * of the printed entries only are ordered */
	err = hist_update_trees(h);
	if (!err)
		err = hist_sort_callchains_n(h, v->ro.cg_mode, v->ro.cg_min_percent,
					     ev->total_period, n);
	return err;
}

/* -z: everything counted so far goes. */
void top_view_zero(struct top_view *v)
{
	size_t i;

	for (i = 0; i < v->nr_events; i++) {
		struct report_event *ev = &v->events[i];

		hist_release(&ev->hist);
		hist_init(&ev->hist, &v->hopts);
		ev->nr_samples = ev->total_period = 0;
	}
}

/* The period since the last refresh is over: the header's rates start again. */
void top_view_tick(struct top_view *v)
{
	v->samples = v->kernel = v->exact = 0;
	v->lost_shown = top_lost(v->top);
	v->refresh_ns = live_now_ns();
	if (v->zero)
		top_view_zero(v);
}

int top_view_render(struct top_view *v, FILE *out)
{
	uint64_t now = live_now_ns(), lost = top_lost(v->top);
	double secs = (double)(now - v->refresh_ns) / 1e9;
	bool any = false;
	size_t i;
	int err = 0;

	top_lock(v->top);
	for (i = 0; i < v->nr_events && !err; i++) {
		struct report_event *ev = &v->events[i];

		if (!ev->used)
			continue;
		any = true;
		print_header(v, out, ev->name, secs, lost);
		if (!(err = top_view_sort(v, ev)))
			report_print_event(out, &v->ro, ev, v->hopts.callchain);
	}
	if (!any)
		print_header(v, out, v->ev_name, secs, lost);
	top_view_tick(v);
	top_unlock(v->top);
	return err;
}

void top_view_release(struct top_view *v)
{
	size_t i;

	for (i = 0; i < v->nr_events; i++)
		hist_release(&v->events[i].hist);
	free(v->events);
	free(v->frames);
	tpfmt_release(&v->tt);
	sample_filter_release(&v->filter);
}
