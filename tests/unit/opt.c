// SPDX-License-Identifier: GPL-2.0
/* The option parser (cli/opt.c): what each kind of option stores, --no-, the arguments left,
 * stopping at the workload, and perf's exit statuses for usage errors and -h/--help. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/unit/unit.h"
#include "cli/opt.h"

static const char *const usage[] = { "flare test [<options>]", NULL };

/* A writable argv of the strings src (NULL-terminated) and its argc; the strings live in
 * bufs (ARGS_MAX of ARG_LEN bytes), as opt_parse() moves only the pointers. */
#define ARGS_MAX 24
#define ARG_LEN 32
struct args {
	char *v[ARGS_MAX];
	char bufs[ARGS_MAX][ARG_LEN];
	int c;
};

static struct args *args_of(struct args *a, const char *const *src)
{
	for (a->c = 0; src[a->c] && a->c < ARGS_MAX - 1; a->c++) {
		snprintf(a->bufs[a->c], ARG_LEN, "%s", src[a->c]);
		a->v[a->c] = a->bufs[a->c];
	}
	a->v[a->c] = NULL;
	return a;
}

struct o {
	int b, v, n;
	uint64_t u;
	double d;
	const char *s;
	struct opt_strlist l;
	int cb_calls, cb_unset;
	const char *cb_arg;
};

static int cb(const struct opt *opt, const char *arg, int unset)
{
	struct o *o = opt->value;

	o->cb_calls++;
	o->cb_arg = arg;
	o->cb_unset = unset;
	return arg && !strcmp(arg, "bad") ? -1 : 0;
}

#define OPTS(o)                                                                                    \
	{                                                                                          \
		OPT_BOOL('b', "bool", &(o).b, "a flag"),                                           \
			OPT_COUNT('v', "verbose", &(o).v, "more"),                                 \
			OPT_INT('n', "num", &(o).n, "n", "a number"),                              \
			OPT_U64(0, "u64", &(o).u, "n", "a positive number"),                       \
			OPT_DOUBLE(0, "dbl", &(o).d, "x", "a real"),                               \
			OPT_STRING('s', "str", &(o).s, "s", "a string"),                           \
			OPT_STRLIST('e', "event", &(o).l, "e", "a list"),                          \
			OPT_CALLBACK('c', "cb", &(o), "x", "a callback", cb), OPT_END(),           \
	}

/* opt_parse of the arguments src (NULL-terminated) in a child: its exit status, or -1 if it returned. */
static int status_of(const char *const *src, int flags)
{
	struct args a;
	pid_t pid;
	int st;

	fflush(stdout); /* the child's exit must not print what the parent had buffered */
	pid = fork();

	if (!pid) {
		struct o o = { 0 };
		const struct opt opts[] = OPTS(o);

		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(3);
		args_of(&a, src);
		opt_parse(a.c, a.v, opts, usage, flags);
		_exit(200);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -2;
	return WEXITSTATUS(st) == 200 ? -1 : WEXITSTATUS(st);
}

TEST(opt_kinds)
{
	struct o o = { 0 };
	const struct opt opts[] = OPTS(o);
	const char *const src[] = { "test",  "-b",   "-vv", "--verbose", "-n", "-12", "--u64=0x10",
				    "--dbl", "2.5",  "-s",  "x",	 "-e", "a",   "--event",
				    "b",     "file", "-c",  "y",	 NULL };
	struct args a;
	char **argv = args_of(&a, src)->v;
	int left = opt_parse(a.c, argv, opts, usage, 0);

	CHECK(o.b == 1 && o.v == 3 && o.n == -12 && o.u == 16 && o.d == 2.5);
	CHECK_STR(o.s, "x");
	CHECK(o.l.nr == 2);
	CHECK_STR(o.l.items[0], "a");
	CHECK_STR(o.l.items[1], "b");
	CHECK(o.cb_calls == 1 && !o.cb_unset);
	CHECK_STR(o.cb_arg, "y");
	/* what is left moves to argv[0..] */
	CHECK(left == 1);
	CHECK_STR(argv[0], "file");
	CHECK(argv[1] == NULL);
	opt_strlist_free(&o.l);
}

TEST(opt_negation)
{
	struct o o = { .b = 1, .v = 2, .s = "keep" };
	const struct opt opts[] = OPTS(o);
	const char *const src[] = { "test",	    "-e",	"a",	      "--no-bool",
				    "--no-verbose", "--no-str", "--no-event", NULL };
	struct args a;

	CHECK(opt_parse(args_of(&a, src)->c, a.v, opts, usage, 0) == 0);
	CHECK(o.b == 0 && o.v == 0 && o.s == NULL && o.l.nr == 0);
	opt_strlist_free(&o.l);
}

TEST(opt_stop_at_workload)
{
	struct o o = { 0 };
	const struct opt opts[] = OPTS(o);
	const char *const src[] = { "test", "-b", "sleep", "-v", "1", NULL };
	struct args a;
	char **argv = args_of(&a, src)->v;

	/* the workload's own options are left to it */
	CHECK(opt_parse(a.c, argv, opts, usage, OPT_STOP_AT_NON_OPTION) == 3);
	CHECK(o.b == 1 && o.v == 0);
	CHECK_STR(argv[0], "sleep");
	CHECK_STR(argv[1], "-v");
	CHECK_STR(argv[2], "1");
}

TEST(opt_errors)
{
	const char *const unknown[] = { "test", "--nosuch", NULL };
	const char *const unknown_short[] = { "test", "-z", NULL };
	const char *const missing[] = { "test", "--num", NULL };
	const char *const not_num[] = { "test", "--num", "12x", NULL };
	const char *const neg_u64[] = { "test", "--u64", "-1", NULL };
	const char *const not_dbl[] = { "test", "--dbl", "x", NULL };
	const char *const cb_bad[] = { "test", "-c", "bad", NULL };
	const char *const help_short[] = { "test", "-h", NULL };
	const char *const help_long[] = { "test", "--help", NULL };
	const char *const fine[] = { "test", "-n", "0x7fffffff", NULL };

	/* usage errors and -h exit 129 as perf's; --help 0 */
	CHECK(status_of(unknown, 0) == 129);
	CHECK(status_of(unknown_short, 0) == 129);
	CHECK(status_of(missing, 0) == 129);
	CHECK(status_of(not_num, 0) == 129);
	CHECK(status_of(neg_u64, 0) == 129);
	CHECK(status_of(not_dbl, 0) == 129);
	CHECK(status_of(cb_bad, 0) == 129);
	CHECK(status_of(help_short, 0) == 129);
	CHECK(status_of(help_long, 0) == 0);
	CHECK(status_of(fine, 0) == -1);
}

int main(void)
{
	RUN(opt_kinds);
	RUN(opt_negation);
	RUN(opt_stop_at_workload);
	RUN(opt_errors);
	return unit_done();
}
