// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "lib/base/err.h"
#include "lib/data/reader.h"
#include "lib/data/tracing_data.h"
#include "lib/sched/sched.h"

// clang-format off
const char *const sched_record_events[] = {
	"sched:sched_switch",
	"sched:sched_stat_runtime",
	"sched:sched_process_fork",
	"sched:sched_wakeup_new",
	"sched:sched_migrate_task",
	NULL,
};

static const char *const fld_names[SF_NR] = {
	[SF_PREV_COMM] = "prev_comm",
	[SF_PREV_PID] = "prev_pid",
	[SF_PREV_PRIO] = "prev_prio",
	[SF_PREV_STATE] = "prev_state",
	[SF_NEXT_COMM] = "next_comm",
	[SF_NEXT_PID] = "next_pid",
	[SF_NEXT_PRIO] = "next_prio",
	[SF_PID] = "pid",
	[SF_RUNTIME] = "runtime",
	[SF_ORIG_CPU] = "orig_cpu",
	[SF_DEST_CPU] = "dest_cpu",
	[SF_COMM] = "comm",
};
// clang-format on

static enum sched_ev kind_of(const char *name)
{
	if (!strcmp(name, "sched_switch"))
		return SEV_SWITCH;
	if (!strcmp(name, "sched_waking"))
		return SEV_WAKING;
	if (!strcmp(name, "sched_wakeup"))
		return SEV_WAKEUP;
	if (!strcmp(name, "sched_wakeup_new"))
		return SEV_WAKEUP_NEW;
	if (!strcmp(name, "sched_stat_runtime"))
		return SEV_RUNTIME;
	if (!strcmp(name, "sched_migrate_task"))
		return SEV_MIGRATE;
	return SEV_NONE;
}

static struct tep_event *attr_event(struct tep_handle *tep, const struct pd_attr *a)
{
	struct tep_event *e;

	if (a->attr.type != PERF_TYPE_TRACEPOINT)
		return NULL;
	e = tep_find_event(tep, (int)a->attr.config);
	return e && e->system && !strcmp(e->system, "sched") ? e : NULL;
}

int sched_decoder_init(struct sched_decoder *d, struct perf_data *pd)
{
	struct tep_handle *tep = perf_data_tep(pd);
	size_t i;
	int k;

	memset(d, 0, sizeof(*d));
	if (!tep)
		return -ERR_FORMAT;
	d->ev = calloc(pd->nr_attrs ? pd->nr_attrs : 1, sizeof(*d->ev));
	if (!d->ev)
		return -ENOMEM;
	d->nr = pd->nr_attrs;
	for (i = 0; i < pd->nr_attrs; i++) {
		struct tep_event *e = attr_event(tep, &pd->attrs[i]);
		struct sched_evinfo *ev = &d->ev[i];

		if (!e)
			continue;
		ev->kind = kind_of(e->name);
		d->has_waking |= ev->kind == SEV_WAKING;
		d->has_switch |= ev->kind == SEV_SWITCH;
		for (k = 0; k < SF_NR; k++) {
			struct tep_format_field *f = tep_find_field(e, fld_names[k]);

			if (f && f->offset >= 0 && f->size > 0) {
				ev->f[k].off = f->offset;
				ev->f[k].size = f->size;
			}
		}
	}
	return 0;
}

void sched_decoder_release(struct sched_decoder *d)
{
	free(d->ev);
	d->ev = NULL;
	d->nr = 0;
}

static bool field_ok(const struct sched_field *f, uint32_t raw_size)
{
	return f->size && (uint64_t)f->off + (uint64_t)f->size <= raw_size;
}

/* An integer field, zero-extended (pids and cpus are unsigned to perf's readers too). */
static uint64_t get_u(const struct sched_evinfo *ev, const struct perf_sample *s, int k)
{
	const struct sched_field *f = &ev->f[k];
	const uint8_t *p = (const uint8_t *)s->raw + f->off;
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	if (!field_ok(f, s->raw_size))
		return 0;
	switch (f->size) {
	case 8:
		memcpy(&v8, p, 8);
		return v8;
	case 4:
		memcpy(&v4, p, 4);
		return v4;
	case 2:
		memcpy(&v2, p, 2);
		return v2;
	default:
		return p[0];
	}
}

static void get_str(const struct sched_evinfo *ev, const struct perf_sample *s, int k, char out[17])
{
	const struct sched_field *f = &ev->f[k];
	size_t n;

	out[0] = 0;
	if (!field_ok(f, s->raw_size))
		return;
	n = f->size < 16 ? (size_t)f->size : 16;
	memcpy(out, (const char *)s->raw + f->off, n);
	out[n] = 0;
}

bool sched_decode(const struct sched_decoder *d, const struct perf_data *pd,
		  const struct perf_sample *s, struct sched_rec *r)
{
	const struct sched_evinfo *ev;
	size_t i;

	if (!s->attr || !s->raw)
		return false;
	i = (size_t)(s->attr - pd->attrs);
	if (i >= d->nr || d->ev[i].kind == SEV_NONE)
		return false;
	ev = &d->ev[i];
	r->kind = ev->kind;
	switch (ev->kind) {
	case SEV_SWITCH:
		r->prev_pid = (uint32_t)get_u(ev, s, SF_PREV_PID);
		r->next_pid = (uint32_t)get_u(ev, s, SF_NEXT_PID);
		r->prev_prio = (int)get_u(ev, s, SF_PREV_PRIO);
		r->next_prio = (int)get_u(ev, s, SF_NEXT_PRIO);
		r->prev_state = get_u(ev, s, SF_PREV_STATE);
		get_str(ev, s, SF_PREV_COMM, r->prev_comm);
		get_str(ev, s, SF_NEXT_COMM, r->next_comm);
		break;
	case SEV_RUNTIME:
		r->pid = (uint32_t)get_u(ev, s, SF_PID);
		r->runtime = get_u(ev, s, SF_RUNTIME);
		break;
	case SEV_MIGRATE:
		r->orig_cpu = (uint32_t)get_u(ev, s, SF_ORIG_CPU);
		r->dest_cpu = (uint32_t)get_u(ev, s, SF_DEST_CPU);
		/* fall through */
	default:
		r->pid = (uint32_t)get_u(ev, s, SF_PID);
		get_str(ev, s, SF_COMM, r->comm);
		break;
	}
	return true;
}
