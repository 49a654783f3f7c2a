/* The ordering queue (see ordered.h). Only the few records that are not
 * samples are sorted; samples fall between them by a bucket sort, and rounds
 * of samples alone (most rounds) go out in one pass. */
#include "ordered.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/grow.h"

#define QUEUE_MAX_BYTES	(256ull << 20)	/* beyond this, flush half as perf's OE_FLUSH__HALF */

void vp_oe_init(struct vp_ordered *oe, const uint8_t *map, vp_oe_deliver_fn deliver, void *ctx)
{
	memset(oe, 0, sizeof(*oe));
	oe->map = map;
	oe->deliver = deliver;
	oe->ctx = ctx;
}

void vp_oe_free(struct vp_ordered *oe)
{
	free(oe->q);
	free(oe->arena[0].mem);
	free(oe->arena[1].mem);
	oe->q = NULL;
	oe->arena[0].mem = oe->arena[1].mem = NULL;
}

static int cmp_ordered(const void *a, const void *b)
{
	const struct vp_oe_entry *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint8_t *arena_alloc(struct vp_oe_arena *a, size_t n)
{
	if (a->cap - a->used < n) {
		/* from 64 KiB: a small file's few records need no 1 MiB */
		size_t cap = a->cap ? a->cap : (64u << 10);
		while (cap - a->used < n)
			cap *= 2;
		uint8_t *mem = realloc(a->mem, cap);
		if (!mem)
			return NULL;
		a->mem = mem;
		a->cap = cap;
	}
	a->used += n;
	return a->mem + a->used - n;
}

int vp_oe_queue(struct vp_ordered *oe, const struct perf_event_header *h, uint64_t offset,
		uint64_t time)
{
	struct vp_oe_arena *a = &oe->arena[oe->cur];
	uint8_t *copy;

	if (time < oe->last_flush)
		oe->out_of_order++;
	if (vp_grow((void **)&oe->q, &oe->capq, oe->nq, sizeof(*oe->q), 4096) < 0)
		return -ENOMEM;
	if (oe->map) {
		oe->q[oe->nq++] = (struct vp_oe_entry){ time, oe->seq++, offset, (size_t)offset,
						  h->type == PERF_RECORD_SAMPLE };
	} else {
		copy = arena_alloc(a, (h->size + 7u) & ~7u);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, h, h->size);
		oe->q[oe->nq++] = (struct vp_oe_entry){ time, oe->seq++, offset, (size_t)(copy - a->mem),
						  h->type == PERF_RECORD_SAMPLE };
	}
	if (time > oe->max_timestamp)
		oe->max_timestamp = time;
	if (oe->nq == 1 || offset < oe->q_low)
		oe->q_low = offset;
	oe->nothers += h->type != PERF_RECORD_SAMPLE;
	return 0;
}

/* How many of the sorted non-sample entries come before e in (time, seq). */
static size_t bucket_of(const struct vp_ordered *oe, const size_t *others, size_t n,
			const struct vp_oe_entry *e)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_ordered(&oe->q[others[mid]], e) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Deliver the queued events with time <= limit, in time order.
 * Samples only add to tables, so their order among themselves changes no
 * result; what matters is where they fall against maps, comms and forks.
 * So only those few are sorted, and each sample is delivered after the ones
 * that precede it in (time, seq) order: a bucket sort, not a full sort. */
static int deliver_window(struct vp_ordered *oe, const uint8_t *base, uint64_t limit)
{
	size_t *others = NULL, nothers = 0, i;
	size_t *count = NULL, *order = NULL, *bucket = NULL;
	int r = 0;

	for (i = 0; i < oe->nq; i++)
		nothers += !oe->q[i].sample && oe->q[i].time <= limit;
	if (nothers) {
		others = malloc(nothers * sizeof(*others));
		count = calloc(nothers + 2, sizeof(*count));
		order = malloc(oe->nq * sizeof(*order));
		bucket = malloc(oe->nq * sizeof(*bucket));
		if (!others || !count || !order || !bucket) {
			r = -ENOMEM;
			goto out;
		}
		size_t k = 0;
		for (i = 0; i < oe->nq; i++)
			if (!oe->q[i].sample && oe->q[i].time <= limit)
				others[k++] = i;
		/* Few entries: insertion sort by (time, seq). */
		for (size_t a = 1; a < nothers; a++)
			for (size_t b = a; b > 0 && cmp_ordered(&oe->q[others[b]], &oe->q[others[b - 1]]) < 0; b--) {
				size_t t = others[b];
				others[b] = others[b - 1];
				others[b - 1] = t;
			}
	}
	if (!nothers) {
		for (i = 0; i < oe->nq && r >= 0; i++)
			if (oe->q[i].time <= limit)
				r = oe->deliver(oe->ctx, (const void *)(base + oe->q[i].pos), oe->q[i].offset);
		goto out;
	}
	for (i = 0; i < oe->nq; i++)
		if (oe->q[i].sample && oe->q[i].time <= limit)
			count[(bucket[i] = bucket_of(oe, others, nothers, &oe->q[i])) + 1]++;
	for (size_t b = 1; b <= nothers + 1; b++)
		count[b] += count[b - 1];
	for (i = 0; i < oe->nq; i++)
		if (oe->q[i].sample && oe->q[i].time <= limit)
			order[count[bucket[i]]++] = i;
	/* count[b] is now the end of bucket b: samples of bucket b, then other b. */
	size_t at = 0;
	for (size_t b = 0; b <= nothers && r >= 0; b++) {
		for (; at < count[b] && r >= 0; at++)
			r = oe->deliver(oe->ctx, (const void *)(base + oe->q[order[at]].pos), oe->q[order[at]].offset);
		if (b < nothers && r >= 0)
			r = oe->deliver(oe->ctx, (const void *)(base + oe->q[others[b]].pos), oe->q[others[b]].offset);
	}
out:
	free(others);
	free(count);
	free(order);
	free(bucket);
	return r;
}

/* Deliver queued events up to limit; the rest stay queued (copied to the
 * other arena for pipes, so memory stays about one round deep). */
int vp_oe_flush(struct vp_ordered *oe, uint64_t limit)
{
	struct vp_oe_arena *cur = &oe->arena[oe->cur], *next = &oe->arena[!oe->cur];
	const uint8_t *base = oe->map ? oe->map : cur->mem;
	size_t i, kept = 0;
	int r = 0;

	if (!oe->nq)
		return 0;
	if (oe->map && !oe->nothers) {
		/* Samples only (most rounds): their order is free, so one pass
		 * delivers what is due and keeps the rest. */
		uint64_t last = oe->last_flush, low = UINT64_MAX;
		for (i = 0; i < oe->nq; i++) {
			const struct vp_oe_entry *e = &oe->q[i];
			if (e->time > limit) {
				low = e->offset < low ? e->offset : low;
				oe->q[kept++] = *e;
				continue;
			}
			if (e->time > last)
				last = e->time;
			if ((r = oe->deliver(oe->ctx, (const void *)(base + e->pos), e->offset)) < 0)
				break;
		}
		oe->last_flush = last;
		oe->nq = kept;
		oe->q_low = low;
		return r < 0 ? r : 0;
	}
	if ((r = deliver_window(oe, base, limit)) < 0)
		return r;
	for (i = 0; i < oe->nq; i++)
		if (oe->q[i].time <= limit && oe->q[i].time > oe->last_flush)
			oe->last_flush = oe->q[i].time;
	oe->nothers = 0;
	oe->q_low = UINT64_MAX;
	if (oe->map) {
		for (i = 0; i < oe->nq; i++)
			if (oe->q[i].time > limit) {
				oe->nothers += !oe->q[i].sample;
				oe->q_low = oe->q[i].offset < oe->q_low ? oe->q[i].offset : oe->q_low;
				oe->q[kept++] = oe->q[i];
			}
		oe->nq = kept;
		return 0;
	}
	next->used = 0;
	for (i = 0; i < oe->nq; i++) {
		if (oe->q[i].time <= limit)
			continue;
		const struct perf_event_header *h = (const void *)(cur->mem + oe->q[i].pos);
		uint8_t *copy = arena_alloc(next, (h->size + 7u) & ~7u);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, h, h->size);
		oe->nothers += !oe->q[i].sample;
		oe->q_low = oe->q[i].offset < oe->q_low ? oe->q[i].offset : oe->q_low;
		oe->q[kept] = oe->q[i];
		oe->q[kept++].pos = (size_t)(copy - next->mem);
	}
	oe->nq = kept;
	cur->used = 0;
	oe->cur = !oe->cur;
	return 0;
}

int vp_oe_too_deep(const struct vp_ordered *oe)
{
	return oe->nq > QUEUE_MAX_BYTES / 64 || oe->arena[oe->cur].used > QUEUE_MAX_BYTES;
}

uint64_t vp_oe_middle(struct vp_ordered *oe)
{
	qsort(oe->q, oe->nq, sizeof(*oe->q), cmp_ordered);
	return oe->q[oe->nq / 2].time;
}

uint64_t vp_oe_lowest(const struct vp_ordered *oe)
{
	return oe->nq ? oe->q_low : UINT64_MAX;
}
