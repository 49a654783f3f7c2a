/* Spends its time in the vDSO: clock_gettime in a loop (for [vdso] symbol tests). */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000000, s = 0;
	struct timespec t;

	for (long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		s += t.tv_nsec;
	}
	return s < 0;
}
