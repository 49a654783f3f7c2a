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

__attribute__((noinline)) void w1(unsigned long n) { BODY(n); }
__attribute__((noinline)) void w2(unsigned long n) { BODY(2 * n); }
__attribute__((noinline)) void w4(unsigned long n) { BODY(4 * n); }

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 30000000ul;
	unsigned long r1 = argc > 4 ? strtoul(argv[2], NULL, 10) : 1;
	unsigned long r2 = argc > 4 ? strtoul(argv[3], NULL, 10) : 1;
	unsigned long r4 = argc > 4 ? strtoul(argv[4], NULL, 10) : 1;

	for (unsigned long i = 0; i < r1; i++)
		w1(n);
	for (unsigned long i = 0; i < r2; i++)
		w2(n);
	for (unsigned long i = 0; i < r4; i++)
		w4(n);
	return 0;
}
