/* Work on several threads (see threads.h). */
#include "threads.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 1024

/* Threads at work beyond one: those vp_run_threads made, until their fn
 * returns, less the callers waiting for them (a thread's fn ends when the
 * queue is empty: what it waits on then is the others' last items). -1
 * when a caller waits for threads that are all done: none at work. */
static int running;

unsigned vp_cpus_available(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) != 0 || (n = CPU_COUNT(&set)) < 1)
		return 1;
	return (unsigned)n;
}

int vp_cpu_spare(void)
{
	return (long)vp_cpus_available() > 1L + __atomic_load_n(&running, __ATOMIC_RELAXED);
}

void *vp_thread_calloc(size_t n, size_t size)
{
	void *p;

	if (!n || size % VP_CACHE_LINE || n > SIZE_MAX / size ||
	    !(p = aligned_alloc(VP_CACHE_LINE, n * size)))
		return NULL;
	return memset(p, 0, n * size);
}

struct start {
	void (*fn)(void *ctx, unsigned i);
	void *ctx;
	unsigned i;
};

static void *thread_main(void *arg)
{
	struct start *s = arg;

	s->fn(s->ctx, s->i);
	__atomic_sub_fetch(&running, 1, __ATOMIC_RELAXED);
	return NULL;
}

unsigned vp_run_threads(unsigned n, void (*fn)(void *ctx, unsigned i), void *ctx)
{
	pthread_t *t = NULL;
	struct start *st = NULL;
	unsigned made = 0, extra;

	if (n > MAX_THREADS)
		n = MAX_THREADS;
	extra = n > 1 ? n - 1 : 0;
	if (extra) {
		t = malloc(extra * sizeof(*t));
		st = malloc(extra * sizeof(*st));
	}
	/* counted before they start: each sees itself running */
	__atomic_add_fetch(&running, (int)extra, __ATOMIC_RELAXED);
	if (t && st)
		for (unsigned i = 0; i < extra; i++) {
			st[made] = (struct start){ fn, ctx, made + 1 };
			if (pthread_create(&t[made], NULL, thread_main, &st[made]) != 0)
				break;
			made++;
		}
	__atomic_sub_fetch(&running, (int)(extra - made), __ATOMIC_RELAXED);
	fn(ctx, 0);
	if (made)
		__atomic_sub_fetch(&running, 1, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	if (made)
		__atomic_add_fetch(&running, 1, __ATOMIC_RELAXED);
	free(t);
	free(st);
	return made + 1;
}

struct queue {
	int (*fn)(void *ctx, unsigned thread, size_t item);
	void *ctx;
	size_t n, next;
	int rc;
};

static void queue_main(void *arg, unsigned thread)
{
	struct queue *q = arg;
	size_t k;
	int r;

	while ((k = __atomic_fetch_add(&q->next, 1, __ATOMIC_RELAXED)) < q->n)
		if ((r = q->fn(q->ctx, thread, k)) < 0)
			__atomic_store_n(&q->rc, r, __ATOMIC_RELAXED);
}

int vp_run_queue(unsigned threads, size_t n, int (*fn)(void *ctx, unsigned thread, size_t item),
		 void *ctx)
{
	struct queue q = { fn, ctx, n, 0, 0 };

	vp_run_threads(threads < n ? threads : (unsigned)(n ? n : 1), queue_main, &q);
	return q.rc;
}
