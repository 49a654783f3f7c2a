/* make bench's ceilings for the cores goal: jobs that divide perfectly,
 * shaped like vmprof's count (fixed chunks of work taken from one queue
 * by a thread per CPU it is given), with no serial part. What they gain
 * from more CPUs in the same minutes is what this machine gives at best: a
 * virtual machine's CPUs need not run at the same speed, nor each at full
 * speed while the other runs.
 * - compute (the default): no memory traffic at all;
 * - --read FILE: a file read the way vmprof reads one, and nothing else:
 *   each 2 MiB chunk read with pread into a buffer of the thread's own,
 *   reused, 256 KiB at a time (lib/perfdata/scan.c's VIEW_STEP), and every
 *   cache line of each step read before the next. What more CPUs give here
 *   is the page cache's (and the hypervisor's), not vmprof's: on the
 *   machine of 2026-12-02 one pass over a 291 MB file gained 1.04x from 2
 *   CPUs (read then in one 2 MiB pread a chunk).
 * Usage: bench-ceiling [CHUNKS [ITERATIONS]]  (default 256 chunks of 600000)
 *        bench-ceiling --read FILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#define READ_CHUNK (2ul << 20)
#define READ_STEP (256ul << 10)

static unsigned long chunks, iters, next;
static int fd = -1;
static size_t file_len;
static volatile unsigned long sink;

static unsigned long compute(unsigned long k, unsigned long acc)
{
	(void)k;
	for (unsigned long i = 0; i < iters; i++)
		acc += (i * 2654435761u) ^ (acc >> 7);
	return acc;
}

static unsigned long read_chunk(unsigned long k, unsigned long acc)
{
	static __thread unsigned char *buf;
	size_t off = k * READ_CHUNK, len = file_len - off < READ_CHUNK ? file_len - off : READ_CHUNK;

	if (!buf && !(buf = malloc(READ_CHUNK)))
		abort();
	for (size_t at = 0; at < len; at += READ_STEP) {
		size_t n = len - at < READ_STEP ? len - at : READ_STEP;
		if (pread(fd, buf + at, n, (off_t)(off + at)) != (ssize_t)n)
			abort();
		for (size_t i = at; i < at + n; i += 64)
			acc += buf[i];
	}
	return acc;
}

static unsigned long (*work)(unsigned long k, unsigned long acc) = compute;

static void *worker(void *arg)
{
	unsigned long acc = 0, k;

	(void)arg;
	while ((k = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED)) < chunks)
		acc = work(k, acc);
	sink += acc;
	return NULL;
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	pthread_t t[256];
	int n = 1, made = 0;

	if (argc > 2 && !strcmp(argv[1], "--read")) {
		struct stat st;

		fd = open(argv[2], O_RDONLY);
		if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0) {
			perror(argv[2]);
			return 1;
		}
		file_len = st.st_size;
		chunks = (file_len + READ_CHUNK - 1) / READ_CHUNK;
		work = read_chunk;
	} else {
		chunks = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
		iters = argc > 2 ? strtoul(argv[2], NULL, 10) : 600000;
	}
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
