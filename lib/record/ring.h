/* A perf ring buffer as the recorder reads it: mapped for an event's fd,
 * drained record by record (a record split at the buffer's end made whole)
 * into a callback, and unmapped. The file's events and the scheduler side
 * channel (sched.h) drain the same way. */
#ifndef VP_RING_H
#define VP_RING_H

#include <stddef.h>

#include "lib/perfdata/perf_format.h"

struct vp_ring {
	int fd;			/* the event whose buffer this is */
	void *base;
	size_t size;		/* data area, a power of two */
	size_t page;
};

/* Map pages (a power of two) of data after the control page; -errno. */
int vp_ring_map(struct vp_ring *g, int fd, size_t pages, size_t page);
void vp_ring_unmap(struct vp_ring *g);

/* A record, whole, valid during the call; a negative return stops the drain. */
typedef int (*vp_ring_fn)(void *ctx, const struct perf_event_header *h);

/* Hand every record written since the last drain to fn; copy is scratch of
 * 64 KiB (a record's largest size). *any is set when a record came. Returns
 * fn's error, else 0. */
int vp_ring_drain(struct vp_ring *g, char *copy, vp_ring_fn fn, void *ctx, int *any);

#endif
