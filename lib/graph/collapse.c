// SPDX-License-Identifier: GPL-2.0
/*
 * collapse: stackcollapse-perf.pl's reading of perf script text, in C. Each regular
 * expression of the script is matched here by hand with the same leftmost, greedy or lazy
 * choices, so odd lines (names with blanks, digits or parentheses) fold the same way.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/log.h"
#include "lib/graph/collapse.h"

struct collapse {
	struct collapse_opts o;
	struct stackset set;
	char *event_filter; /* the event kept; NULL until the first header names one */
	bool event_defaulted, event_warned;
	bool have_pname; /* a sample is open (the script's $pname is true) */
	struct strbuf pname;
	struct strbuf blocks; /* frame blocks in line order, each NUL-terminated */
	VEC(size_t) block_off;
	struct strbuf stack; /* scratch: the joined stack */
	struct strbuf func;  /* scratch: one frame name */
	struct strbuf carry; /* text not yet processed (an unfinished line) */
	struct strbuf frame; /* scratch: a frame line made from its parts */
	uint64_t period;
	uint64_t unrecognized;
	bool is_java;
};

/* Perl's \s and \w on bytes */
static inline bool is_ws(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_word(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

int collapse_new(const struct collapse_opts *opts, struct collapse **ret)
{
	struct collapse *c = calloc(1, sizeof(*c));

	*ret = NULL;
	if (!c)
		return -ENOMEM;
	c->o = *opts;
	stackset_init(&c->set, opts->keep_seq);
	c->pname = c->blocks = c->stack = c->func = c->carry = c->frame = (struct strbuf)STRBUF_INIT;
	if (opts->event_filter && *opts->event_filter) {
		c->event_filter = strdup(opts->event_filter);
		if (!c->event_filter) {
			free(c);
			return -ENOMEM;
		}
	}
	*ret = c;
	return 0;
}

void collapse_free(struct collapse *c)
{
	if (!c)
		return;
	stackset_release(&c->set);
	free(c->event_filter);
	strbuf_release(&c->pname);
	strbuf_release(&c->blocks);
	strbuf_release(&c->stack);
	strbuf_release(&c->func);
	strbuf_release(&c->carry);
	strbuf_release(&c->frame);
	vec_free(&c->block_off);
	free(c);
}

struct stackset *collapse_stacks(struct collapse *c)
{
	return &c->set;
}

uint64_t collapse_unrecognized(const struct collapse *c)
{
	return c->unrecognized;
}

const char *collapse_event(const struct collapse *c)
{
	return c->event_filter;
}

static void sample_reset(struct collapse *c)
{
	strbuf_reset(&c->blocks);
	c->block_off.nr = 0;
	c->have_pname = false;
}

/* The blank line: remember the stack (root first) when a sample is open. */
int collapse_end(struct collapse *c)
{
	struct stack_ent *e;

	return collapse_end_ent(c, &e);
}

const char *collapse_root(const struct collapse *c, size_t *len)
{
	*len = c->have_pname ? c->pname.len : 0;
	return c->have_pname ? c->pname.buf : NULL;
}

int collapse_end_to(struct collapse *c, struct stack_ent *e)
{
	int err = c->have_pname ? stackset_add_to(&c->set, e, c->period) : 0;

	sample_reset(c);
	return err;
}

int collapse_end_ent(struct collapse *c, struct stack_ent **ent)
{
	size_t i;
	int err = 0;

	*ent = NULL;
	if (!c->have_pname) {
		sample_reset(c);
		return 0;
	}
	strbuf_reset(&c->stack);
	err = strbuf_add(&c->stack, c->pname.buf, c->pname.len);
	for (i = c->block_off.nr; i-- > 0 && !err;) {
		err = strbuf_addch(&c->stack, ';');
		if (!err)
			err = strbuf_adds(&c->stack, c->blocks.buf + c->block_off.items[i]);
	}
	if (!err)
		err = stackset_add_ent(&c->set, c->stack.buf, c->stack.len, c->period, ent);
	sample_reset(c);
	return err;
}

/*
 * ^(\S.+?)\s+(\d+)\/ *(\d+)*\s+ (no blank before *): comm (at least two characters, the shortest that works),
 * pid, and an optional tid after slashes. Returns false when the line is no header.
 */
struct hdr {
	const char *comm, *pid, *tid;
	size_t comm_len, pid_len, tid_len;
	size_t end; /* just past the match */
};

static bool match_header(const char *l, size_t len, struct hdr *h)
{
	size_t e, i, d1, d2;

	if (len < 2 || is_ws(l[0]) || l[0] == '\n')
		return false;
	for (e = 2; e < len; e++) {
		if (l[e - 1] == '\n')
			return false;
		if (!is_ws(l[e]))
			continue;
		for (i = e; i < len && is_ws(l[i]); i++)
			;
		for (d1 = i; i < len && is_digit(l[i]); i++)
			;
		if (i == d1)
			continue;
		h->pid = l + d1;
		h->pid_len = i - d1;
		while (i < len && l[i] == '/')
			i++;
		for (d2 = i; i < len && is_digit(l[i]); i++)
			;
		if (i >= len || !is_ws(l[i]))
			continue;
		h->tid = l + d2;
		h->tid_len = i - d2;
		h->comm = l;
		h->comm_len = e;
		while (i < len && is_ws(l[i]))
			i++;
		h->end = i;
		return true;
	}
	return false;
}

/*
 * :\s*(\d+)*\s+(\S+):\s*$ : the period and the event name closing the header. Only one
 * ':' can start a match: the one before the blanks and digits before the last word.
 */
static bool match_event(const char *l, size_t len, const char **ev, size_t *ev_len,
			const char **per, size_t *per_len)
{
	size_t i = len, wend, wstart, dend;

	while (i > 0 && is_ws(l[i - 1]))
		i--;
	if (i < 2 || l[i - 1] != ':')
		return false;
	wend = i - 1;
	while (i > 0 && !is_ws(l[i - 1]))
		i--;
	wstart = i;
	if (wend == wstart || i == 0)
		return false;
	while (i > 0 && is_ws(l[i - 1]))
		i--;
	dend = i;
	while (i > 0 && is_digit(l[i - 1]))
		i--;
	*per = l + i;
	*per_len = dend - i;
	while (i > 0 && is_ws(l[i - 1]))
		i--;
	if (i == 0 || l[i - 1] != ':')
		return false;
	*ev = l + wstart;
	*ev_len = wend - wstart;
	return true;
}

static uint64_t parse_u64(const char *s, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v * 10 + (uint64_t)(*s++ - '0');
	return v;
}

static bool in_list_long(const long *v, size_t n, long x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* flare's own filters; a pid printed as "?" matches no pid filter. */
static bool keep_sample(struct collapse *c, const struct hdr *h, const char *pid, size_t pid_len,
			double t)
{
	size_t i;

	if (c->o.nr_comms) {
		for (i = 0; i < c->o.nr_comms; i++)
			if (strlen(c->o.comms[i]) == h->comm_len &&
			    !memcmp(c->o.comms[i], h->comm, h->comm_len))
				break;
		if (i == c->o.nr_comms)
			return false;
	}
	if (c->o.nr_pids && (!is_digit(*pid) ||
			     !in_list_long(c->o.pids, c->o.nr_pids, (long)parse_u64(pid, pid_len))))
		return false;
	if (c->o.nr_tids &&
	    !in_list_long(c->o.tids, c->o.nr_tids, (long)parse_u64(h->tid, h->tid_len)))
		return false;
	/* a sample without a time (t < 0) is outside any range */
	if (c->o.times && (t < 0 || time_ranges_skip(c->o.times, (uint64_t)llround(t * 1e9))))
		return false;
	return true;
}

/* The time perf script prints before the event: the first "<digits>.<digits>:" after pid. */
static double header_time(const char *l, size_t len, size_t from)
{
	size_t i, j;

	for (i = from; i < len; i++) {
		if (!is_digit(l[i]) || (i > from && !is_ws(l[i - 1])))
			continue;
		for (j = i; j < len && is_digit(l[j]); j++)
			;
		if (j >= len || l[j] != '.')
			continue;
		for (j++; j < len && is_digit(l[j]); j++)
			;
		if (j < len && l[j] == ':')
			return strtod(l + i, NULL);
	}
	return -1;
}

/* Applies the default event filter; false when the sample's event is filtered out. */
static int event_filter(struct collapse *c, const char *ev, size_t ev_len)
{
	if (!c->event_filter) {
		c->event_filter = strndup(ev, ev_len);
		if (!c->event_filter)
			return -ENOMEM;
		c->event_defaulted = true;
		return 1;
	}
	if (strlen(c->event_filter) == ev_len && !memcmp(c->event_filter, ev, ev_len))
		return 1;
	if (c->event_defaulted && !c->event_warned) {
		log_warn("Filtering for events of type: %.*s", (int)ev_len, ev);
		c->event_warned = true;
	}
	return 0;
}

static int set_pname(struct collapse *c, const struct hdr *h, const char *pid, size_t pid_len)
{
	size_t i;
	int err;

	strbuf_reset(&c->pname);
	err = strbuf_add(&c->pname, h->comm, h->comm_len);
	if (!err && (c->o.tid || c->o.pid)) {
		err = strbuf_addch(&c->pname, '-');
		if (!err)
			err = strbuf_add(&c->pname, pid, pid_len);
		if (!err && c->o.tid) {
			err = strbuf_addch(&c->pname, '/');
			if (!err)
				err = strbuf_add(&c->pname, h->tid, h->tid_len);
		}
	}
	if (err)
		return err;
	for (i = 0; i < c->pname.len; i++)
		if (c->pname.buf[i] == ' ')
			c->pname.buf[i] = '_';
	c->is_java = c->pname.len >= 4 && !memcmp(c->pname.buf, "java", 4);
	c->have_pname = true;
	return 0;
}

/* What a matched header leads to: event filter, flare's filters, period, root name. ev is
 * NULL when the line had no "period event:" ending. */
static int header_fields(struct collapse *c, const struct hdr *h, const char *ev, size_t ev_len,
			 uint64_t period, double t)
{
	const char *pid = h->pid;
	size_t pid_len = h->pid_len;
	struct hdr hh = *h;
	int keep;

	/* "not $tid": absent, empty or "0" */
	if (!hh.tid_len || (hh.tid_len == 1 && hh.tid[0] == '0')) {
		hh.tid = pid;
		hh.tid_len = pid_len;
		pid = "?";
		pid_len = 1;
	}
	if (ev) {
		keep = event_filter(c, ev, ev_len);
		if (keep <= 0)
			return keep;
	}
	if (!keep_sample(c, &hh, pid, pid_len, t)) {
		c->have_pname = false;
		return 0;
	}
	c->period = period ? period : 1;
	return set_pname(c, &hh, pid, pid_len);
}

static int header_line(struct collapse *c, const char *l, size_t len, const struct hdr *h, double t)
{
	const char *ev, *per;
	size_t ev_len, per_len = 0;
	bool has_ev = match_event(l, len, &ev, &ev_len, &per, &per_len);

	if (t < 0 && c->o.times)
		t = header_time(l, len, h->end);
	return header_fields(c, h, has_ev ? ev : NULL, ev_len,
			     per_len ? parse_u64(per, per_len) : 0, t);
}

int collapse_header_parsed(struct collapse *c, const char *line, size_t len,
			   struct collapse_hdr *out)
{
	struct hdr h;
	const char *ev, *per;
	size_t ev_len, per_len;

	memset(out, 0, sizeof(*out));
	if (!match_header(line, len, &h))
		return 0;
	out->comm_len = h.comm_len;
	out->pid_off = (size_t)(h.pid - line);
	out->pid_len = h.pid_len;
	out->tid_off = (size_t)(h.tid - line);
	out->tid_len = h.tid_len;
	out->end = h.end;
	out->matched = true;
	if (match_event(line, len, &ev, &ev_len, &per, &per_len)) {
		out->ev_off = (size_t)(ev - line);
		out->ev_len = ev_len;
		out->per_off = (size_t)(per - line);
		out->per_len = per_len;
		out->has_event = true;
	}
	return 1;
}

int collapse_header_fields(struct collapse *c, const char *comm, size_t comm_len, const char *pid,
			   size_t pid_len, const char *tid, size_t tid_len, const char *event,
			   size_t event_len, uint64_t period, double time)
{
	struct hdr h = { comm, pid, tid, comm_len, pid_len, tid_len, 0 };

	return header_fields(c, &h, event, event_len, period, time);
}

int collapse_header(struct collapse *c, const char *line, size_t len, double time)
{
	struct hdr h;

	if (!match_header(line, len, &h)) {
		c->unrecognized++;
		return 0;
	}
	return header_line(c, line, len, &h, time);
}

/* Text being read: a buffer of lines; eof says whether more may follow it. */
struct cursor {
	const char *buf;
	size_t len, pos;
	bool eof;
};

/* Next line of the cursor (without its newline). 1, 0 at the end, -EAGAIN when the line is
 * not complete yet. */
static int cursor_line(struct cursor *cur, const char **l, size_t *len)
{
	const char *nl;

	if (cur->pos >= cur->len)
		return cur->eof ? 0 : -EAGAIN;
	nl = memchr(cur->buf + cur->pos, '\n', cur->len - cur->pos);
	if (!nl && !cur->eof)
		return -EAGAIN;
	*l = cur->buf + cur->pos;
	*len = nl ? (size_t)(nl - *l) : cur->len - cur->pos;
	cur->pos += *len + (nl ? 1 : 0);
	return 1;
}

static bool has(const char *s, size_t n, const char *what)
{
	return memmem(s, n, what, strlen(what)) != NULL;
}

/* m:/tmp/perf-\d+\.map: */
static bool is_jit_map(const char *m, size_t n)
{
	const char *p = m, *end = m + n;

	while ((p = memmem(p, (size_t)(end - p), "/tmp/perf-", 10))) {
		const char *d = p + 10;

		while (d < end && is_digit(*d))
			d++;
		if (d > p + 10 && end - d >= 4 && !memcmp(d, ".map", 4))
			return true;
		p++;
	}
	return false;
}

/* \.\(.*\)\. : a Go method name such as net/http.(*Client).Do */
static bool is_go_method(const char *s, size_t n)
{
	const char *a = memmem(s, n, ".(", 2);
	size_t i;

	if (!a)
		return false;
	for (i = n; i >= 2; i--)
		if (s[i - 2] == ')' && s[i - 1] == '.')
			return s + i - 2 >= a + 2;
	return false;
}

/* The script's $tidy_generic and $tidy_java on c->func. */
static void tidy(struct collapse *c)
{
	struct strbuf *f = &c->func;
	size_t i, j;

	for (i = 0; i < f->len; i++)
		if (f->buf[i] == ';')
			f->buf[i] = ':';
	if (!is_go_method(f->buf, f->len)) {
		for (i = 0; i < f->len; i++) {
			if (f->buf[i] != '(')
				continue;
			if (f->len - i - 1 >= 20 &&
			    !memcmp(f->buf + i + 1, "anonymous namespace)", 20))
				continue;
			strbuf_setlen(f, i);
			break;
		}
	}
	for (i = j = 0; i < f->len; i++)
		if (f->buf[i] != '"' && f->buf[i] != '\'')
			f->buf[j++] = f->buf[i];
	strbuf_setlen(f, j);
	if (c->is_java && memchr(f->buf, '/', f->len) && f->len && f->buf[0] == 'L') {
		memmove(f->buf, f->buf + 1, f->len - 1);
		strbuf_setlen(f, f->len - 1);
	}
}

static int annotate(struct collapse *c, bool inlined, const char *mod, size_t modlen)
{
	struct strbuf *f = &c->func;

	if (inlined)
		return has(f->buf, f->len, "_[i]") ? 0 : strbuf_adds(f, "_[i]");
	if (c->o.kernel && modlen &&
	    (mod[0] == '[' || (modlen >= 7 && !memcmp(mod + modlen - 7, "vmlinux", 7))) &&
	    !has(mod, modlen, "unknown"))
		return strbuf_adds(f, "_[k]");
	if (c->o.jit && is_jit_map(mod, modlen) && !has(f->buf, f->len, "_[j]"))
		return strbuf_adds(f, "_[j]");
	return 0;
}

/* The source line after a frame (--srcline): "[...]" parts dropped, blanks trimmed. */
static int add_srcline(struct collapse *c, const char *l, size_t n)
{
	struct strbuf *s = &c->stack;
	size_t i = 0, a, b;
	int err = 0;

	strbuf_reset(s);
	while (i < n && !err) {
		const char *o = memchr(l + i, '[', n - i), *cl;

		if (!o || !(cl = memchr(o, ']', (size_t)(l + n - o)))) {
			err = strbuf_add(s, l + i, n - i);
			break;
		}
		err = strbuf_add(s, l + i, (size_t)(o - l) - i);
		i = (size_t)(cl - l) + 1;
	}
	for (a = 0; a < s->len && is_ws(s->buf[a]); a++)
		;
	for (b = s->len; b > a && is_ws(s->buf[b - 1]); b--)
		;
	if (err || a == b)
		return err;
	err = strbuf_addch(&c->func, ':');
	return err ? err : strbuf_add(&c->func, s->buf + a, b - a);
}

static bool is_lower_hex(const char *s, size_t n)
{
	while (n--) {
		if (!is_digit(*s) && (*s < 'a' || *s > 'f'))
			return false;
		s++;
	}
	return true;
}

/* One name of a frame line (a field of rawfunc split on "->"). */
static int one_func(struct collapse *c, const char *pc, size_t pclen, const char *fn, size_t n,
		    const char *mod, size_t modlen, bool *is_unknown)
{
	struct strbuf *f = &c->func;
	const char *base = mod;
	int err;

	strbuf_reset(f);
	if (n == 9 && !memcmp(fn, "[unknown]", 9)) {
		if (!(modlen == 9 && !memcmp(mod, "[unknown]", 9))) {
			const char *sl = memrchr(mod, '/', modlen);

			if (sl)
				base = sl + 1;
			n = modlen - (size_t)(base - mod);
		} else {
			base = "unknown";
			n = 7;
			*is_unknown = true;
		}
		err = strbuf_addch(f, '[');
		err = err ? err : strbuf_add(f, base, n);
		if (!err && c->o.addrs) {
			err = strbuf_adds(f, " <");
			err = err ? err : strbuf_add(f, pc, pclen);
			err = err ? err : strbuf_addch(f, '>');
		}
		return err ? err : strbuf_addch(f, ']');
	}
	return strbuf_add(f, fn, n);
}

/*
 * A frame line: pc, rawfunc and mod as the script's ^\s*(\w+)\s*(.+) \((.*)\) cut them.
 * cur is the text being read for --srcline (NULL: no source lines follow). Returns 0, or
 * -EAGAIN when a source line is still to come.
 */
static int frame_line(struct collapse *c, const char *pc, size_t pclen, const char *raw,
		      size_t rawlen, const char *mod, size_t modlen, struct cursor *cur)
{
	size_t start = c->blocks.len, i, n, end;
	bool first = true, is_unknown = false;
	const char *p, *sl;
	int err = 0;

	if (!c->have_pname)
		return 0;
	/* s/\+0x[\da-f]+$// */
	p = NULL;
	for (i = rawlen; i >= 3; i--)
		if (raw[i - 3] == '+' && raw[i - 2] == '0' && raw[i - 1] == 'x') {
			p = raw + i - 3;
			break;
		}
	if (p && p + 3 < raw + rawlen && is_lower_hex(p + 3, (size_t)(raw + rawlen - p - 3)))
		rawlen = (size_t)(p - raw);
	if (rawlen && raw[0] == '(')
		return 0;
	/* split /->/ drops trailing empty fields */
	for (end = rawlen; end >= 2 && raw[end - 2] == '-' && raw[end - 1] == '>'; end -= 2)
		;
	for (i = 0; i < end && !err; i = n + 2) {
		p = memmem(raw + i, end - i, "->", 2);
		n = p ? (size_t)(p - raw) : end;
		err = one_func(c, pc, pclen, raw + i, n - i, mod, modlen, &is_unknown);
		if (!err)
			tidy(c);
		err = err ? err : annotate(c, !first, mod, modlen);
		if (!err && c->o.srcline && !is_unknown && cur) {
			size_t sn = 0;
			int r = cursor_line(cur, &sl, &sn);

			if (r == -EAGAIN) {
				strbuf_setlen(&c->blocks, start);
				return -EAGAIN;
			}
			err = r > 0 ? add_srcline(c, sl, sn) : 0;
		}
		if (!err && !first)
			err = strbuf_addch(&c->blocks, ';');
		if (!err)
			err = strbuf_add(&c->blocks, c->func.buf, c->func.len);
		first = false;
		if (!p)
			break;
	}
	if (err || first)
		return err;
	err = strbuf_addch(&c->blocks, '\0');
	return err ? err : vec_push(&c->block_off, start);
}

int collapse_frame(struct collapse *c, const char *pc, const char *func, const char *mod)
{
	return frame_line(c, pc, strlen(pc), func, strlen(func), mod, strlen(mod), NULL);
}

bool collapse_active(const struct collapse *c)
{
	return c->have_pname;
}

bool collapse_java(const struct collapse *c)
{
	return c->is_java;
}

static bool match_frame(const char *l, size_t len, size_t *pc, size_t *pclen, size_t *fn,
			size_t *fnlen, size_t *mod, size_t *modlen);

/* The frame as the line perf script prints ("\t<pc> <func> (<mod>)"), cut up by the same
 * pattern as text input: a dso or symbol name with " (" or ")" in it folds the same way. */
int collapse_frame_block(struct collapse *c, const char *pc, const char *func, const char *mod,
			 const char **block, size_t *len)
{
	size_t n = c->block_off.nr, p, pl, f, fl, m, ml;
	struct strbuf *l = &c->frame;
	int err;

	*block = NULL;
	*len = 0;
	strbuf_reset(l);
	err = strbuf_addch(l, '\t');
	err = err ? err : strbuf_adds(l, pc);
	err = err ? err : strbuf_addch(l, ' ');
	err = err ? err : strbuf_adds(l, func);
	err = err ? err : strbuf_adds(l, " (");
	err = err ? err : strbuf_adds(l, mod);
	err = err ? err : strbuf_addch(l, ')');
	if (err)
		return err;
	if (!match_frame(l->buf, l->len, &p, &pl, &f, &fl, &m, &ml)) {
		c->unrecognized++;
		return 0;
	}
	err = frame_line(c, l->buf + p, pl, l->buf + f, fl, l->buf + m, ml, NULL);
	if (!err && c->block_off.nr > n) {
		*block = c->blocks.buf + c->block_off.items[n];
		*len = c->blocks.len - c->block_off.items[n] - 1;
	}
	return err;
}

int collapse_push_block(struct collapse *c, const char *block, size_t len)
{
	size_t start = c->blocks.len;
	int err;

	if (!c->have_pname || !len)
		return 0;
	err = strbuf_add(&c->blocks, block, len);
	err = err ? err : strbuf_addch(&c->blocks, '\0');
	return err ? err : vec_push(&c->block_off, start);
}

/* ^\s*(\w+)\s*(.+) \((.*)\) with Perl's backtracking order; see the file comment. */
static bool match_frame(const char *l, size_t len, size_t *pc, size_t *pclen, size_t *fn,
			size_t *fnlen, size_t *mod, size_t *modlen)
{
	size_t lead = 0, wend, wsend, q, s, last;
	bool found = false;

	while (lead < len && is_ws(l[lead]))
		lead++;
	for (wend = lead; wend < len && is_word(l[wend]); wend++)
		;
	if (wend == lead)
		return false;
	for (wsend = wend; wsend < len && is_ws(l[wsend]); wsend++)
		;
	for (last = len; last > 0 && l[last - 1] != ')'; last--)
		;
	if (!last)
		return false;
	last--;
	for (q = last >= 2 ? last - 2 + 1 : 0; q-- > 0;)
		if (l[q] == ' ' && l[q + 1] == '(') {
			found = true;
			break;
		}
	if (!found || q < lead + 2)
		return false;
	s = wsend < q - 1 ? wsend : q - 1;
	if (memchr(l + s, '\n', q - s))
		return false;
	*pc = lead;
	*pclen = (s < wend ? s : wend) - lead;
	*fn = s;
	*fnlen = q - s;
	*mod = q + 2;
	*modlen = last - q - 2;
	return true;
}

/* Reads lines from cur until it runs dry; -EAGAIN leaves cur at the unfinished line. */
static int text_lines(struct collapse *c, struct cursor *cur)
{
	size_t at, len, pc, pcl, fn, fnl, mod, modl;
	const char *l;
	struct hdr h;
	int r, err;

	for (;;) {
		at = cur->pos;
		r = cursor_line(cur, &l, &len);
		if (r <= 0)
			return r;
		if (l[0] == '#' && len)
			continue;
		if (!len) {
			err = collapse_end(c);
		} else if (match_header(l, len, &h)) {
			err = header_line(c, l, len, &h, -1);
		} else if (match_frame(l, len, &pc, &pcl, &fn, &fnl, &mod, &modl)) {
			err = frame_line(c, l + pc, pcl, l + fn, fnl, l + mod, modl, cur);
			if (err == -EAGAIN)
				cur->pos = at;
		} else {
			c->unrecognized++;
			log_debug("unrecognized line: %.*s", (int)len, l);
			err = 0;
		}
		if (err)
			return err;
	}
}

static int text_run(struct collapse *c, const char *buf, size_t len, bool eof)
{
	struct cursor cur = { buf, len, 0, eof };
	int err = text_lines(c, &cur);
	size_t rest = len - cur.pos;

	if (err && err != -EAGAIN)
		return err;
	if (buf == c->carry.buf) {
		memmove(c->carry.buf, c->carry.buf + cur.pos, rest);
		strbuf_setlen(&c->carry, rest);
		return 0;
	}
	return strbuf_add(&c->carry, buf + cur.pos, rest);
}

int collapse_text(struct collapse *c, const char *buf, size_t len)
{
	int err;

	if (!c->carry.len)
		err = text_run(c, buf, len, false);
	else
		err = strbuf_add(&c->carry, buf, len)
			      ? -ENOMEM
			      : text_run(c, c->carry.buf, c->carry.len, false);
	return err ? err : c->carry.len > COLLAPSE_LINE_MAX ? -E2BIG : 0;
}

void collapse_text_end(struct collapse *c)
{
	if (c->carry.len)
		text_run(c, c->carry.buf, c->carry.len, true);
	strbuf_reset(&c->carry);
	sample_reset(c);
}
