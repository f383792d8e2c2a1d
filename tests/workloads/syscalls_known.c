// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls_known N M [PATH]: a known set of syscalls for flare trace's tests, each made
 * through syscall() so libc adds nothing: N openat(AT_FDCWD, PATH, O_RDONLY|O_CLOEXEC) (PATH
 * defaults to /dev/null) each closed, M getppid, one openat of a missing file (ENOENT), one
 * write to fd 1 of a known buffer with escapes, and a child (fork) that calls getppid 3 times
 * and exits; the parent waits for it.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char known[] = "hello\tflare\n\001end";

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5, m = argc > 2 ? atol(argv[2]) : 10, i;
	const char *path = argc > 3 ? argv[3] : "/dev/null";
	int status;
	pid_t child;

	for (i = 0; i < n; i++) {
		long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0)
			syscall(SYS_close, fd);
	}
	for (i = 0; i < m; i++)
		syscall(SYS_getppid);
	syscall(SYS_openat, AT_FDCWD, "/nonexistent/flare-trace-known", O_RDONLY);
	syscall(SYS_write, 1, known, sizeof(known) - 1);
	child = fork();
	if (child == 0) {
		for (i = 0; i < 3; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	if (child > 0)
		waitpid(child, &status, 0);
	return 0;
}
