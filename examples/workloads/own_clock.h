/* The workloads' own clock, CLOCK_MONOTONIC through the vDSO: it makes no
 * system call of its own, so timing a call does not change what a recording
 * of it sees, and a test judges vmprof's times against the same calls in the
 * same run. */
#ifndef OWN_CLOCK_H
#define OWN_CLOCK_H

#include <time.h>

static inline long long own_clock_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

#endif
