/* The first pass of the walk in pieces: one piece of the mapped data section
 * read for what orders the file (its FINISHED_ROUNDs, how many records each
 * round queues and the newest time among them) and for the records that are
 * not samples. A piece that starts mid-file cannot know where a record
 * begins: it takes the first offset that starts a run of plausible records,
 * and the plan (pieces.c) checks that guess against where the piece before
 * ends, scanning again from there when they differ. */
#include "pieces.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RESYNC_RUN	16		/* records that must look right after a guessed start */
#define STRIDE		VP_PD_STRIDE	/* map pages ahead in steps this big */

static int grow(void **v, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 64;
	void *p = realloc(*v, c * elem);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

/* Windows start and end on a stride's boundary in the file: where the page
 * cache holds the file in large folios (aligned in the file), a window maps
 * and gives back whole folios, and what stays mapped is a few strides per
 * reader however the cache holds it. */
static uint64_t stride_down(uint64_t off)
{
	return off & ~(uint64_t)(STRIDE - 1);
}

static void give_back(struct vp_pd_window *w, uint64_t from, uint64_t len)
{
	if (w->gb)
		vp_pd_giveback(w->gb, w->map + from, len);
	else
		madvise((void *)(w->map + from), len, MADV_DONTNEED);
}

void vp_pd_window_start(struct vp_pd_window *w, const uint8_t *map, uint64_t len, uint64_t off,
			struct vp_pd_giveback *gb)
{
	w->map = map;
	w->gb = gb;
	w->len = len;
	w->lo = w->hi = stride_down(off);
	vp_pd_window_move(w, off);
}

void vp_pd_window_move(struct vp_pd_window *w, uint64_t off)
{
	uint64_t to = stride_down(off), gone = to > w->lo ? to - w->lo : 0;

	if (gone >= VP_PD_GIVE) {
		give_back(w, w->lo, gone);
		w->lo = to;
	}
	w->hi = to + STRIDE < w->len ? to + STRIDE : w->len;
	if (w->hi > to)
		madvise((void *)(w->map + to), w->hi - to, MADV_POPULATE_READ);
}

void vp_pd_window_end(struct vp_pd_window *w, uint64_t off)
{
	/* The last record read may have run past the window, and a fault there
	 * maps the pages around it (fault-around, 64 KiB): to the stride's
	 * end, as the reader of the next part may have given those back
	 * already (it then maps again what it still reads). */
	uint64_t end = stride_down(off + STRIDE - 1);
	uint64_t hi = end > w->hi ? (end < w->len ? end : w->len) : w->hi;
	uint64_t gone = hi > w->lo ? hi - w->lo : 0;

	if (gone)
		give_back(w, w->lo, gone);
	w->lo = w->hi = hi;
}

void vp_pd_piece_reset(struct vp_pd_piece *p)
{
	free(p->rounds);
	free(p->n);
	free(p->copies);
	free(p->hdr);
	free(p->cuts);
	uint64_t begin = p->begin, end = p->end;
	memset(p, 0, sizeof(*p));
	p->begin = begin;
	p->end = end;
}

/* A record header that perf could have written at off. */
static int plausible(const struct vp_perfdata *pd, const uint8_t *map, uint64_t off)
{
	struct perf_event_header h;
	uint64_t id;

	if (pd->data_end - off < sizeof(h))
		return 0;
	memcpy(&h, map + off, sizeof(h));
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
		memcpy(&id, map + off + sizeof(h) + 8 * pd->id_pos, 8);
		return id == 0 || vp_pd_evsel_by_id(pd, id) != NULL;
	}
	return 1;
}

/* The first offset in [from, end) where RESYNC_RUN plausible records (or
 * plausible records up to the data's end) follow one another; end if none. */
static uint64_t resync(const struct vp_perfdata *pd, const uint8_t *map, uint64_t from, uint64_t end)
{
	for (uint64_t c = (from + 7) & ~7ull; c < end; c += 8) {
		uint64_t off = c;
		int run = 0;
		while (run < RESYNC_RUN && off < pd->data_end && plausible(pd, map, off)) {
			uint16_t size;
			memcpy(&size, map + off + 6, 2);
			off += size;
			run++;
		}
		if (run == RESYNC_RUN || (run && off == pd->data_end))
			return c;
	}
	return end;
}

/* A copy of a record the plan reads after the scan: the mapping's pages
 * are given back as they are read, and touching them again would map them
 * (a whole huge page where the page cache holds one). */
static int copy_record(struct vp_pd_piece *p, const void *rec, size_t size, size_t *pos)
{
	while (p->capcopies - p->ncopies < size + 7u)
		if (grow((void **)&p->copies, &p->capcopies, p->capcopies, 1) < 0)
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

static int queued_time(uint64_t t)
{
	return t != 0 && t != ~0ull;
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

int vp_pd_scan_piece(struct vp_perfdata *pd, const uint8_t *map, struct vp_pd_piece *p,
		     int resync_start, uint64_t chunk, struct vp_pd_giveback *gb)
{
	int tidx = pd->uniform ? pd->layouts[0].time : -1;
	struct vp_pd_idcache ids = { 0 };
	struct vp_pd_round cur = { 0, 0 };
	struct vp_pd_window win;
	uint64_t off, next_cut;

	/* from where the guess reads: its pages are given back like the rest */
	vp_pd_window_start(&win, map, pd->data_end, resync_start ? p->begin : p->first, gb);
	if (resync_start) {
		p->first = resync(pd, map, p->begin, p->end);
		vp_pd_window_move(&win, p->first);
	}
	off = p->first;
	next_cut = (off / chunk + 1) * chunk;
	while (off < p->end) {
		struct perf_event_header h;
		const struct perf_event_header *rec = (const void *)(map + off);
		uint64_t t;

		if (pd->data_end - off < sizeof(h) || off % 8) {
			p->broken = 1;
			break;
		}
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) || pd->data_end - off < h.size) {
			p->broken = 1;
			break;
		}
		p->records++;
		if (h.type == PERF_RECORD_SAMPLE) {
			if (queued_time(t = sample_time(pd, &ids, rec, tidx)))
				queue(&cur, t);
		} else if (h.type >= 64) {
			switch (h.type) {
			case VP_REC_FINISHED_ROUND:
				if (grow((void **)&p->rounds, &p->caprounds, p->nrounds, sizeof(cur)) < 0)
					return -ENOMEM;
				p->rounds[p->nrounds++] = cur;
				cur = (struct vp_pd_round){ 0, 0 };
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
				vp_pd_window_end(&win, off);
				return 0;
			default:
				if (grow((void **)&p->hdr, &p->caphdr, p->nhdr, sizeof(*p->hdr)) < 0 ||
				    copy_record(p, rec, h.size, &p->hdr[p->nhdr]) < 0)
					return -ENOMEM;
				p->nhdr++;
				break;
			}
		} else {
			t = vp_pd_record_time(pd, &ids, rec);
			if (queued_time(t))
				queue(&cur, t);
			if (is_delivered(h.type)) {
				size_t pos;
				if (grow((void **)&p->n, &p->capn, p->nn, sizeof(*p->n)) < 0 ||
				    copy_record(p, rec, h.size, &pos) < 0)
					return -ENOMEM;
				p->n[p->nn++] = (struct vp_pd_nrec){ off, queued_time(t) ? t : ~0ull,
								     (uint32_t)p->nrounds, 0,
								     { .pos = pos } };
			} else {
				p->skipped++;
			}
		}
		off += h.size;
		if (off + VP_PD_PREFETCH < win.hi)
			__builtin_prefetch(map + off + VP_PD_PREFETCH);
		if (off >= win.hi)
			vp_pd_window_move(&win, off);
		if (off >= next_cut && off < p->end) {
			next_cut = (off / chunk + 1) * chunk;
			if (grow((void **)&p->cuts, &p->capcuts, p->ncuts, sizeof(*p->cuts)) < 0)
				return -ENOMEM;
			p->cuts[p->ncuts++] = (struct vp_pd_cut){ off, (uint32_t)p->nrounds };
		}
	}
	vp_pd_window_end(&win, off);
	p->exit = off;
	if (grow((void **)&p->rounds, &p->caprounds, p->nrounds, sizeof(cur)) < 0)
		return -ENOMEM;
	p->rounds[p->nrounds++] = cur;
	return 0;
}
