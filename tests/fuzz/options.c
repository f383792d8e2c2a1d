// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the option values and small files users hand flare: the input's
 * first byte picks the parser, the rest is its text: --time ranges, -p/-t/-C lists, record's
 * -m, -k, --call-graph and -F, a palette.map (--cp), and a PMU's sysfs format, type and
 * cpumask files (the event spec has its own harness, evspec.c). record's parsers are static,
 * so cli/cmd-record.c is compiled into this harness; PMU files live in /tmp/flare-fuzz-pmu/pPID
 * standing in for /sys/bus/event_source/devices (the palette in $TMPDIR), removed at exit. Build with `make fuzz`; run
 *   build-fuzz/options -max_len=4096 tests/fuzz/corpus-options
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/event/pmu.h"
#undef PMU_SYSFS
#define PMU_SYSFS "/tmp/flare-fuzz-pmu"
#include "lib/event/pmu.c"
#include "cli/cmd-record.c"
#include "lib/session/filter.h"
#include "lib/event/target.h"
#include "lib/graph/flame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char pmu[32], dir[128], fmt_path[192], type_path[192], mask_path[192], pal_path[192];
static volatile uint64_t fuzz_sink;

static void cleanup(void)
{
	unlink(fmt_path);
	unlink(type_path);
	unlink(mask_path);
	unlink(pal_path);
	snprintf(fmt_path, sizeof(fmt_path), "%s/format", dir);
	rmdir(fmt_path);
	rmdir(dir);
	rmdir(PMU_SYSFS); /* fails while another run's PMU is there */
}

static int setup(void)
{
	if (pmu[0])
		return 0;
	snprintf(pmu, sizeof(pmu), "p%d", (int)getpid());
	snprintf(dir, sizeof(dir), PMU_SYSFS "/%s", pmu);
	mkdir(PMU_SYSFS, 0700);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	snprintf(fmt_path, sizeof(fmt_path), "%s/format", dir);
	mkdir(fmt_path, 0700);
	snprintf(fmt_path, sizeof(fmt_path), "%s/format/t", dir);
	snprintf(type_path, sizeof(type_path), "%s/type", dir);
	snprintf(mask_path, sizeof(mask_path), "%s/cpumask", dir);
	snprintf(pal_path, sizeof(pal_path), "%s/flare-fuzz-palette.%d",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	atexit(cleanup);
	return 0;
}

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

static void pmu_files(const char *s)
{
	struct perf_event_attr attr = { 0 };
	char mask[256];
	uint32_t type;

	put(fmt_path, s);
	put(type_path, s);
	put(mask_path, s);
	pmu_set_term(pmu, "t", 0x5a5a, &attr);
	pmu_set_term(pmu, "t", ~0ULL, &attr);
	pmu_type(pmu, &type);
	pmu_cpumask(pmu, mask, sizeof(mask));
	fuzz_sink = attr.config ^ attr.config1 ^ attr.config2;
}

static void times(const char *s)
{
	struct time_ranges tr = { 0 };
	uint64_t t, sum = 0;

	if (!time_ranges_parse(&tr, s, 1000000000ULL, 5000000000ULL)) {
		for (t = 0; t < 6000000000ULL; t += 250000000ULL)
			sum += time_ranges_skip(&tr, t);
	}
	time_ranges_release(&tr);
	fuzz_sink = sum;
}

static void lists(const char *s, int which)
{
	struct target t = { 0 };
	struct idlist l = { 0 };
	int bad = 0;

	switch (which) {
	case 0:
		idlist_parse(s, &l, &bad);
		idlist_release(&l);
		break;
	case 1:
		target_add_pids(&t, s, &bad);
		break;
	case 2:
		target_add_tids(&t, s, &bad);
		break;
	default:
		target_set_cpus(&t, s, &bad);
		break;
	}
	target_release(&t);
}

static void record_values(const char *s, int which)
{
	struct record_cli c = { 0 };
	struct record_opts ro = { 0 };
	size_t pages = 0;
	int id = 0;

	switch (which) {
	case 0:
		parse_mmap(s, &pages);
		break;
	case 1:
		parse_clockid(s, &id);
		break;
	case 2:
		callgraph_mode(s, &ro);
		break;
	default:
		c.freq = s;
		config_rate(&c, &ro);
		break;
	}
	fuzz_sink = pages + (uint64_t)id + ro.freq;
}

static void palette(const char *s)
{
	struct palette *p = NULL;
	char buf[32];

	put(pal_path, s);
	if (!palette_load(pal_path, &p)) {
		palette_color(p, "main", 4, "rgb(1,2,3)");
		palette_color(p, s, strlen(s), "rgb(4,5,6)");
		snprintf(buf, sizeof(buf), "%s", palette_color(p, "main", 4, "x"));
		palette_free(p);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1 || setup())
		return 0;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 11) {
	case 0:
		times(s);
		break;
	case 1:
	case 2:
	case 3:
	case 4:
		lists(s, data[0] % 11 - 1);
		break;
	case 5:
	case 6:
	case 7:
	case 8:
		record_values(s, data[0] % 11 - 5);
		break;
	case 9:
		palette(s);
		break;
	default:
		pmu_files(s);
		break;
	}
	free(s);
	return 0;
}
