// SPDX-License-Identifier: GPL-2.0
/*
 * flare's entry point: the command table, global options, and the final stdout check.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "cli/exit-status.h"
#include "cli/out.h"
#include "lib/base/editdist.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct cmd commands[] = {
	{ "flamegraph", cmd_flamegraph, "Draw a flame graph (SVG or HTML) from perf.data or stacks" },
	{ "list", cmd_list, "List all symbolic event types" },
	{ "record", cmd_record, "Run a command and record its profile into perf.data" },
	{ "report", cmd_report, "Read perf.data (created by flare or perf record) and display the profile" },
	{ "script", cmd_script, "Read perf.data and display trace output" },
	{ "stat", cmd_stat, "Run a command and gather performance counter statistics" },
};

#define NR_CMDS (sizeof(commands) / sizeof(commands[0]))

static void print_main_usage(FILE *f)
{
	size_t i;

	fprintf(f, "\n usage: flare [--version] [--help] [--no-pager] COMMAND [ARGS]\n\n");
	fprintf(f, " The flare commands are:\n");
	for (i = 0; i < NR_CMDS; i++)
		fprintf(f, "   %-11s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n See 'flare help COMMAND' for more information on a specific command.\n\n");
}

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NR_CMDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	size_t i, best = (size_t)-1, d;
	char list[256] = "";

	for (i = 0; i < NR_CMDS; i++) {
		d = edit_distance(name, commands[i].name);
		if (!strncmp(commands[i].name, name, strlen(name)) && *name)
			d = 1;
		if (d < best)
			best = d;
	}
	for (i = 0; i < NR_CMDS && best <= 3; i++) {
		d = edit_distance(name, commands[i].name);
		if (!strncmp(commands[i].name, name, strlen(name)) && *name)
			d = 1;
		if (d == best) {
			if (*list)
				strncat(list, "', '", sizeof(list) - strlen(list) - 1);
			strncat(list, commands[i].name, sizeof(list) - strlen(list) - 1);
		}
	}
	if (*list)
		pr_err("'%s' is not a flare command; did you mean '%s'? (see 'flare --help')", name,
		       list);
	else
		pr_err("'%s' is not a flare command (see 'flare --help' for the list)", name);
	return 1;
}

static int finish(int status)
{
	/* a report sent to a full disk must fail loudly, as git's run_builtin does */
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE) {
			pr_err("write error on standard output: %s", strerror(errno));
			return status ? status : 1;
		}
	}
	return status;
}

/* "flare help CMD", "flare --help CMD": CMD's usage; the list of commands without one. */
static int help(const char *name)
{
	const struct cmd *c;
	char *hargv[3];

	if (!name || !strcmp(name, "help")) {
		print_main_usage(stdout);
		return finish(0);
	}
	c = find_cmd(name);
	if (!c)
		return unknown_command(name);
	hargv[0] = (char *)name;
	hargv[1] = (char *)"--help";
	hargv[2] = NULL;
	return finish(c->fn(2, hargv));
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	out_init_log();
	/* perf's option before the command that scripts use: --no-pager */
	while (argc > 1 && !strcmp(argv[1], "--no-pager")) {
		out_pager_disable();
		argc--;
		argv++;
	}
	if (argc < 2) {
		print_main_usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v") ||
	    !strcmp(argv[1], "version")) {
		printf("flare version %s (%s)\n", FLARE_VERSION, FLARE_GITREV);
		return finish(0);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
		return help(argc > 2 ? argv[2] : NULL);
	if (argv[1][0] == '-') {
		fprintf(stderr, "  Error: unknown option `%s'\n", argv[1]);
		print_main_usage(stderr);
		return EXIT_STATUS_USAGE;
	}
	c = find_cmd(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	return finish(c->fn(argc - 1, argv + 1));
}
