// SPDX-License-Identifier: GPL-2.0
/*
 * flare's entry point: the command table, global options, and the final stdout check.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
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
	{ "annotate", cmd_annotate,
	  "Read perf.data (created by flare or perf record) and display annotated code" },
	{ "buildid-cache", cmd_buildid_cache, "Manage build-id cache." },
	{ "buildid-list", cmd_buildid_list, "List the buildids in a perf.data file" },
	{ "config", cmd_config, "Get and set variables in a configuration file." },
	{ "data", cmd_data, "Data file related processing" },
	{ "diff", cmd_diff, "Read perf.data files and display the differential profile" },
	{ "evlist", cmd_evlist, "List the event names in a perf.data file" },
	{ "flamegraph", cmd_flamegraph,
	  "Draw a flame graph (SVG or HTML) from perf.data or stacks" },
	{ "ftrace", cmd_ftrace, "Trace functions and events through tracefs, leaving it as found" },
	{ "kallsyms", cmd_kallsyms, "Searches running kernel for symbols" },
	{ "list", cmd_list, "List all symbolic event types" },
	{ "probe", cmd_probe, "Define new dynamic tracepoints" },
	{ "record", cmd_record, "Run a command and record its profile into perf.data" },
	{ "report", cmd_report,
	  "Read perf.data (created by flare or perf record) and display the profile" },
	{ "sched", cmd_sched, "Tool to trace/measure scheduler properties (latencies)" },
	{ "script", cmd_script, "Read perf.data and display trace output" },
	{ "stat", cmd_stat, "Run a command and gather performance counter statistics" },
	{ "top", cmd_top, "System profiling tool." },
	{ "trace", cmd_trace, "strace inspired tool" },
	{ "version", cmd_version, "display the version of flare binary" },
};

#define NR_CMDS (sizeof(commands) / sizeof(commands[0]))

static void print_main_usage(FILE *f)
{
	size_t i;

	fprintf(f, "\n usage: flare [--version] [--help] [OPTIONS] COMMAND [ARGS]\n\n");
	fprintf(f, " The most commonly used flare commands are:\n");
	for (i = 0; i < NR_CMDS; i++)
		fprintf(f, "   %-15s %s\n", commands[i].name, commands[i].help);
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

/*
 * The man page of CMD, as perf help shows perf's: the page beside this binary (build/flare
 * reads doc/flare-CMD.1, PREFIX/bin/flare reads PREFIX/share/man/man1/flare-CMD.1), else man's
 * own search. 0 when man showed it; non-zero when there is no man or no page.
 */
static int show_man_page(const char *name)
{
	char exe[4096], path[8192], page[128];
	const char *dirs[] = { "../doc", "../share/man/man1" };
	const char *found = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int status;
	size_t i;
	pid_t pid;

	snprintf(page, sizeof(page), "flare-%s", name);
	if (n > 0) {
		exe[n] = 0;
		*strrchr(exe, '/') = 0;
		for (i = 0; i < 2 && !found; i++) {
			snprintf(path, sizeof(path), "%s/%s/%s.1", exe, dirs[i], page);
			if (!access(path, R_OK))
				found = path;
		}
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (found)
			execlp("man", "man", "-l", found, (char *)NULL);
		else
			execlp("man", "man", page, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* "flare help CMD", "flare --help CMD": CMD's man page, or its usage when man cannot show
 * one; the list of commands without CMD. */
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
	if (!show_man_page(name))
		return 0;
	hargv[0] = (char *)name;
	hargv[1] = (char *)"--help";
	hargv[2] = NULL;
	return finish(c->fn(2, hargv));
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	out_set_progname(argv[0]);
	out_init_log();
	/* perf's option before the command that scripts use: --no-pager */
	while (argc > 1 && !strcmp(argv[1], "--no-pager")) {
		out_pager_disable();
		argc--;
		argv++;
	}
	if (argc < 2) {
		/* as perf: the usage and the commands on stdout, status 1 */
		print_main_usage(stdout);
		return finish(1);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v")) {
		printf("flare version %s (%s)\n", FLARE_VERSION, FLARE_GITREV);
		return finish(0);
	}
	if (!strcmp(argv[1], "--list-cmds")) {
		/* for shell completion, as perf --list-cmds */
		for (size_t i = 0; i < NR_CMDS; i++)
			printf("%s\n", commands[i].name);
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
