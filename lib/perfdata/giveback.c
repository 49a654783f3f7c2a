/* Giving back the readers' pages of the mapped file in one batch
 * (pieces.h): each give-back in a process whose threads run on other CPUs
 * is a TLB shootdown, an interrupt to each of them, dear in a virtual
 * machine. */
#include "pieces.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int vp_pd_giveback_pidfd(void)
{
#if defined(SYS_pidfd_open) && defined(SYS_process_madvise)
	return (int)syscall(SYS_pidfd_open, getpid(), 0);	/* close-on-exec */
#else
	return -1;
#endif
}

size_t vp_pd_giveback_batch(unsigned readers)
{
	size_t r = readers ? readers : 1;

	return r > VP_PD_GIVE_BUDGET / VP_PD_GIVE_BATCH ? VP_PD_GIVE_BUDGET : r * VP_PD_GIVE_BATCH;
}

int vp_pd_giveback_init(struct vp_pd_giveback *g, int pidfd, size_t batch)
{
	g->pidfd = pidfd;
	g->batch = batch;
	g->n = 0;
	g->bytes = 0;
	return -pthread_mutex_init(&g->mu, NULL);
}

/* What a batch held, taken out of it under its lock and given back
 * outside: a reader adding to the batch meanwhile does not wait. */
struct taken {
	int pidfd;
	unsigned n;
	size_t bytes;
	struct iovec v[VP_PD_GIVE_RANGES];
};

static void take(struct vp_pd_giveback *g, struct taken *t)
{
	t->pidfd = g->pidfd;
	t->n = g->n;
	t->bytes = g->bytes;
	memcpy(t->v, g->v, g->n * sizeof(*g->v));
	g->n = 0;
	g->bytes = 0;
}

static void give(struct vp_pd_giveback *g, const struct taken *t)
{
	long done = -1;

	if (!t->n)
		return;
#if defined(SYS_process_madvise)
	if (t->pidfd >= 0)
		done = syscall(SYS_process_madvise, t->pidfd, t->v, t->n, MADV_DONTNEED, 0u);
#endif
	if (done == (long)t->bytes)
		return;
	/* Refused, or stopped part way: madvise does it range by range
	 * (giving back what is already given back is harmless). */
	if (done < 0 && t->pidfd >= 0) {
		pthread_mutex_lock(&g->mu);
		g->pidfd = -1;
		pthread_mutex_unlock(&g->mu);
	}
	for (unsigned i = 0; i < t->n; i++)
		madvise(t->v[i].iov_base, t->v[i].iov_len, MADV_DONTNEED);
}

void vp_pd_giveback_flush(struct vp_pd_giveback *g)
{
	struct taken t;

	pthread_mutex_lock(&g->mu);
	take(g, &t);
	pthread_mutex_unlock(&g->mu);
	give(g, &t);
}

void vp_pd_giveback_destroy(struct vp_pd_giveback *g)
{
	vp_pd_giveback_flush(g);
	pthread_mutex_destroy(&g->mu);
}

void vp_pd_giveback(struct vp_pd_giveback *g, const void *at, size_t len)
{
	struct taken t;
	unsigned i;

	t.n = 0;	/* nothing taken yet (the ranges need no clearing) */
	pthread_mutex_lock(&g->mu);
	/* a reader's next range starts where its last ended, behind other
	 * readers' ranges; the count's chunks go to readers in turn, so one
	 * reader's range often meets another's */
	for (i = 0; i < g->n; i++)
		if ((const char *)g->v[i].iov_base + g->v[i].iov_len == (const char *)at) {
			g->v[i].iov_len += len;
			break;
		} else if ((const char *)at + len == (const char *)g->v[i].iov_base) {
			g->v[i].iov_base = (void *)at;
			g->v[i].iov_len += len;
			break;
		}
	if (i == g->n) {
		if (g->n == VP_PD_GIVE_RANGES)
			take(g, &t);	/* full of ranges: those go first */
		g->v[g->n++] = (struct iovec){ (void *)at, len };
	}
	g->bytes += len;
	if (!t.n && g->bytes >= g->batch)
		take(g, &t);
	pthread_mutex_unlock(&g->mu);
	give(g, &t);
}
