// SPDX-License-Identifier: GPL-2.0
/*
 * session: opens a perf.data file and replays it in time order, turning every SAMPLE into a
 * resolved_sample. Records wait in a queue of (time, offset, record) triples, 24 bytes each,
 * sorted stably by time (file order among equal times) and released round by round as perf's
 * ordered-events queue does; a file without rounds is sorted whole. Records without a time
 * (synthesized ones at 0, no sample_id) are not queued: as in perf, they go where they stand.
 * No per-record allocation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/base/vec.h"
#include "lib/data/features.h"
#include "lib/session/machine.h"
#include "lib/session/session.h"
#include "lib/sym/srcline.h"

struct rec_ref {
	uint64_t time;
	uint64_t off;
	const struct perf_event_header *ev;
};

struct session_priv {
	struct session_opts opts;
	struct machine *machine;
	struct frame *frames;
	size_t frames_alloc;
	struct srclines *srclines; /* made on first use */
};

/* The BUILD_ID feature names the build-id of each dso perf saw hit: debug files and perf's
 * build-id cache are then looked up by it, as perf does; the kernel's decides whether the
 * running kernel's kallsyms can be used. */
static void apply_build_ids(struct session *sess)
{
	size_t size, pos = 0;
	const uint8_t *p = perf_data_feature(sess->pd, FEAT_BUILD_ID, &size);
	struct pd_build_id_entry e;

	while (p && pd_build_id_next(p, size, &pos, &e)) {
		struct dso *d;

		if (!e.size || !e.terminated || !e.filename_len)
			continue;
		if (!strcmp(e.filename, "[kernel.kallsyms]"))
			d = symtab_kernel(sess->symtab);
		else if (strncmp(e.filename, "[kernel.kallsyms]", 17))
			d = symtab_dso(sess->symtab, e.filename, 0);
		else
			d = NULL;
		if (d)
			dso_set_build_id(d, e.build_id, e.size);
	}
}

static bool records_kernel(const struct perf_data *pd)
{
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++)
		if (!pd->attrs[i].attr.exclude_kernel)
			return true;
	return false;
}

int session_open(const char *path, const struct session_opts *opts, struct session **ret,
		 char *errbuf, size_t errlen)
{
	struct session_opts def = { 0 };
	struct session *sess;
	struct session_priv *priv;
	int err;

	*ret = NULL;
	if (!opts)
		opts = &def;
	sess = calloc(1, sizeof(*sess));
	priv = calloc(1, sizeof(*priv));
	if (!sess || !priv) {
		free(sess);
		free(priv);
		snprintf(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	sess->priv = priv;
	priv->opts = *opts;
	err = perf_data_open(path, opts->open_flags, &sess->pd, errbuf, errlen);
	if (err < 0)
		goto fail;
	err = symtab_new(opts->symfs, &sess->symtab);
	if (!err)
		err = symtab_set_kallsyms(sess->symtab, opts->kallsyms);
	if (!err)
		symtab_set_demangle(sess->symtab, !opts->no_demangle);
	if (!err)
		err = machine_new(sess->symtab, &priv->machine);
	if (err < 0) {
		snprintf(errbuf, errlen, "cannot set up the session: %s", err_str(err));
		goto fail;
	}
	apply_build_ids(sess);
	if (records_kernel(sess->pd) && !opts->no_resolve)
		symtab_prefetch_kernel(sess->symtab);
	*ret = sess;
	return 0;
fail:
	session_free(sess);
	return err;
}

void session_free(struct session *sess)
{
	struct session_priv *priv;

	if (!sess)
		return;
	priv = sess->priv;
	machine_free(priv->machine);
	srclines_free(priv->srclines);
	free(priv->frames);
	free(priv);
	symtab_free(sess->symtab);
	perf_data_close(sess->pd);
	free(sess);
}

/* A sample's time read in place: TIME follows IDENTIFIER, IP and TID when they are there. */
static uint64_t sample_time(struct perf_data *pd, const struct perf_event_header *ev, uint64_t last)
{
	const struct pd_attr *a = perf_data_attr_of(pd, ev);
	uint64_t st, t;
	size_t off = sizeof(*ev);

	if (!a)
		return last;
	st = a->attr.sample_type;
	if (!(st & PERF_SAMPLE_TIME))
		return 0;
	off += (st & PERF_SAMPLE_IDENTIFIER ? 8 : 0) + (st & PERF_SAMPLE_IP ? 8 : 0) +
	       (st & PERF_SAMPLE_TID ? 8 : 0);
	if (off + 8 > ev->size)
		return last;
	memcpy(&t, (const char *)ev + off, 8);
	return t;
}

static uint64_t record_time(struct perf_data *pd, const struct perf_event_header *ev, uint64_t last)
{
	struct perf_sample_id sid;

	if (ev->type == PERF_RECORD_SAMPLE)
		return sample_time(pd, ev, last);
	if (ev->type >= PERF_RECORD_USER_TYPE_START)
		return last; /* perf's own records: handled where they stand */
	return perf_data_parse_id(pd, ev, &sid) ? 0 : sid.time; /* 0: no time, no queue */
}

/* perf's total_lost_samples: LOST_SAMPLES only. A LOST record counts the same samples again
 * as the ring buffer dropped them (perf record writes both), so adding it would double. */
static void count_lost(struct session *sess, const struct perf_event_header *ev)
{
	uint64_t lost;

	if (ev->type == PERF_RECORD_LOST_SAMPLES && ev->size >= sizeof(*ev) + 8) {
		memcpy(&lost, ev + 1, 8);
		sess->nr_lost += lost;
	}
}

static int grow_frames(struct session_priv *priv, size_t want)
{
	struct frame *f;
	size_t n = priv->frames_alloc ? priv->frames_alloc : 64;

	if (want <= priv->frames_alloc)
		return 0;
	while (n < want)
		n *= 2;
	f = realloc(priv->frames, n * sizeof(*f));
	if (!f)
		return -ENOMEM;
	priv->frames = f;
	priv->frames_alloc = n;
	return 0;
}

static int replay_sample(struct session *sess, const struct rec_ref *r, session_sample_cb cb,
			 void *ctx)
{
	struct session_priv *priv = sess->priv;
	struct resolved_sample rs;
	struct perf_sample s;
	struct thread *t;
	int err;

	err = perf_data_parse_sample(sess->pd, r->ev, &s);
	if (err < 0) {
		log_warn("skipping a malformed sample at offset %#llx", (unsigned long long)r->off);
		return 0;
	}
	t = machine_findnew_thread(priv->machine, s.pid, s.tid);
	if (!t || grow_frames(priv, 1 + (priv->opts.no_callchain ? 0 : s.nr_callchain) +
					    (s.user_stack_size ? MACHINE_UNWIND_MAX : 0)))
		return -ENOMEM;
	rs.s = &s;
	rs.attr = s.attr ? s.attr : perf_data_attr_of(sess->pd, r->ev);
	rs.thread = t;
	rs.frames = priv->frames;
	rs.ev = r->ev;
	rs.offset = r->off;
	if (priv->opts.no_resolve) {
		rs.nr_frames = 0;
		rs.chain_discarded = false;
		return cb ? cb(ctx, &rs) : 0;
	}
	rs.nr_frames = machine_resolve_sample(priv->machine, t, &s, priv->opts.no_callchain,
					      priv->frames, &rs.chain_discarded);
	if (rs.frames[0].dso)
		rs.frames[0].dso->hit = true;
	return cb ? cb(ctx, &rs) : 0;
}

/* The ordering queue: records of the last rounds not yet delivered. */
struct queue {
	struct rec_ref *v, *tmp;
	size_t nr, alloc, tmp_alloc;
	VEC(size_t) runs;  /* scratch: where the runs in order start */
	bool sorted;	   /* appended in time order so far */
	uint64_t max_time; /* newest time seen in the file so far */
};

static inline bool ref_less(const struct rec_ref *a, const struct rec_ref *b)
{
	return a->time < b->time || (a->time == b->time && a->off < b->off);
}

/* Merges the sorted runs a[0..na) and b[0..nb) into out. */
static void merge_refs(const struct rec_ref *a, size_t na, const struct rec_ref *b, size_t nb,
		       struct rec_ref *out)
{
	while (na && nb) {
		if (ref_less(b, a)) {
			*out++ = *b++;
			nb--;
		} else {
			*out++ = *a++;
			na--;
		}
	}
	memcpy(out, a, na * sizeof(*a));
	memcpy(out + na, b, nb * sizeof(*b));
}

/*
 * Sorts the queue by (time, file offset). A round holds one run in time order per ring
 * buffer read, after what the round before left (itself in order): the runs are found and
 * merged pairwise, O(n log runs) where a general sort is O(n log n).
 */
static int queue_sort(struct queue *q)
{
	size_t i, k, nr_runs;
	struct rec_ref *t;

	q->runs.nr = 0;
	if (vec_push(&q->runs, (size_t)0))
		return -ENOMEM;
	for (i = 1; i < q->nr; i++)
		if (ref_less(&q->v[i], &q->v[i - 1]) && vec_push(&q->runs, i))
			return -ENOMEM;
	if (q->runs.nr > 1 && q->tmp_alloc < q->nr) {
		t = realloc(q->tmp, q->alloc * sizeof(*t));
		if (!t)
			return -ENOMEM;
		q->tmp = t;
		q->tmp_alloc = q->alloc;
	}
	for (nr_runs = q->runs.nr; nr_runs > 1; nr_runs = k) {
		size_t *r = q->runs.items;

		for (i = k = 0; i < nr_runs; i += 2, k++) {
			size_t a = r[i], b = i + 1 < nr_runs ? r[i + 1] : q->nr;
			size_t end = i + 2 < nr_runs ? r[i + 2] : q->nr;

			merge_refs(q->v + a, b - a, q->v + b, end - b, q->tmp + a);
			r[k] = a;
		}
		t = q->v;
		q->v = q->tmp;
		q->tmp = t;
		i = q->alloc;
		q->alloc = q->tmp_alloc;
		q->tmp_alloc = i;
	}
	return 0;
}

static int queue_push(struct queue *q, uint64_t t, uint64_t off, const struct perf_event_header *ev)
{
	if (q->nr == q->alloc) {
		size_t na = q->alloc ? q->alloc * 2 : 4096;
		void *p = realloc(q->v, na * sizeof(*q->v));

		if (!p)
			return -ENOMEM;
		q->v = p;
		q->alloc = na;
	}
	if (q->nr && t < q->v[q->nr - 1].time)
		q->sorted = false;
	q->v[q->nr].time = t;
	q->v[q->nr].off = off;
	q->v[q->nr++].ev = ev;
	if (t > q->max_time)
		q->max_time = t;
	return 0;
}

struct replay_ctx {
	struct session *sess;
	session_sample_cb on_sample;
	session_record_cb on_other;
	void *ctx;
};

static int deliver(struct replay_ctx *rc, const struct rec_ref *r)
{
	struct session_priv *priv = rc->sess->priv;
	int err;

	if (priv->opts.threads_only && r->ev->type != PERF_RECORD_COMM &&
	    r->ev->type != PERF_RECORD_FORK && r->ev->type != PERF_RECORD_EXIT)
		return 0;
	if (r->ev->type == PERF_RECORD_SAMPLE)
		return replay_sample(rc->sess, r, rc->on_sample, rc->ctx);
	err = machine_process(priv->machine, rc->sess->pd, r->ev);
	if (err >= 0 && rc->on_other)
		err = rc->on_other(rc->ctx, r->ev, r->off);
	return err;
}

/* Delivers, in time order, the queued records with time <= limit (all when flush_all). */
static int queue_flush(struct queue *q, struct replay_ctx *rc, uint64_t limit, bool flush_all)
{
	size_t i, n;
	int err = 0;

	if (!q->sorted && (err = queue_sort(q)) < 0)
		return err;
	q->sorted = true;
	for (i = 0; i < q->nr && err >= 0; i++) {
		if (!flush_all && q->v[i].time > limit)
			break;
		err = deliver(rc, &q->v[i]);
	}
	n = q->nr - i;
	if (n && i)
		memmove(q->v, q->v + i, n * sizeof(*q->v));
	q->nr = n;
	return err;
}

static void note_sample(struct session *sess, uint64_t t)
{
	sess->nr_samples++;
	if (t && (!sess->first_time || t < sess->first_time))
		sess->first_time = t;
	if (t > sess->last_time)
		sess->last_time = t;
}

/*
 * perf writes FINISHED_ROUND after each pass over the ring buffers. A record may still be
 * older than the newest of the round before, never older than the newest of any round
 * before that: so at the end of round n, what is not newer than the newest time of rounds
 * up to n-1 can go (doc/perf-data-format.md, section 6). Records perf makes itself
 * (type >= 64) are handed on where they stand, as perf does.
 */
int session_process(struct session *sess, session_sample_cb on_sample, session_record_cb on_other,
		    void *ctx)
{
	struct session_priv *priv = sess->priv;
	struct replay_ctx rc = { sess, on_sample, on_other, ctx };
	struct queue q = { .sorted = true };
	const struct perf_event_header *ev;
	uint64_t off, prev_max = 0, t;
	int ret = 0, err = 0;

	sess->nr_samples = sess->nr_lost = 0;
	sess->first_time = sess->last_time = 0;
	while (err >= 0 && (ret = perf_data_next(sess->pd, &ev, &off)) > 0) {
		count_lost(sess, ev);
		if (ev->type >= PERF_RECORD_USER_TYPE_START) {
			if (on_other)
				err = on_other(ctx, ev, off);
			if (err >= 0 && ev->type == PERF_RECORD_FINISHED_ROUND &&
			    !priv->opts.file_order) {
				err = queue_flush(&q, &rc, prev_max, false);
				prev_max = q.max_time;
			}
			continue;
		}
		t = record_time(sess->pd, ev, q.max_time);
		if (ev->type == PERF_RECORD_SAMPLE)
			note_sample(sess, t);
		/* perf queues nothing without a time: such records go where they stand */
		if (priv->opts.file_order || !t) {
			struct rec_ref r = { t, off, ev };

			err = deliver(&rc, &r);
			continue;
		}
		err = queue_push(&q, t, off, ev);
	}
	/* what was read before a corrupt record is still delivered, then the error returned */
	if (err >= 0)
		err = queue_flush(&q, &rc, 0, true);
	if (err >= 0 && ret < 0)
		err = ret;
	free(q.v);
	free(q.tmp);
	vec_free(&q.runs);
	return err < 0 ? err : 0;
}

void session_set_max_stack(struct session *sess, unsigned int n, bool outermost)
{
	struct session_priv *priv = sess->priv;

	machine_set_max_stack(priv->machine, n, outermost);
}

const struct unwind_stats *session_unwind_stats(const struct session *sess)
{
	const struct session_priv *priv = sess->priv;

	return machine_unwind_stats(priv->machine);
}

const struct thread *session_thread(struct session *sess, uint32_t tid)
{
	struct session_priv *priv = sess->priv;

	return machine_find_thread(priv->machine, tid);
}

int session_threads(struct session *sess, const struct thread ***ret, size_t *nr)
{
	struct session_priv *priv = sess->priv;

	return machine_threads(priv->machine, ret, nr);
}

void session_resolve_ip(struct session *sess, const struct thread *t, uint8_t cpumode, uint64_t ip,
			struct frame *f)
{
	struct session_priv *priv = sess->priv;

	/* the threads the replay hands out are the machine's own */
	machine_resolve(priv->machine, (struct thread *)t, cpumode, ip, f);
}

const char *session_data_map(struct session *sess, const struct thread *t, uint8_t cpumode,
			     uint64_t addr)
{
	struct session_priv *priv = sess->priv;

	return machine_data_map(priv->machine, (struct thread *)t, cpumode, addr);
}

bool session_kernel_addr(struct session *sess, uint64_t addr, struct frame *f)
{
	struct session_priv *priv = sess->priv;

	machine_resolve(priv->machine, NULL, PERF_RECORD_MISC_KERNEL, addr, f);
	return f->dso != NULL;
}

struct srclines *session_srclines(struct session *sess)
{
	struct session_priv *priv = sess->priv;

	if (!priv->srclines && srclines_new(sess->symtab, &priv->srclines))
		return NULL;
	return priv->srclines;
}

size_t session_frame_inlines(struct session *sess, const struct frame *f,
			     const struct inline_entry **ret)
{
	struct srclines *sl;

	*ret = NULL;
	if (!f->unwound || !f->dso || !f->sym || !(sl = session_srclines(sess)))
		return 0;
	return srcline_inlines(sl, f->dso, f->dso_ip, f->sym, ret);
}

const char *session_frame_srcline(struct session *sess, const struct frame *f)
{
	struct srclines *sl;

	if (!f->dso || !(sl = session_srclines(sess)))
		return "??:0";
	return srcline_str(sl, f->dso, f->dso_ip);
}
