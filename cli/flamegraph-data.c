// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph from perf.data: replays the file through the session and feeds each sample to
 * the collapse as the lines `perf script` prints for it: the header (comm, pid/tid, time,
 * period, event, and a tracepoint's formatted fields) and one line per call-chain entry
 * (address, symbol or [unknown], dso path). So the folded stacks are those of
 * `perf script | stackcollapse-perf.pl` on the same file. A sample without a call chain
 * (a recording without -g) keeps its own frame, where perf script's one-line form would
 * give the Perl script nothing to fold.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/flamegraph.h"
#include "cli/flamegraph-pipe.h"
#include "cli/out.h"
#include "lib/trace/tpfmt.h"
#include "lib/base/arena.h"
#include "lib/base/err.h"
#include "lib/base/hashmap.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"

/* A frame already folded: the names collapse_frame() made for it. */
struct cached {
	const void *sym, *dso;
	uint64_t addr;
	bool java;
	uint32_t len;
	const char *block;
	struct cached *next;
};

/* A thread's header, cut once: when the script's patterns cut it into exactly the comm,
 * pid, tid and event name flare printed, later samples skip making and matching the line. */
struct hcached {
	const struct pd_attr *attr;
	uint32_t pid, tid;
	const char *comm;     /* copy */
	const char *comm_src; /* the thread's string it was copied from */
	bool fast;
	char pid_s[12], tid_s[12];
	const struct root *root; /* its stacks' root, once a sample was kept */
	struct chain *last;	 /* the chain this thread's last sample folded to */
	struct hcached *next;
};

/* What names a frame in a folded stack (fold_frame()'s key, less the Java flag, which
 * the thread's header settles). */
struct fkey {
	const void *sym, *dso;
	uint64_t addr;
};

/* A root name of stacks (comm, or comm-pid/tid with --pid/--tid), once for all threads. */
struct root {
	const char *name; /* copy */
	size_t len;
	struct root *next;
};

/* A call chain folded before: with the same root, the same frames fold to its stack. */
struct chain {
	const struct root *root;
	size_t nr;
	const struct fkey *keys;
	struct stack_ent *ent;
	struct chain *next;
};

struct data_ctx {
	struct collapse *c;
	struct session *sess;
	struct tpfmt trace;
	struct strbuf line;
	struct hashmap cache;	  /* key hash -> chain of struct cached */
	struct hashmap hcache;	  /* (pid, tid, attr) hash -> chain of struct hcached */
	struct hcached *hlast[8]; /* the last one found per CPU: a CPU's samples come in
					 * runs of a thread */
	struct hashmap roots;	  /* hash of the name -> chain of struct root */
	struct hashmap chains;	  /* hash of root and frames -> chain of struct chain */
	VEC(struct fkey) keys;	  /* scratch: the sample's frame keys */
	struct arena arena;
	bool addrs;
	bool pid_tid;	      /* --pid/--tid: print pid/tid, not perf script's tid alone */
	struct fg_pipe *pipe; /* folding on a second thread, or NULL */
};

/* Decimal digits of v at p (no NUL); returns the length. */
static size_t put_u64(char *p, uint64_t v, int width, char pad)
{
	char tmp[24];
	size_t n = 0, i = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	for (; (int)(n + i) < width; i++)
		p[i] = pad;
	while (n)
		p[i++] = tmp[--n];
	return i;
}

/* The header line perf script prints (comm pid/tid [cpu] sec.usec: period event: fields);
 * formatted by hand, it is made once per sample. */
/* printf's "%<width>d" (right-aligned), or "%-<width>d" for a negative width */
static size_t put_s32(char *p, int32_t v, int width)
{
	char tmp[16];
	size_t n = put_u64(tmp + 1, v < 0 ? (uint64_t) - (int64_t)v : (uint64_t)v, 0, ' ') + 1,
	       i = 0;
	int w = width < 0 ? -width : width;

	tmp[0] = '-';
	if (v >= 0)
		memmove(tmp, tmp + 1, --n);
	if (width < 0) {
		memcpy(p, tmp, n);
		for (; (int)n < w; n++)
			p[n] = ' ';
		return n;
	}
	for (; (int)(n + i) < w; i++)
		p[i] = ' ';
	memcpy(p + i, tmp, n);
	return n + i;
}

static int format_header(struct data_ctx *x, const struct resolved_sample *rs)
{
	const struct perf_sample *s = rs->s;
	const struct perf_event_attr *a = &rs->attr->attr;
	const char *comm = rs->thread && rs->thread->comm ? rs->thread->comm : ":-1";
	const char *ev = rs->attr->name ? rs->attr->name : "";
	char *p;

	strbuf_reset(&x->line);
	if (strbuf_grow(&x->line, strlen(comm) + strlen(ev) + 128))
		return -ENOMEM;
	p = x->line.buf;
	p = stpcpy(p, comm);
	*p++ = ' ';
	if (x->pid_tid) {
		/* as perf script -F comm,pid,tid,... prints them */
		p += put_s32(p, (int32_t)s->pid, 5);
		*p++ = '/';
		p += put_s32(p, (int32_t)s->tid, -5);
	} else {
		p += put_s32(p, (int32_t)s->tid, 5);
	}
	*p++ = ' ';
	if (a->sample_type & PERF_SAMPLE_CPU) {
		*p++ = '[';
		p += put_u64(p, s->cpu, 3, '0');
		p = stpcpy(p, "] ");
	}
	if (a->sample_type & PERF_SAMPLE_TIME) {
		p += put_u64(p, s->time / 1000000000, 5, ' ');
		*p++ = '.';
		p += put_u64(p, s->time % 1000000000 / 1000, 6, '0');
		*p++ = ':';
	}
	*p++ = ' ';
	/* the period: the sample's, or attr.sample_period with -c N */
	if (a->type != PERF_TYPE_TRACEPOINT) {
		p += put_u64(p, s->period, 10, ' ');
		*p++ = ' ';
	}
	p = stpcpy(p, ev);
	p = stpcpy(p, ": ");
	strbuf_setlen(&x->line, (size_t)(p - x->line.buf));
	if (a->type == PERF_TYPE_TRACEPOINT)
		return strbuf_adds(&x->line, tpfmt_sample(&x->trace, x->sess, s));
	return 0;
}

static bool has_blank(const char *s)
{
	for (; *s; s++)
		if (*s == ' ' || (*s >= '\t' && *s <= '\r'))
			return true;
	return false;
}

/* Whether the line just made cuts into exactly comm, pid, tid and the event name. */
static bool cuts_plainly(struct data_ctx *x, const struct resolved_sample *rs, struct hcached *e)
{
	const char *l = x->line.buf, *ev = rs->attr->name;
	size_t comm_len = strlen(e->comm);
	struct collapse_hdr h;

	if (rs->attr->attr.type == PERF_TYPE_TRACEPOINT || !ev || !*ev || has_blank(ev))
		return false;
	if (collapse_header_parsed(x->c, l, x->line.len, &h) != 1 || !h.has_event)
		return false;
	return h.comm_len == comm_len && h.pid_len == strlen(e->pid_s) &&
	       !memcmp(l + h.pid_off, e->pid_s, h.pid_len) && h.tid_len == strlen(e->tid_s) &&
	       !memcmp(l + h.tid_off, e->tid_s, h.tid_len) &&
	       h.end < comm_len + h.pid_len + h.tid_len + 12 && h.ev_len == strlen(ev) &&
	       !memcmp(l + h.ev_off, ev, h.ev_len);
}

static struct hcached *hcache_get(struct data_ctx *x, const struct resolved_sample *rs,
				  const char *comm)
{
	const struct perf_sample *s = rs->s;
	uint64_t key;
	void **slot;
	struct hcached **last = &x->hlast[s->cpu % 8], *e = *last;

	if (e && e->comm_src == comm && e->pid == s->pid && e->tid == s->tid && e->attr == rs->attr)
		return e;
	key = hash_u64(((uint64_t)s->pid << 32 | s->tid) ^ (uintptr_t)rs->attr);
	slot = hashmap_slot(&x->hcache, key);
	if (!slot)
		return NULL;
	for (e = *slot; e; e = e->next)
		if (e->pid == s->pid && e->tid == s->tid && e->attr == rs->attr &&
		    (e->comm_src == comm || !strcmp(e->comm, comm))) {
			e->comm_src = comm;
			*last = e;
			return e;
		}
	e = arena_zalloc(&x->arena, sizeof(*e));
	if (!e || !(e->comm = arena_strdup(&x->arena, comm)))
		return NULL;
	e->comm_src = comm;
	e->attr = rs->attr;
	e->pid = s->pid;
	e->tid = s->tid;
	/* the fields as the script's pattern sees them: "pid/tid", or perf's "tid" alone */
	if (x->pid_tid) {
		e->pid_s[put_s32(e->pid_s, (int32_t)s->pid, 0)] = 0;
		e->tid_s[put_s32(e->tid_s, (int32_t)s->tid, 0)] = 0;
	} else {
		e->pid_s[put_s32(e->pid_s, (int32_t)s->tid, 0)] = 0;
	}
	if (format_header(x, rs))
		return NULL;
	e->fast = cuts_plainly(x, rs, e);
	e->next = *slot;
	*slot = e;
	*last = e;
	return e;
}

static int header(struct data_ctx *x, const struct resolved_sample *rs, struct hcached **ret)
{
	const char *comm = rs->thread && rs->thread->comm ? rs->thread->comm : ":-1";
	struct hcached *e = hcache_get(x, rs, comm);
	const char *ev = rs->attr->name;
	double t = (double)rs->s->time / 1e9;

	*ret = e;
	if (!e)
		return -ENOMEM;
	if (e->fast)
		return collapse_header_fields(x->c, comm, strlen(comm), e->pid_s, strlen(e->pid_s),
					      e->tid_s, strlen(e->tid_s), ev, strlen(ev),
					      rs->s->period, t);
	return format_header(x, rs) ? -ENOMEM : collapse_header(x->c, x->line.buf, x->line.len, t);
}

/* Folds frame f, or replays the names folded for an identical frame before. */
static int fold_frame(struct data_ctx *x, const struct frame *f)
{
	bool java = collapse_java(x->c);
	uint64_t addr = !f->sym && x->addrs ? f->addr : 0;
	uint64_t key = hash_u64((uintptr_t)f->sym ^ hash_u64((uintptr_t)f->dso ^ addr) ^ java);
	void **slot = hashmap_slot(&x->cache, key);
	struct cached *e;
	const char *block;
	char pc[24];
	size_t len;
	int err;

	if (!slot)
		return -ENOMEM;
	for (e = *slot; e; e = e->next)
		if (e->sym == f->sym && e->dso == f->dso && e->addr == addr && e->java == java)
			return collapse_push_block(x->c, e->block, e->len);
	snprintf(pc, sizeof(pc), "%" PRIx64, f->addr);
	err = collapse_frame_block(x->c, pc, frame_sym_name(f), frame_dso_long(f), &block, &len);
	if (err)
		return err;
	e = arena_alloc(&x->arena, sizeof(*e));
	if (!e || !(e->block = arena_strndup(&x->arena, block ? block : "", len)))
		return -ENOMEM;
	e->sym = f->sym;
	e->dso = f->dso;
	e->addr = addr;
	e->java = java;
	e->len = (uint32_t)len;
	e->next = *slot;
	*slot = e;
	return 0;
}

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 31);
}

/* The root of the open sample, interned. */
static const struct root *root_of(struct data_ctx *x)
{
	size_t len;
	const char *name = collapse_root(x->c, &len);
	void **slot = name ? hashmap_slot(&x->roots, hash_bytes(name, len)) : NULL;
	struct root *r;

	if (!slot)
		return NULL;
	for (r = *slot; r; r = r->next)
		if (r->len == len && !memcmp(r->name, name, len))
			return r;
	r = arena_alloc(&x->arena, sizeof(*r));
	if (!r || !(r->name = arena_strndup(&x->arena, name, len)))
		return NULL;
	r->len = len;
	r->next = *slot;
	*slot = r;
	return r;
}

/* The sample's frames as keys in x->keys; returns their hash with the root's. */
static uint64_t chain_keys(struct data_ctx *x, const struct resolved_sample *rs,
			   const struct root *root)
{
	uint64_t h = mix((uintptr_t)root, rs->nr_frames);
	size_t i;

	x->keys.nr = 0;
	if (vec_reserve(&x->keys, rs->nr_frames))
		return 0;
	for (i = 0; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];
		struct fkey *k = &x->keys.items[i];

		k->sym = f->sym;
		k->dso = f->dso;
		k->addr = !f->sym && x->addrs ? f->addr : 0;
		h = mix(mix(mix(h, (uintptr_t)k->sym), (uintptr_t)k->dso), k->addr);
	}
	x->keys.nr = rs->nr_frames;
	return h;
}

/* Whether the sample's frames are those of chain ch (of the same header). */
static bool same_frames(const struct data_ctx *x, const struct chain *ch,
			const struct resolved_sample *rs)
{
	size_t i;

	if (ch->nr != rs->nr_frames)
		return false;
	for (i = 0; i < ch->nr; i++) {
		const struct frame *f = &rs->frames[i];
		const struct fkey *k = &ch->keys[i];

		if (k->sym != f->sym || k->dso != f->dso ||
		    k->addr != (!f->sym && x->addrs ? f->addr : 0))
			return false;
	}
	return true;
}

/* Folds a sample whose header cuts plainly: a chain folded before with the same header
 * adds to its stack at once (a thread's samples mostly repeat its last one); a new one is
 * folded frame by frame and remembered. */
static int fold_chain(struct data_ctx *x, const struct resolved_sample *rs, struct hcached *e)
{
	uint64_t h;
	size_t i, n = rs->nr_frames;
	void **slot;
	struct stack_ent *ent;
	struct fkey *keys;
	struct chain *ch;
	int err = 0;

	if (e->last && same_frames(x, e->last, rs))
		return collapse_end_to(x->c, e->last->ent);
	if (!e->root && !(e->root = root_of(x)))
		return -ENOMEM;
	h = chain_keys(x, rs, e->root);
	slot = x->keys.nr == n ? hashmap_slot(&x->chains, h) : NULL;
	if (!slot)
		return -ENOMEM;
	for (ch = *slot; ch; ch = ch->next)
		if (ch->root == e->root && ch->nr == n &&
		    !memcmp(ch->keys, x->keys.items, n * sizeof(*keys))) {
			e->last = ch;
			return collapse_end_to(x->c, ch->ent);
		}
	for (i = 0; i < n && !err && collapse_active(x->c); i++)
		err = fold_frame(x, &rs->frames[i]);
	err = err ? err : collapse_end_ent(x->c, &ent);
	if (err || !ent)
		return err;
	ch = arena_alloc(&x->arena, sizeof(*ch));
	keys = arena_alloc(&x->arena, n * sizeof(*keys) + 1);
	if (!ch || !keys)
		return -ENOMEM;
	memcpy(keys, x->keys.items, n * sizeof(*keys));
	*ch = (struct chain){ .root = e->root, .nr = n, .keys = keys, .ent = ent, .next = *slot };
	*slot = ch;
	e->last = ch;
	return 0;
}

static int fold_sample(void *ctx, const struct resolved_sample *rs)
{
	struct data_ctx *x = ctx;
	struct hcached *e;
	size_t i;
	int err = header(x, rs, &e);

	/* a chain perf drops (an unknown context marker) leaves perf script no frame to print,
	 * and so stackcollapse-perf.pl none to fold */
	if (rs->chain_discarded || err || !collapse_active(x->c))
		return err ? err : collapse_end(x->c);
	if (e->fast)
		return fold_chain(x, rs, e);
	for (i = 0; i < rs->nr_frames && !err && collapse_active(x->c); i++)
		err = fold_frame(x, &rs->frames[i]);
	return err ? err : collapse_end(x->c);
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct data_ctx *x = ctx;

	return x->pipe ? fg_pipe_add(x->pipe, rs) : fold_sample(x, rs);
}

/* Tracepoint samples are folded with their fields, formatted from the record: those are
 * folded where they are read. */
static bool has_tracepoints(const struct perf_data *pd)
{
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++)
		if (pd->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

int fg_collapse_data(const char *path, const struct fg_cli *cli, struct collapse *c)
{
	struct session_opts so = { .open_flags = cli->force ? PD_FORCE : 0 };
	struct data_ctx x = { .c = c,
			      .line = STRBUF_INIT,
			      .addrs = cli->co.addrs,
			      .pid_tid = cli->co.pid || cli->co.tid };
	char errbuf[256] = "";
	int err;

	x.trace.text = (struct strbuf)STRBUF_INIT;
	err = session_open(path, &so, &x.sess, errbuf, sizeof(errbuf));
	if (err) {
		pr_err("cannot read '%s': %s", path, *errbuf ? errbuf : err_str(err));
		return err;
	}
	if (!has_tracepoints(x.sess->pd) && fg_pipe_new(fold_sample, &x, &x.pipe))
		x.pipe = NULL; /* no second thread: fold here */
	err = session_process(x.sess, on_sample, NULL, &x);
	if (x.pipe) {
		int perr = fg_pipe_finish(x.pipe);

		fg_pipe_free(x.pipe);
		if (!err)
			err = perr;
	}
	if (err)
		pr_err("cannot read '%s': %s", path,
		       x.sess->pd->err_msg[0] ? x.sess->pd->err_msg : err_str(err));
	session_free(x.sess);
	tpfmt_release(&x.trace);
	hashmap_release(&x.cache);
	hashmap_release(&x.hcache);
	hashmap_release(&x.roots);
	hashmap_release(&x.chains);
	vec_free(&x.keys);
	arena_release(&x.arena);
	strbuf_release(&x.line);
	return err;
}
