/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top: the pieces of `flare top` the display modes share: the live hists (one per event), and
 * their rendering in perf top's shapes (the "PerfTop:" line, the rows of report's --stdio).
 */
#ifndef FLARE_CLI_TOP_H
#define FLARE_CLI_TOP_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cli/report.h"
#include "lib/session/filter.h"
#include "lib/top/top.h"
#include "lib/trace/tpfmt.h"

struct top_view {
	struct report_opts ro; /* what report's printer reads: sort, -n, -g, limits */
	struct top *top;
	struct hist_opts hopts;
	struct report_event *events; /* by attr idx, guarded by the top's lock */
	size_t nr_events;
	struct hist_frame *frames;
	size_t frames_alloc;
	struct sample_filter filter; /* --comms, --dsos, --symbols */
	struct tpfmt tt;
	bool need_trace;
	bool hide_kernel, hide_user; /* -K, -U */
	bool zero;		     /* -z */
	int delay_s;		     /* -d */
	char target[128];	     /* "(all, 2 CPUs)" */
	char rate[32];		     /* "4000Hz " */
	const char *ev_name;	     /* the first event's, before any sample */
	/* since the last refresh, for the header */
	uint64_t samples, kernel, exact;
	uint64_t refresh_ns, lost_shown;
};

/* The on_sample of the top (runs on its reading thread, with the lock held). */
int top_view_sample(void *ctx, const struct resolved_sample *rs);

/* Renders every event's header line and rows into out, under the top's lock; -z zeroes the
 * hists after. 0 or -ENOMEM. */
int top_view_render(struct top_view *v, FILE *out);

/* Sorts an event's hist and orders its call graphs (with the lock held). 0 or -ENOMEM. */
int top_view_sort(struct top_view *v, struct report_event *ev);
/* A refresh is done: the header's rates start again; -z zeroes the hists (lock held). */
void top_view_tick(struct top_view *v);
void top_view_zero(struct top_view *v);

/* The terminal browser over the live hists (tui-top.c), until q or the recording's end. 0,
 * or -EINVAL when it could not start (said). */
int top_tui(struct top_view *v);

/* Frees the hists. */
void top_view_release(struct top_view *v);

#endif
