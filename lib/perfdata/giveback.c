/* Giving back a reader's pages of the mapped file in batches (pieces.h):
 * each give-back in a process whose threads run on other CPUs is a TLB
 * shootdown, an interrupt to each of them, dear in a virtual machine. */
#include "pieces.h"

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
	size_t share = VP_PD_GIVE_BUDGET / (readers ? readers : 1);

	return share > VP_PD_GIVE_BATCH ? VP_PD_GIVE_BATCH : share < VP_PD_GIVE ? VP_PD_GIVE : share;
}

void vp_pd_giveback_flush(struct vp_pd_giveback *g)
{
	long done = -1;

	if (!g->n)
		return;
#if defined(SYS_process_madvise)
	if (g->pidfd >= 0)
		done = syscall(SYS_process_madvise, g->pidfd, g->v, g->n, MADV_DONTNEED, 0u);
#endif
	if (done != (long)g->bytes) {
		/* Refused, or stopped part way: madvise does it range by range
		 * (giving back what is already given back is harmless). */
		if (done < 0)
			g->pidfd = -1;
		for (unsigned i = 0; i < g->n; i++)
			madvise(g->v[i].iov_base, g->v[i].iov_len, MADV_DONTNEED);
	}
	g->n = 0;
	g->bytes = 0;
}

void vp_pd_giveback(struct vp_pd_giveback *g, const void *at, size_t len)
{
	struct iovec *last = g->n ? &g->v[g->n - 1] : NULL;

	if (last && (const char *)last->iov_base + last->iov_len == (const char *)at) {
		last->iov_len += len;
	} else {
		if (g->n == VP_PD_GIVE_RANGES)
			vp_pd_giveback_flush(g);
		g->v[g->n++] = (struct iovec){ (void *)at, len };
	}
	g->bytes += len;
	if (g->bytes >= g->batch)
		vp_pd_giveback_flush(g);
}
