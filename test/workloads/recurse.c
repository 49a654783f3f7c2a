/* Call paths with known structure: a function that recurses on itself (rec),
 * two that recurse through each other (ping, pong), and a part spent in
 * the kernel (read from /dev/zero), so inclusive (children) counts have
 * repeated frames and kernel frames to get right.
 * Usage: recurse [ITERATIONS]  (default 20000000) */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

#define NOINLINE __attribute__((noinline))

NOINLINE void spin(unsigned long n)
{
	unsigned long acc = 0;
	for (unsigned long i = 0; i < n; i++)
		acc += (i * 2654435761u) ^ (acc >> 7);
	sink += acc;
}

/* sink++ after the call keeps each level a real frame (no tail call) */
NOINLINE void rec(unsigned depth, unsigned long n)
{
	if (depth == 0)
		spin(n);
	else
		rec(depth - 1, n);
	sink++;
}

NOINLINE void pong(unsigned depth, unsigned long n);
NOINLINE void ping(unsigned depth, unsigned long n)
{
	if (depth == 0)
		spin(n);
	else
		pong(depth - 1, n);
	sink++;
}
NOINLINE void pong(unsigned depth, unsigned long n)
{
	if (depth == 0)
		spin(n);
	else
		ping(depth - 1, n);
	sink++;
}

NOINLINE void in_kernel(unsigned long n)
{
	static char buf[1 << 16];
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		exit(1);
	for (unsigned long i = 0; i < n; i++)
		if (read(fd, buf, sizeof(buf)) < 0)
			exit(1);
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000000ul;

	rec(12, n);
	ping(7, 2 * n);
	in_kernel(n / 400);
	return 0;
}
