/* Ring buffers (see ring.h): the kernel writes at data_head, the reader
 * frees up to data_tail once the records are handed on. */
#include "ring.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

int vp_ring_map(struct vp_ring *g, int fd, size_t pages, size_t page)
{
	size_t len = (pages + 1) * page;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (m == MAP_FAILED)
		return -errno;
	*g = (struct vp_ring){ fd, m, pages * page, page };
	return 0;
}

void vp_ring_unmap(struct vp_ring *g)
{
	if (g->base)
		munmap(g->base, g->size + g->page);
	g->base = NULL;
}

int vp_ring_drain(struct vp_ring *g, char *copy, vp_ring_fn fn, void *ctx, int *any)
{
	struct perf_event_mmap_page *mp = g->base;
	unsigned char *data = (unsigned char *)g->base + g->page;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE), tail = mp->data_tail;
	int r = 0;

	while (tail < head) {
		size_t at = (size_t)(tail & (g->size - 1));
		struct perf_event_header h;
		memcpy(&h, data + at, sizeof(h));	/* 8-byte aligned: never split */
		if (h.size < sizeof(h) || h.size > head - tail)
			break;	/* cannot happen with a sane kernel; stop rather than spin */
		const void *rec = data + at;
		if (at + h.size > g->size) {	/* wraps: make it whole */
			size_t first = g->size - at;
			memcpy(copy, data + at, first);
			memcpy(copy + first, data, h.size - first);
			rec = copy;
		}
		if ((r = fn(ctx, rec)) < 0)
			break;
		tail += h.size;
		*any = 1;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return r < 0 ? r : 0;
}
