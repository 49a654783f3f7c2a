/* A perf.data walk on two threads. The reader (the caller's thread) reads
 * and orders records as vp_perfdata_walk does, but hands each ordered record
 * (a pointer into the mapped file) to a worker thread in batches; the worker
 * parses and delivers them to the tool. The mapping stays until the worker
 * has drained (the walk's `finished` hook). */
#include "perfdata.h"
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct item {
	const struct perf_event_header *h;
	uint64_t offset;
};

#define BATCH_ITEMS 4096
#define NBATCH 8	/* enough to absorb jitter at 64 KiB each */

struct batch {
	struct item it[BATCH_ITEMS];
	size_t n;
	uint64_t low;		/* lowest offset among it[] */
};

struct pipeline {
	struct vp_perfdata *pd;
	const struct vp_perf_tool *tool;
	void *ctx;
	struct vp_error *err;		/* the worker's: callbacks write theirs there too */
	pthread_mutex_t mu;
	pthread_cond_t cv_full, cv_free;
	struct batch *full[NBATCH];
	size_t head, count;		/* ring of batches waiting for the worker */
	struct batch *free[NBATCH];
	size_t nfree;
	/* Only the reader touches cur: a line of its own, away from what the
	 * worker writes at every batch. */
	_Alignas(64) struct batch *cur;	/* the one the reader fills */
	_Alignas(64) struct batch *busy;		/* the one the worker delivers */
	int done;			/* reader finished: worker drains and exits */
	int stop;			/* a side failed: both stop */
	int rc;				/* the worker's first error */
	int drained;
	int reader_waits;		/* the reader sleeps until half the batches are free */
	pthread_t worker;
};

/* A spinning CPU's hint to its sibling thread; elsewhere a compiler barrier,
 * so the loop still re-reads what it waits for. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* Wait a little before sleeping: a thread that sleeps at every handover is
 * woken on its waker's CPU, and the two then share one core. Only a few
 * microseconds: once merged repeats made the worker the faster side, a
 * longer spin took the core that the reader and the kallsyms thread need on
 * a two-CPU machine (report of a 295 MB file: 0.32 s -> 0.27 s). */
static void spin_until_nonzero(const size_t *v, const int *done)
{
	for (int i = 0; i < 200; i++) {
		if (__atomic_load_n(v, __ATOMIC_ACQUIRE) || __atomic_load_n(done, __ATOMIC_ACQUIRE))
			return;
		cpu_relax();
	}
}

/* Runs of like samples are joined here, within a batch (its records stay
 * mapped until the batch is freed): the reader is the busier side. */
static int deliver_batch(struct pipeline *p, struct vp_pd_idcache *ids, const struct batch *b)
{
	struct vp_pd_run run = { 0 };
	int rc = 0;

	for (size_t i = 0; i < b->n && rc >= 0; i++)
		rc = vp_pd_deliver(p->pd, p->tool, p->ctx, ids, &run, b->it[i].h, b->it[i].offset,
				   p->err);
	return rc < 0 ? rc : vp_pd_run_end(p->pd, p->tool, p->ctx, ids, &run, p->err);
}

static void *worker_main(void *arg)
{
	struct pipeline *p = arg;
	struct vp_pd_idcache ids = { 0 };

	for (;;) {
		struct batch *b;
		int rc = 0;

		spin_until_nonzero(&p->count, &p->done);
		pthread_mutex_lock(&p->mu);
		while (!p->count && !p->done)
			pthread_cond_wait(&p->cv_full, &p->mu);
		if (!p->count) {
			vp_pd_idcache_fold(p->pd, &ids);	/* the reader is done with pd->stats */
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		b = p->full[p->head];
		p->head = (p->head + 1) % NBATCH;
		__atomic_store_n(&p->count, p->count - 1, __ATOMIC_RELEASE);
		p->busy = b;
		int stopped = p->stop;
		pthread_mutex_unlock(&p->mu);

		if (!stopped)
			rc = deliver_batch(p, &ids, b);
		pthread_mutex_lock(&p->mu);
		b->n = 0;
		b->low = UINT64_MAX;
		p->busy = NULL;
		if (rc < 0 && !p->stop) {
			__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
			p->rc = rc;
		}
		p->free[p->nfree] = b;
		__atomic_store_n(&p->nfree, p->nfree + 1, __ATOMIC_RELEASE);
		if (p->reader_waits && (p->nfree >= NBATCH / 2 || p->stop))
			pthread_cond_signal(&p->cv_free);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Hand the current batch to the worker and take an empty one. */
static int submit(struct pipeline *p)
{
	int rc;

	pthread_mutex_lock(&p->mu);
	p->full[(p->head + p->count) % NBATCH] = p->cur;
	__atomic_store_n(&p->count, p->count + 1, __ATOMIC_RELEASE);
	pthread_cond_signal(&p->cv_full);
	/* The reader is the faster side: when it runs out of batches it sleeps
	 * until the worker has freed half of them, rather than spinning (that
	 * burnt a fifth of the CPU, which compare's second file needs) or waking
	 * at every batch. */
	if (!p->nfree) {
		p->reader_waits = 1;
		while (p->nfree < NBATCH / 2 && !(p->stop && p->nfree))
			pthread_cond_wait(&p->cv_free, &p->mu);
		p->reader_waits = 0;
	}
	p->cur = p->free[p->nfree - 1];
	__atomic_store_n(&p->nfree, p->nfree - 1, __ATOMIC_RELEASE);
	rc = p->stop ? p->rc : 0;
	pthread_mutex_unlock(&p->mu);
	return rc;
}

static int handoff(void *ctx, const struct perf_event_header *h, uint64_t offset)
{
	struct pipeline *p = ctx;
	int rc;

	if (p->cur->n == BATCH_ITEMS && (rc = submit(p)) < 0)
		return rc;
	p->cur->it[p->cur->n++] = (struct item){ h, offset };
	if (offset < p->cur->low)
		p->cur->low = offset;
	return 0;
}

static uint64_t in_use_floor(void *ctx)
{
	struct pipeline *p = ctx;
	uint64_t low = p->cur->low;	/* only this thread writes cur */

	pthread_mutex_lock(&p->mu);
	for (size_t i = 0; i < p->count; i++) {
		const struct batch *b = p->full[(p->head + i) % NBATCH];
		if (b->low < low)
			low = b->low;
	}
	if (p->busy && p->busy->low < low)
		low = p->busy->low;
	pthread_mutex_unlock(&p->mu);
	return low;
}

/* The walk is over: let the worker finish every batch before the mapping goes. */
static int finished(void *ctx, int status)
{
	struct pipeline *p = ctx;

	pthread_mutex_lock(&p->mu);
	if (status < 0)	/* nothing more is worth computing */
		__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	if (p->cur && p->cur->n && !p->stop) {
		p->full[(p->head + p->count) % NBATCH] = p->cur;
		__atomic_store_n(&p->count, p->count + 1, __ATOMIC_RELEASE);
		p->cur = NULL;
	}
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	pthread_cond_signal(&p->cv_full);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->worker, NULL);
	p->drained = 1;
	return p->rc;
}

int vp_perfdata_walk_threaded(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
			      struct vp_error *err)
{
	struct pipeline p = { .pd = pd, .tool = tool, .ctx = ctx, .err = err };
	struct vp_perf_tool reader = { .unordered = tool->unordered, .finished = finished };
	struct vp_error rerr = { 0 };
	struct batch *mem;
	int r;

	if (vp_perfdata_is_pipe(pd) || tool->other || tool->finished ||
	    sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return vp_perfdata_walk(pd, tool, ctx, err);
	mem = calloc(NBATCH, sizeof(*mem));
	if (!mem)
		return vp_errorf(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < NBATCH; i++)
		mem[i].low = UINT64_MAX;
	for (size_t i = 1; i < NBATCH; i++)
		p.free[p.nfree++] = &mem[i];
	p.cur = &mem[0];
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv_full, NULL);
	pthread_cond_init(&p.cv_free, NULL);
	if (pthread_create(&p.worker, NULL, worker_main, &p) != 0) {
		free(mem);
		return vp_perfdata_walk(pd, tool, ctx, err);
	}
	/* The worker writes err (its own and the tool's errors); the reader
	 * keeps its errors apart until the worker is done. */
	struct vp_pd_handoff ho = { handoff, in_use_floor, &p };
	r = vp_pd_walk(pd, &reader, &p, &ho, &rerr);
	if (!p.drained)	/* the walk failed before it could call finished */
		finished(&p, -1);
	if (p.rc < 0)
		r = p.rc;
	else if (r < 0)
		*err = rerr;
	pthread_cond_destroy(&p.cv_full);
	pthread_cond_destroy(&p.cv_free);
	pthread_mutex_destroy(&p.mu);
	free(mem);
	return r < 0 ? r : 0;
}
