/* Work on several threads: how many CPUs this process may use (its
 * affinity, so `taskset -c 0` means one), and one function run on n threads
 * at once, the caller's among them. */
#ifndef VP_THREADS_H
#define VP_THREADS_H

#include <stddef.h>

/* CPUs in this process's affinity mask; at least 1. */
unsigned vp_cpus_available(void);

/* Run fn(ctx, 0) on the calling thread and fn(ctx, i) for i in 1..n-1 on
 * threads of their own; returns when all have. Where a thread cannot be
 * made, fewer run: fn must take its work from a shared queue, so any
 * number of them finish it. Returns how many ran. */
unsigned vp_run_threads(unsigned n, void (*fn)(void *ctx, unsigned i), void *ctx);

/* Items 0 to n-1, each taken in turn from a shared counter by one of
 * `threads` threads (the caller's among them): fn(ctx, thread, item). Any
 * negative return of fn is returned (the other items still run), else 0. */
int vp_run_queue(unsigned threads, size_t n, int (*fn)(void *ctx, unsigned thread, size_t item),
		 void *ctx);

#endif
