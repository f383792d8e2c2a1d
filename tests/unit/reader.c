// SPDX-License-Identifier: GPL-2.0
/*
 * reader unit tests on perf.data images built in memory: every sample field, trailers,
 * ids, names, pipe streams (unaligned HEADER_FEATURE records), COMPRESSED records split
 * across two records, features, and every kind of bad input getting its error and offset.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>
#include "tests/unit/unit.h"
#include "tests/unit/reader-build.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/data/features.h"
#include "lib/data/reader.h"

static struct rb B;

#define ALL_ST                                                                                     \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |             \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |         \
	 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |               \
	 PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |                     \
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |                      \
	 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)

static void attr_all(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = PERF_ATTR_SIZE_FILE;
	a->config = PERF_COUNT_SW_TASK_CLOCK;
	a->sample_period = 4000;
	a->freq = 1;
	a->sample_type = ALL_ST;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			 PERF_FORMAT_TOTAL_TIME_ENABLED;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a->sample_regs_user = 0x7;
	a->sample_regs_intr = 0x3;
	a->sample_stack_user = 16;
	a->sample_id_all = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

/* A SAMPLE with every field of ALL_ST; values are 100 + field number. */
static void put_full_sample(struct rb *b, uint64_t id)
{
	int i;

	rb_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	rb_u64(b, id);	     /* IDENTIFIER */
	rb_u64(b, 0x401000); /* IP */
	rb_u32(b, 42);
	rb_u32(b, 43);	    /* TID */
	rb_u64(b, 1000000); /* TIME */
	rb_u64(b, 0xdead);  /* ADDR */
	rb_u64(b, id);	    /* ID */
	rb_u64(b, 77);	    /* STREAM_ID */
	rb_u32(b, 1);
	rb_u32(b, 0);		  /* CPU */
	rb_u64(b, 250000);	  /* PERIOD */
	rb_u64(b, 2);		  /* READ: nr */
	rb_u64(b, 5555);	  /* time_enabled */
	for (i = 0; i < 2; i++) { /* {value, id, lost} */
		rb_u64(b, 10 + i);
		rb_u64(b, id + i);
		rb_u64(b, i);
	}
	rb_u64(b, 3); /* CALLCHAIN */
	rb_u64(b, PERF_CONTEXT_USER);
	rb_u64(b, 0x401000);
	rb_u64(b, 0x401234);
	rb_u32(b, 4); /* RAW */
	rb_u32(b, 0xabcd);
	rb_u64(b, 1); /* BRANCH_STACK nr */
	rb_u64(b, 9); /* hw_idx */
	rb_u64(b, 0x1);
	rb_u64(b, 0x2);
	rb_u64(b, 0);
	rb_u64(b, PERF_SAMPLE_REGS_ABI_64); /* REGS_USER */
	for (i = 0; i < 3; i++)
		rb_u64(b, 200 + i);
	rb_u64(b, 16); /* STACK_USER size */
	rb_u64(b, 0x1111);
	rb_u64(b, 0x2222);
	rb_u64(b, 8);			    /* dyn_size */
	rb_u64(b, 114);			    /* WEIGHT */
	rb_u64(b, 115);			    /* DATA_SRC */
	rb_u64(b, 117);			    /* TRANSACTION */
	rb_u64(b, PERF_SAMPLE_REGS_ABI_64); /* REGS_INTR */
	rb_u64(b, 300);
	rb_u64(b, 301);
	rb_u64(b, 119);	 /* PHYS_ADDR */
	rb_u64(b, 121);	 /* CGROUP */
	rb_u64(b, 4096); /* DATA_PAGE_SIZE */
	rb_u64(b, 8192); /* CODE_PAGE_SIZE */
	rb_u64(b, 8);	 /* AUX */
	rb_u64(b, 0x77);
	rb_end(b, 8);
}

/* COMM with the sample_id trailer of ALL_ST: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static void put_comm(struct rb *b, uint64_t id, const char *comm)
{
	char name[16] = { 0 };

	strncpy(name, comm, 15);
	rb_begin(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rb_u32(b, 42);
	rb_u32(b, 42);
	rb_bytes(b, name, 16);
	rb_u32(b, 42);
	rb_u32(b, 43);
	rb_u64(b, 999);
	rb_u64(b, id);
	rb_u64(b, 78);
	rb_u32(b, 1);
	rb_u32(b, 0);
	rb_u64(b, id);
	rb_end(b, 8);
}

static struct perf_data *open_img(int want_err, char *err)
{
	struct perf_data *pd = NULL;
	char buf[256];
	int r = perf_data_open_mem(B.out, B.out_len, "img", &pd, err ? err : buf, 256);

	if (want_err ? r != want_err : r != 0) {
		printf("# open returned %d (%s), wanted %d\n", r, err ? err : buf, want_err);
		perf_data_close(pd);
		return (struct perf_data *)-1;
	}
	return pd;
}

static const uint64_t ids0[] = { 10, 11 }, ids1[] = { 20, 21 };
static const uint64_t *const two_ids[] = { ids0, ids1 };
static const size_t two_nr[] = { 2, 2 };

/* Starts an image of two events (ids 10, 11 and 20, 21): empties B and fills a. */
static void build_two_events(struct perf_event_attr *a)
{
	B.len = 0;
	attr_all(&a[0]);
	attr_all(&a[1]);
	a[1].config = PERF_COUNT_SW_PAGE_FAULTS;
	a[1].precise_ip = 0;
	a[1].exclude_kernel = a[1].exclude_hv = 0;
	a[1].exclude_guest = 1;
}

/* Lays out B's records as a file of the two events and opens it; (void *)-1 on failure. */
static struct perf_data *open_two(const struct perf_event_attr *a)
{
	rb_file(&B, a, two_ids, two_nr, 2, NULL, 0);
	return open_img(0, NULL);
}

TEST(sample_every_field)
{
	struct perf_event_attr a[2];
	const struct perf_event_header *ev;
	struct perf_sample s;
	struct perf_data *pd;
	uint64_t off;

	build_two_events(a);
	put_full_sample(&B, 21);
	pd = open_two(a);
	CHECK(pd != (void *)-1);
	CHECK(pd->nr_attrs == 2);
	CHECK_STR(pd->attrs[0].name, "task-clock:u");
	CHECK_STR(pd->attrs[1].name, "page-faults");
	CHECK(perf_data_next(pd, &ev, &off) == 1);
	CHECK(off == pd->data_offset);
	CHECK(perf_data_parse_sample(pd, ev, &s) == 0);
	CHECK(s.attr == &pd->attrs[1]);
	CHECK(s.id == 21 && s.ip == 0x401000 && s.pid == 42 && s.tid == 43);
	CHECK(s.time == 1000000 && s.addr == 0xdead && s.stream_id == 77 && s.cpu == 1);
	CHECK(s.period == 250000 && s.cpumode == PERF_RECORD_MISC_USER && s.exact_ip);
	CHECK(s.read_nr == 2 && s.read_stride == 3 && s.read_time_enabled == 5555);
	CHECK(s.read_values[0] == 10 && s.read_values[1] == 21 && s.read_values[3] == 11);
	CHECK(s.read_values[5] == 1);
	CHECK(s.nr_callchain == 3 && s.callchain[0] == PERF_CONTEXT_USER);
	CHECK(s.callchain[2] == 0x401234);
	CHECK(s.raw_size == 4 && *(const uint32_t *)s.raw == 0xabcd);
	CHECK(s.branch_nr == 1 && s.branch_hw_idx == 9 && s.branches[0].from == 1);
	CHECK(s.branches[0].to == 2);
	CHECK(s.user_abi == PERF_SAMPLE_REGS_ABI_64 && s.user_regs[2] == 202);
	CHECK(s.user_regs_mask == 7);
	CHECK(s.user_stack_alloc == 16 && s.user_stack_size == 8);
	CHECK(*(const uint64_t *)s.user_stack == 0x1111);
	CHECK(s.weight == 114 && s.data_src == 115 && s.transaction == 117);
	CHECK(s.intr_abi == PERF_SAMPLE_REGS_ABI_64 && s.intr_regs[1] == 301);
	CHECK(s.phys_addr == 119 && s.cgroup == 121);
	CHECK(s.data_page_size == 4096 && s.code_page_size == 8192);
	CHECK(s.aux_size == 8 && *(const uint64_t *)s.aux == 0x77);
	CHECK(perf_data_next(pd, &ev, &off) == 0);
	perf_data_close(pd);
}

TEST(sample_overrun_is_an_error)
{
	struct perf_event_attr a[2];
	const struct perf_event_header *ev;
	struct perf_sample s;
	struct perf_data *pd;
	uint16_t size;

	build_two_events(a);
	put_full_sample(&B, 10);
	/* cut the record before its AUX data: everything else is still there */
	memcpy(&size, B.data + 6, 2);
	size -= 8;
	memcpy(B.data + 6, &size, 2);
	B.len -= 8;
	pd = open_two(a);
	CHECK(pd != (void *)-1);
	CHECK(perf_data_next(pd, &ev, NULL) == 1);
	CHECK(perf_data_parse_sample(pd, ev, &s) == -ERR_FORMAT);
	CHECK(strstr(pd->err_msg, "aux data"));
	perf_data_close(pd);
}

TEST(trailer_and_ids)
{
	struct perf_event_attr a[2];
	const struct perf_event_header *ev;
	struct perf_sample_id sid;
	struct perf_data *pd;
	uint64_t id;

	build_two_events(a);
	put_comm(&B, 11, "worker");
	rb_begin(&B, PERF_RECORD_ID_INDEX, 0);
	rb_u64(&B, 1);
	rb_u64(&B, 20);
	rb_u64(&B, 0);
	rb_u64(&B, 1);
	rb_u64(&B, 4242);
	rb_end(&B, 8);
	pd = open_two(a);
	CHECK(pd != (void *)-1);
	CHECK(perf_data_next(pd, &ev, NULL) == 1);
	CHECK(ev->type == PERF_RECORD_COMM);
	CHECK(perf_data_parse_id(pd, ev, &sid) == 0);
	CHECK(sid.pid == 42 && sid.tid == 43 && sid.time == 999 && sid.id == 11);
	CHECK(sid.stream_id == 78 && sid.cpu == 1);
	CHECK(perf_data_record_id(pd, ev, &id) && id == 11);
	CHECK(perf_data_attr_of(pd, ev) == &pd->attrs[0]);
	CHECK(perf_data_attr_by_id(pd, 20) == &pd->attrs[1]);
	CHECK(perf_data_attr_by_id(pd, 99) == NULL);
	CHECK(perf_data_next(pd, &ev, NULL) == 1);
	CHECK(ev->type == PERF_RECORD_ID_INDEX);
	CHECK(perf_data_id_info(pd, 20) && perf_data_id_info(pd, 20)->tid == 4242);
	CHECK(perf_data_id_info(pd, 21) == NULL);
	perf_data_close(pd);
}

TEST(attr_names_as_perf)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = 0, .precise_ip = 3, .exclude_guest = 1
	};
	char buf[64];

	perf_attr_name(&a, buf, sizeof(buf));
	CHECK_STR(buf, "cpu-clock:pppH");
	a = (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = 9 };
	perf_attr_name(&a, buf, sizeof(buf));
	CHECK_STR(buf, "dummy:HG");
	a = (struct perf_event_attr){ .type = PERF_TYPE_HARDWARE,
				      .config = 0,
				      .exclude_kernel = 1,
				      .exclude_hv = 1,
				      .exclude_guest = 0 };
	perf_attr_name(&a, buf, sizeof(buf));
	CHECK_STR(buf, "cycles:u");
	a = (struct perf_event_attr){ .type = PERF_TYPE_HW_CACHE,
				      .config = 0x10000,
				      .exclude_guest = 1 };
	perf_attr_name(&a, buf, sizeof(buf));
	CHECK_STR(buf, "L1-dcache-load-misses");
	a = (struct perf_event_attr){ .type = PERF_TYPE_RAW, .config = 0x1a, .exclude_guest = 1 };
	perf_attr_name(&a, buf, sizeof(buf));
	CHECK_STR(buf, "raw 0x1a");
	a = (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = 2, .exclude_guest = 1 };
	perf_attr_name(&a, buf, sizeof(buf));
	CHECK_STR(buf, "page-faults");
}

/* EVENT_DESC names win over the attr; features decode and render. */
TEST(features_and_event_desc)
{
	struct perf_event_attr a[2];
	uint8_t f_host[128], f_desc[1024], f_nr[8] = { 4, 0, 0, 0, 2, 0, 0, 0 };
	size_t hl = 0, dl = 8, i;
	struct rb_feat feats[3];
	struct pd_features *f;
	struct strbuf sb = STRBUF_INIT;
	struct perf_data *pd;
	const char *names[] = { "mine", "theirs" };

	build_two_events(a);
	put_comm(&B, 10, "x");
	rb_str(f_host, &hl, "testhost");
	memcpy(f_desc, (uint32_t[]){ 2, PERF_ATTR_SIZE_FILE }, 8);
	for (i = 0; i < 2; i++) {
		memcpy(f_desc + dl, &a[i], PERF_ATTR_SIZE_FILE);
		dl += PERF_ATTR_SIZE_FILE;
		memcpy(f_desc + dl, (uint32_t[]){ 2 }, 4);
		dl += 4;
		rb_str(f_desc, &dl, names[i]);
		memcpy(f_desc + dl, two_ids[i], 16);
		dl += 16;
	}
	feats[0] = (struct rb_feat){ FEAT_HOSTNAME, f_host, hl };
	feats[1] = (struct rb_feat){ FEAT_NRCPUS, f_nr, 8 };
	feats[2] = (struct rb_feat){ FEAT_EVENT_DESC, f_desc, dl };
	rb_file(&B, a, two_ids, two_nr, 2, feats, 3);
	pd = open_img(0, NULL);
	CHECK(pd != (void *)-1);
	CHECK_STR(pd->attrs[0].name, "mine");
	CHECK_STR(pd->attrs[1].name, "theirs");
	CHECK_STR(perf_data_feature_str(pd, FEAT_HOSTNAME), "testhost");
	CHECK(!perf_data_has_feature(pd, FEAT_ARCH));
	CHECK(pd_features_read(pd, &f) == 0);
	CHECK(f->has_nrcpus && f->nr_cpus_avail == 4 && f->nr_cpus_online == 2);
	CHECK(f->nr_events == 2 && f->events[1].ids[1] == 21);
	CHECK(pd_features_render(pd, f, false, &sb) == 0);
	CHECK(strstr(sb.buf, "# hostname : testhost\n"));
	CHECK(strstr(sb.buf, "# nrcpus online : 2\n# nrcpus avail : 4\n"));
	CHECK(strstr(sb.buf, "# event : name = theirs, , id = { 20, 21 }, type = 1, size = 128, "
			     "config = 0x2, { sample_period, sample_freq } = 4000"));
	CHECK(strstr(sb.buf, "# missing features: TRACING_DATA BUILD_ID OSRELEASE"));
	strbuf_release(&sb);
	pd_features_free(f);
	perf_data_close(pd);
}

/* Pipe stream: HEADER_ATTR, an unaligned HEADER_FEATURE, EVENT_UPDATE name, a sample. */
TEST(pipe_stream)
{
	struct perf_event_attr a;
	const struct perf_event_header *ev;
	struct perf_sample s;
	struct perf_data *pd;
	int n = 0, r;

	B.len = 0;
	attr_all(&a);
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD;
	rb_begin(&B, PERF_RECORD_HEADER_ATTR, 0);
	rb_bytes(&B, &a, PERF_ATTR_SIZE_FILE);
	rb_u64(&B, 7);
	rb_end(&B, 8);
	rb_begin(&B, PERF_RECORD_HEADER_FEATURE, 0);
	rb_u64(&B, FEAT_ARCH);
	rb_u32(&B, 4);
	rb_bytes(&B, "x86", 4);
	rb_end(&B, 1); /* 28 bytes: what follows is misaligned */
	rb_begin(&B, PERF_RECORD_EVENT_UPDATE, 0);
	rb_u64(&B, 2);
	rb_u64(&B, 7);
	rb_bytes(&B, "renamed:u", 10);
	rb_end(&B, 8);
	rb_begin(&B, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(&B, 0x1234);
	rb_u32(&B, 5);
	rb_u32(&B, 6);
	rb_u64(&B, 7);
	rb_u64(&B, 1001);
	rb_end(&B, 8);
	rb_pipe(&B);
	pd = open_img(0, NULL);
	CHECK(pd != (void *)-1);
	CHECK(pd->is_pipe && pd->nr_attrs == 1);
	CHECK_STR(pd->attrs[0].name, "renamed:u"); /* known right after open */
	CHECK_STR(perf_data_feature_str(pd, FEAT_ARCH), "x86");
	while ((r = perf_data_next(pd, &ev, NULL)) == 1) {
		CHECK(((uintptr_t)ev & 7) == 0);
		n++;
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		CHECK(perf_data_parse_sample(pd, ev, &s) == 0);
		CHECK(s.ip == 0x1234 && s.tid == 6 && s.id == 7 && s.period == 1001);
	}
	CHECK(r == 0 && n == 4);
	perf_data_close(pd);
}

static size_t zcompress(void *dst, size_t cap, const void *src, size_t n)
{
	return ZSTD_compress(dst, cap, src, n, 1);
}

/* Two records compressed as one zstd stream split over two COMPRESSED records. */
TEST(compressed_records)
{
	static struct rb inner;
	struct perf_event_attr a[2];
	const struct perf_event_header *ev;
	struct perf_sample s;
	struct perf_data *pd;
	uint8_t z[4096];
	size_t zn, half;
	int samples = 0, r;

	inner.len = 0;
	put_full_sample(&inner, 10);
	put_comm(&inner, 20, "zz");
	put_full_sample(&inner, 21);
	zn = zcompress(z, sizeof(z), inner.data, inner.len);
	CHECK(!ZSTD_isError(zn));
	half = zn / 2;
	build_two_events(a);
	rb_begin(&B, PERF_RECORD_COMPRESSED, 0);
	rb_bytes(&B, z, half);
	rb_end(&B, 1);
	rb_begin(&B, PERF_RECORD_COMPRESSED, 0);
	rb_bytes(&B, z + half, zn - half);
	rb_end(&B, 1);
	put_comm(&B, 11, "after");
	pd = open_two(a);
	CHECK(pd != (void *)-1);
	while ((r = perf_data_next(pd, &ev, NULL)) == 1) {
		CHECK(((uintptr_t)ev & 7) == 0);
		if (ev->type == PERF_RECORD_SAMPLE) {
			CHECK(perf_data_parse_sample(pd, ev, &s) == 0);
			CHECK(s.aux_size == 8 && s.user_regs[0] == 200);
			samples++;
		}
	}
	CHECK(r == 0);
	CHECK(samples == 2);
	perf_data_close(pd);
}

/* AUXTRACE records are followed by their AUX data, outside the record's size. */
static void put_auxtrace(struct rb *b)
{
	int i;

	rb_begin(b, PERF_RECORD_AUXTRACE, 0);
	rb_u64(b, 16); /* size of the data that follows */
	rb_u64(b, 0);
	rb_u64(b, 0);
	rb_u32(b, 0);
	rb_u32(b, 42);
	rb_u32(b, 0);
	rb_u32(b, 0);
	rb_end(b, 8);
	for (i = 0; i < 4; i++)
		rb_u32(b, 0xffffffff); /* would be a record of size 0xffff if not skipped */
}

static int count_types(struct perf_data *pd, uint32_t type)
{
	const struct perf_event_header *ev;
	int n = 0, r;

	while ((r = perf_data_next(pd, &ev, NULL)) == 1)
		n += ev->type == type;
	return r < 0 ? r : n;
}

TEST(auxtrace_data_is_skipped)
{
	struct perf_event_attr a[2];
	struct perf_data *pd;

	build_two_events(a);
	put_auxtrace(&B);
	put_comm(&B, 10, "after");
	pd = open_two(a);
	CHECK(pd != (void *)-1);
	CHECK(count_types(pd, PERF_RECORD_COMM) == 1);
	perf_data_close(pd);

	build_two_events(a);
	rb_begin(&B, PERF_RECORD_HEADER_ATTR, 0);
	rb_bytes(&B, &a[0], PERF_ATTR_SIZE_FILE);
	rb_u64(&B, 10);
	rb_end(&B, 8);
	put_auxtrace(&B);
	put_comm(&B, 10, "after");
	rb_pipe(&B);
	pd = open_img(0, NULL);
	CHECK(pd != (void *)-1);
	CHECK(count_types(pd, PERF_RECORD_COMM) == 1);
	perf_data_close(pd);
}

static void put_header_only(uint64_t magic, uint64_t size)
{
	memcpy(B.out, &magic, 8);
	memcpy(B.out + 8, &size, 8);
}

TEST(bad_input)
{
	struct perf_event_attr a[2];
	const struct perf_event_header *ev;
	struct perf_data *pd;
	char err[256];
	uint64_t zero = 0, v;

	B.out_len = 0;
	CHECK(open_img(-ERR_FORMAT, err) == NULL && strstr(err, "empty"));
	B.out_len = 104;
	memset(B.out, 0, 104);
	CHECK(open_img(-ERR_FORMAT, err) == NULL && strstr(err, "bad magic at offset 0"));
	put_header_only(__builtin_bswap64(PERF_MAGIC2), 104);
	CHECK(open_img(-ERR_ENDIAN, err) == NULL && strstr(err, "big-endian"));
	memcpy(B.out, "PERFFILE", 8);
	CHECK(open_img(-ERR_UNSUPPORTED_FILE, err) == NULL);
	B.out_len = 12;
	put_header_only(PERF_MAGIC2, 104);
	CHECK(open_img(-ERR_TRUNCATED, err) == NULL);

	/* data size 0: a recording killed before it finished; its records run to the end */
	build_two_events(a);
	put_comm(&B, 10, "x");
	rb_file(&B, a, two_ids, two_nr, 2, NULL, 0);
	memcpy(B.out + 48, &zero, 8);
	pd = open_img(0, NULL);
	CHECK(pd != (void *)-1);
	CHECK(perf_data_next(pd, &ev, NULL) > 0 && ev->type == PERF_RECORD_COMM);
	CHECK(perf_data_next(pd, &ev, NULL) == 0 && !pd->err_msg[0]);
	perf_data_close(pd);

	/* a record of size 0 */
	rb_file(&B, a, two_ids, two_nr, 2, NULL, 0);
	memcpy(&v, B.out + 40, 8);
	memset(B.out + v + 6, 0, 2);
	pd = open_img(0, NULL);
	CHECK(pd != (void *)-1);
	CHECK(perf_data_next(pd, &ev, NULL) == -ERR_FORMAT);
	snprintf(err, sizeof(err), "record at offset 0x%llx has size 0", (unsigned long long)v);
	CHECK_STR(pd->err_msg, err);
	perf_data_close(pd);

	/* the file cut inside the data section: what comes before the cut, then the end (the
	 * loss is said through the log) */
	rb_file(&B, a, two_ids, two_nr, 2, NULL, 0);
	B.out_len = v + 20;
	pd = open_img(0, NULL);
	CHECK(pd != (void *)-1);
	CHECK(perf_data_next(pd, &ev, NULL) == 0 && !pd->err_msg[0]);
	perf_data_close(pd);

	/* attrs pointing outside the file */
	rb_file(&B, a, two_ids, two_nr, 2, NULL, 0);
	v = 1 << 30;
	memcpy(B.out + 24, &v, 8);
	CHECK(open_img(-ERR_TRUNCATED, err) == NULL && strstr(err, "attr section"));
}

TEST(not_owned_file)
{
	char path[] = "/tmp/flare-reader-XXXXXX";
	struct perf_event_attr a[2];
	struct perf_data *pd;
	char err[256];
	int fd;

	build_two_events(a);
	put_comm(&B, 10, "x");
	rb_file(&B, a, two_ids, two_nr, 2, NULL, 0);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, B.out, B.out_len) == (ssize_t)B.out_len);
	close(fd);
	CHECK(chown(path, 1000, 1000) == 0);
	CHECK(perf_data_open(path, 0, &pd, err, sizeof(err)) == -EPERM);
	CHECK(pd == NULL && strstr(err, "not owned by current user or root"));
	CHECK(perf_data_open(path, PD_FORCE, &pd, err, sizeof(err)) == 0);
	perf_data_close(pd);
	unlink(path);
}

/*
 * `reader walk FILE`: the benchmark mode (bench/reader-walk.sh). Decodes every record and
 * sample of FILE and prints one line per sample (tid, time, ip, period, call-chain depth),
 * the work `perf script -F tid,time,ip,period` does without symbols.
 */
static int walk(const char *path)
{
	const struct perf_event_header *ev;
	struct perf_data *pd;
	struct perf_sample s;
	unsigned long n = 0;
	char err[256];
	int r;

	if (perf_data_open(path, 0, &pd, err, sizeof(err))) {
		fprintf(stderr, "reader: %s: %s\n", path, err);
		return 1;
	}
	while ((r = perf_data_next(pd, &ev, NULL)) == 1) {
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		r = perf_data_parse_sample(pd, ev, &s);
		if (r)
			break;
		n++;
		printf("%u %llu.%06llu %llx %llu %llu\n", s.tid,
		       (unsigned long long)s.time / 1000000000,
		       (unsigned long long)s.time % 1000000000 / 1000, (unsigned long long)s.ip,
		       (unsigned long long)s.period, (unsigned long long)s.nr_callchain);
	}
	if (r < 0)
		fprintf(stderr, "reader: %s: %s\n", path, pd->err_msg);
	fprintf(stderr, "%lu samples\n", n);
	perf_data_close(pd);
	return r < 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "walk"))
		return walk(argv[2]);
	RUN(sample_every_field);
	RUN(sample_overrun_is_an_error);
	RUN(trailer_and_ids);
	RUN(attr_names_as_perf);
	RUN(features_and_event_desc);
	RUN(pipe_stream);
	RUN(compressed_records);
	RUN(auxtrace_data_is_skipped);
	RUN(bad_input);
	if (geteuid() == 0)
		RUN(not_owned_file);
	else
		SKIP(not_owned_file, "needs root to give a file to another user");
	return unit_done();
}
