// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lib/trace/tfs.c's state-file parser (the journal a killed flare leaves). */
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/trace/tfs.h"
#include "tests/unit/unit.h"

struct seen {
	int n, owner, inst, set;
	pid_t pid;
	unsigned long long start;
	char name[64], file[64], value[64];
};

static int collect(void *ctx, const struct tfs_rec *rec)
{
	struct seen *s = ctx;

	s->n++;
	if (rec->kind == TFS_REC_OWNER) {
		s->owner++;
		s->pid = rec->pid;
		s->start = rec->start;
	} else if (rec->kind == TFS_REC_INSTANCE) {
		s->inst++;
		snprintf(s->name, sizeof(s->name), "%s", rec->name);
	} else {
		s->set++;
		snprintf(s->file, sizeof(s->file), "%s", rec->name);
		snprintf(s->value, sizeof(s->value), "%s", rec->value);
	}
	return 0;
}

static int parse(const char *text, struct seen *s)
{
	char *buf = strdup(text);
	int r;

	memset(s, 0, sizeof(*s));
	r = tfs_state_parse(buf, strlen(buf), collect, s);
	free(buf);
	return r;
}

TEST(state_records)
{
	struct seen s;

	CHECK(parse("owner 42 777\ninstance flare_42\nset tracing_thresh 0\n", &s) == 0);
	CHECK(s.n == 3 && s.owner == 1 && s.inst == 1 && s.set == 1);
	CHECK(s.pid == 42 && s.start == 777);
	CHECK_STR(s.name, "flare_42");
	CHECK_STR(s.file, "tracing_thresh");
	CHECK_STR(s.value, "0");
	/* a value may hold spaces: everything after the file name */
	CHECK(parse("owner 1 1\nset set_event_pid 1 2 3\n", &s) == 0);
	CHECK_STR(s.value, "1 2 3");
}

TEST(state_refuses)
{
	struct seen s;

	CHECK(parse("owner 42 777", &s) == -ERR_FORMAT); /* no newline: cut short */
	CHECK(parse("owner x 1\n", &s) == -ERR_FORMAT);
	CHECK(parse("owner -3 1\n", &s) == -ERR_FORMAT);
	CHECK(parse("instance ../x\n", &s) == -ERR_FORMAT);
	CHECK(parse("instance a/b\n", &s) == -ERR_FORMAT);
	CHECK(parse("set /etc/passwd x\n", &s) == -ERR_FORMAT);
	CHECK(parse("set events/../../x 1\n", &s) == -ERR_FORMAT);
	CHECK(parse("set tracing_thresh\n", &s) == -ERR_FORMAT);
	CHECK(parse("remove everything\n", &s) == -ERR_FORMAT);
	CHECK(parse("", &s) == 0 && s.n == 0);
}

int main(void)
{
	RUN(state_records);
	RUN(state_refuses);
	return unit_done();
}
