/* Two threads handing a token back and forth through pipes: every hand-over
 * is a context switch (the seed's context-switch circle chart).
 * Usage: pingpong [ROUNDS]  (default 20000) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int to_pong[2], to_ping[2];
static long rounds;

__attribute__((noinline)) static void *pong_thread(void *arg)
{
	char c;
	(void)arg;
	for (long i = 0; i < rounds; i++)
		if (read(to_pong[0], &c, 1) != 1 || write(to_ping[1], &c, 1) != 1)
			break;
	return NULL;
}

__attribute__((noinline)) static long ping(void)
{
	char c = 'x';
	long done = 0;
	for (long i = 0; i < rounds; i++) {
		if (write(to_pong[1], &c, 1) != 1 || read(to_ping[0], &c, 1) != 1)
			break;
		done++;
	}
	return done;
}

int main(int argc, char **argv)
{
	pthread_t t;
	rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
	if (pipe(to_pong) || pipe(to_ping) || pthread_create(&t, NULL, pong_thread, NULL)) {
		perror("pingpong");
		return 1;
	}
	long done = ping();
	pthread_join(t, NULL);
	printf("pingpong: %ld round trips\n", done);
	return 0;
}
