// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/event/workload.h"

static void child(int go, int err, char *const argv[])
{
	char c;
	int e;

	/* wait for the parent: EOF (parent died) means do not run */
	if (read(go, &c, 1) != 1)
		_exit(127);
	close(go);
	execvp(argv[0], argv);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int workload_prepare(struct workload *w, char *const argv[])
{
	int go[2], err[2];
	pid_t pid;
	int e;

	memset(w, 0, sizeof(*w));
	w->go_fd = w->err_fd = -1;
	w->status = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		e = -errno;
		goto out_go;
	}
	pid = fork();
	if (pid < 0) {
		e = -errno;
		goto out_err;
	}
	if (pid == 0) {
		sigset_t set;

		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		sigaddset(&set, SIGCHLD);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		child(go[0], err[1], argv);
	}
	close(go[0]);
	close(err[1]);
	w->pid = pid;
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
out_err:
	close(err[0]);
	close(err[1]);
out_go:
	close(go[0]);
	close(go[1]);
	return e;
}

static int shell_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

/* One byte to the child; EPIPE (the child is gone) without a SIGPIPE for flare. */
static int write_go(int fd)
{
	static const struct timespec zero = { 0, 0 };
	sigset_t pipe_set, old;
	int err = 0;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	if (write(fd, "x", 1) != 1) {
		err = -errno;
		/* consume the SIGPIPE unless one was pending before */
		if (err == -EPIPE && !sigismember(&old, SIGPIPE))
			sigtimedwait(&pipe_set, NULL, &zero);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

int workload_start(struct workload *w)
{
	ssize_t n;
	int e = 0, st;

	w->started = true;
	e = write_go(w->go_fd);
	if (e == -EPIPE && waitpid(w->pid, &st, 0) == w->pid) {
		w->pid = 0;
		w->status = shell_status(st);
		return -ECANCELED;
	}
	if (e)
		return e;
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		waitpid(w->pid, NULL, 0);
		w->pid = 0;
		return -(e ? e : ENOEXEC);
	}
	return 0;
}

int workload_wait(struct workload *w, volatile int *stop)
{
	int st;
	pid_t r;

	if (w->pid <= 0 && w->status >= 0)
		return w->status;
	for (;;) {
		r = wait4(w->pid, &st, 0, &w->ru);
		if (r == w->pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (stop && *stop)
			return -EINTR;
	}
	w->pid = 0;
	w->status = shell_status(st);
	return w->status;
}

void workload_release(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (w->pid > 0) {
		kill(w->pid, SIGTERM);
		waitpid(w->pid, NULL, 0);
	}
	w->pid = 0;
}
