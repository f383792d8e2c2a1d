/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tui: the terminal browser of report and top (ncurses). It shows a page of entries the
 * command builds (a title, the column header, one line per entry and its call graph) and
 * lets the user move, expand call graphs (Enter/+, -, e, c), search (/, n), change the sort
 * keys (s), zoom into the selected entry's thread (t) or dso (d), read the help (h) and the
 * header info (i), annotate the selected symbol (a, when the command gives a hook) and go
 * back or quit (q, Esc; Ctrl-C quits).
 *
 * The terminal is restored on every way out: q, Ctrl-C, a signal the caller watches, the
 * source ending (top's -p task gone), an error, a terminal too small to start in. A resize
 * redraws; a terminal made too small says so until it grows again.
 *
 * The page belongs to the browser: build() fills an empty one, and the browser frees it.
 */
#ifndef FLARE_CLI_TUI_H
#define FLARE_CLI_TUI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/event/live.h"

struct tui_row {
	char *line;  /* the entry's line, as --stdio prints it */
	char *graph; /* its call graph ("\n"-separated lines), or NULL */
	/* what zooming and annotating need of the entry */
	uint32_t tid;
	char *comm, *dso, *sym; /* NULL when unknown */
	uint64_t addr;		/* the symbol's start in its dso, 0 when unknown */
	const void *id;		/* the same entry across rebuilds (expansion kept) */
	bool expanded;
};

struct tui_page {
	char *title;   /* the first line: samples, event, lost, target */
	char *columns; /* the column header */
	struct tui_row *rows;
	size_t nr, alloc;
};

/* What the view asks of the command (s, t, d change it; build() honours it). */
struct tui_view {
	char sort[128]; /* "" : the command's own */
	bool zoom_thread;
	uint32_t tid;
	char thread[64]; /* its name, for the title */
	char dso[256];	 /* "": no dso zoom */
};

struct tui_model {
	/* Fills page for view. 0, or < 0 with msg (one line, shown; the old page stays). */
	int (*build)(void *ctx, const struct tui_view *view, struct tui_page *page, char *msg,
		     size_t len);
	/* The header info (i): text the browser shows and frees; NULL: none. */
	char *(*info)(void *ctx);
	/* a on an entry: annotate its symbol; NULL while no annotate view exists. 0, or < 0
	 * with msg. The browser leaves the screen (endwin) around the call. */
	int (*annotate)(void *ctx, const struct tui_row *row, char *msg, size_t len);
	/* top: false once the source ended (the browser quits); NULL: always there. */
	bool (*alive)(void *ctx);
	int refresh_ms;		  /* > 0: build() again this often (top's -d) */
	struct live_signals *sig; /* SIGINT/SIGTERM read here end the browser; or NULL */
	void *ctx;
};

/* Adds a row (the strings are copied). 0 or -ENOMEM. */
int tui_page_add(struct tui_page *p, const struct tui_row *row);
void tui_page_release(struct tui_page *p);
/* Adds the row of a histogram entry to the page ctx (a report_row_cb). 0 or -ENOMEM. */
struct hist_entry;
int tui_page_add_entry(void *ctx, struct hist_entry *e, const char *line, const char *graph);

/* Whether stdin and stdout are a terminal the browser can run in. */
bool tui_possible(void);

/* Runs the browser until q or an end. 0, or 1 after printing why (a terminal too small). */
int tui_browse(const struct tui_model *m);

#endif
