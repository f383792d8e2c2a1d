// SPDX-License-Identifier: GPL-2.0
/*
 * session: replay of perf.data files recorded by perf 6.1 (tests/data): time order, threads,
 * maps, call chains and the names perf prints for them.
 *
 * Also a tool for tests/cli/sym*.sh: `session dump FILE` prints every sample the way
 * `perf script -F comm,tid,ip,sym,symoff,dso` does, so the two can be compared line by line
 * (after squeezing blanks).
 */
#include <stdlib.h>
#include "tests/unit/unit.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"

static int dump_sample(void *ctx, const struct resolved_sample *rs)
{
	size_t i;

	if (!rs->s->callchain) {
		char so[512];

		frame_symoff(&rs->frames[0], so, sizeof(so));
		printf("%s %u %16llx %s (%s)\n", rs->thread->comm, rs->s->tid,
		       (unsigned long long)rs->frames[0].ip, so, frame_dso_long(&rs->frames[0]));
		return 0;
	}
	printf("%s %u\n", rs->thread->comm, rs->s->tid);
	for (i = 0; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];
		char so[512];

		frame_symoff(f, so, sizeof(so));
		printf("\t%16llx %s (%s)\n", (unsigned long long)f->addr, so, frame_dso_long(f));
	}
	printf("\n");
	return 0;
}

static int dump(const char *path)
{
	struct session *sess;
	char err[512];
	int ret = session_open(path, NULL, &sess, err, sizeof(err));

	if (ret < 0) {
		fprintf(stderr, "session: %s\n", err);
		return 1;
	}
	ret = session_process(sess, dump_sample, NULL, NULL);
	if (ret < 0)
		fprintf(stderr, "session: replay failed: %d\n", ret);
	session_free(sess);
	return ret < 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "dump"))
		return dump(argv[2]);
	return unit_done();
}
