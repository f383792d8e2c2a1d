// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/exit-status.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/vec.h"

#define VAL_LONG 0x1000 /* getopt val for table entry i: VAL_LONG + 2*i (+1 for --no-) */
#define VAL_HELP 0x0fff

static const struct opt *cur_opts;
static const char *const *cur_usage;

static void print_usage(FILE *f, const struct opt *opts, const char *const *usage)
{
	const struct opt *o;
	int i;

	/* usage lines start with "flare ": under the name perf they say perf */
	for (i = 0; usage[i]; i++)
		fprintf(f, "%s%s%s\n", i ? "   or: " : " Usage: ",
			strncmp(usage[i], "flare ", 6) ? "" : out_progname,
			usage[i] + (strncmp(usage[i], "flare ", 6) ? 0 : 5));
	fputc('\n', f);
	for (o = opts; o->type != OPTT_END; o++) {
		char left[96];
		int n = 0;

		if (o->type == OPTT_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		if (o->flags & OPTF_HIDDEN)
			continue;
		if (o->short_name)
			n += snprintf(left + n, sizeof(left) - n, "-%c", o->short_name);
		if (o->long_name)
			n += snprintf(left + n, sizeof(left) - n, "%s--%s",
				      o->short_name ? ", " : "", o->long_name);
		if (o->argh)
			n += snprintf(left + n, sizeof(left) - n,
				      (o->flags & OPTF_OPTARG) ? "[=<%s>]" : " <%s>", o->argh);
		if (n > 26)
			fprintf(f, "    %s\n%30s %s\n", left, "", o->help ? o->help : "");
		else
			fprintf(f, "    %-26s %s\n", left, o->help ? o->help : "");
	}
	fputc('\n', f);
}

void opt_usage_exit(const struct opt *opts, const char *const *usage, int to_stdout, int code)
{
	FILE *f = to_stdout ? stdout : stderr;

	print_usage(f, opts, usage);
	fflush(f);
	exit(code);
}

void opt_usage_error(const struct opt *opts, const char *const *usage, const char *fmt, ...)
{
	va_list ap;

	fputs("  Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	opt_usage_exit(opts, usage, 0, EXIT_STATUS_USAGE);
}

static const char *opt_name(const struct opt *o, char buf[3])
{
	if (o->long_name)
		return o->long_name;
	buf[0] = (char)o->short_name;
	buf[1] = '\0';
	return buf;
}

static int takes_arg(const struct opt *o)
{
	switch (o->type) {
	case OPTT_BOOL:
	case OPTT_COUNT:
		return no_argument;
	case OPTT_CALLBACK:
		if (o->flags & OPTF_NOARG)
			return no_argument;
		break;
	default:
		break;
	}
	return (o->flags & OPTF_OPTARG) ? optional_argument : required_argument;
}

static void apply(const struct opt *o, const char *arg, int unset)
{
	char nb[3], *end;
	const char *name = opt_name(o, nb);
	struct opt_strlist *l;

	switch (o->type) {
	case OPTT_BOOL:
		*(int *)o->value = !unset;
		return;
	case OPTT_COUNT:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return;
	case OPTT_INT: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 0);
		if (errno || end == arg || *end || v < -2147483647L - 1 || v > 2147483647L)
			opt_usage_error(cur_opts, cur_usage,
					"option `%s' expects a whole number, not '%s'", name, arg);
		*(int *)o->value = (int)v;
		return;
	}
	case OPTT_U64: {
		unsigned long long v;

		errno = 0;
		v = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || arg[0] == '-')
			opt_usage_error(cur_opts, cur_usage,
					"option `%s' expects a positive number, not '%s'", name,
					arg);
		*(uint64_t *)o->value = v;
		return;
	}
	case OPTT_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(arg, &end);
		if (errno || end == arg || *end)
			opt_usage_error(cur_opts, cur_usage,
					"option `%s' expects a number, not '%s'", name, arg);
		*(double *)o->value = v;
		return;
	}
	case OPTT_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return;
	case OPTT_STRLIST:
		l = o->value;
		if (unset) {
			l->nr = 0;
			return;
		}
		if (vec_push(l, arg)) {
			fprintf(stderr, "flare: out of memory\n");
			exit(1);
		}
		return;
	case OPTT_CALLBACK:
		if (o->cb(o, arg, unset) < 0)
			opt_usage_exit(cur_opts, cur_usage, 0, EXIT_STATUS_USAGE);
		return;
	default:
		return;
	}
}

static int negatable(const struct opt *o)
{
	return o->long_name && !(o->flags & OPTF_NONEG) &&
	       (o->type == OPTT_BOOL || o->type == OPTT_COUNT ||
		(o->type == OPTT_CALLBACK && (o->flags & OPTF_NOARG)) || o->type == OPTT_STRING ||
		o->type == OPTT_STRLIST);
}

/* CMD --list-opts: every long option on one line, for shell completion (as perf's). */
static void list_opts_exit(const struct opt *opts)
{
	for (; opts->type != OPTT_END; opts++)
		if (opts->type != OPTT_GROUP && opts->long_name && !(opts->flags & OPTF_HIDDEN))
			printf("--%s ", opts->long_name);
	printf("\n");
	exit(fflush(stdout) ? 1 : 0);
}

int opt_parse(int argc, char **argv, const struct opt *opts, const char *const *usage, int flags)
{
	struct option *lo;
	char *sopt, *sp, **rest;
	size_t n = 0, i, nl = 0;
	int c, nrest = 0, ai;

	cur_opts = opts;
	cur_usage = usage;
	if (argc > 1 && !strcmp(argv[1], "--list-opts"))
		list_opts_exit(opts);
	while (opts[n].type != OPTT_END)
		n++;
	lo = calloc(2 * n + 2, sizeof(*lo));
	sp = sopt = calloc(3 * n + 8, 1);
	rest = calloc(argc + 1, sizeof(*rest));
	if (!lo || !sopt || !rest) {
		fprintf(stderr, "flare: out of memory\n");
		exit(1);
	}
	if (flags & OPT_STOP_AT_NON_OPTION)
		*sp++ = '+';
	*sp++ = ':';
	*sp++ = 'h';
	for (i = 0; i < n; i++) {
		const struct opt *o = &opts[i];
		int ha;

		if (o->type == OPTT_GROUP)
			continue;
		ha = takes_arg(o);
		if (o->short_name) {
			*sp++ = (char)o->short_name;
			if (ha != no_argument)
				*sp++ = ':';
			if (ha == optional_argument)
				*sp++ = ':';
		}
		if (o->long_name) {
			lo[nl].name = o->long_name;
			lo[nl].has_arg = ha;
			lo[nl].val = VAL_LONG + 2 * (int)i;
			nl++;
		}
		if (negatable(o)) {
			char *nm = malloc(strlen(o->long_name) + 4);

			if (!nm)
				exit(1);
			sprintf(nm, "no-%s", o->long_name);
			lo[nl].name = nm;
			lo[nl].has_arg = no_argument;
			lo[nl].val = VAL_LONG + 2 * (int)i + 1;
			nl++;
		}
	}
	lo[nl].name = "help";
	lo[nl].val = VAL_HELP;
	nl++;

	optind = 0; /* full reset, so several parses per process work */
	opterr = 0;
	while ((c = getopt_long(argc, argv, sopt, lo, NULL)) != -1) {
		if (c == 'h')
			opt_usage_exit(opts, usage, 1, EXIT_STATUS_USAGE);
		if (c == VAL_HELP)
			opt_usage_exit(opts, usage, 1, 0);
		if (c == '?') {
			if (optopt)
				opt_usage_error(opts, usage, "unknown switch `%c'", optopt);
			opt_usage_error(opts, usage, "unknown option `%s'",
					argv[optind - 1] + (argv[optind - 1][1] == '-' ? 2 : 1));
		}
		if (c == ':') {
			if (optopt && optopt < VAL_LONG)
				opt_usage_error(opts, usage, "switch `%c' requires a value",
						optopt);
			opt_usage_error(opts, usage, "option `%s' requires a value",
					argv[optind - 1] + 2);
		}
		if (c >= VAL_LONG) {
			i = (size_t)(c - VAL_LONG) / 2;
			apply(&opts[i], optarg, (c - VAL_LONG) & 1);
			continue;
		}
		for (i = 0; i < n; i++)
			if (opts[i].short_name == c && opts[i].type != OPTT_GROUP)
				break;
		if (i < n)
			apply(&opts[i], optarg, 0);
	}
	for (ai = optind; ai < argc; ai++)
		rest[nrest++] = argv[ai];
	for (ai = 0; ai < nrest; ai++)
		argv[ai] = rest[ai];
	argv[nrest] = NULL;
	for (i = 0; i < nl; i++)
		if (lo[i].val >= VAL_LONG && ((lo[i].val - VAL_LONG) & 1))
			free((char *)lo[i].name);
	free(lo);
	free(sopt);
	free(rest);
	return nrest;
}

void opt_strlist_free(struct opt_strlist *l)
{
	vec_free(l);
}
