/* Work on several threads, or processes (see threads.h). */
#include "threads.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* The results' map: the next item to take, then done flags, then results. */
struct procs_head {
	size_t next;
};

static void procs_loop(struct procs_head *h, struct vp_proc_results *r,
		       void (*fn)(void *ctx, size_t item, void *result), void *ctx)
{
	size_t k;

	while ((k = __atomic_fetch_add(&h->next, 1, __ATOMIC_RELAXED)) < r->n) {
		fn(ctx, k, (char *)r->v + k * r->size);
		__atomic_store_n(&r->done[k], 1, __ATOMIC_RELEASE);
	}
}

int vp_run_procs(unsigned procs, size_t n, size_t size,
		 void (*fn)(void *ctx, size_t item, void *result), void *ctx,
		 struct vp_proc_results *out)
{
	size_t at = (sizeof(struct procs_head) + n + 15) & ~(size_t)15;
	size_t len = at + n * size + 1;
	pid_t *kids = NULL;
	unsigned made = 0;
	void *m;

	*out = (struct vp_proc_results){ 0 };
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -ENOMEM;
	*out = (struct vp_proc_results){ (unsigned char *)m + sizeof(struct procs_head),
					 (char *)m + at, n, size, len };
	if (procs > n)
		procs = (unsigned)n;
	if (procs > 1 && (kids = malloc((procs - 1) * sizeof(*kids)))) {
		fflush(NULL);	/* a child's copy of unwritten output is never written */
		for (; made < procs - 1; made++) {
			if ((kids[made] = fork()) < 0)
				break;	/* fewer processes take the items */
			if (kids[made] == 0) {
				procs_loop(m, out, fn, ctx);
				_exit(0);
			}
		}
	}
	procs_loop(m, out, fn, ctx);
	for (unsigned i = 0; i < made; i++)
		while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
			;
	free(kids);
	return 0;
}

void vp_proc_results_free(struct vp_proc_results *r)
{
	if (r->len)
		munmap(r->done - sizeof(struct procs_head), r->len);
	*r = (struct vp_proc_results){ 0 };
}
