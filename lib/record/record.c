// SPDX-License-Identifier: GPL-2.0
/*
 * record: the recording engine (see record.h): configure, open, synthesize, drain, finish.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "lib/base/err.h"
#include "lib/data/writer.h"
#include "lib/event/live.h"
#include "lib/event/open.h"
#include "lib/event/ring.h"
#include "lib/record/drain-sched.h"
#include "lib/record/hits.h"
#include "lib/record/record.h"
#include "lib/trace/filter-check.h"
#include "lib/record/zsink.h"
#include "lib/record/synth.h"
#include "lib/sym/sym.h"

#define DWARF_REGS_X86_64 0xff0fffULL /* AX..R15 as perf asks for them */
#define SYNC_NS 100000000ULL	      /* the file's header is brought up to date this often */

struct rec {
	const struct record_opts *o;
	struct perf_writer *w;
	struct evfds *fds;  /* per evsel */
	uint64_t **ids;	    /* per evsel, per fd (0 for a missing fd) */
	struct ring *rings; /* per cpu */
	struct pollfd *pfds;
	size_t nr_rings;
	struct hits *hits;
	struct synth syn;
	struct record_stats st;
	uint64_t lost_records; /* sum of LOST records' counts */
	uint64_t first_time, last_time;
	uint64_t last_sync;	  /* when the file was last synced (live_now_ns) */
	uint64_t sample_type;	  /* the bits all evsels share up to TIME */
	struct drain_sched sched; /* the drain's policy and what it replaced */
	struct zsink *z;	  /* -z, or NULL */
	char *errbuf;
	size_t errlen;
};

static int fail(struct rec *r, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct rec *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->errbuf, r->errlen, fmt, ap);
	va_end(ap);
	return err < 0 ? err : -EINVAL;
}

/* -z: the COMPRESSED feature's facts (perf's ratio: rounded, of what was compressed). */
static void comp_info(const struct rec *r, struct pw_feat_info *fi)
{
	fi->comp_level = r->o->comp_level;
	fi->comp_mmap_len = (uint32_t)((r->o->mmap_pages + 1) * (size_t)sysconf(_SC_PAGESIZE));
	if (r->z && zsink_bytes_out(r->z))
		fi->comp_ratio = (uint32_t)((double)zsink_bytes_in(r->z) /
						    (double)zsink_bytes_out(r->z) +
					    0.5);
}

static bool is_tracepoint_like(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_TRACEPOINT ||
	       (e->pmu_name && (!strcmp(e->pmu_name, "uprobe") || !strcmp(e->pmu_name, "kprobe")));
}

static bool is_dummy(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_DUMMY;
}

static void config_sampling(const struct record_opts *o, struct evsel *e)
{
	struct perf_event_attr *a = &e->attr;

	if (o->user_period || (is_tracepoint_like(e) && !o->user_freq)) {
		a->freq = 0;
		a->sample_period = o->user_period ? o->period : 1;
	} else if (!a->sample_period) {
		a->freq = 1;
		a->sample_freq = o->freq;
	}
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	if (!o->no_timestamp)
		a->sample_type |= PERF_SAMPLE_TIME;
	/* perf leaves PERIOD out for a fixed period given with -c (unless -P), and of its
	 * dummy tracking event */
	if (o->sample_period || (!is_dummy(e) && (a->freq || !o->user_period)))
		a->sample_type |= PERF_SAMPLE_PERIOD;
	/* a tracepoint's samples carry the raw record and the CPU (perf's evsel__newtp) */
	if (a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (o->raw_samples && !is_dummy(e)) /* -R, as perf's evsel__config */
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU | PERF_SAMPLE_TIME;
	if (o->callgraph != RECORD_CG_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->callgraph == RECORD_CG_DWARF) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
				  PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->sample_regs_user = DWARF_REGS_X86_64;
		a->sample_stack_user = o->dwarf_stack_size;
		a->exclude_callchain_user = 1;
	}
	if (o->sample_addr)
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (o->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (o->no_samples)
		a->sample_period = 0;
}

/* {a,b}:S: the leader samples and reads the whole group; members only count (perf). */
static void config_sample_read(struct evsel *e)
{
	struct perf_event_attr *a = &e->attr;

	a->sample_type |= PERF_SAMPLE_READ | PERF_SAMPLE_ID;
	a->read_format |= PERF_FORMAT_GROUP;
	a->inherit = 0; /* the kernel refuses inherit with PERF_SAMPLE_READ */
	if (!e->is_leader) {
		a->freq = 0;
		a->sample_period = 0;
	}
}

/* Data mmaps (the stack's among them) are needed to unwind user stacks and to name data
 * addresses: --call-graph dwarf, -d, or an event's own call-graph=dwarf term. */
static bool wants_data_mmaps(const struct record_opts *o)
{
	size_t i;

	if (o->callgraph == RECORD_CG_DWARF || o->sample_addr)
		return true;
	for (i = 0; i < o->evlist->nr; i++)
		if (o->evlist->evsels[i].attr.sample_type & PERF_SAMPLE_STACK_USER)
			return true;
	return false;
}

/* The side-band records (mmaps, comms, tasks, switches) come with one event. */
static void config_tracking(const struct record_opts *o, struct perf_event_attr *a)
{
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
	a->ksymbol = 1;
	a->bpf_event = !o->no_bpf_event;
	a->mmap_data = wants_data_mmaps(o);
	a->context_switch = o->switch_events;
}

/* With more than one event, samples say which one they are of: IDENTIFIER when their
 * layouts differ (or system-wide), else ID, as perf chooses. */
static void config_sample_id(const struct record_opts *o)
{
	struct evlist *l = o->evlist;
	bool differ = o->target->system_wide;
	size_t i;

	for (i = 1; i < l->nr; i++)
		differ |= l->evsels[i].attr.sample_type != l->evsels[0].attr.sample_type;
	for (i = 0; l->nr > 1 && i < l->nr; i++)
		l->evsels[i].attr.sample_type |= differ ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
}

/* -D: the events start disabled and are enabled after the delay; only the dummy tracking
 * event follows the workload's exec (perf: enabled at once system-wide). */
static void config_enable(const struct record_opts *o, struct evsel *e, bool tracking)
{
	struct perf_event_attr *a = &e->attr;

	a->disabled = 1;
	a->enable_on_exec = o->has_workload && !o->delay_ms;
	if (o->delay_ms && tracking && o->dummy_tracking) {
		a->disabled = !o->target->system_wide;
		a->enable_on_exec = !o->target->system_wide;
	}
	/* group members follow their leader; only leaders start disabled */
	if (e->group_idx >= 0 && !e->is_leader)
		a->disabled = a->enable_on_exec = 0;
}

void record_config(const struct record_opts *o)
{
	struct evlist *l = o->evlist;
	bool pipe = o->output && perf_writer_path_is_pipe(o->output);
	size_t i, tracking = o->dummy_tracking ? l->nr - 1 : 0;

	for (i = 0; i < l->nr; i++) {
		struct evsel *e = &l->evsels[i];
		struct perf_event_attr *a = &e->attr;

		a->size = sizeof(*a);
		config_sampling(o, e);
		a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		if (o->inherit_stat) {
			a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING;
			a->inherit_stat = 1;
		}
		a->inherit = !o->no_inherit && !o->target->per_thread;
		config_enable(o, e, i == tracking);
		a->sample_id_all = 1;
		a->use_clockid = o->use_clockid;
		a->clockid = o->use_clockid ? o->clockid : 0;
		if (e->sample_read && e->group_idx >= 0)
			config_sample_read(e);
		if (i == tracking)
			config_tracking(o, a);
		/* wake at a quarter of the ring (perf: half): drain early, lose little */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
	}
	config_sample_id(o);
	for (i = 0; pipe && i < l->nr; i++)
		l->evsels[i].attr.sample_type |= PERF_SAMPLE_ID;
}

/* Size of the sample_id trailer for sample_type. */
static size_t trailer_size(uint64_t st)
{
	size_t n = 0;

	n += st & PERF_SAMPLE_TID ? 8 : 0;
	n += st & PERF_SAMPLE_TIME ? 8 : 0;
	n += st & PERF_SAMPLE_ID ? 8 : 0;
	n += st & PERF_SAMPLE_STREAM_ID ? 8 : 0;
	n += st & PERF_SAMPLE_CPU ? 8 : 0;
	n += st & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	return n;
}

/* The kernel says only EINVAL: name the field that is not the event's, when that is it */
static int filter_refused(struct rec *r, int err, const char *filter, const char *event)
{
	char bad[128], fields[512];

	if (tp_filter_unknown_field(event, filter, bad, sizeof(bad), fields, sizeof(fields)) == 1)
		return fail(r, err,
			    "filter '%s' on event '%s': '%s' is not a field of the event "
			    "(its fields: %s)",
			    filter, event, bad, fields);
	return fail(r, err,
		    "filter '%s' on event '%s' is not accepted: %s (check the operators "
		    "and values: field == 1 && name ~ \"a*\")",
		    filter, event, strerror(-err));
}

static int open_events(struct rec *r)
{
	const struct record_opts *o = r->o;
	struct evlist *l = o->evlist;
	size_t i, k, nfd;
	char buf[256];
	int err;

	r->fds = calloc(l->nr, sizeof(*r->fds));
	r->ids = calloc(l->nr, sizeof(*r->ids));
	if (!r->fds || !r->ids)
		return fail(r, -ENOMEM, "out of memory");
	for (i = 0; i < l->nr; i++) {
		struct evsel *e = &l->evsels[i];
		const struct evfds *leader = NULL;

		if (e->group_idx >= 0 && !e->is_leader)
			leader = &r->fds[e->group_idx];
		err = evfds_open(&r->fds[i], &e->attr, o->target, leader);
		if (err)
			return fail(r, err, "cannot open event '%s': %s", e->name,
				    event_open_reason(&e->attr, err, buf, sizeof(buf)));
		nfd = r->fds[i].nr_tasks * r->fds[i].nr_cpus;
		r->ids[i] = calloc(nfd ? nfd : 1, sizeof(uint64_t));
		if (!r->ids[i])
			return fail(r, -ENOMEM, "out of memory");
		for (k = 0; k < nfd; k++) {
			int fd = r->fds[i].fd[k];

			if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ID, &r->ids[i][k]))
				return fail(r, -errno, "cannot read the id of event '%s': %s",
					    e->name, strerror(errno));
			if (fd >= 0 && o->filters && o->filters[i] &&
			    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, o->filters[i]))
				return filter_refused(r, -errno, o->filters[i], e->name);
		}
	}
	return 0;
}

/* One ring per CPU: the first fd on each CPU is mapped, the rest write into it. */
static int map_rings(struct rec *r)
{
	const struct record_opts *o = r->o;
	size_t ncpu = target_nr_cpus(o->target), ntask = target_nr_tasks(o->target);
	size_t c, t, i;
	int err;

	r->rings = calloc(ncpu, sizeof(*r->rings));
	r->pfds = calloc(ncpu, sizeof(*r->pfds));
	if (!r->rings || !r->pfds)
		return fail(r, -ENOMEM, "out of memory");
	for (c = 0; c < ncpu; c++) {
		struct ring *rg = &r->rings[r->nr_rings];
		bool mapped = false;

		for (i = 0; i < o->evlist->nr; i++)
			for (t = 0; t < ntask; t++) {
				int fd = r->fds[i].fd[t * ncpu + c];

				if (fd < 0)
					continue;
				if (!mapped) {
					err = ring_mmap(rg, fd, target_cpu(o->target, c),
							o->mmap_pages);
					if (err)
						return fail(r, err,
							    "cannot map a %zu KiB ring buffer: %s "
							    "(lower -m, or raise "
							    "/proc/sys/kernel/perf_event_mlock_kb)",
							    o->mmap_pages *
								    (size_t)sysconf(_SC_PAGESIZE) /
								    1024,
							    strerror(-err));
					mapped = true;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, rg->fd)) {
					return fail(r, -errno, "cannot share a ring buffer: %s",
						    strerror(errno));
				}
			}
		if (mapped) {
			r->pfds[r->nr_rings].fd = rg->fd;
			r->pfds[r->nr_rings].events = POLLIN;
			r->nr_rings++;
		}
	}
	return 0;
}

static void hook(void *ctx, const struct perf_event_header *ev)
{
	hits_record(ctx, ev);
}

static int flush_id_index(struct rec *r, uint64_t *rec, size_t *n)
{
	struct perf_event_header *h = (void *)rec;

	h->type = PERF_RECORD_ID_INDEX;
	h->misc = 0;
	h->size = (uint16_t)(16 + *n * 32);
	rec[1] = *n;
	*n = 0;
	return perf_writer_write(r->w, rec, h->size);
}

/* ID_INDEX: u64 nr; {id, idx (cpu index), cpu, tid} per fd. */
static int write_id_index(struct rec *r)
{
	const struct record_opts *o = r->o;
	size_t ncpu = target_nr_cpus(o->target), ntask = target_nr_tasks(o->target);
	size_t i, t, c, n = 0, max = (UINT16_MAX - 16) / 32;
	uint64_t *rec = malloc(16 + max * 32);
	int err = 0;

	if (!rec)
		return -ENOMEM;
	for (i = 0; i < o->evlist->nr && !err; i++)
		for (t = 0; t < ntask && !err; t++)
			for (c = 0; c < ncpu && !err; c++) {
				size_t k = t * ncpu + c;
				uint64_t *e = rec + 2 + n * 4;

				if (r->fds[i].fd[k] < 0)
					continue;
				e[0] = r->ids[i][k];
				e[1] = c;
				e[2] = (uint64_t)(int64_t)target_cpu(o->target, c);
				e[3] = (uint64_t)(int64_t)target_task(o->target, t);
				if (++n == max)
					err = flush_id_index(r, rec, &n);
			}
	if (!err && n)
		err = flush_id_index(r, rec, &n);
	free(rec);
	return err;
}

static void fill_events(struct rec *r, struct pw_event *evs)
{
	const struct evlist *l = r->o->evlist;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		evs[i].attr = l->evsels[i].attr;
		evs[i].name = l->evsels[i].name;
		evs[i].ids = r->ids[i];
		evs[i].nr_ids = r->fds[i].nr_tasks * r->fds[i].nr_cpus;
		evs[i].tp_sys = l->evsels[i].tp_sys;
		evs[i].tp_name = l->evsels[i].tp_name;
	}
}

/* One EVENT_UPDATE of an event: type (perf's PERF_EVENT_UPDATE__*), then its payload, in a
 * record of perf's size (its struct is 40 bytes; 8-byte aligned). */
static int write_event_update(struct rec *r, uint64_t type, uint64_t id, const void *payload,
			      size_t len)
{
	uint64_t rec[(40 + 256) / 8];
	struct perf_event_header *h = (void *)rec;

	if (len > 256 - 1)
		len = 256 - 1;
	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_EVENT_UPDATE;
	h->size = (uint16_t)((40 + len + 7) & ~(size_t)7);
	rec[1] = type;
	rec[2] = id;
	memcpy(rec + 3, payload, len);
	return perf_writer_write(r->w, rec, h->size);
}

/* EVENT_UPDATE records per event as perf writes them: the unit and scale of an event that
 * has them (an explicit cpu-clock or task-clock: msec, 1e-6), and in pipe mode its name. */
static int write_event_updates(struct rec *r, bool pipe)
{
	const struct evlist *l = r->o->evlist;
	size_t i;
	int err = 0;

	for (i = 0; i < l->nr && !err; i++) {
		const struct evsel *e = &l->evsels[i];
		uint64_t id = r->ids[i][0];

		if (e->unit[0])
			err = write_event_update(r, 0, id, e->unit, strlen(e->unit) + 1);
		if (!err && e->scale != 0 && e->scale != 1.0)
			err = write_event_update(r, 1, id, &e->scale, sizeof(e->scale));
		if (!err && pipe)
			err = write_event_update(r, 2, id, e->name, strlen(e->name) + 1);
	}
	return err;
}

static int write_pipe_prologue(struct rec *r, struct pw_event *evs)
{
	struct pw_feat_info fi = { 0 };
	struct strbuf td = STRBUF_INIT;
	int err;

	fi.argc = r->o->argc;
	fi.argv = r->o->argv;
	fi.events = evs;
	fi.nr_events = r->o->evlist->nr;
	fi.use_clockid = r->o->use_clockid;
	fi.clockid = r->o->clockid;
	comp_info(r, &fi);
	err = perf_writer_add_std_features(r->w, &fi);
	if (err)
		return err;
	err = tracing_data_build(evs, fi.nr_events, &td);
	if (err == 0)
		err = perf_writer_tracing_data(r->w, td.buf, td.len);
	strbuf_release(&td);
	return err < 0 ? err : 0;
}

/* perf writes no kernel MMAP when no event counts in the kernel (--all-user, :u) */
static bool all_exclude_kernel(const struct evlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!l->evsels[i].attr.exclude_kernel)
			return false;
	return true;
}

static int write_prologue(struct rec *r)
{
	const struct record_opts *o = r->o;
	struct pw_event *evs = calloc(o->evlist->nr, sizeof(*evs));
	bool pipe = perf_writer_is_pipe(r->w);
	size_t t;
	int err;

	if (!evs)
		return -ENOMEM;
	fill_events(r, evs);
	err = perf_writer_set_events(r->w, evs, o->evlist->nr);
	if (!err && pipe)
		err = write_pipe_prologue(r, evs);
	free(evs);
	if (!err)
		err = write_id_index(r);
	if (!err && !all_exclude_kernel(o->evlist))
		err = synth_kernel_mmap(&r->syn);
	if (!err)
		err = write_event_updates(r, pipe);
	if (!err)
		err = synth_thread_map(&r->syn, o->target);
	if (!err)
		err = synth_cpu_map(&r->syn, &o->target->cpus);
	if (!err && o->target->system_wide && !o->target->tasks.nr)
		err = synth_all_tasks(&r->syn);
	for (t = 0; !err && t < o->target->tasks.nr; t++)
		err = synth_task(&r->syn, o->target->tasks.ids[t], false);
	if (!err) {
		struct perf_event_header fin = { PERF_RECORD_FINISHED_INIT, 0, 8 };

		err = perf_writer_write(r->w, &fin, sizeof(fin));
	}
	return err ? err : perf_writer_sync(r->w);
}

/* Each record of a drained ring: count samples and losses, follow maps and sample ips. */
static int on_record(void *ctx, struct ring *rg, const struct perf_event_header *ev)
{
	struct rec *r = ctx;
	const uint64_t *p = (const uint64_t *)(ev + 1);
	uint64_t st = r->sample_type, ip = 0, time;
	uint32_t pid = 0;

	if (ev->type != PERF_RECORD_SAMPLE) {
		if (ev->type == PERF_RECORD_LOST && ev->size >= 24)
			r->lost_records += p[1];
		return hits_record(r->hits, ev) ? -ENOMEM : 0;
	}
	r->st.samples++;
	if (st & PERF_SAMPLE_IDENTIFIER)
		p++;
	if (st & PERF_SAMPLE_IP)
		ip = *p++;
	if (st & PERF_SAMPLE_TID)
		pid = (uint32_t)*p++;
	if (st & PERF_SAMPLE_TIME) {
		time = *p;
		if (!r->first_time || time < r->first_time)
			r->first_time = time;
		if (time > r->last_time)
			r->last_time = time;
	}
	hits_sample(r->hits, pid, ip, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	return 0;
}

static int on_bytes(void *ctx, const void *p, size_t len)
{
	struct rec *r = ctx;

	return r->z ? zsink_write(r->z, r->w, p, len) : perf_writer_write(r->w, p, len);
}

static int on_round(void *ctx)
{
	struct rec *r = ctx;
	struct perf_event_header fr = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	int err = perf_writer_write(r->w, &fr, sizeof(fr));
	uint64_t now;

	if (err)
		return err;
	/* on disk with the header's data size every SYNC_NS at most: a SIGKILL loses little,
	 * and a busy drain does not pay two syscalls a round */
	now = live_now_ns();
	if (now - r->last_sync < SYNC_NS)
		return 0;
	r->last_sync = now;
	return perf_writer_sync(r->w);
}

static void ioctl_all(struct rec *r, unsigned long req)
{
	size_t i, k;

	for (i = 0; i < r->o->evlist->nr; i++)
		for (k = 0; k < r->fds[i].nr_tasks * r->fds[i].nr_cpus; k++)
			if (r->fds[i].fd[k] >= 0)
				ioctl(r->fds[i].fd[k], req, 0);
}

/* -D: the delay is over. */
static int on_enable(void *ctx)
{
	struct rec *r = ctx;

	ioctl_all(r, PERF_EVENT_IOC_ENABLE);
	if (r->o->on_enable)
		r->o->on_enable(r->o->on_enable_ctx, true);
	return 0;
}

/* The caller's stop condition (record_opts.stop). */
static bool on_over(void *ctx)
{
	const struct rec *r = ctx;

	return r->o->stop && r->o->stop(r->o->stop_ctx);
}

/* The writer's sink for the live loop: every record followed, the bytes written as they
 * are, FINISHED_ROUND after each pass that read something. */
static const struct live_sink rec_sink = {
	.record = on_record,
	.bytes = on_bytes,
	.round = on_round,
	.enable = on_enable,
	.over = on_over,
};

static int drain_all(struct rec *r)
{
	int64_t n = live_drain(r->rings, r->nr_rings, &rec_sink, r);

	return n < 0 ? (int)n : 0;
}

/* Records until a stop condition of the live loop (see live.h). */
static int poll_loop(struct rec *r)
{
	const struct record_opts *o = r->o;
	struct live_opts lo = { 0 };
	struct live_result res;
	int err;

	lo.rings = r->rings;
	lo.nr_rings = r->nr_rings;
	lo.sig = o->sig;
	lo.workload = o->workload;
	lo.delay_ms = o->delay_ms > 0 ? o->delay_ms : 0;
	err = live_run(&lo, &rec_sink, r, &res);
	r->st.wakeups = res.wakeups;
	r->st.end = res.end;
	r->st.workload_err = res.workload_err;
	return err;
}

/* The lost count of the event with id, from a read() of its fd (read_format ID|LOST, with
 * or without GROUP and the TOTAL_TIME fields). 0 when it cannot be read. */
static uint64_t fd_lost(int fd, uint64_t read_format, uint64_t id)
{
	uint64_t v[3 + 4 * 64] = { 0 }, nr, j, *p = v;
	size_t times = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	ssize_t n = read(fd, v, sizeof(v));

	if (!(read_format & PERF_FORMAT_GROUP))
		return n >= (ssize_t)(8 * (3 + times)) ? v[2 + times] : 0;
	if (n < 8)
		return 0;
	nr = *p++;
	p += times;
	for (j = 0; j < nr && j < 64 && (char *)(p + 3) <= (char *)v + n; j++, p += 3)
		if (p[1] == id)
			return p[2];
	return 0;
}

/* LOST_SAMPLES from each fd's lost count (read_format LOST), as perf 6.1 writes them. */
static int write_lost_samples(struct rec *r)
{
	const struct evlist *l = r->o->evlist;
	size_t i, k, ncpu;
	uint64_t total = 0, rec[16];
	int err = 0;

	for (i = 0; i < l->nr && !err; i++) {
		uint64_t st = l->evsels[i].attr.sample_type;

		ncpu = r->fds[i].nr_cpus;
		for (k = 0; k < r->fds[i].nr_tasks * ncpu && !err; k++) {
			uint64_t lost, *p = rec + 2;
			struct perf_event_header *h = (void *)rec;

			if (r->fds[i].fd[k] < 0)
				continue;
			lost = fd_lost(r->fds[i].fd[k], l->evsels[i].attr.read_format,
				       r->ids[i][k]);
			if (!lost)
				continue;
			total += lost;
			memset(rec, 0, sizeof(rec));
			h->type = PERF_RECORD_LOST_SAMPLES;
			rec[1] = lost;
			p += st & PERF_SAMPLE_TID ? 1 : 0;
			p += st & PERF_SAMPLE_TIME ? 1 : 0;
			if (st & PERF_SAMPLE_ID)
				*p++ = r->ids[i][k];
			p += st & PERF_SAMPLE_STREAM_ID ? 1 : 0;
			if (st & PERF_SAMPLE_CPU)
				*p++ = (uint64_t)(uint32_t)target_cpu(r->o->target, k % ncpu);
			if (st & PERF_SAMPLE_IDENTIFIER)
				*p++ = r->ids[i][k];
			h->size = (uint16_t)((char *)p - (char *)rec);
			err = perf_writer_write(r->w, rec, h->size);
		}
	}
	r->st.lost = total > r->lost_records ? total : r->lost_records;
	return err;
}

/* The objects of the BUILD_ID feature into the build-id cache, as perf record does, so that the
 * file still reads right after a package upgrade or a new kernel. The first error, or 0. */
static int cache_hits(const struct pw_feat_info *fi)
{
	size_t i;
	int err = 0, one;

	for (i = 0; i < fi->nr_buildids; i++) {
		const struct pw_buildid *b = &fi->buildids[i];

		one = buildid_cache_add(b->filename, b->id, b->size);
		if (one < 0 && one != -ENOENT && !err)
			err = one;
	}
	return err;
}

static int finish_file(struct rec *r)
{
	const struct record_opts *o = r->o;
	struct pw_feat_info fi = { 0 };
	struct pw_event *evs;
	int err;

	if (perf_writer_is_pipe(r->w))
		return perf_writer_finish(r->w);
	evs = calloc(o->evlist->nr, sizeof(*evs));
	if (!evs)
		return -ENOMEM;
	fill_events(r, evs);
	fi.argc = o->argc;
	fi.argv = o->argv;
	fi.events = evs;
	fi.nr_events = o->evlist->nr;
	fi.use_clockid = o->use_clockid;
	fi.clockid = o->clockid;
	/* perf's "no sample time" (--no-timestamp) is all ones */
	fi.first_sample = o->no_timestamp ? UINT64_MAX : r->first_time;
	fi.last_sample = o->no_timestamp ? UINT64_MAX : r->last_time;
	fi.no_buildid = o->no_buildid;
	comp_info(r, &fi);
	err = o->no_buildid
		      ? 0
		      : hits_buildids(r->hits, (struct pw_buildid **)&fi.buildids, &fi.nr_buildids);
	if (!err)
		err = perf_writer_add_std_features(r->w, &fi);
	if (!err)
		err = perf_writer_finish(r->w);
	if (!err && o->buildid_cache && !perf_writer_in_place(r->w))
		r->st.cache_err = cache_hits(&fi);
	hits_buildids_free((struct pw_buildid *)fi.buildids, fi.nr_buildids);
	free(evs);
	return err;
}

/* The draining thread's scheduling while it drains (see drain-sched.h). */
static int raise_priority(struct rec *r)
{
	int err = drain_sched_raise(&r->sched, r->o->rt_prio, r->o->rt_required);

	if (err)
		return fail(r, err,
			    "cannot set realtime priority %d: %s (run as root, or raise "
			    "RLIMIT_RTPRIO)",
			    r->o->rt_prio, strerror(-err));
	r->st.rt_prio = r->sched.rt_prio;
	r->st.short_slice = r->sched.short_slice;
	return 0;
}

static int run(struct rec *r)
{
	const struct record_opts *o = r->o;
	int err;

	err = open_events(r);
	if (!err)
		err = map_rings(r);
	if (err)
		return err;
	if (!strcmp(o->output, "-"))
		err = perf_writer_open_pipe_fd(o->pipe_fd, &r->w);
	else
		err = perf_writer_open(o->output, &r->w);
	if (err)
		return fail(r, err, "cannot create '%s': %s (check the directory's permissions)",
			    o->output, strerror(-err));
	r->syn.w = r->w;
	r->syn.trailer_size = trailer_size(o->evlist->evsels[0].attr.sample_type);
	r->syn.mmap_data = wants_data_mmaps(o);
	r->syn.comm_only = o->has_workload;
	r->syn.hook = hook;
	r->syn.hook_ctx = r->hits;
	err = write_prologue(r);
	if (err)
		return fail(r, err, "cannot write '%s': %s", o->output, err_str(err));
	err = raise_priority(r);
	if (err)
		return err;
	/* enabled before the command starts (as perf): its exec COMM and MMAPs are recorded */
	if (!o->has_workload && !o->delay_ms)
		ioctl_all(r, PERF_EVENT_IOC_ENABLE);
	if (o->delay_ms && o->on_enable)
		o->on_enable(o->on_enable_ctx, false);
	err = poll_loop(r);
	/* the command could not exec: the caller says why */
	if (err && err == r->st.workload_err)
		return err;
	ioctl_all(r, PERF_EVENT_IOC_DISABLE);
	if (!err)
		err = drain_all(r);
	drain_sched_restore(&r->sched);
	if (!err)
		err = write_lost_samples(r);
	r->st.bytes = perf_writer_data_size(r->w);
	if (r->z) {
		r->st.comp_in = zsink_bytes_in(r->z);
		r->st.comp_out = zsink_bytes_out(r->z);
	}
	if (!err)
		err = finish_file(r);
	if (err && !r->errbuf[0])
		fail(r, err, "cannot write '%s': %s", o->output, err_str(err));
	return err;
}

int record_run(const struct record_opts *o, struct record_stats *st, char *errbuf, size_t errlen)
{
	struct rec r = { 0 };
	size_t i;
	int err;

	r.o = o;
	r.errbuf = errbuf;
	r.errlen = errlen;
	errbuf[0] = 0;
	if (!o->evlist->nr)
		return fail(&r, -EINVAL, "no event to record");
	record_config(o);
	r.sample_type = o->evlist->evsels[0].attr.sample_type;
	err = hits_new(&r.hits);
	if (!err && o->comp_level && (err = zsink_new(o->comp_level, &r.z)))
		fail(&r, err, "cannot compress at level %d: %s", o->comp_level, err_str(err));
	if (!err)
		err = run(&r);
	drain_sched_restore(&r.sched);
	*st = r.st;
	perf_writer_free(r.w);
	for (i = 0; i < r.nr_rings; i++)
		ring_unmap(&r.rings[i]);
	free(r.rings);
	free(r.pfds);
	for (i = 0; r.fds && i < o->evlist->nr; i++) {
		evfds_close(&r.fds[i]);
		free(r.ids[i]);
	}
	free(r.fds);
	free(r.ids);
	hits_free(r.hits);
	zsink_free(r.z);
	return err;
}
