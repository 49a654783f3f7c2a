/* Reads and writes known byte counts through two functions, and lets two
 * threads hand a token back and forth (context switches), for tracepoint
 * and software-event fixtures. Usage: iorw DIR [ROUNDS]
 * The two I/O functions enter the kernel themselves (inline syscall): a
 * syscall tracepoint's sample address is then inside them, so bytes per
 * function need no callchain (with frame-pointer chains the direct caller
 * of libc's read() is not in the chain). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inline_syscall.h"

static int ping[2], pong[2];

__attribute__((noinline)) static long write_blocks(int fd, int n, size_t size)
{
	char buf[8192];
	long total = 0;

	memset(buf, 'v', sizeof(buf));
	for (int i = 0; i < n; i++)
		total += do_write(fd, buf, size);
	return total;
}

__attribute__((noinline)) static long read_blocks(int fd, size_t size)
{
	char buf[8192];
	long total = 0, r;

	while ((r = do_read(fd, buf, size)) > 0)
		total += r;
	return total;
}

static void *ponger(void *arg)
{
	char c;
	(void)arg;
	while (read(ping[0], &c, 1) == 1 && c != 'q')
		if (write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	int rounds = argc > 2 ? atoi(argv[2]) : 200;
	char path[4096];
	pthread_t t;
	char c = 'p';

	snprintf(path, sizeof(path), "%s/iorw.%d", dir, (int)getpid());
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return 1;
	long w = write_blocks(fd, rounds, 4096);
	lseek(fd, 0, SEEK_SET);
	long r = read_blocks(fd, 1000);
	close(fd);
	unlink(path);

	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, ponger, NULL))
		return 1;
	for (int i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
	c = 'q';
	if (write(ping[1], &c, 1) != 1)
		return 1;
	pthread_join(t, NULL);
	printf("write_blocks wrote %ld bytes in %d calls, read_blocks read %ld bytes in %ld calls\n",
	       w, rounds, r, (r + 999) / 1000 + 1);
	return 0;
}
