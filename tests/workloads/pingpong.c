// SPDX-License-Identifier: GPL-2.0
/* pingpong N: a parent and a child pass one byte back and forth over two pipes N times, so
 * that each round trip is two wakeups and at least two context switches (a sched workload). */
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i;
	int ab[2], ba[2];
	char c = 0;
	pid_t pid;

	if (pipe(ab) || pipe(ba))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		for (i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 1;
	waitpid(pid, NULL, 0);
	return 0;
}
