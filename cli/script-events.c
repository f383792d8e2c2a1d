// SPDX-License-Identifier: GPL-2.0
/*
 * script-events: the text perf gives a non-sample record after "PERF_RECORD_NAME" (COMM,
 * MMAP, MMAP2, FORK, EXIT, LOST, SWITCH), shared by -D and the --show-*-events options,
 * which print the record after the sample's first columns as perf script does.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/script.h"
#include "lib/data/reader.h"

/* Bounded string inside a record body. */
static const char *body_str(const struct perf_event_header *ev, size_t off, char *buf, size_t len)
{
	size_t n;

	if (off >= ev->size)
		return "";
	n = strnlen((const char *)ev + off, ev->size - off);
	if (n >= len)
		n = len - 1;
	memcpy(buf, (const char *)ev + off, n);
	buf[n] = 0;
	return buf;
}

static void u32s(const struct perf_event_header *ev, size_t off, uint32_t *v, size_t n)
{
	memset(v, 0, n * sizeof(*v));
	if (off + n * 4 <= ev->size)
		memcpy(v, (const char *)ev + off, n * 4);
}

static void u64s(const struct perf_event_header *ev, size_t off, uint64_t *v, size_t n)
{
	memset(v, 0, n * sizeof(*v));
	if (off + n * 8 <= ev->size)
		memcpy(v, (const char *)ev + off, n * 8);
}

static void print_mmap2(FILE *out, const struct perf_event_header *ev, char *name, size_t len)
{
	const size_t h = sizeof(*ev);
	uint32_t w[2], prot[2], dev[2];
	uint64_t q[3], ino[2];
	char perms[5];

	u32s(ev, h, w, 2);
	u64s(ev, h + 8, q, 3);
	u32s(ev, h + 56, prot, 2);
	perms[0] = prot[0] & 1 ? 'r' : '-'; /* PROT_READ, PROT_WRITE, PROT_EXEC */
	perms[1] = prot[0] & 2 ? 'w' : '-';
	perms[2] = prot[0] & 4 ? 'x' : '-';
	perms[3] = prot[1] & 1 ? 's' : 'p'; /* MAP_SHARED */
	perms[4] = 0;
	fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int32_t)w[0],
		(int32_t)w[1], q[0], q[1], q[2]);
	if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		const uint8_t *id = (const uint8_t *)ev + h + 36;
		uint8_t n = h + 32 < ev->size ? ((const uint8_t *)ev)[h + 32] : 0;
		uint8_t i;

		fputs(" <", out);
		for (i = 0; i < n && i < 20 && h + 36 + i < ev->size; i++)
			fprintf(out, "%02x", id[i]);
		fputc('>', out);
	} else {
		u32s(ev, h + 32, dev, 2);
		u64s(ev, h + 40, ino, 2);
		fprintf(out, " %02x:%02x %" PRIu64 " %" PRIu64, dev[0], dev[1], ino[0], ino[1]);
	}
	fprintf(out, "]: %s %s", perms, body_str(ev, h + 64, name, len));
}

static void print_switch(FILE *out, const struct perf_event_header *ev)
{
	bool is_out = ev->misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *dir = !is_out					      ? "IN         "
			  : !(ev->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        "
									      : "OUT preempt";
	uint32_t w[2];

	if (ev->type == PERF_RECORD_SWITCH) {
		fprintf(out, " %s", dir);
		return;
	}
	u32s(ev, sizeof(*ev), w, 2);
	fprintf(out, " %s  %s pid/tid: %5d/%-5d", dir, is_out ? "next" : "prev", (int32_t)w[0],
		(int32_t)w[1]);
}

bool script_record_details(FILE *out, const struct perf_event_header *ev)
{
	const size_t h = sizeof(*ev);
	char name[4096];
	uint32_t w[4];
	uint64_t q[3];

	switch (ev->type) {
	case PERF_RECORD_COMM:
		u32s(ev, h, w, 2);
		fprintf(out, "%s: %s:%" PRIu32 "/%" PRIu32,
			ev->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
			body_str(ev, h + 8, name, sizeof(name)), w[0], w[1]);
		return true;
	case PERF_RECORD_MMAP:
		u32s(ev, h, w, 2);
		u64s(ev, h + 8, q, 3);
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s",
			(int32_t)w[0], (int32_t)w[1], q[0], q[1], q[2],
			ev->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x',
			body_str(ev, h + 32, name, sizeof(name)));
		return true;
	case PERF_RECORD_MMAP2:
		print_mmap2(out, ev, name, sizeof(name));
		return true;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		u32s(ev, h, w, 4); /* pid, ppid, tid, ptid */
		fprintf(out, "(%d:%d):(%d:%d)", (int32_t)w[0], (int32_t)w[2], (int32_t)w[1],
			(int32_t)w[3]);
		return true;
	case PERF_RECORD_LOST:
		u64s(ev, h, q, 2);
		fprintf(out, " lost %" PRIu64, q[1]);
		return true;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		print_switch(out, ev);
		return true;
	default:
		return false;
	}
}

bool script_show_events(const struct script_opts *o)
{
	return o->show_task || o->show_mmap || o->show_switch;
}

static bool shown(const struct script_opts *o, uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return o->show_task;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return o->show_mmap;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return o->show_switch;
	default:
		return false;
	}
}

/*
 * As perf script's print_event(): the thread is the record's task (the sample_id's for a
 * switch), named as it is after the record; the tid, cpu and time columns are the
 * sample_id's, or the record's own task and time when the file has no sample_id.
 */
int script_on_record(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	struct script_ctx *c = ctx;
	struct perf_data *pd = c->sess->pd;
	const struct pd_attr *a = perf_data_attr_of(pd, ev);
	struct perf_sample_id sid = { 0 };
	const struct thread *t;
	struct script_event *sev;
	int32_t w[4] = { 0 };
	char name[16];
	int err;

	uint64_t id;

	if (!shown(c->o, ev->type))
		return 0;
	if (!a && pd->nr_attrs && perf_data_record_id(pd, ev, &id) && !id)
		a = &pd->attrs[0]; /* perf's evlist__id2evsel(): id 0 is the first event's */
	memcpy(w, ev + 1, ev->size >= sizeof(*ev) + 16 ? 16 : 0);
	if (ev->type == PERF_RECORD_FORK || ev->type == PERF_RECORD_EXIT)
		w[1] = w[2]; /* pid, ppid, tid: the task is pid/tid */
	if (a && a->attr.sample_id_all && perf_data_parse_id(pd, ev, &sid) == 0) {
		if (ev->type == PERF_RECORD_SWITCH || ev->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			w[0] = (int32_t)sid.pid;
			w[1] = (int32_t)sid.tid;
		}
	} else {
		sid.pid = (uint32_t)w[0];
		sid.tid = (uint32_t)w[1];
		if (ev->type == PERF_RECORD_FORK || ev->type == PERF_RECORD_EXIT)
			memcpy(&sid.time, (const char *)(ev + 1) + 16,
			       ev->size >= sizeof(*ev) + 24 ? 8 : 0);
	}
	if (!script_cpu_wanted(c, sid.cpu))
		return 0;
	if (a) {
		if ((err = script_event_of(c, a, &sev)))
			return err;
		t = session_thread(c->sess, (uint32_t)w[1]);
		snprintf(name, sizeof(name), ":%d", w[1]);
		script_print_start(c, sev, t ? t->comm : name, sid.pid, sid.tid, sid.cpu, sid.time);
	}
	fprintf(stdout, "PERF_RECORD_%s", perf_record_name(ev->type));
	script_record_details(stdout, ev);
	fputc('\n', stdout);
	return 0;
}
