/* The first pass of the walk in pieces: one piece of the data section
 * read for what orders the file (its FINISHED_ROUNDs, how many records each
 * round queues and the newest time among them) and for the records that are
 * not samples. A piece that starts mid-file cannot know where a record
 * begins: it takes the first offset that starts a run of plausible records,
 * and the plan (pieces.c) checks that guess against where the piece before
 * ends, scanning again from there when they differ. */
#include "pieces.h"

#include "lib/util/bulk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESYNC_RUN	16		/* records that must look right after a guessed start */

/* A reader's bytes of the file (pieces.h): a buffer read on with pread
 * and, once full, started again from where a record that does not fit
 * begins. Mapping the file instead changed the page tables twice a stride,
 * and where a hypervisor shadows them each change is a trip to it that the
 * other CPUs wait on. */
/* Read on this much at a time, not the whole buffer: what was just read is
 * parsed while it is still in this CPU's cache (2 MiB at once went through
 * L2 twice, as the copy and as the parse). On the 328 MB -g bench file,
 * 60 alternating pairs on 2 CPUs: 2.1% faster; 64 KiB to 2 MiB steps were
 * within the noise of each other. */
#define VIEW_STEP (256u << 10)

/* Read from the file into buf[have, want) at file offset from + have. */
static size_t view_read(struct vp_pd_view *v, uint64_t from, size_t have, size_t want)
{
	while (have < want) {
		ssize_t r = pread(v->fd, v->buf + have, want - have, (off_t)(from + have));
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		have += (size_t)r;
	}
	return have;
}

const uint8_t *vp_pd_view_fill(struct vp_pd_view *v, uint64_t off, size_t n)
{
	uint64_t to;

	if (!v->buf) {
		if (!(v->buf = vp_bulk_buffer(v->cap)))
			return NULL;
	}
	if (off > v->end || n > v->cap || v->end - off < n)
		return NULL;
	if (off < v->lo || off > v->hi || off + n - v->lo > v->cap) {
		/* what the buffer holds from off on moves to its start, not read again */
		size_t held = off >= v->lo && off < v->hi ? (size_t)(v->hi - off) : 0;
		if (held)
			memmove(v->buf, v->buf + (off - v->lo), held);
		v->lo = off;
		v->hi = off + held;
	}
	if (off + n > v->hi) {
		to = off + n > v->hi + VIEW_STEP ? off + n : v->hi + VIEW_STEP;
		if (to > v->lo + v->cap)
			to = v->lo + v->cap;
		if (to > v->end)
			to = v->end;
		v->hi = v->lo + view_read(v, v->lo, (size_t)(v->hi - v->lo), (size_t)(to - v->lo));
	}
	return off + n <= v->hi ? v->buf + (off - v->lo) : NULL;
}

void vp_pd_view_init(struct vp_pd_view *v, int fd, uint64_t end, size_t cap)
{
	*v = (struct vp_pd_view){ .fd = fd, .end = end, .cap = cap };
}

void vp_pd_view_free(struct vp_pd_view *v)
{
	vp_bulk_free(v->buf, v->cap);
	v->buf = NULL;
	v->lo = v->hi = 0;
}

void vp_pd_piece_reset(struct vp_pd_piece *p)
{
	free(p->rounds);
	free(p->n);
	free(p->copies);
	free(p->hdr);
	free(p->cuts);
	free(p->llimit);
	uint64_t begin = p->begin, end = p->end;
	size_t id = p->id;
	memset(p, 0, sizeof(*p));
	p->begin = begin;
	p->end = end;
	p->id = id;
}

/* A record header that perf could have written at off. */
static int plausible(const struct vp_perfdata *pd, struct vp_pd_view *v, uint64_t off)
{
	struct perf_event_header h;
	const uint8_t *at;
	uint64_t id;

	if (pd->data_end - off < sizeof(h) || !(at = vp_pd_view_at(v, off, sizeof(h))))
		return 0;
	memcpy(&h, at, sizeof(h));
	if (h.size < sizeof(h) || h.size % 8 || h.size > pd->data_end - off)
		return 0;
	if (!((h.type >= 1 && h.type <= 21) || (h.type >= 64 && h.type <= 82)))
		return 0;
	if (h.type != PERF_RECORD_SAMPLE)
		return 1;
	if (pd->uniform && !pd->layouts[0].variable && h.size != 8 + 8u * pd->layouts[0].fixed)
		return 0;
	if (pd->nevsels > 1 && pd->id_pos >= 0) {
		if ((size_t)pd->id_pos >= (h.size - sizeof(h)) / 8)
			return 0;
		if (!(at = vp_pd_view_at(v, off, h.size)))
			return 0;
		memcpy(&id, at + sizeof(h) + 8 * pd->id_pos, 8);
		return id == 0 || vp_pd_evsel_by_id(pd, id) != NULL;
	}
	return 1;
}

/* The first offset in [from, end) where RESYNC_RUN plausible records (or
 * plausible records up to the data's end) follow one another; end if none. */
static uint64_t resync(const struct vp_perfdata *pd, struct vp_pd_view *v, uint64_t from, uint64_t end)
{
	for (uint64_t c = (from + 7) & ~7ull; c < end; c += 8) {
		uint64_t off = c;
		int run = 0;
		while (run < RESYNC_RUN && off < pd->data_end && plausible(pd, v, off)) {
			uint16_t size;
			memcpy(&size, vp_pd_view_at(v, off, sizeof(struct perf_event_header)) + 6, 2);
			off += size;
			run++;
		}
		if (run == RESYNC_RUN || (run && off == pd->data_end))
			return c;
	}
	return end;
}

/* A copy of a record the plan reads after the scan: the reader's buffer
 * moves on. */
static int copy_record(struct vp_pd_piece *p, const void *rec, size_t size, size_t *pos)
{
	while (p->capcopies - p->ncopies < size + 7u)
		if (vp_grow((void **)&p->copies, &p->capcopies, p->capcopies, 1, 64) < 0)
			return -ENOMEM;
	memcpy(p->copies + p->ncopies, rec, size);
	*pos = p->ncopies;
	p->ncopies += (size + 7u) & ~7u;
	return 0;
}

static int is_delivered(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		return 1;
	default:
		return 0;	/* the ordered walk counts the rest as skipped */
	}
}

/* A record with a timestamp joins the current round as perf's queue sees it. */
static void queue(struct vp_pd_round *r, uint64_t time)
{
	r->queued++;
	if (time > r->newest)
		r->newest = time;
}

/* A sample's time as vp_pd_record_time has it, without its work when every
 * event has one layout and this sample's id is the one before's. */
static inline uint64_t sample_time(struct vp_perfdata *pd, struct vp_pd_idcache *ids,
				   const struct perf_event_header *h, int tidx)
{
	const uint64_t *body = (const uint64_t *)(h + 1);
	size_t n = (h->size - sizeof(*h)) / 8;

	if (tidx >= 0 && (size_t)tidx < n &&
	    (pd->nevsels == 1 || (pd->id_pos >= 0 && (size_t)pd->id_pos < n && ids->ev &&
				  body[pd->id_pos] == ids->id)))
		return body[tidx];
	return vp_pd_record_time(pd, ids, h);
}

/* Bytes [off, off + n) of the file as vp_pd_view_at gives them, a refill
 * beginning at keep when that keeps the bytes from there (the round the
 * count in the scan has still to count) and leaves half the buffer for
 * what follows. */
static inline const uint8_t *scan_at(struct vp_pd_view *v, uint64_t off, size_t n, uint64_t keep)
{
	if (off >= v->lo && off + n <= v->hi)
		return v->buf + (off - v->lo);
	const uint8_t *at;

	if (keep < off && off - keep <= v->cap / 2 && off + n - keep <= v->cap &&
	    (at = vp_pd_view_fill(v, keep, (size_t)(off + n - keep))))
		return at + (off - keep);
	return vp_pd_view_fill(v, off, n);
}

int vp_pd_scan_piece(struct vp_perfdata *pd, struct vp_pd_view *v, struct vp_pd_piece *p,
		     int resync_start, uint64_t chunk, struct vp_pd_escan *es)
{
	int tidx = pd->uniform ? pd->layouts[0].time : -1;
	struct vp_pd_idcache ids = { 0 };
	struct vp_pd_round cur = { 0 };
	uint64_t off, next_cut;

	if (resync_start)
		p->first = resync(pd, v, p->begin, __atomic_load_n(&p->end, __ATOMIC_RELAXED));
	off = p->first;
	cur.start = off;
	next_cut = (off / chunk + 1) * chunk;
	/* end may move closer while the piece is read: a thread with nothing
	 * left takes the rest (pieces.c's steal), cutting well ahead of where
	 * this reader said it was; it says so every p->step bytes */
	uint64_t end = __atomic_load_n(&p->end, __ATOMIC_RELAXED);
	uint64_t next_pub = p->step ? off + p->step : UINT64_MAX;
	while (off < end) {
		struct perf_event_header h;
		const struct perf_event_header *rec;
		uint64_t t;

		uint64_t keep = vp_pd_escan_keep(es, p, off);

		if (pd->data_end - off < sizeof(h) || off % 8 ||
		    !(rec = (const void *)scan_at(v, off, sizeof(h), keep))) {
			p->broken = 1;
			break;
		}
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) || pd->data_end - off < h.size ||
		    !(rec = (const void *)scan_at(v, off, h.size, keep))) {
			p->broken = 1;
			break;
		}
		p->records++;
		if (h.type == PERF_RECORD_SAMPLE) {
			if (vp_pd_queued_time(t = sample_time(pd, &ids, rec, tidx)))
				queue(&cur, t);
		} else if (h.type >= 64) {
			switch (h.type) {
			case VP_REC_FINISHED_ROUND:
				if (vp_grow((void **)&p->rounds, &p->caprounds, p->nrounds, sizeof(cur), 64) < 0)
					return -ENOMEM;
				p->rounds[p->nrounds++] = cur;
				cur = (struct vp_pd_round){ 0, 0, off + h.size, p->nn };
				if (es)
					vp_pd_escan_round(pd, v, p, es);
				break;
			case VP_REC_HEADER_TRACING_DATA:	/* read at open in file mode */
				p->skipped++;
				break;
			case VP_REC_COMPRESSED:
				p->compressed++;
				break;
			case VP_REC_AUXTRACE:		/* payload after the record */
			case VP_REC_HEADER_ATTR:	/* new events mid-file */
			case VP_REC_HEADER_FEATURE:
				p->odd = 1;
				p->exit = off;
				return 0;
			default:
				if (vp_grow((void **)&p->hdr, &p->caphdr, p->nhdr, sizeof(*p->hdr), 64) < 0 ||
				    copy_record(p, rec, h.size, &p->hdr[p->nhdr]) < 0)
					return -ENOMEM;
				p->nhdr++;
				break;
			}
		} else {
			t = vp_pd_record_time(pd, &ids, rec);
			if (vp_pd_queued_time(t))
				queue(&cur, t);
			if (is_delivered(h.type)) {
				size_t pos;
				if (vp_grow((void **)&p->n, &p->capn, p->nn, sizeof(*p->n), 64) < 0 ||
				    copy_record(p, rec, h.size, &pos) < 0)
					return -ENOMEM;
				/* the flush round: known now without a time (the
				 * scan's own order, early.c, settles the rest) */
				int q = vp_pd_queued_time(t);
				p->n[p->nn++] = (struct vp_pd_nrec){ off, q ? t : ~0ull,
								     (uint32_t)p->nrounds,
								     q ? UINT32_MAX : (uint32_t)p->nrounds,
								     { .pos = pos } };
			} else {
				p->skipped++;
			}
		}
		off += h.size;
		if (off >= next_pub) {
			__atomic_store_n(&p->at, off, __ATOMIC_RELAXED);
			end = __atomic_load_n(&p->end, __ATOMIC_RELAXED);
			next_pub = off + p->step;
		}
		if (off + VP_PD_PREFETCH < v->hi)
			__builtin_prefetch(v->buf + (off - v->lo) + VP_PD_PREFETCH);
		if (off >= next_cut && off < end) {
			next_cut = (off / chunk + 1) * chunk;
			if (vp_grow((void **)&p->cuts, &p->capcuts, p->ncuts, sizeof(*p->cuts), 64) < 0)
				return -ENOMEM;
			p->cuts[p->ncuts++] = (struct vp_pd_cut){ off, (uint32_t)p->nrounds };
		}
	}
	p->exit = off;
	if (vp_grow((void **)&p->rounds, &p->caprounds, p->nrounds, sizeof(cur), 64) < 0)
		return -ENOMEM;
	p->rounds[p->nrounds++] = cur;
	return 0;
}
