// SPDX-License-Identifier: GPL-2.0
/*
 * script-dump: `flare script -D`, every record as perf script -D shows it, in the order perf
 * handles them: records perf makes itself (type >= 64) and records without a time where they
 * stand, the others as the session releases them in time order at each FINISHED_ROUND and at
 * the end. Each gets "0xOFFSET@FILE [0xSIZE]: event: TYPE", a hex and ASCII dump of its
 * bytes, then "[CPU ]TIME 0xOFFSET [0xSIZE]: PERF_RECORD_NAME" and what perf prints of it; a
 * sample is followed by its thread, the dso of its ip and the line script prints for it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/script.h"
#include "lib/data/reader.h"

static void hex_dump(FILE *out, const uint8_t *p, size_t n)
{
	size_t i, j;

	fprintf(out, ".\n. ... raw event: size %zu bytes\n", n);
	for (i = 0; i < n; i += 16) {
		fprintf(out, ".  %04zx: ", i);
		for (j = i; j < i + 16; j++) {
			if (j < n)
				fprintf(out, " %02x", p[j]);
			else
				fputs("   ", out);
		}
		fputs("  ", out);
		for (j = i; j < i + 16; j++)
			fputc(j < n ? (p[j] >= 32 && p[j] < 127 ? p[j] : '.') : ' ', out);
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* The events perf knows when it reaches ev: in a pipe, those of the ATTR records before. */
static size_t attrs_known(const struct script_ctx *c)
{
	return c->sess->pd->is_pipe ? c->dump_attrs : c->sess->pd->nr_attrs;
}

/*
 * The record's head: offset, size, type, the bytes, then perf's time stamp columns (the cpu
 * when any event records it, the time when any does; "-1 -1" for a record other than a
 * sample when the events have no sample_id), then offset, size and name.
 */
static void dump_head(struct script_ctx *c, const struct perf_event_header *ev, uint64_t off,
		      uint32_t cpu, uint64_t time)
{
	const struct perf_data *pd = c->sess->pd;
	size_t i, n = attrs_known(c);
	uint64_t st = 0;
	const char *name = perf_record_name(ev->type);
	FILE *out = stdout;

	fprintf(out, "\n%#" PRIx64 "@%s [%#x]: event: %" PRIu32 "\n", off,
		pd->is_pipe ? "pipe" : c->o->input, ev->size, ev->type);
	hex_dump(out, (const uint8_t *)ev, ev->size);
	for (i = 0; i < n; i++)
		st |= pd->attrs[i].attr.sample_type;
	if (ev->type != PERF_RECORD_SAMPLE && !(n && pd->attrs[0].attr.sample_id_all)) {
		fputs("-1 -1 ", out);
	} else {
		if (st & PERF_SAMPLE_CPU)
			fprintf(out, "%" PRIu32 " ", cpu);
		if (st & PERF_SAMPLE_TIME)
			fprintf(out, "%" PRIu64 " ", time);
	}
	fprintf(out, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", off, ev->size, name ? name : "UNKNOWN");
}

static uint64_t body_u64(const struct perf_event_header *ev, size_t off)
{
	uint64_t v = 0;

	if (sizeof(*ev) + off + 8 <= ev->size)
		memcpy(&v, (const char *)(ev + 1) + off, 8);
	return v;
}

/* ID_INDEX: {nr, {id, idx, cpu, tid}[nr], then {machine_pid, vcpu}[nr] when they fit} */
static void dump_id_index(FILE *out, const struct perf_event_header *ev)
{
	size_t body = ev->size > sizeof(*ev) + 8 ? ev->size - sizeof(*ev) - 8 : 0;
	uint64_t i, nr = body_u64(ev, 0), room = body / 32;
	bool ext = nr && body / 48 >= nr;

	if (nr > room)
		nr = room;
	fprintf(out, " nr: %" PRIu64 "\n", nr);
	for (i = 0; i < nr; i++) {
		size_t e = 8 + i * 32;

		fprintf(out,
			" ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			body_u64(ev, e), body_u64(ev, e + 8), (int64_t)body_u64(ev, e + 16),
			(int64_t)body_u64(ev, e + 24));
		if (ext)
			fprintf(out, "  machine_pid: %" PRId64 "  vcpu: %" PRIu64,
				(int64_t)body_u64(ev, 8 + nr * 32 + i * 16),
				body_u64(ev, 8 + nr * 32 + i * 16 + 8));
		fputc('\n', out);
	}
}

/* THREAD_MAP: {nr, {pid, comm[16]}[nr]} */
static void dump_thread_map(FILE *out, const struct perf_event_header *ev)
{
	size_t body = ev->size > sizeof(*ev) + 8 ? ev->size - sizeof(*ev) - 8 : 0;
	uint64_t i, nr = body_u64(ev, 0), room = body / 24;

	if (nr > room)
		nr = room;
	fprintf(out, " nr: %" PRIu64 " thread%s: ", nr, nr > 1 ? "s" : "");
	for (i = 0; i < nr; i++)
		fprintf(out, "%s%d", i ? ", " : "", (int)body_u64(ev, 8 + i * 24));
	fputc('\n', out);
}

static uint16_t body_u16(const struct perf_event_header *ev, size_t off)
{
	uint16_t v = 0;

	if (sizeof(*ev) + off + 2 <= ev->size)
		memcpy(&v, (const char *)(ev + 1) + off, 2);
	return v;
}

struct cpu_runs {
	FILE *out;
	int start, prev; /* the run being printed; start -2 before the first cpu */
	bool first;
};

static void cpu_run_end(struct cpu_runs *r)
{
	if (r->start == -2)
		return;
	fprintf(r->out, r->start == r->prev ? "%s%d" : "%s%d-%d", r->first ? "" : ",", r->start,
		r->prev);
	r->first = false;
}

static void cpu_run_add(struct cpu_runs *r, int cpu)
{
	if (r->start != -2 && cpu == r->prev + 1) {
		r->prev = cpu;
		return;
	}
	cpu_run_end(r);
	r->start = r->prev = cpu;
}

/* CPU_MAP: {u16 type, ...}: 0 a list {u16 nr, u16 cpu[nr]}, 1 a mask {u16 nr, u16 long_size,
 * masks}, 2 a range {u8 any_cpu, u8 pad, u16 start, u16 end}; printed as perf's runs
 * ("0-3,6") and a newline. */
static void dump_cpu_map(FILE *out, const struct perf_event_header *ev)
{
	struct cpu_runs r = { out, -2, 0, true };
	uint16_t type = body_u16(ev, 0), nr = body_u16(ev, 2), lsz = body_u16(ev, 4);
	unsigned int i;

	if (type == 0) {
		for (i = 0; i < nr; i++)
			cpu_run_add(&r, body_u16(ev, 4 + 2 * i) == 0xffff
						? -1
						: body_u16(ev, 4 + 2 * i));
	} else if (type == 1 && (lsz == 4 || lsz == 8)) {
		for (i = 0; i < (unsigned int)nr * lsz * 8; i++) {
			const uint8_t *m = (const uint8_t *)(ev + 1) + 8 + i / 8;

			if (m < (const uint8_t *)ev + ev->size && (*m >> (i % 8) & 1))
				cpu_run_add(&r, (int)i);
		}
	} else if (type == 2) {
		if (nr & 0xff) /* any_cpu */
			cpu_run_add(&r, -1);
		for (i = body_u16(ev, 4); i <= body_u16(ev, 6); i++)
			cpu_run_add(&r, (int)i);
	}
	cpu_run_end(&r);
	fputc('\n', out);
}

/* EVENT_UPDATE: {u64 type, u64 id, data}: 0 unit, 1 scale (double), 2 name, 3 cpus */
static void dump_event_update(FILE *out, const struct perf_event_header *ev)
{
	uint64_t type = body_u64(ev, 0);
	const char *data = (const char *)(ev + 1) + 16;
	int len = ev->size > sizeof(*ev) + 16 ? (int)(ev->size - sizeof(*ev) - 16) : 0;
	double scale;

	fprintf(out, "\n... id:    %" PRIu64 "\n", body_u64(ev, 8));
	switch (type) {
	case 0:
		fprintf(out, "... unit:  %.*s\n", (int)strnlen(data, (size_t)len), data);
		break;
	case 1:
		memcpy(&scale, data, len >= 8 ? 8 : 0);
		fprintf(out, "... scale: %f\n", len >= 8 ? scale : 0.0);
		break;
	case 2:
		fprintf(out, "... name:  %.*s\n", (int)strnlen(data, (size_t)len), data);
		break;
	case 3: {
		struct perf_event_header h = { PERF_RECORD_CPU_MAP, 0, 0 };
		uint64_t buf[(256 + 8) / 8];

		/* the cpus come as a CPU_MAP body */
		if ((size_t)len + 8 > sizeof(buf))
			len = (int)sizeof(buf) - 8;
		h.size = (uint16_t)(len + 8);
		memcpy(buf, &h, 8);
		memcpy((char *)buf + 8, data, (size_t)len);
		fputs("... ", out);
		dump_cpu_map(out, (const struct perf_event_header *)buf);
		break;
	}
	default:
		fputs("... unknown type\n", out);
	}
}

/* What perf prints after the name of a record it makes itself (type >= 64). */
static void dump_user_details(struct script_ctx *c, const struct perf_event_header *ev)
{
	FILE *out = stdout;

	switch (ev->type) {
	case PERF_RECORD_HEADER_ATTR:
		c->dump_attrs++;
		break;
	case PERF_RECORD_HEADER_FEATURE: /* perf prints the features with --header only */
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
		break;
	case PERF_RECORD_ID_INDEX:
		dump_id_index(out, ev);
		break;
	case PERF_RECORD_THREAD_MAP:
		dump_thread_map(out, ev);
		break;
	case PERF_RECORD_CPU_MAP:
		fputs(": ", out);
		dump_cpu_map(out, ev);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		dump_event_update(out, ev);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		fputc('\n', out);
		break;
	default:
		fputs(": unhandled!\n", out);
	}
}

int script_dump_record(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	struct script_ctx *c = ctx;
	struct perf_sample_id sid = { 0 };

	if (ev->type >= PERF_RECORD_USER_TYPE_START) {
		dump_head(c, ev, off, 0, 0);
		dump_user_details(c, ev);
		return 0;
	}
	perf_data_parse_id(c->sess->pd, ev, &sid);
	dump_head(c, ev, off, sid.cpu, sid.time);
	script_record_details(stdout, ev);
	fputc('\n', stdout);
	return 0;
}

/* x86-64's register names by perf_event_x86_regs number, as perf prints them. */
static const char *reg_name(unsigned int r)
{
	static const char *const names[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",	 "FLAGS", "CS",	 "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",	  "R14", "R15",
	};

	return r < sizeof(names) / sizeof(names[0]) ? names[r] : "unknown";
}

static void dump_regs(FILE *out, const char *type, const uint64_t *regs, uint64_t mask,
		      uint64_t abi)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	unsigned int r, i = 0;

	if (!regs || !abi)
		return;
	fprintf(out, "... %s regs: mask %#" PRIx64 " ABI %s\n", type, mask,
		abi < 3 ? abis[abi] : "unknown");
	for (r = 0; r < 64; r++)
		if (mask >> r & 1)
			fprintf(out, ".... %-5s 0x%016" PRIx64 "\n", reg_name(r), regs[i++]);
}

/* The sample as perf's dump_sample() shows it: ip, period, addr, the raw call chain, the
 * registers and stack copied for DWARF unwinding, and the memory fields. */
static void dump_sample_fields(FILE *out, const struct perf_event_header *ev,
			       const struct perf_sample *s, uint64_t st)
{
	uint64_t i;

	fprintf(out,
		"(IP, %#x): %" PRId32 "/%" PRId32 ": %#" PRIx64 " period: %" PRIu64
		" addr: %#" PRIx64 "\n",
		ev->misc, (int32_t)s->pid, (int32_t)s->tid, s->ip, s->period, s->addr);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		fprintf(out, "... FP chain: nr:%" PRIu64 "\n", s->nr_callchain);
		for (i = 0; i < s->nr_callchain; i++)
			fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", i, s->callchain[i]);
	}
	if (st & PERF_SAMPLE_REGS_USER)
		dump_regs(out, "user", s->user_regs, s->user_regs_mask, s->user_abi);
	if (st & PERF_SAMPLE_REGS_INTR)
		dump_regs(out, "intr", s->intr_regs, s->intr_regs_mask, s->intr_abi);
	if ((st & PERF_SAMPLE_STACK_USER) && s->user_stack)
		fprintf(out, "... ustack: size %" PRIu64 ", offset %#tx\n", s->user_stack_size,
			(const char *)s->user_stack - 8 - (const char *)ev);
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		fprintf(out, "... weight: %" PRIu64 "\n", s->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		fprintf(out, " . data_src: %#" PRIx64 "\n", s->data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		fprintf(out, " .. phys_addr: %#" PRIx64 "\n", s->phys_addr);
	if (st & PERF_SAMPLE_TRANSACTION)
		fprintf(out, "... transaction: %" PRIx64 "\n", s->transaction);
}

int script_dump_sample(void *ctx, const struct resolved_sample *rs)
{
	struct script_ctx *c = ctx;
	const struct perf_sample *s = rs->s;
	const struct perf_event_header *ev = rs->ev;
	FILE *out = stdout;

	dump_head(c, ev, rs->offset, s->cpu, s->time);
	dump_sample_fields(out, ev, s, rs->attr ? rs->attr->attr.sample_type : 0);
	/* what perf script's machine__resolve() says, for a sample -C and --time keep */
	if (!sample_filter_when(&c->filter, s))
		return 0;
	fprintf(out, " ... thread: %s:%" PRId32 "\n", rs->thread->comm, (int32_t)rs->thread->tid);
	if (rs->nr_frames && rs->frames[0].dso)
		fprintf(out, " ...... dso: %s\n", rs->frames[0].dso->long_name);
	else
		fprintf(out, " ...... dso: %s\n",
			s->cpumode == PERF_RECORD_MISC_HYPERVISOR ? "[hypervisor]" : "<not found>");
	return script_print_sample(ctx, rs);
}
