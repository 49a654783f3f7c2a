/* Known weights: w1, w2 and w4 run the same loop 1, 2 and 4 times as long,
 * so their shares of CPU samples should be 1/7, 2/7 and 4/7.
 * Usage: weights [ITERATIONS [R1 R2 R4]]  (default 30000000 per unit of
 * weight; R1, R2, R4: how many times each function runs, default 1) so two
 * runs can differ by known factors. */
#include <stdlib.h>

static volatile unsigned long sink;

/* The same body in each function: samples land in the function itself. */
#define BODY(n)                                                   \
	do {                                                      \
		unsigned long acc = 0;                            \
		for (unsigned long i = 0; i < (n); i++)           \
			acc += (i * 2654435761u) ^ (acc >> 7);    \
		sink += acc;                                      \
	} while (0)

/* The same alignment for each loop: otherwise one of them may straddle a
 * fetch boundary and run a third slower, and the weights would be off. */
#if defined(__GNUC__) && !defined(__clang__)
#define SAME_SPEED __attribute__((noinline, aligned(64), optimize("align-loops=64")))
#else
#define SAME_SPEED __attribute__((noinline, aligned(64)))
#endif

SAME_SPEED void w1(unsigned long n) { BODY(n); }
SAME_SPEED void w2(unsigned long n) { BODY(2 * n); }
SAME_SPEED void w4(unsigned long n) { BODY(4 * n); }

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 30000000ul;
	unsigned long r1 = argc > 4 ? strtoul(argv[2], NULL, 10) : 1;
	unsigned long r2 = argc > 4 ? strtoul(argv[3], NULL, 10) : 1;
	unsigned long r4 = argc > 4 ? strtoul(argv[4], NULL, 10) : 1;

	/* Interleaved rounds, so a slow moment of the machine (a busy host,
	 * steal time) falls on all three functions alike. */
	for (unsigned long i = 0; i < r1 || i < r2 || i < r4; i++) {
		if (i < r1)
			w1(n);
		if (i < r2)
			w2(n);
		if (i < r4)
			w4(n);
	}
	return 0;
}
