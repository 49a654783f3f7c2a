/* Known weights: w1, w2 and w4 run the same loop 1, 2 and 4 times as long,
 * so their shares of CPU samples should be 1/7, 2/7 and 4/7.
 * Usage: weights [ITERATIONS]  (default 30000000 per unit of weight) */
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

	w1(n);
	w2(n);
	w4(n);
	return 0;
}
