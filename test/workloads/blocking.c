/* Known blocking, per round: sleep_short sleeps 20 ms, sleep_long 60 ms,
 * pipe_wait waits 40 ms on a pipe (a helper thread answers 40 ms after it
 * is asked), and compute spins on the CPU without blocking (about 20 ms of
 * CPU). Each blocking function enters the kernel itself (inline syscall),
 * so its own frame is the first of the program's in the callchain: with
 * frame-pointer chains the direct caller of a libc wrapper (built without
 * frame pointers) is not in the chain.
 * Each blocking call is timed on the workload's own clock (own_clock.h), as
 * a busy host stretches sleeps past what was asked.
 * Usage: blocking [ROUNDS]   prints "blocking: ROUNDS rounds" and, per
 * blocking function, "blocking-time: FUNCTION NS ns" (all rounds). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static int ask[2], answer[2];

#include "../../examples/workloads/inline_syscall.h"
#include "../../examples/workloads/own_clock.h"

/* Time one call into *total. */
#define TIMED(total, call) \
	do { long long t0_ = own_clock_ns(); call; *(total) += own_clock_ns() - t0_; } while (0)

static void pause_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	while (sys3(SYS_nanosleep, (long)&t, (long)&t, 0) != 0)
		;	/* interrupted: the rest */
}

__attribute__((noinline)) static void sleep_short(void)
{
	pause_ms(20);
}

__attribute__((noinline)) static void sleep_long(void)
{
	pause_ms(60);
}

__attribute__((noinline)) static void pipe_wait(void)
{
	char c = 'q';
	if (sys3(SYS_write, ask[1], (long)&c, 1) != 1 || sys3(SYS_read, answer[0], (long)&c, 1) != 1) {
		perror("blocking: pipe");
		exit(1);
	}
}

__attribute__((noinline)) static double compute(void)
{
	volatile double x = 0;
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += i * 0.5;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 20000000L);
	return x;
}

/* The helper: each request answered 40 ms later. */
static void *answerer(void *arg)
{
	char c;
	(void)arg;
	while (read(ask[0], &c, 1) == 1) {
		struct timespec t = { 0, 40000000L };
		nanosleep(&t, NULL);
		if (write(answer[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	pthread_t t;
	long long t_short = 0, t_long = 0, t_pipe = 0;

	if (rounds < 1) {
		fprintf(stderr, "usage: blocking [ROUNDS]\n");
		return 2;
	}
	if (pipe(ask) || pipe(answer) || pthread_create(&t, NULL, answerer, NULL)) {
		perror("blocking: setup");
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		TIMED(&t_short, sleep_short());
		TIMED(&t_long, sleep_long());
		TIMED(&t_pipe, pipe_wait());
		compute();
	}
	close(ask[1]);
	pthread_join(t, NULL);
	printf("blocking: %d rounds\n", rounds);
	printf("blocking-time: sleep_short %lld ns\nblocking-time: sleep_long %lld ns\n"
	       "blocking-time: pipe_wait %lld ns\n", t_short, t_long, t_pipe);
	return 0;
}
