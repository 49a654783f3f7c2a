/* Call paths with known structure: a function that recurses on itself (rec),
 * two that recurse through each other (ping, pong), and a part spent in
 * the kernel (read from /dev/zero), so inclusive (children) counts have
 * repeated frames and kernel frames to get right.
 * Usage: recurse [ITERATIONS [REC PING KERNEL [EXTRA]]]  (default 20000000;
 * REC, PING, KERNEL: how many times each part runs, default 1; EXTRA 1 or 2
 * runs extra_a or extra_b as well) so two runs differ by known call paths. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

#define NOINLINE __attribute__((noinline))

/* The work: the same loop everywhere, so time is in proportion to n. */
#define SPIN(n)                                                   \
	do {                                                      \
		unsigned long acc_ = 0;                           \
		for (unsigned long i_ = 0; i_ < (n); i_++)        \
			acc_ += (i_ * 2654435761u) ^ (acc_ >> 7); \
		sink += acc_;                                     \
	} while (0)

NOINLINE void spin(unsigned long n)
{
	SPIN(n);
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

/* Two functions one run has and the other has not. Their samples are their
 * own: a frame-pointer walk from a leaf that keeps no frame (spin) loses
 * that leaf's caller, and they must stay on the stack. The call makes them
 * keep a frame. */
NOINLINE void extra_a(unsigned long n)
{
	SPIN(n);
	spin(1);
}

NOINLINE void extra_b(unsigned long n)
{
	SPIN(n);
	spin(1);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000000ul;
	unsigned long r = argc > 4 ? strtoul(argv[2], NULL, 10) : 1;
	unsigned long p = argc > 4 ? strtoul(argv[3], NULL, 10) : 1;
	unsigned long k = argc > 4 ? strtoul(argv[4], NULL, 10) : 1;
	unsigned long extra = argc > 5 ? strtoul(argv[5], NULL, 10) : 0;

	for (unsigned long i = 0; i < r; i++)
		rec(12, n);
	for (unsigned long i = 0; i < p; i++)
		ping(7, 2 * n);
	for (unsigned long i = 0; i < k; i++)
		in_kernel(n / 400);
	if (extra == 1)
		extra_a(n);
	if (extra == 2)
		extra_b(n);
	return 0;
}
