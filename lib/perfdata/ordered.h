/* The ordering queue (perf's ordered-events.c): records with a timestamp wait
 * here and go out in time order up to a limit the walk sets (each
 * FINISHED_ROUND flushes up to the previous round's newest timestamp), so
 * maps and samples meet in the order `perf report` sees them. */
#ifndef VP_PERFDATA_ORDERED_H
#define VP_PERFDATA_ORDERED_H

#include <stddef.h>
#include <stdint.h>

#include "perf_format.h"

struct vp_oe_entry {
	uint64_t time, seq;
	uint64_t offset;	/* in the file, for messages */
	size_t pos : 63;	/* in the mapping, or in the current arena */
	size_t sample : 1;	/* a PERF_RECORD_SAMPLE: order among samples changes nothing */
};

struct vp_oe_arena {
	uint8_t *mem;
	size_t used, cap;
};

/* Called for each record leaving the queue; a negative return stops the flush. */
typedef int (*vp_oe_deliver_fn)(void *ctx, const struct perf_event_header *h, uint64_t offset);

struct vp_ordered {
	struct vp_oe_entry *q;
	size_t nq, capq;
	size_t nothers;		/* queued records that are not samples */
	uint64_t q_low;		/* lowest file offset in the queue (when nq) */
	uint64_t seq;
	struct vp_oe_arena arena[2];
	int cur;
	uint64_t next_flush, max_timestamp, last_flush;
	/* Files are mapped: queued records stay where they are in the mapping
	 * (pos is the file offset). Pipes copy records into the arenas instead. */
	const uint8_t *map;
	uint64_t out_of_order;	/* records older than the last flushed one */
	vp_oe_deliver_fn deliver;
	void *ctx;
};

/* map: the mapped file the records stay in, NULL to copy them (pipes). */
void vp_oe_init(struct vp_ordered *oe, const uint8_t *map, vp_oe_deliver_fn deliver, void *ctx);
void vp_oe_free(struct vp_ordered *oe);
/* Queue a record (h must stay valid until delivered when mapped). -ENOMEM. */
int vp_oe_queue(struct vp_ordered *oe, const struct perf_event_header *h, uint64_t offset,
		uint64_t time);
/* Deliver the queued records with time <= limit, in time order; the rest stay
 * queued. The deliver callback's error, or -ENOMEM. */
int vp_oe_flush(struct vp_ordered *oe, uint64_t limit);
/* The queue holds more than it may with no round in sight: flush up to
 * vp_oe_middle() (perf's OE_FLUSH__HALF). */
int vp_oe_too_deep(const struct vp_ordered *oe);
uint64_t vp_oe_middle(struct vp_ordered *oe);
/* Lowest file offset of a queued record, UINT64_MAX when none. */
uint64_t vp_oe_lowest(const struct vp_ordered *oe);

#endif
