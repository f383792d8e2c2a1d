/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exit-status: the statuses flare's commands exit with, named once. Where perf's users rely
 * on perf's, flare's are perf's: perf returns a negative errno from a command, which the
 * shell sees modulo 256.
 */
#ifndef FLARE_CLI_EXIT_STATUS_H
#define FLARE_CLI_EXIT_STATUS_H

enum exit_status {
	EXIT_STATUS_OK = 0,
	EXIT_STATUS_FAIL = 1,	    /* anything else that went wrong */
	EXIT_STATUS_USAGE = 129,    /* a usage error, or -h (perf's and git's) */
	EXIT_STATUS_EINVAL = 234,   /* perf's -EINVAL: a value it cannot use, a corrupt file */
	EXIT_STATUS_ENODEV = 237,   /* perf's -ENODEV: no such device (record's -C) */
	EXIT_STATUS_ENOMEM = 244,   /* perf's -ENOMEM: what record returns for any bad -p */
	EXIT_STATUS_PERF_ERR = 255, /* perf's -1: a file it cannot read, a missing program */
};

#endif
