// SPDX-License-Identifier: GPL-2.0
/*
 * session: replay of perf.data files recorded by perf 6.1 (tests/data): time order, threads,
 * maps, call chains and the names perf prints for them.
 *
 * Also a tool for tests/cli/sym*.sh: `session dump FILE [SYMFS]` prints every sample the way
 * `perf script -F comm,tid,ip,sym,symoff,dso` does, so the two can be compared line by line
 * (after squeezing blanks). `session count FILE` replays without printing (for timing).
 */
#include <stdlib.h>
#include <unistd.h>
#include "tests/unit/unit.h"
#include "lib/session/frame.h"
#include "lib/session/machine.h"
#include "lib/session/session.h"

static const char *fixture(const char *name)
{
	static char path[4096];
	const char *d = getenv("TESTDATA");

	snprintf(path, sizeof(path), "%s/%s", d ? d : "tests/data", name);
	return path;
}

struct tally {
	uint64_t n, last_time, nr_back;
	uint64_t leaf_a, leaf_b, leaf_c, with_main, kernel, swapper, unknown_dso;
	uint64_t worker_a, worker_b;
	int bad;
};

static int tally_sample(void *ctx, const struct resolved_sample *rs)
{
	struct tally *t = ctx;
	const char *leaf = frame_sym_name(&rs->frames[0]);
	size_t i;

	t->n++;
	if (rs->s->time < t->last_time)
		t->nr_back++;
	t->last_time = rs->s->time;
	if (!rs->thread || !rs->thread->comm || rs->nr_frames < 1 || !rs->attr)
		t->bad++;
	t->leaf_a += !strcmp(leaf, "a");
	t->leaf_b += !strcmp(leaf, "b");
	t->leaf_c += !strcmp(leaf, "c");
	t->kernel += frame_level(&rs->frames[0]) == 'k';
	t->unknown_dso += rs->frames[0].dso == NULL;
	t->swapper += rs->s->pid == 0 && !strcmp(rs->thread->comm, "swapper");
	t->worker_a += !strcmp(rs->thread->comm, "worker_a") && rs->s->tid != rs->s->pid;
	t->worker_b += !strcmp(rs->thread->comm, "worker_b") && rs->s->tid != rs->s->pid;
	for (i = 1; i < rs->nr_frames; i++)
		if (!strcmp(frame_sym_name(&rs->frames[i]), "main")) {
			t->with_main++;
			break;
		}
	return 0;
}

static int replay(const char *name, const struct session_opts *o, struct tally *t,
		  struct session **keep)
{
	struct session *sess;
	char err[256];
	int ret = session_open(fixture(name), o, &sess, err, sizeof(err));

	memset(t, 0, sizeof(*t));
	if (ret < 0)
		return ret;
	ret = session_process(sess, tally_sample, NULL, t);
	if (ret == 0 && t->n != sess->nr_samples)
		ret = -1;
	if (keep)
		*keep = sess;
	else
		session_free(sess);
	return ret;
}

TEST(replay_fp)
{
	struct tally t;
	struct session *sess;

	CHECK(replay("fp.data", NULL, &t, &sess) == 0);
	CHECK(t.n > 100 && !t.bad && !t.nr_back);
	/* cpu_burn's leaves are a, b and c, b the heaviest; callers reach main */
	CHECK(t.leaf_b > t.leaf_a && t.leaf_a > t.leaf_c && t.leaf_c > 0);
	CHECK(t.leaf_a + t.leaf_b + t.leaf_c > t.n * 9 / 10);
	CHECK(t.with_main > t.n * 3 / 4);
	CHECK(sess->first_time && sess->first_time < sess->last_time);
	CHECK(session_thread(sess, 0) && !strcmp(session_thread(sess, 0)->comm, "swapper"));
	CHECK(session_thread(sess, 123456789) == NULL);
	session_free(sess);
}

static int max_frames(void *ctx, const struct resolved_sample *rs)
{
	size_t *m = ctx;

	if (rs->nr_frames > *m)
		*m = rs->nr_frames;
	return 0;
}

static int stop_after_five(void *ctx, const struct resolved_sample *rs)
{
	return ++*(int *)ctx == 5 ? -42 : 0;
}

TEST(no_callchain_option)
{
	struct session_opts o = { .no_callchain = true };
	struct session *sess;
	char err[256];
	size_t m = 0;
	int calls = 0;

	CHECK(session_open(fixture("fp.data"), &o, &sess, err, sizeof(err)) == 0);
	CHECK(session_process(sess, max_frames, NULL, &m) == 0);
	CHECK(m == 1 && sess->nr_samples > 100);
	session_free(sess);
	CHECK(session_open(fixture("fp.data"), NULL, &sess, err, sizeof(err)) == 0);
	m = 0;
	CHECK(session_process(sess, max_frames, NULL, &m) == 0);
	CHECK(m >= 3);
	session_free(sess);
	/* a callback's error stops the replay and comes back */
	CHECK(session_open(fixture("syswide.data"), NULL, &sess, err, sizeof(err)) == 0);
	CHECK(session_process(sess, stop_after_five, NULL, &calls) == -42 && calls == 5);
	session_free(sess);
}

TEST(replay_sorts_syswide)
{
	struct session_opts o = { .file_order = true };
	struct tally t, u;

	/* perf drains the per-CPU buffers one after another: the file is out of order */
	CHECK(replay("syswide.data", &o, &u, NULL) == 0);
	CHECK(u.nr_back > 0);
	CHECK(replay("syswide.data", NULL, &t, NULL) == 0);
	CHECK(t.n == u.n && !t.bad && t.nr_back == 0);
	CHECK(t.kernel > 0 && t.worker_a > 0 && t.worker_b > 0);
}

TEST(replay_threads_and_pipe)
{
	struct tally t;

	CHECK(replay("mt.data", NULL, &t, NULL) == 0);
	CHECK(t.worker_a > 10 && t.worker_b > 10 && !t.bad);
	CHECK(replay("pipe.data", NULL, &t, NULL) == 0);
	CHECK(t.n > 100 && !t.bad && t.with_main > t.n / 2);
	CHECK(replay("period.data", NULL, &t, NULL) == 0);
	CHECK(t.n > 100 && t.with_main == 0 && t.leaf_b > t.leaf_c);
}

TEST(open_errors)
{
	struct session *sess = (void *)1;
	char err[256] = "";

	CHECK(session_open("/nonexistent/perf.data", NULL, &sess, err, sizeof(err)) < 0);
	CHECK(sess == NULL && err[0]);
	session_free(NULL);
}

TEST(truncated_file)
{
	char path[] = "/tmp/flare-trunc-XXXXXX", err[256];
	struct session *sess;
	struct tally t = { 0 };
	FILE *in = fopen(fixture("fp.data"), "rb");
	char *buf = malloc(1 << 20);
	size_t n = in ? fread(buf, 1, 1 << 20, in) : 0;
	int fd = mkstemp(path), ret;
	struct perf_file_header h;

	if (in)
		fclose(in);
	CHECK(fd >= 0 && n > sizeof(h));
	memcpy(&h, buf, sizeof(h));
	/* cut the data section in the middle of a record */
	n = h.data.offset + h.data.size / 2 + 3;
	CHECK(write(fd, buf, n) == (ssize_t)n);
	close(fd);
	free(buf);
	ret = session_open(path, NULL, &sess, err, sizeof(err));
	if (ret == 0) {
		/* the samples before the cut are delivered, and that is the end */
		ret = session_process(sess, tally_sample, NULL, &t);
		CHECK(ret == 0 && !sess->pd->err_msg[0]);
		CHECK(t.n > 10 && t.n == sess->nr_samples && !t.bad);
		session_free(sess);
	}
	unlink(path);
	CHECK(ret == 0);
}

/* Builds an MMAP2 record for pid/tid in buf. */
static const struct perf_event_header *mmap2(uint64_t *buf, uint32_t pid, uint64_t start,
					     uint64_t len, uint64_t pgoff, const char *name)
{
	struct perf_event_header *h = (void *)buf;
	char *p = (char *)(h + 1);
	uint32_t prot = 5;

	memset(buf, 0, 256);
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	memcpy(p, &pid, 4);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, &start, 8);
	memcpy(p + 16, &len, 8);
	memcpy(p + 24, &pgoff, 8);
	memcpy(p + 56, &prot, 4);
	strcpy(p + 64, name);
	h->size = (uint16_t)(sizeof(*h) + 64 + ((strlen(name) + 8) & ~7UL));
	return h;
}

static const struct perf_event_header *task(uint64_t *buf, uint32_t type, uint32_t pid,
					    uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct perf_event_header *h = (void *)buf;
	uint32_t v[4] = { pid, ppid, tid, ptid };

	memset(buf, 0, 256);
	h->type = type;
	h->size = sizeof(*h) + 24;
	memcpy(h + 1, v, sizeof(v));
	return h;
}

static const struct perf_event_header *comm(uint64_t *buf, uint32_t pid, uint32_t tid,
					    const char *name)
{
	struct perf_event_header *h = (void *)buf;
	char *p = (char *)(h + 1);

	memset(buf, 0, 256);
	h->type = PERF_RECORD_COMM;
	memcpy(p, &pid, 4);
	memcpy(p + 4, &tid, 4);
	strcpy(p + 8, name);
	h->size = (uint16_t)(sizeof(*h) + 8 + ((strlen(name) + 8) & ~7UL));
	return h;
}

TEST(maps_overlap_fork)
{
	struct symtab *st;
	struct machine *m;
	struct thread *t, *c, *w;
	struct perf_event_header *fork_ev;
	struct frame f;
	uint64_t buf[64];

	CHECK(symtab_new("", &st) == 0);
	CHECK(machine_new(st, &m) == 0);
	CHECK(machine_process(m, NULL, comm(buf, 10, 10, "parent")) == 0);
	CHECK(machine_process(m, NULL, mmap2(buf, 10, 0x10000, 0x4000, 0, "/x/big.so")) == 0);
	/* a new mapping in the middle splits the old one; the right part keeps its offset */
	CHECK(machine_process(m, NULL, mmap2(buf, 10, 0x11000, 0x1000, 0, "/x/mid.so")) == 0);
	t = machine_find_thread(m, 10);
	CHECK(t && !strcmp(t->comm, "parent"));
	machine_resolve(m, t, PERF_RECORD_MISC_USER, 0x10800, &f);
	CHECK(f.dso && !strcmp(f.dso->short_name, "big.so") && f.addr == 0x800);
	machine_resolve(m, t, PERF_RECORD_MISC_USER, 0x11800, &f);
	CHECK(f.dso && !strcmp(f.dso->short_name, "mid.so") && f.addr == 0x800);
	machine_resolve(m, t, PERF_RECORD_MISC_USER, 0x12800, &f);
	CHECK(f.dso && !strcmp(f.dso->short_name, "big.so") && f.addr == 0x2800);
	machine_resolve(m, t, PERF_RECORD_MISC_USER, 0x14000, &f);
	CHECK(!f.dso && f.addr == 0x14000 && frame_level(&f) == '.');
	/* fork: the child process inherits comm and a copy of the maps */
	CHECK(machine_process(m, NULL, task(buf, PERF_RECORD_FORK, 11, 10, 11, 10)) == 0);
	CHECK(machine_process(m, NULL, mmap2(buf, 11, 0x10000, 0x1000, 0, "/x/child.so")) == 0);
	c = machine_find_thread(m, 11);
	CHECK(c && c != t && !strcmp(c->comm, "parent"));
	machine_resolve(m, c, PERF_RECORD_MISC_USER, 0x10800, &f);
	CHECK(f.dso && !strcmp(f.dso->short_name, "child.so"));
	machine_resolve(m, c, PERF_RECORD_MISC_USER, 0x12800, &f);
	CHECK(f.dso && !strcmp(f.dso->short_name, "big.so"));
	machine_resolve(m, t, PERF_RECORD_MISC_USER, 0x10800, &f); /* parent unchanged */
	CHECK(f.dso && !strcmp(f.dso->short_name, "big.so"));
	/* a thread shares its process's maps, including later ones */
	CHECK(machine_process(m, NULL, task(buf, PERF_RECORD_FORK, 10, 10, 12, 10)) == 0);
	CHECK(machine_process(m, NULL, comm(buf, 10, 12, "worker")) == 0);
	CHECK(machine_process(m, NULL, mmap2(buf, 10, 0x20000, 0x1000, 0x3000, "/x/late.so")) == 0);
	w = machine_find_thread(m, 12);
	CHECK(w && !strcmp(w->comm, "worker") && !strcmp(t->comm, "parent"));
	machine_resolve(m, w, PERF_RECORD_MISC_USER, 0x20010, &f);
	CHECK(f.dso && !strcmp(f.dso->short_name, "late.so") && f.addr == 0x3010);
	/* a fork synthesized from /proc (FORK_EXEC) copies no maps: the parent's may be those of
	 * the program the child exec'd from, and the child's own MMAP2 records follow */
	fork_ev = (struct perf_event_header *)task(buf, PERF_RECORD_FORK, 13, 10, 13, 10);
	fork_ev->misc = PERF_RECORD_MISC_FORK_EXEC;
	CHECK(machine_process(m, NULL, fork_ev) == 0);
	c = machine_find_thread(m, 13);
	machine_resolve(m, c, PERF_RECORD_MISC_USER, 0x12800, &f);
	CHECK(c && !f.dso && f.addr == 0x12800);
	/* an MMAP2 that carries the build-id (--buildid-mmap): u8 size, 3 reserved, id[20] in
	 * place of maj/min/ino; an id starting with a small byte is still read whole */
	{
		struct perf_event_header *h = (struct perf_event_header *)mmap2(
			buf, 14, 0x30000, 0x1000, 0, "/x/bid.so");
		uint8_t *body = (uint8_t *)(h + 1), id[20];
		struct frame fb;

		for (size_t k = 0; k < sizeof(id); k++)
			id[k] = (uint8_t)(7 + k);
		h->misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		body[32] = 20;
		memcpy(body + 36, id, sizeof(id));
		CHECK(machine_process(m, NULL, h) == 0);
		machine_resolve(m, machine_findnew_thread(m, 14, 14), PERF_RECORD_MISC_USER,
				0x30010, &fb);
		CHECK(fb.dso && fb.dso->build_id_size == 20 && !memcmp(fb.dso->build_id, id, 20));
	}
	/* a thread never announced gets ":tid" */
	t = machine_findnew_thread(m, 99, 100);
	CHECK(t && !strcmp(t->comm, ":100"));
	machine_free(m);
	symtab_free(st);
}

TEST(callchain_markers)
{
	uint64_t chain[] = { PERF_CONTEXT_KERNEL,
			     0xffffffff81000010ULL,
			     0xffffffff81000020ULL,
			     PERF_CONTEXT_USER,
			     0x401000,
			     0x402000 };
	struct perf_sample s = { 0 };
	struct frame fr[8];
	struct symtab *st;
	struct machine *m;
	char buf[64];
	bool disc = true;

	CHECK(symtab_new("", &st) == 0);
	CHECK(machine_new(st, &m) == 0);
	s.ip = 0xffffffff81000010ULL;
	s.cpumode = PERF_RECORD_MISC_KERNEL;
	s.callchain = chain;
	s.nr_callchain = 6;
	CHECK(machine_resolve_sample(m, machine_findnew_thread(m, 5, 5), &s, false, fr, &disc) ==
	      4);
	CHECK(!disc);
	CHECK(fr[0].ip == s.ip && frame_level(&fr[0]) == 'k');
	CHECK(fr[1].ip == 0xffffffff81000020ULL && frame_level(&fr[1]) == 'k');
	CHECK(fr[2].ip == 0x401000 && frame_level(&fr[2]) == '.');
	CHECK(fr[3].ip == 0x402000);
	CHECK(machine_resolve_sample(m, machine_findnew_thread(m, 5, 5), &s, true, fr, &disc) == 1);
	/* a marker perf does not know: the chain goes, the sample stays */
	chain[3] = (uint64_t)-1;
	CHECK(machine_resolve_sample(m, machine_findnew_thread(m, 5, 5), &s, false, fr, &disc) ==
	      1);
	CHECK(disc && fr[0].ip == s.ip);
	/* nor does perf 6.1 know the guest markers (seen from a guest's kernel after the ip) */
	chain[3] = PERF_CONTEXT_GUEST_KERNEL;
	CHECK(machine_resolve_sample(m, machine_findnew_thread(m, 5, 5), &s, false, fr, &disc) ==
	      1);
	CHECK(disc);
	chain[3] = PERF_CONTEXT_USER;
	/* nothing is mapped: perf's placeholders */
	CHECK_STR(frame_sym_name(&fr[0]), "[unknown]");
	CHECK_STR(frame_dso_short(&fr[0]), "[unknown]");
	CHECK_STR(frame_dso_long(&fr[0]), "[unknown]");
	frame_symoff(&fr[0], buf, sizeof(buf));
	CHECK_STR(buf, "[unknown]");
	frame_report_sym_level(&fr[2], buf, sizeof(buf));
	CHECK_STR(buf, "[.] 0x0000000000401000");
	machine_free(m);
	symtab_free(st);
}

static int dump_sample(void *ctx, const struct resolved_sample *rs)
{
	size_t i;

	if (!rs->s->callchain || rs->chain_discarded) {
		char so[512];

		if (rs->chain_discarded) {
			printf("%s %d\n\n", rs->thread->comm, (int)rs->s->tid);
			return 0;
		}

		frame_symoff(&rs->frames[0], so, sizeof(so));
		printf("%s %d %16llx %s (%s)\n", rs->thread->comm, (int)rs->s->tid,
		       (unsigned long long)rs->frames[0].ip, so, frame_dso_long(&rs->frames[0]));
		return 0;
	}
	printf("%s %d\n", rs->thread->comm, (int)rs->s->tid);
	for (i = 0; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];
		char so[512];

		frame_symoff(f, so, sizeof(so));
		printf("\t%16llx %s (%s)\n", (unsigned long long)f->addr, so, frame_dso_long(f));
	}
	printf("\n");
	return 0;
}

static int count_sample(void *ctx, const struct resolved_sample *rs)
{
	*(uint64_t *)ctx += rs->nr_frames;
	return 0;
}

static int dump(const char *path, const char *symfs, bool quiet)
{
	uint64_t frames = 0;
	struct session_opts o = { .symfs = symfs };
	struct session *sess;
	char err[512];
	int ret = session_open(path, &o, &sess, err, sizeof(err));

	if (ret < 0) {
		fprintf(stderr, "session: %s\n", err);
		return 1;
	}
	ret = session_process(sess, quiet ? count_sample : dump_sample, NULL, &frames);
	if (quiet)
		printf("%llu samples, %llu frames\n", (unsigned long long)sess->nr_samples,
		       (unsigned long long)frames);
	if (ret < 0)
		fprintf(stderr, "session: replay failed: %d\n", ret);
	session_free(sess);
	return ret < 0;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "dump"))
		return dump(argv[2], argc == 4 ? argv[3] : NULL, false);
	if (argc == 3 && !strcmp(argv[1], "count"))
		return dump(argv[2], NULL, true);
	RUN(replay_fp);
	RUN(no_callchain_option);
	RUN(replay_sorts_syswide);
	RUN(replay_threads_and_pipe);
	RUN(open_errors);
	RUN(truncated_file);
	RUN(maps_overlap_fork);
	RUN(callchain_markers);
	return unit_done();
}
