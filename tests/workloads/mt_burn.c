// SPDX-License-Identifier: GPL-2.0
/* mt_burn [SECONDS]: two named threads (worker_a, worker_b) burning CPU in their own functions. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static double secs = 1.0;
static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* not leaves (gcc 12 drops leaf frames): they end by calling store() */
__attribute__((noinline)) void store(unsigned long x)
{
	sink = x;
}

__attribute__((noinline)) void work_a(void)
{
	unsigned long i, x = sink;

	for (i = 0; i < 100000; i++)
		x = x * 6364136223846793005UL + 1;
	store(x);
}

__attribute__((noinline)) void work_b(void)
{
	unsigned long i, x = sink;

	for (i = 0; i < 100000; i++)
		x = x * 2862933555777941757UL + 3;
	store(x);
}

static void *worker(void *arg)
{
	void (*fn)(void) = arg;
	double end = now() + secs;

	pthread_setname_np(pthread_self(), fn == work_a ? "worker_a" : "worker_b");
	while (now() < end)
		fn();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;

	if (argc > 1)
		secs = atof(argv[1]);
	pthread_create(&t1, NULL, worker, (void *)work_a);
	pthread_create(&t2, NULL, worker, (void *)work_b);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
