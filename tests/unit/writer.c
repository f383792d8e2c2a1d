// SPDX-License-Identifier: GPL-2.0
/*
 * writer: files written by lib/data/writer.c read back with lib/data/reader.c: header, attrs
 * with ids, records in order, feature payloads; the .old rename and the temporary file.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/unit.h"
#include "lib/data/reader.h"
#include "lib/data/writer.h"
#include "lib/sym/sym.h"

static char dir[] = "/tmp/flare-writer-test.XXXXXX";

static void make_events(struct pw_event evs[2], uint64_t ids0[2], uint64_t ids1[1])
{
	memset(evs, 0, 2 * sizeof(*evs));
	evs[0].attr.type = PERF_TYPE_SOFTWARE;
	evs[0].attr.config = PERF_COUNT_SW_CPU_CLOCK;
	evs[0].attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	evs[0].attr.sample_id_all = 1;
	evs[0].name = "cpu-clock";
	evs[0].ids = ids0;
	evs[0].nr_ids = 2;
	evs[1] = evs[0];
	evs[1].attr.config = PERF_COUNT_SW_TASK_CLOCK;
	evs[1].name = "task-clock";
	evs[1].ids = ids1;
	evs[1].nr_ids = 1;
}

/* A SAMPLE {IDENTIFIER, IP, TID} of event id. */
static void sample(uint64_t rec[4], uint64_t id, uint64_t ip)
{
	struct perf_event_header *h = (void *)rec;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = 32;
	rec[1] = id;
	rec[2] = ip;
	rec[3] = 42 | (43ULL << 32);
}

static int write_file(const char *path, int nsamples)
{
	struct pw_event evs[2];
	uint64_t ids0[2] = { 100, 101 }, ids1[1] = { 200 }, rec[4];
	struct pw_feat_info fi = { 0 };
	struct perf_writer *w;
	char *argv[] = { (char *)"flare", (char *)"record", (char *)"true" };
	int i, err;

	make_events(evs, ids0, ids1);
	err = perf_writer_open(path, &w);
	if (err)
		return err;
	err = perf_writer_set_events(w, evs, 2);
	for (i = 0; i < nsamples && !err; i++) {
		sample(rec, i % 2 ? 200 : 101, 0x1000 + (uint64_t)i);
		err = perf_writer_write(w, rec, sizeof(rec));
	}
	fi.argc = 3;
	fi.argv = argv;
	fi.events = evs;
	fi.nr_events = 2;
	fi.first_sample = 5;
	fi.last_sample = 9;
	if (!err)
		err = perf_writer_add_std_features(w, &fi);
	if (!err)
		err = perf_writer_finish(w);
	perf_writer_free(w);
	return err;
}

TEST(file_reads_back)
{
	char path[256], eb[256];
	struct perf_data *pd;
	const struct perf_event_header *ev;
	struct perf_sample s;
	const uint64_t *st;
	size_t size;
	int n = 0, r;

	snprintf(path, sizeof(path), "%s/a.data", dir);
	CHECK(write_file(path, 10) == 0);
	CHECK(perf_data_open(path, 0, &pd, eb, sizeof(eb)) == 0);
	CHECK(!pd->is_pipe);
	CHECK(pd->nr_attrs == 2);
	CHECK(pd->attrs[0].nr_ids == 2 && pd->attrs[0].ids[1] == 101);
	CHECK(pd->attrs[1].nr_ids == 1 && pd->attrs[1].ids[0] == 200);
	CHECK_STR(pd->attrs[1].name, "task-clock");
	CHECK(pd->data_size == 10 * 32);
	while ((r = perf_data_next(pd, &ev, NULL)) == 1) {
		CHECK(ev->type == PERF_RECORD_SAMPLE);
		CHECK(perf_data_parse_sample(pd, ev, &s) == 0);
		CHECK(s.ip == 0x1000 + (uint64_t)n);
		CHECK(s.pid == 42 && s.tid == 43);
		CHECK(s.attr == &pd->attrs[n % 2 ? 1 : 0]);
		n++;
	}
	CHECK(r == 0 && n == 10);
	CHECK(perf_data_feature_str(pd, FEAT_ARCH) != NULL);
	CHECK(perf_data_has_feature(pd, FEAT_CMDLINE));
	CHECK(perf_data_has_feature(pd, FEAT_EVENT_DESC));
	CHECK(!perf_data_has_feature(pd, FEAT_TRACING_DATA));
	st = perf_data_feature(pd, FEAT_SAMPLE_TIME, &size);
	CHECK(st && size == 16 && st[0] == 5 && st[1] == 9);
	perf_data_close(pd);
}

TEST(old_file_kept)
{
	char path[256], old[300];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/b.data", dir);
	snprintf(old, sizeof(old), "%s.old", path);
	CHECK(write_file(path, 3) == 0);
	CHECK(write_file(path, 5) == 0);
	CHECK(stat(old, &sb) == 0);
	CHECK(stat(path, &sb) == 0);
}

TEST(abort_leaves_nothing)
{
	char path[256];
	struct perf_writer *w;
	struct stat sb;
	uint64_t rec[4];

	snprintf(path, sizeof(path), "%s/c.data", dir);
	CHECK(perf_writer_open(path, &w) == 0);
	sample(rec, 1, 2);
	CHECK(perf_writer_write(w, rec, sizeof(rec)) == 0);
	perf_writer_free(w);
	CHECK(stat(path, &sb) == -1 && errno == ENOENT);
	CHECK(rmdir(dir) == -1 && errno == ENOTEMPTY); /* a.data, b.data* only */
}

TEST(string_padding)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t len;

	CHECK(perf_feat_put_string(&sb, "vm") == 0);
	CHECK(sb.len == 4 + 64);
	memcpy(&len, sb.buf, 4);
	CHECK(len == 64);
	CHECK_STR(sb.buf + 4, "vm");
	strbuf_release(&sb);
}

TEST(build_id_notes)
{
	/* namesz 4, descsz 4, type 3 (GNU_BUILD_ID), "GNU\0", de ad be ef */
	const unsigned char notes[] = { 4, 0, 0,   0,	4,   0, 0,    0,    3,	  0,
					0, 0, 'G', 'N', 'U', 0, 0xde, 0xad, 0xbe, 0xef };
	uint8_t id[20];

	CHECK(buildid_from_notes(notes, sizeof(notes), id, sizeof(id)) == 4);
	CHECK(id[0] == 0xde && id[3] == 0xef);
	CHECK(buildid_from_notes(notes, 10, id, sizeof(id)) == -ENOENT);
	CHECK(buildid_of("[kernel.kallsyms]", id, sizeof(id)) > 0 ||
	      access("/sys/kernel/notes", R_OK));
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		return 1;
	RUN(file_reads_back);
	RUN(old_file_kept);
	RUN(abort_leaves_nothing);
	RUN(string_padding);
	RUN(build_id_notes);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return unit_done();
}
