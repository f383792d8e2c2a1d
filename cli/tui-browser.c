// SPDX-License-Identifier: GPL-2.0
/*
 * tui-browser: the terminal browser of report and top (see tui.h).
 */
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/out.h"
#include "cli/tui.h"
#include "lib/hist/hist.h"

#define MIN_COLS 40
#define MIN_LINES 6
#define KEY_CTRL_C 3
#define KEY_ESC 27

/* One screen line: an entry's own line, or a line of its call graph. */
struct vline {
	size_t row;
	const char *text;
	size_t len;
	bool entry;
};

struct browser {
	const struct tui_model *m;
	struct tui_view view;
	struct tui_page page;
	struct vline *lines;
	size_t nr_lines, alloc;
	size_t cur, top; /* selected line, first line shown */
	char search[128];
	char status[256];
	uint64_t next_build;
	bool quit;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int tui_page_add(struct tui_page *p, const struct tui_row *row)
{
	struct tui_row *r;

	if (p->nr == p->alloc) {
		size_t n = p->alloc ? p->alloc * 2 : 64;

		r = realloc(p->rows, n * sizeof(*r));
		if (!r)
			return -ENOMEM;
		p->rows = r;
		p->alloc = n;
	}
	r = &p->rows[p->nr];
	*r = *row;
	r->line = dup_or_null(row->line);
	r->graph = dup_or_null(row->graph);
	r->comm = dup_or_null(row->comm);
	r->dso = dup_or_null(row->dso);
	r->sym = dup_or_null(row->sym);
	if (!r->line)
		return -ENOMEM;
	p->nr++;
	return 0;
}

int tui_page_add_entry(void *ctx, struct hist_entry *e, const char *line, const char *graph)
{
	struct tui_row r = {
		.line = (char *)line,
		.graph = (char *)graph,
		.tid = e->tid,
		.comm = (char *)e->comm,
		.dso = e->dso ? (char *)e->dso->short_name : NULL,
		.sym = e->sym ? (char *)e->sym->name : NULL,
		.addr = e->sym ? e->sym->start : 0,
		.id = e,
	};

	return tui_page_add(ctx, &r);
}

void tui_page_release(struct tui_page *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		free(p->rows[i].line);
		free(p->rows[i].graph);
		free(p->rows[i].comm);
		free(p->rows[i].dso);
		free(p->rows[i].sym);
	}
	free(p->rows);
	free(p->title);
	free(p->columns);
	memset(p, 0, sizeof(*p));
}

bool tui_possible(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term &&
	       strcmp(term, "dumb");
}

static int push_line(struct browser *b, size_t row, const char *text, size_t len, bool entry)
{
	if (b->nr_lines == b->alloc) {
		size_t n = b->alloc ? b->alloc * 2 : 256;
		struct vline *v = realloc(b->lines, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->lines = v;
		b->alloc = n;
	}
	b->lines[b->nr_lines++] = (struct vline){ row, text, len, entry };
	return 0;
}

/* The screen lines from the page: each entry, and the graph of the expanded ones. */
static int flatten(struct browser *b)
{
	size_t i;

	b->nr_lines = 0;
	for (i = 0; i < b->page.nr; i++) {
		const struct tui_row *r = &b->page.rows[i];
		const char *p, *nl;

		if (push_line(b, i, r->line, strlen(r->line), true))
			return -ENOMEM;
		if (!r->expanded || !r->graph)
			continue;
		for (p = r->graph; *p; p = nl + 1) {
			nl = strchrnul(p, '\n');
			if (push_line(b, i, p, (size_t)(nl - p), false))
				return -ENOMEM;
			if (!*nl)
				break;
		}
	}
	if (b->cur >= b->nr_lines)
		b->cur = b->nr_lines ? b->nr_lines - 1 : 0;
	return 0;
}

/* The selected entry's first screen line. */
static void select_row(struct browser *b, size_t row)
{
	size_t i;

	for (i = 0; i < b->nr_lines; i++)
		if (b->lines[i].entry && b->lines[i].row == row) {
			b->cur = i;
			return;
		}
}

static struct tui_row *cur_row(struct browser *b)
{
	return b->nr_lines ? &b->page.rows[b->lines[b->cur].row] : NULL;
}

/* (Re)builds the page, keeping the expanded entries and the selection where they are. */
static void rebuild(struct browser *b)
{
	struct tui_page np = { 0 };
	const void *sel = cur_row(b) ? cur_row(b)->id : NULL;
	size_t i, j;
	char msg[256] = "";

	if (b->m->build(b->m->ctx, &b->view, &np, msg, sizeof(msg)) < 0) {
		tui_page_release(&np);
		snprintf(b->status, sizeof(b->status), "%s", msg[0] ? msg : "cannot build");
		return;
	}
	for (i = 0; i < np.nr; i++)
		for (j = 0; np.rows[i].id && j < b->page.nr; j++)
			if (b->page.rows[j].id == np.rows[i].id) {
				np.rows[i].expanded = b->page.rows[j].expanded;
				break;
			}
	tui_page_release(&b->page);
	b->page = np;
	b->cur = 0;
	if (flatten(b))
		return;
	for (i = 0; sel && i < b->page.nr; i++)
		if (b->page.rows[i].id == sel)
			select_row(b, i);
}

static void draw_text(int y, const char *s, size_t len, int attr)
{
	int w = COLS;

	attrset(attr);
	move(y, 0);
	addnstr(s, (int)(len < (size_t)w ? len : (size_t)w));
	if ((int)len < w)
		hline(' ', w - (int)len);
	attrset(A_NORMAL);
}

static void draw(struct browser *b)
{
	int h = LINES - 3, y;
	size_t i;
	char bar[1024];

	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		mvprintw(0, 0, "terminal too small (%dx%d): %dx%d at least", COLS, LINES, MIN_COLS,
			 MIN_LINES);
		refresh();
		return;
	}
	if (b->cur < b->top)
		b->top = b->cur;
	if (b->cur >= b->top + (size_t)h)
		b->top = b->cur - (size_t)h + 1;
	draw_text(0, b->page.title ? b->page.title : "", b->page.title ? strlen(b->page.title) : 0,
		  A_BOLD);
	draw_text(1, b->page.columns ? b->page.columns : "",
		  b->page.columns ? strlen(b->page.columns) : 0, A_UNDERLINE);
	for (y = 0, i = b->top; y < h && i < b->nr_lines; y++, i++) {
		const struct vline *l = &b->lines[i];
		int attr = i == b->cur ? A_REVERSE : A_NORMAL;

		if (b->search[0] && l->entry &&
		    memmem(l->text, l->len, b->search, strlen(b->search)))
			attr |= A_BOLD;
		draw_text(2 + y, l->text, l->len, attr);
	}
	if (!b->nr_lines)
		mvaddstr(2, 0, "no samples yet");
	snprintf(bar, sizeof(bar), "%s%s%s%s%s",
		 b->status[0] ? b->status : "Press 'h' for help on key bindings, 'q' to quit",
		 b->view.zoom_thread ? "  [thread: " : "",
		 b->view.zoom_thread ? b->view.thread : "", b->view.dso[0] ? "  [dso: " : "",
		 b->view.dso[0] ? b->view.dso : "");
	if (b->view.zoom_thread || b->view.dso[0])
		strncat(bar, "]", sizeof(bar) - strlen(bar) - 1);
	draw_text(LINES - 1, bar, strlen(bar), A_REVERSE);
	refresh();
}

/* A full-screen text (help, header info) until q, Esc or Enter. */
static void show_text(struct browser *b, const char *title, const char *text)
{
	size_t top = 0, n = 0;
	const char *p;
	int ch;

	for (p = text; *p; p++)
		n += *p == '\n';
	for (;;) {
		int y = 1;
		size_t line = 0;

		erase();
		draw_text(0, title, strlen(title), A_BOLD);
		for (p = text; *p && y < LINES - 1; line++) {
			const char *nl = strchrnul(p, '\n');

			if (line >= top)
				draw_text(y++, p, (size_t)(nl - p), A_NORMAL);
			p = *nl ? nl + 1 : nl;
		}
		draw_text(LINES - 1, "q: back", 7, A_REVERSE);
		refresh();
		ch = getch();
		if (ch == 'q' || ch == KEY_ESC || ch == '\n' || ch == KEY_ENTER || ch == 'h')
			break;
		if (ch == KEY_CTRL_C) {
			b->quit = true;
			break;
		}
		if ((ch == KEY_DOWN || ch == 'j') && top < n)
			top++;
		if ((ch == KEY_UP || ch == 'k') && top > 0)
			top--;
		if (b->m->sig && live_signals_poll(b->m->sig)) {
			b->quit = true;
			break;
		}
	}
}

static const char help_text[] = "UP/DOWN/PGUP/PGDN/HOME/END  move\n"
				"ENTER, +     expand or collapse the call graph of the entry\n"
				"-            collapse the call graph of the entry\n"
				"e, c         expand, collapse every call graph\n"
				"/            search the entries (n: the next match)\n"
				"s            change the sort keys (comm,dso,sym,pid,cpu,trace)\n"
				"t            zoom into the entry's thread (again: zoom out)\n"
				"d            zoom into the entry's dso (again: zoom out)\n"
				"a            annotate the entry's symbol\n"
				"i            header info\n"
				"h, ?         this help\n"
				"q, ESC       back (out of a zoom), or quit; CTRL-C quits\n";

/* Reads a line at the bottom; false when cancelled. */
static bool prompt(const char *what, char *buf, size_t len)
{
	int ok;

	draw_text(LINES - 1, what, strlen(what), A_REVERSE);
	move(LINES - 1, (int)strlen(what));
	echo();
	curs_set(1);
	timeout(-1);
	ok = getnstr(buf, (int)len - 1);
	noecho();
	curs_set(0);
	timeout(100);
	return ok == OK && buf[0];
}

static void search_next(struct browser *b, size_t from)
{
	size_t i, n = b->nr_lines, k;

	for (k = 0; k < n; k++) {
		i = (from + k) % n;
		if (b->lines[i].entry &&
		    memmem(b->lines[i].text, b->lines[i].len, b->search, strlen(b->search))) {
			b->cur = i;
			snprintf(b->status, sizeof(b->status), "search: %s", b->search);
			return;
		}
	}
	snprintf(b->status, sizeof(b->status), "search: '%s' not found", b->search);
}

static void expand_all(struct browser *b, bool on)
{
	size_t i, row = b->nr_lines ? b->lines[b->cur].row : 0;

	for (i = 0; i < b->page.nr; i++)
		b->page.rows[i].expanded = on;
	flatten(b);
	select_row(b, row);
}

static void toggle(struct browser *b, int how)
{
	struct tui_row *r = cur_row(b);
	size_t row;

	if (!r)
		return;
	if (!r->graph) {
		snprintf(b->status, sizeof(b->status), "no call graph for this entry");
		return;
	}
	row = b->lines[b->cur].row;
	r->expanded = how < 0 ? false : how > 0 ? true : !r->expanded;
	flatten(b);
	select_row(b, row);
}

static void zoom(struct browser *b, bool thread)
{
	struct tui_row *r = cur_row(b);

	if (thread && b->view.zoom_thread) {
		b->view.zoom_thread = false;
	} else if (!thread && b->view.dso[0]) {
		b->view.dso[0] = 0;
	} else if (!r) {
		return;
	} else if (thread) {
		b->view.zoom_thread = true;
		b->view.tid = r->tid;
		snprintf(b->view.thread, sizeof(b->view.thread), "%s(%u)", r->comm ? r->comm : "",
			 r->tid);
	} else if (r->dso) {
		snprintf(b->view.dso, sizeof(b->view.dso), "%s", r->dso);
	}
	b->status[0] = 0;
	rebuild(b);
}

static void annotate(struct browser *b)
{
	struct tui_row *r = cur_row(b);
	char msg[256] = "";

	if (!r || !r->sym) {
		snprintf(b->status, sizeof(b->status), "no symbol to annotate here");
		return;
	}
	if (!b->m->annotate) {
		snprintf(b->status, sizeof(b->status),
			 "annotate: not from here (run flare annotate on a recording)");
		return;
	}
	def_prog_mode();
	endwin();
	if (b->m->annotate(b->m->ctx, r, msg, sizeof(msg)) < 0)
		snprintf(b->status, sizeof(b->status), "%s", msg);
	reset_prog_mode();
	refresh();
}

static void move_cur(struct browser *b, long d)
{
	long n = (long)b->nr_lines, c = (long)b->cur + d;

	b->cur = (size_t)(c < 0 || !n ? 0 : c >= n ? n - 1 : c);
}

/* One key. */
static void key(struct browser *b, int ch)
{
	char buf[128];
	int page = LINES - 3 > 1 ? LINES - 3 : 1;

	if (ch != ERR && ch != KEY_RESIZE)
		b->status[0] = 0;
	switch (ch) {
	case KEY_DOWN:
	case 'j':
		move_cur(b, 1);
		break;
	case KEY_UP:
	case 'k':
		move_cur(b, -1);
		break;
	case KEY_NPAGE:
	case ' ':
		move_cur(b, page);
		break;
	case KEY_PPAGE:
		move_cur(b, -page);
		break;
	case KEY_HOME:
		b->cur = 0;
		break;
	case KEY_END:
		move_cur(b, (long)b->nr_lines);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		toggle(b, 0);
		break;
	case '+':
		toggle(b, 0);
		break;
	case '-':
		toggle(b, -1);
		break;
	case 'e':
		expand_all(b, true);
		break;
	case 'c':
		expand_all(b, false);
		break;
	case 't':
		zoom(b, true);
		break;
	case 'd':
		zoom(b, false);
		break;
	case 'a':
		annotate(b);
		break;
	case 'h':
	case '?':
		show_text(b, "Help: key bindings", help_text);
		break;
	case 'i': {
		char *text = b->m->info ? b->m->info(b->m->ctx) : NULL;

		show_text(b, "Header info", text ? text : "no header info\n");
		free(text);
		break;
	}
	case '/':
		if (prompt("search: ", b->search, sizeof(b->search)))
			search_next(b, b->cur);
		else
			b->search[0] = 0;
		break;
	case 'n':
		if (b->search[0])
			search_next(b, b->cur + 1);
		break;
	case 's':
		buf[0] = 0;
		if (prompt("sort keys (comm,dso,sym,pid,cpu,trace): ", buf, sizeof(buf))) {
			snprintf(b->view.sort, sizeof(b->view.sort), "%s", buf);
			rebuild(b);
		}
		break;
	case 'q':
	case KEY_ESC:
		if (b->view.zoom_thread || b->view.dso[0]) {
			b->view.zoom_thread = false;
			b->view.dso[0] = 0;
			rebuild(b);
		} else {
			b->quit = true;
		}
		break;
	case KEY_CTRL_C:
		b->quit = true;
		break;
	default:
		break;
	}
}

static bool ended(struct browser *b)
{
	const struct tui_model *m = b->m;

	return b->quit || (m->sig && live_signals_poll(m->sig)) || (m->alive && !m->alive(m->ctx));
}

static void loop(struct browser *b)
{
	while (!ended(b)) {
		int ch;

		if (b->m->refresh_ms > 0 && live_now_ns() >= b->next_build) {
			b->next_build = live_now_ns() + (uint64_t)b->m->refresh_ms * 1000000ULL;
			rebuild(b);
		}
		draw(b);
		ch = getch();
		if (ch != ERR)
			key(b, ch);
	}
}

int tui_browse(const struct tui_model *m)
{
	struct browser b = { .m = m };

	if (!initscr()) {
		pr_err("cannot start the terminal browser (TERM=%s): use --stdio",
		       getenv("TERM") ? getenv("TERM") : "");
		return 1;
	}
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		endwin();
		pr_err("the terminal is too small for the browser (%dx%d; it needs %dx%d): make "
		       "it larger, or use --stdio",
		       COLS, LINES, MIN_COLS, MIN_LINES);
		return 1;
	}
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(100);
	b.next_build = live_now_ns() + (uint64_t)m->refresh_ms * 1000000ULL;
	rebuild(&b);
	loop(&b);
	endwin();
	tui_page_release(&b.page);
	free(b.lines);
	return 0;
}
