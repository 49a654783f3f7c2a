/* Two threads hand a token back and forth through a pair of pipes, so each
 * round is two context switches (the context-switch circle chart).
 * Usage: pingpong [ROUNDS]    Prints the rounds played. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int ping[2], pong[2];

__attribute__((noinline)) static void *ponger(void *arg)
{
	char c;
	(void)arg;
	while (read(ping[0], &c, 1) == 1 && c != 'q')
		if (write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

__attribute__((noinline)) static long pinger(long rounds)
{
	char c = 'p';
	long done = 0;
	for (; done < rounds; done++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			break;
	return done;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;
	pthread_t t;
	if (rounds < 1) {
		fprintf(stderr, "usage: pingpong [ROUNDS]\n");
		return 2;
	}
	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, ponger, NULL)) {
		perror("pingpong: setup");
		return 1;
	}
	long done = pinger(rounds);
	char q = 'q';
	if (write(ping[1], &q, 1) != 1)
		return 1;
	pthread_join(t, NULL);
	printf("pingpong: %ld rounds between pinger and ponger\n", done);
	return done == rounds ? 0 : 1;
}
