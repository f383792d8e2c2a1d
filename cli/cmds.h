/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmds: the subcommands. Each cli/cmd-<name>.c defines int cmd_<name>(int argc, char **argv)
 * with argv[0] the subcommand's name; it returns the process exit status.
 */
#ifndef FLARE_CLI_CMDS_H
#define FLARE_CLI_CMDS_H

int cmd_list(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_sched(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_ftrace(int argc, char **argv);
int cmd_evlist(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_data(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);
int cmd_buildid_cache(int argc, char **argv);
int cmd_kallsyms(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
