// SPDX-License-Identifier: GPL-2.0
/*
 * fd_paths PATH [SECS]: file descriptors with known paths for flare trace's fd tests, each
 * call made through syscall() so libc adds nothing: openat(PATH) (fd 3 in a fresh process),
 * read 4 bytes, lseek to 0, dup2 to fd 9, read 4 bytes from fd 9, then SECS (default 1)
 * seconds asleep with both open, so that a tracer reading /proc as it prints sees them, a
 * read of 2 bytes from each, and both closed.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec ts = { .tv_sec = argc > 2 ? atol(argv[2]) : 1 };
	char buf[8];
	long fd;

	if (argc < 2)
		return 2;
	fd = syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY);
	if (fd < 0)
		return 1;
	syscall(SYS_read, fd, buf, 4);
	syscall(SYS_lseek, fd, 0, SEEK_SET);
	syscall(SYS_dup2, fd, 9);
	syscall(SYS_read, 9, buf, 4);
	nanosleep(&ts, NULL);
	syscall(SYS_read, fd, buf, 2);
	syscall(SYS_read, 9, buf, 2);
	syscall(SYS_close, 9);
	syscall(SYS_close, fd);
	return 0;
}
