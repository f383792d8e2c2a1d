// SPDX-License-Identifier: GPL-2.0
/*
 * tui-top: `flare top` in the terminal browser: the page rebuilt from the live hists every
 * -d seconds; a new sort key or zoom starts the counts again under it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/top.h"
#include "cli/tui.h"

#define TUI_ENTRIES 1000

struct tui_top {
	struct top_view *v;
	struct tui_view shown; /* the view the hists count for */
	const char *user_dso;  /* --dsos */
	char tid[16], sort[128];
};

/* A new sort or zoom: the hists start again under it (lock held). 0, or -1 with msg. */
static int apply_view(struct tui_top *t, const struct tui_view *view, char *msg, size_t len)
{
	struct top_view *v = t->v;
	struct hist_opts ho = v->hopts;
	char bad[64];

	if (!memcmp(view, &t->shown, sizeof(*view)))
		return 0;
	if (view->sort[0] && strcmp(view->sort, t->shown.sort)) {
		if (hist_parse_sort(view->sort, &ho, bad, sizeof(bad))) {
			snprintf(msg, len,
				 "unknown sort key '%s' (use comm, pid, dso, sym, cpu, "
				 "trace)",
				 bad);
			return -1;
		}
		snprintf(t->sort, sizeof(t->sort), "%s", view->sort);
		v->hopts = ho;
		v->ro.sort = t->sort;
		v->ro.sort_starts_with_sym = !strncmp(t->sort, "sym", 3);
	}
	snprintf(t->tid, sizeof(t->tid), "%" PRIu32, view->tid);
	v->filter.tid = view->zoom_thread ? t->tid : NULL;
	v->filter.dso = view->dso[0] ? view->dso : t->user_dso;
	t->shown = *view;
	top_view_zero(v);
	return 0;
}

static int build(void *ctx, const struct tui_view *view, struct tui_page *page, char *msg,
		 size_t len)
{
	struct tui_top *t = ctx;
	struct top_view *v = t->v;
	struct report_event *ev = NULL;
	char title[512];
	size_t i;
	int err;

	top_lock(v->top);
	if (apply_view(t, view, msg, len)) {
		top_unlock(v->top);
		return -1;
	}
	for (i = 0; i < v->nr_events && !ev; i++)
		if (v->events[i].used)
			ev = &v->events[i];
	snprintf(title, sizeof(title),
		 "Samples: %" PRIu64 " of event '%s', %.*s, Event count "
		 "(approx.): %" PRIu64 ", lost: %" PRIu64 ", %s",
		 ev ? ev->nr_samples : 0, ev ? ev->name : v->ev_name, (int)strlen(v->rate) - 1,
		 v->rate, ev ? ev->total_period : 0, top_lost(v->top), v->target);
	page->title = strdup(title);
	err = page->title ? 0 : -1;
	if (!err && ev && !(err = top_view_sort(v, ev)))
		err = report_event_rows(&v->ro, ev, v->hopts.callchain, &page->columns,
					tui_page_add_entry, page);
	top_view_tick(v);
	top_unlock(v->top);
	if (err)
		snprintf(msg, len, "cannot show the profile: out of memory");
	return err ? -1 : 0;
}

static char *info(void *ctx)
{
	struct tui_top *t = ctx;
	char *s = NULL;

	if (asprintf(&s, "event: %s\nrate: %s\ntarget: %s\nrefresh: every %d s%s\n", t->v->ev_name,
		     t->v->rate, t->v->target, t->v->delay_s,
		     t->v->zero ? ", zeroed each time (-z)" : "") < 0)
		return NULL;
	return s;
}

static bool alive(void *ctx)
{
	struct tui_top *t = ctx;

	return top_running(t->v->top);
}

int top_tui(struct top_view *v)
{
	struct tui_top t = { .v = v, .user_dso = v->filter.dso };
	struct tui_model m = {
		.build = build,
		.info = info,
		.alive = alive,
		.refresh_ms = v->delay_s * 1000,
		.ctx = &t,
	};
	int err;

	v->ro.max_entries = TUI_ENTRIES; /* the browser scrolls through these */
	err = tui_browse(&m);
	v->filter.tid = NULL;
	v->filter.dso = t.user_dso;
	return err ? -EINVAL : 0;
}
