/* Work on several threads: how many CPUs this process may use (its
 * affinity, so `taskset -c 0` means one), one function run on n threads at
 * once, the caller's among them, and items run on several processes. */
#ifndef VP_THREADS_H
#define VP_THREADS_H

#include <stddef.h>

/* What each thread writes goes in its own cache lines: two threads writing
 * one line slow each other down as much as a lock (measured: a third more
 * CPU on 2 threads when the walk's per-thread counters shared lines). Put
 * VP_THREAD_OWN on a per-thread struct's first member and allocate arrays
 * of them with vp_thread_calloc. */
#define VP_CACHE_LINE	64
#define VP_THREAD_OWN	_Alignas(VP_CACHE_LINE)

/* n zeroed elements of size (a multiple of VP_CACHE_LINE) on a line's
 * start; free() frees them. NULL when out of memory. */
void *vp_thread_calloc(size_t n, size_t size);

/* CPUs in this process's affinity mask; at least 1. */
unsigned vp_cpus_available(void);
/* 1 when a CPU of the mask runs none of this process's threads at work:
 * the caller's, and those of vp_run_threads until their fn returns (a
 * caller waiting for its threads is not at work). A helper thread is worth
 * making only then: on a CPU a worker holds, the two take turns. */
int vp_cpu_spare(void);

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

/* Items 0 to n-1 as vp_run_queue takes them, but on `procs` processes at
 * once (the caller's and forked children, which share nothing but the
 * results): for work in libraries that do not promise threads may share
 * their state (cairo's fonts). fn(ctx, item, result) fills item's result
 * (size bytes, zeroed); out->done[item] is 1 once fn returned for it (0:
 * the process that took it died). Call with no other thread running.
 * 0, or -ENOMEM. */
struct vp_proc_results {
	unsigned char *done;
	void *v;		/* n results of size bytes */
	size_t n, size, len;
};
int vp_run_procs(unsigned procs, size_t n, size_t size,
		 void (*fn)(void *ctx, size_t item, void *result), void *ctx,
		 struct vp_proc_results *out);
void vp_proc_results_free(struct vp_proc_results *r);

#endif
