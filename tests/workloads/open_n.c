// SPDX-License-Identifier: GPL-2.0
/* open_n N: opens /dev/null N times with openat(2) and closes it again. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100, i;

	for (i = 0; i < n; i++) {
		int fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY);

		if (fd >= 0)
			close(fd);
	}
	return 0;
}
