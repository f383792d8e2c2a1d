/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opt: one table per subcommand drives parsing and help, so the two never drift apart
 * (git's parse-options, done small over getopt_long).
 *
 *	struct stat_opts o = { ... };
 *	const struct opt opts[] = {
 *		OPT_STRLIST('e', "event", &o.events, "event", "event to count (see 'flare list')"),
 *		OPT_BOOL('a', "all-cpus", &o.all_cpus, "system-wide collection from all CPUs"),
 *		OPT_END(),
 *	};
 *	argc = opt_parse(argc, argv, opts, usage, OPT_STOP_AT_NON_OPTION);
 *
 * opt_parse() returns the number of arguments left, moved to argv[0..]. On a usage error it
 * prints one line saying what is wrong, then the usage, to stderr and exits 129 (as perf and
 * git do). -h prints the usage to stdout and exits 129; --help does the same and exits 0.
 * Every OPT_BOOL and OPT_COUNT also accepts --no-<name> unless OPTF_NONEG is set.
 */
#ifndef FLARE_CLI_OPT_H
#define FLARE_CLI_OPT_H
#include <stddef.h>
#include <stdint.h>

enum opt_type {
	OPTT_END,
	OPTT_GROUP,    /* a heading in the help */
	OPTT_BOOL,     /* int *: 1, or 0 with --no- */
	OPTT_COUNT,    /* int *: +1 each time (-v -v), 0 with --no- */
	OPTT_INT,      /* int * */
	OPTT_U64,      /* uint64_t * */
	OPTT_DOUBLE,   /* double * */
	OPTT_STRING,   /* const char ** (points into argv) */
	OPTT_STRLIST,  /* struct opt_strlist *: appended each time */
	OPTT_CALLBACK, /* cb(opt, arg, unset) */
};

#define OPTF_NOARG 1  /* callback takes no argument */
#define OPTF_OPTARG 2 /* argument is optional: --name=value or -xVALUE only */
#define OPTF_NONEG 4  /* no --no-<name> form */
#define OPTF_HIDDEN 8 /* accepted, not shown in help */

#define OPT_STOP_AT_NON_OPTION 1 /* stop at the first non-option (the workload's argv) */

struct opt_strlist {
	const char **items;
	size_t nr, alloc;
};

struct opt;
/* Returns 0, or -1 after printing its own one-line error (a usage error follows). */
typedef int (*opt_cb)(const struct opt *opt, const char *arg, int unset);

struct opt {
	enum opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int flags;
	opt_cb cb;
	intptr_t data; /* free for the callback */
};

#define OPT_END()                                                                                  \
	{                                                                                          \
		.type = OPTT_END                                                                   \
	}
#define OPT_GROUP(h)                                                                               \
	{                                                                                          \
		.type = OPTT_GROUP, .help = (h)                                                    \
	}
#define OPT_BOOL(s, l, v, h)                                                                       \
	{                                                                                          \
		OPTT_BOOL, (s), (l), (v), NULL, (h), 0, NULL, 0                                    \
	}
#define OPT_COUNT(s, l, v, h)                                                                      \
	{                                                                                          \
		OPTT_COUNT, (s), (l), (v), NULL, (h), 0, NULL, 0                                   \
	}
#define OPT_INT(s, l, v, a, h)                                                                     \
	{                                                                                          \
		OPTT_INT, (s), (l), (v), (a), (h), 0, NULL, 0                                      \
	}
#define OPT_U64(s, l, v, a, h)                                                                     \
	{                                                                                          \
		OPTT_U64, (s), (l), (v), (a), (h), 0, NULL, 0                                      \
	}
#define OPT_DOUBLE(s, l, v, a, h)                                                                  \
	{                                                                                          \
		OPTT_DOUBLE, (s), (l), (v), (a), (h), 0, NULL, 0                                   \
	}
#define OPT_STRING(s, l, v, a, h)                                                                  \
	{                                                                                          \
		OPTT_STRING, (s), (l), (v), (a), (h), 0, NULL, 0                                   \
	}
#define OPT_STRLIST(s, l, v, a, h)                                                                 \
	{                                                                                          \
		OPTT_STRLIST, (s), (l), (v), (a), (h), 0, NULL, 0                                  \
	}
#define OPT_CALLBACK(s, l, v, a, h, f)                                                             \
	{                                                                                          \
		OPTT_CALLBACK, (s), (l), (v), (a), (h), 0, (f), 0                                  \
	}
#define OPT_CALLBACK_NOARG(s, l, v, h, f)                                                          \
	{                                                                                          \
		OPTT_CALLBACK, (s), (l), (v), NULL, (h), OPTF_NOARG, (f), 0                        \
	}
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, f)                                                      \
	{                                                                                          \
		OPTT_CALLBACK, (s), (l), (v), (a), (h), OPTF_OPTARG, (f), 0                        \
	}

int opt_parse(int argc, char **argv, const struct opt *opts, const char *const *usage, int flags);
/* Prints the usage and option help to stderr (or stdout when to_stdout) and exits code. */
void opt_usage_exit(const struct opt *opts, const char *const *usage, int to_stdout, int code)
	__attribute__((noreturn));
/* One-line usage error ("error: ..."), the usage, exit 129. */
void opt_usage_error(const struct opt *opts, const char *const *usage, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
void opt_strlist_free(struct opt_strlist *l);

#endif
