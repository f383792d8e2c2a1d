// SPDX-License-Identifier: GPL-2.0
/*
 * script-dump: `flare script -D`, every record of the file in file order as perf script -D
 * shows it: "0xOFFSET@FILE [0xSIZE]: event: TYPE", a hex and ASCII dump of the bytes, then
 * "TIME 0xOFFSET [0xSIZE]: PERF_RECORD_NAME" with the main fields of the record.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/out.h"
#include "cli/script.h"
#include "lib/base/err.h"
#include "lib/data/reader.h"

const char *script_record_name(uint32_t type)
{
	static const char *const kernel[] = {
		[PERF_RECORD_MMAP] = "MMAP",
		[PERF_RECORD_LOST] = "LOST",
		[PERF_RECORD_COMM] = "COMM",
		[PERF_RECORD_EXIT] = "EXIT",
		[PERF_RECORD_THROTTLE] = "THROTTLE",
		[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
		[PERF_RECORD_FORK] = "FORK",
		[PERF_RECORD_READ] = "READ",
		[PERF_RECORD_SAMPLE] = "SAMPLE",
		[PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_AUX] = "AUX",
		[PERF_RECORD_ITRACE_START] = "ITRACE_START",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
		[PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
		[PERF_RECORD_NAMESPACES] = "NAMESPACES",
		[PERF_RECORD_KSYMBOL] = "KSYMBOL",
		[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
		[PERF_RECORD_CGROUP] = "CGROUP",
		[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
		[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	};
	static const char *const user[] = {
		"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
		"AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP",
		"STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE",
		"COMPRESSED", "FINISHED_INIT",
	};

	if (type < sizeof(kernel) / sizeof(kernel[0]) && kernel[type])
		return kernel[type];
	if (type >= 64 && type - 64 < sizeof(user) / sizeof(user[0]))
		return user[type - 64];
	return NULL;
}

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

static void dump_details(FILE *out, struct perf_data *pd, const struct perf_event_header *ev)
{
	struct perf_sample s;
	uint64_t i;

	if (ev->type != PERF_RECORD_SAMPLE) {
		script_record_details(out, ev);
		return;
	}
	if (perf_data_parse_sample(pd, ev, &s))
		return;
	fprintf(out, "(IP, %#x): %" PRIu32 "/%" PRIu32 ": %#" PRIx64 " period: %" PRIu64
		" addr: %#" PRIx64, ev->misc, s.pid, s.tid, s.ip, s.period, s.addr);
	if (s.callchain) {
		fprintf(out, "\n... FP chain: nr:%" PRIu64, s.nr_callchain);
		for (i = 0; i < s.nr_callchain; i++)
			fprintf(out, "\n..... %2" PRIu64 ": %016" PRIx64, i, s.callchain[i]);
	}
	if (s.raw)
		fprintf(out, "\n... raw size %" PRIu32, s.raw_size);
}

static uint64_t record_time(struct perf_data *pd, const struct perf_event_header *ev)
{
	struct perf_sample s;
	struct perf_sample_id sid;

	if (ev->type == PERF_RECORD_SAMPLE)
		return perf_data_parse_sample(pd, ev, &s) ? 0 : s.time;
	if (ev->type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	return perf_data_parse_id(pd, ev, &sid) ? 0 : sid.time;
}

int script_dump(struct script_ctx *c)
{
	struct perf_data *pd = NULL;
	const struct perf_event_header *ev;
	char errbuf[256];
	FILE *out = stdout;
	uint64_t off;
	int ret;

	ret = perf_data_open(c->o->input, c->o->force ? PD_FORCE : 0, &pd, errbuf,
			     sizeof(errbuf));
	if (ret < 0) {
		pr_err("cannot read '%s': %s", c->o->input, errbuf);
		return -ENOENT;
	}
	while ((ret = perf_data_next(pd, &ev, &off)) > 0) {
		const char *name = script_record_name(ev->type);

		fprintf(out, "\n%#" PRIx64 "@%s [%#x]: event: %" PRIu32 "\n", off, c->o->input,
			ev->size, ev->type);
		hex_dump(out, (const uint8_t *)ev, ev->size);
		fprintf(out, "%" PRIu64 " %#" PRIx64 " [%#x]: PERF_RECORD_%s", record_time(pd, ev),
			off, ev->size, name ? name : "UNKNOWN");
		dump_details(out, pd, ev);
		fputc('\n', out);
	}
	if (ret < 0)
		pr_err("cannot read '%s': %s", c->o->input, pd->err_msg[0] ? pd->err_msg :
		       err_str(ret));
	perf_data_close(pd);
	return ret < 0 ? -EINVAL : 0;
}
