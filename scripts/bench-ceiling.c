/* make bench's ceiling for the cores goal: a job that divides perfectly,
 * shaped like vmprof's count (fixed chunks of work taken from one queue
 * by a thread per CPU it is given), with no memory traffic and no serial
 * part. What it gains from more CPUs in the same minutes is what this
 * machine gives at best: a virtual machine's CPUs need not run at the same
 * speed, nor each at full speed while the other runs.
 * Usage: bench-ceiling [CHUNKS [ITERATIONS]]  (default 256 chunks of 600000) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

static unsigned long chunks, iters, next;
static volatile unsigned long sink;

static void *worker(void *arg)
{
	unsigned long acc = 0;

	(void)arg;
	while (__atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) < chunks)
		for (unsigned long i = 0; i < iters; i++)
			acc += (i * 2654435761u) ^ (acc >> 7);
	sink += acc;
	return NULL;
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	pthread_t t[256];
	int n = 1, made = 0;

	chunks = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
	iters = argc > 2 ? strtoul(argv[2], NULL, 10) : 600000;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		n = CPU_COUNT(&set) < 256 ? CPU_COUNT(&set) : 256;
	for (int i = 1; i < n; i++)
		if (pthread_create(&t[made], NULL, worker, NULL) == 0)
			made++;
	worker(NULL);
	for (int i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	return 0;
}
