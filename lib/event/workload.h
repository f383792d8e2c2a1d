/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload: the command flare runs and measures. workload_prepare() forks a child that waits
 * on a pipe before exec'ing argv, so counters can be opened on its pid first (with
 * enable_on_exec, counting starts at the exec and nothing flare does before is counted).
 * workload_start() releases it and learns whether the exec worked: the child reports a
 * failed exec's errno through a close-on-exec pipe. workload_wait() reaps it.
 *
 * The child starts with SIGINT, SIGTERM and SIGCHLD at their defaults and unblocked, whatever
 * flare did with them (live.h blocks them), so a Ctrl-C reaches the command as it would
 * without flare. A child killed before it could exec (a Ctrl-C to the process group in the
 * first milliseconds) is not an error of the command: workload_start() says -ECANCELED and
 * keeps its status for workload_wait(); no SIGPIPE is raised in flare.
 */
#ifndef FLARE_EVENT_WORKLOAD_H
#define FLARE_EVENT_WORKLOAD_H
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

struct workload {
	pid_t pid;	  /* 0 when none */
	int go_fd;	  /* parent writes one byte here to let the child exec */
	int err_fd;	  /* child writes its exec errno here; EOF means the exec succeeded */
	struct rusage ru; /* the child's usage, filled by workload_wait() */
	bool started;	  /* workload_start() was called */
	int status;	  /* the status of a child reaped early, else -1 */
};

#define WORKLOAD_INIT                                                                              \
	{                                                                                          \
		.pid = 0, .go_fd = -1, .err_fd = -1, .started = false, .status = -1                \
	}

/* Forks the child, stopped before exec. argv[0] is looked up in PATH. 0 or -errno. */
int workload_prepare(struct workload *w, char *const argv[]);

/* Lets the child exec. 0 once it runs argv[0]; the exec's -errno when it failed (the child
 * has then exited with 127 and been reaped); -ECANCELED when the child was killed by a
 * signal before it could exec (reaped, its status kept for workload_wait()). */
int workload_start(struct workload *w);

/* Waits for the child (retrying on EINTR unless *stop becomes non-zero, when stop is given)
 * and returns its exit status as a shell reports it: the exit code, or 128 + signal (also
 * for a child reaped early by workload_start()).
 * -EINTR when *stop was set first (the child is still running), -errno on other errors. */
int workload_wait(struct workload *w, volatile int *stop);

/* Kills (SIGTERM) and reaps a child that is still there; closes the pipes. Accepts a
 * workload never prepared if it was set to WORKLOAD_INIT. */
void workload_release(struct workload *w);

#endif
