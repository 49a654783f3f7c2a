/* One pass over perf.data records: whole records from the mapped file or the
 * pipe stream, header records of pipe streams to pipe.c, records with
 * timestamps through the ordering queue (ordered.c) so maps and samples meet
 * in the same order as in `perf report`, then to the tool (records.c). */
#include "internal.h"
#include "ordered.h"
#include "lib/util/progress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define RELEASE_STRIDE	(8u << 20)	/* mapped files: drop pages behind us in steps this big */
#define PROGRESS_STEP	(4u << 20)	/* bytes read between progress counts */

struct walk {
	struct vp_perfdata *pd;
	const struct vp_perf_tool *tool;
	void *ctx;
	struct vp_error *err;

	struct vp_ordered oe;
	/* Files are mapped: queued records stay where they are in the mapping
	 * and pages behind the oldest one are dropped, so memory stays flat. */
	const uint8_t *map;
	size_t map_len;
	uint64_t released;	/* pages below this offset were given back */
	struct vp_pd_idcache ids;
	/* Set by the threaded walk: ordered records go to another thread,
	 * which delivers them with vp_pd_deliver. */
	int (*handoff)(void *hctx, const struct perf_event_header *h, uint64_t offset);
	uint64_t (*in_use_floor)(void *hctx);
	void *hctx;
	/* Like samples are joined only while a flush delivers, and the run ends
	 * with it: a record delivered as it comes may live in the stream buffer. */
	int in_flush;
	struct vp_pd_run run;
	uint64_t progress;	/* offset counted as read so far */
};

static int deliver(void *ctx, const struct perf_event_header *h, uint64_t offset)
{
	struct walk *w = ctx;

	if (w->handoff)
		return w->handoff(w->hctx, h, offset);
	if (w->in_flush)
		return vp_pd_deliver(w->pd, w->tool, w->ctx, &w->ids, &w->run, h, offset, w->err);
	return vp_pd_deliver_record(w->pd, w->tool, w->ctx, &w->ids, h, offset, w->err);
}

/* A held sample goes out before the flush ends: its memory is only sure
 * until then (pages behind the queue are released, arenas reused). */
static int flush_until(struct walk *w, uint64_t limit)
{
	int r;

	w->in_flush = 1;
	r = vp_oe_flush(&w->oe, limit);
	w->in_flush = 0;
	if (r < 0) {
		w->run.h = NULL;
		return r == -ENOMEM ? vp_errorf(w->err, r, "'%s': out of memory", w->pd->path) : r;
	}
	return vp_pd_run_end(w->pd, w->tool, w->ctx, &w->ids, &w->run, w->err);
}

static int finish_round(struct walk *w)
{
	int r;

	/* perf leaves next_flush alone when the queue is empty (ordered-events.c). */
	if (!w->oe.nq)
		return 0;
	r = flush_until(w, w->oe.next_flush);
	w->oe.next_flush = w->oe.max_timestamp;
	return r;
}


/* Handle one record; *skip is set to payload bytes that follow it in the
 * stream (aux data), which the caller steps over. */
static int process(struct walk *w, const struct perf_event_header *h, uint64_t offset,
		   uint64_t *skip)
{
	struct vp_perfdata *pd = w->pd;
	int r;

	*skip = 0;
	pd->stats.records++;
	if (h->type >= 64) {
		if (h->type == VP_REC_FINISHED_ROUND)
			return w->tool->unordered ? 0 : finish_round(w);
		/* Tracing data follows its record only in pipe streams. */
		if ((h->type != VP_REC_HEADER_TRACING_DATA || pd->is_pipe) &&
		    (r = vp_pd_header_record(pd, h, w->err)) != 0)
			return r < 0 ? r : 0;
		if (h->type == VP_REC_AUXTRACE && h->size >= 16)
			memcpy(skip, (const uint8_t *)h + 8, 8);
		if (h->type == VP_REC_COMPRESSED)
			pd->stats.compressed_records++;
		else
			pd->stats.skipped_records++;
		return w->tool->other ? w->tool->other(w->ctx, h, offset) : 0;
	}
	if (!w->tool->unordered) {
		uint64_t time = vp_pd_record_time(pd, &w->ids, h);
		if (time != 0 && time != ~0ull) {
			if ((r = vp_oe_queue(&w->oe, h, offset, time)) < 0)
				return vp_errorf(w->err, r, "'%s': out of memory", pd->path);
			/* No rounds in sight: deliver the older half. */
			if (vp_oe_too_deep(&w->oe))
				return flush_until(w, vp_oe_middle(&w->oe));
			return 0;
		}
	}
	return deliver(w, h, offset);
}

/* Give back mapped pages that no queued record needs any more. */
static void release_behind(struct walk *w, uint64_t read_off)
{
	uint64_t low = read_off;

	if (vp_oe_lowest(&w->oe) < low)
		low = vp_oe_lowest(&w->oe);
	if (w->in_use_floor) {	/* records handed off and not yet delivered */
		uint64_t f = w->in_use_floor(w->hctx);
		if (f < low)
			low = f;
	}
	low &= ~(uint64_t)(VP_PD_PMD - 1);
	if (low > w->released + RELEASE_STRIDE) {
		madvise((void *)(w->map + w->released), low - w->released, MADV_DONTNEED);
		w->released = low;
	}
}

/* The next whole record of a mapped file, as vp_stream_next. */
static int mapped_next(struct walk *w, uint64_t *off, const struct perf_event_header **rec,
		       struct vp_error *err)
{
	struct perf_event_header h;
	uint64_t end = w->pd->data_end;

	if (*off >= end)
		return 0;
	if (end - *off < sizeof(h))
		return -EPIPE;
	/* perf writes every record at an 8-byte boundary; one that is not was
	 * reached through a damaged size or data offset */
	if (*off % 8)
		return vp_errorf(err, -EINVAL, "'%s': record at offset %llu is not 8-byte aligned "
				 "(a damaged record size or data offset)", w->pd->path,
				 (unsigned long long)*off);
	memcpy(&h, w->map + *off, sizeof(h));
	if (h.size < sizeof(h))
		return vp_errorf(err, -EINVAL, "'%s': record of size %u at offset %llu (type %u)",
				 w->pd->path, h.size, (unsigned long long)*off, h.type);
	if (end - *off < h.size)
		return -EPIPE;
	*rec = (const struct perf_event_header *)(w->map + *off);
	return 1;
}

int vp_pd_walk(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
	       const struct vp_pd_handoff *ho, struct vp_error *err)
{
	struct walk w = { .pd = pd, .tool = tool, .ctx = ctx, .err = err, .progress = pd->data_start };

	if (ho) {
		w.handoff = ho->handoff;
		w.in_use_floor = ho->in_use_floor;
		w.hctx = ho->ctx;
	}
	uint64_t moff = pd->data_start;
	int r;

	if (pd->walked)
		return vp_errorf(err, -EALREADY, "'%s': already read", pd->path);
	pd->walked = 1;
	if (!pd->is_pipe && pd->data_end > pd->data_start) {
		void *m = mmap(NULL, pd->data_end, PROT_READ, MAP_PRIVATE, pd->fd, 0);
		if (m == MAP_FAILED)
			return vp_errorf(err, -errno, "'%s': cannot map the file: %s", pd->path,
					 strerror(errno));
		madvise(m, pd->data_end, MADV_SEQUENTIAL);
		w.map = m;
		w.map_len = pd->data_end;
		w.released = 0;
	}
	vp_oe_init(&w.oe, w.map, deliver, &w);
	if (pd->data_end != UINT64_MAX && pd->data_end > pd->data_start)
		vp_progress_expect(pd->data_end - pd->data_start, 1);

	for (;;) {
		const struct perf_event_header *h;
		uint64_t off, skip;

		if (w.map) {
			off = moff;
			r = mapped_next(&w, &moff, &h, err);
		} else if (!pd->is_pipe) {
			break;	/* an empty data section */
		} else {
			r = vp_stream_next(&pd->stream, &h, &off, err, pd->path);
		}
		if (r == 0)
			break;
		if (r == -EPIPE) {
			uint64_t end = pd->is_pipe ? off : pd->data_end;
			if (pd->stats.recovered || pd->is_pipe) {
				/* A killed recorder's last record is cut short: stop there. */
				pd->stats.recovered = 1;
				pd->stats.dropped_bytes = end > off ? end - off : 0;
				if (pd->is_pipe)
					vp_warn("'%s': the stream ends inside a record at offset %llu; "
						"read up to the last whole record", pd->path,
						(unsigned long long)off);
				break;
			}
			r = vp_errorf(err, -EINVAL, "'%s': truncated record at offset %llu", pd->path,
				      (unsigned long long)off);
		}
		if (r < 0 && pd->stats.recovered && !pd->is_pipe) {
			/* Garbage after the last whole record of an unfinished file. */
			pd->stats.dropped_bytes = pd->data_end - off;
			break;
		}
		if (r < 0)
			goto out;
		if ((r = process(&w, h, off, &skip)) < 0)
			goto out;
		if (off - w.progress >= PROGRESS_STEP) {
			vp_progress_advance(off - w.progress);
			w.progress = off;
		}
		if (w.map) {
			moff += h->size;
			if (skip > pd->data_end - moff) {
				r = vp_errorf(err, -EINVAL, "'%s': truncated aux data after offset %llu",
					      pd->path, (unsigned long long)off);
				goto out;
			}
			moff += skip;
			if (h->type == VP_REC_FINISHED_ROUND)
				release_behind(&w, moff);
		} else if (skip && vp_stream_read(&pd->stream, NULL, skip) < 0) {
			r = vp_errorf(err, -EINVAL, "'%s': truncated aux data after offset %llu", pd->path,
				      (unsigned long long)off);
			goto out;
		}
	}
	r = flush_until(&w, ~0ull);
out:
	if (tool->finished) {
		int f = tool->finished(ctx, r);
		if (r >= 0)
			r = f;
	}
	vp_pd_idcache_fold(pd, &w.ids);	/* after finished: a worker has stopped */
	pd->stats.out_of_order += w.oe.out_of_order;
	if (w.map)
		munmap((void *)w.map, w.map_len);
	vp_oe_free(&w.oe);
	return r < 0 ? r : 0;
}

int vp_perfdata_walk(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
		     struct vp_error *err)
{
	return vp_pd_walk(pd, tool, ctx, NULL, err);
}

struct span {
	uint64_t first, last;
};

static int span_sample(void *ctx, const struct vp_sample *s)
{
	struct span *sp = ctx;

	if (s->time && (!sp->first || s->time < sp->first))
		sp->first = s->time;
	if (s->time > sp->last)
		sp->last = s->time;
	return 0;
}

int vp_perfdata_scan_sample_time(const char *path, uint64_t *first, uint64_t *last,
				 struct vp_error *err)
{
	struct vp_perf_tool tool = { .sample = span_sample, .unordered = 1 };
	struct vp_perfdata *pd;
	struct span sp = { 0 };
	int r;

	*first = *last = 0;
	if ((r = vp_perfdata_open(path, &pd, err)) < 0)
		return r;
	r = vp_perfdata_walk(pd, &tool, &sp, err);
	vp_perfdata_close(pd);
	*first = sp.first;
	*last = sp.last;
	return r;
}
