/* The walk in pieces, inside lib/perfdata/: a piece of the data section as
 * the first pass (scan.c) finds it, for the plan that pieces.c makes of
 * them. The public side is in perfdata.h (vp_pieces_*). */
#ifndef VP_PERFDATA_PIECES_H
#define VP_PERFDATA_PIECES_H

#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "sample.h"
#include "lib/util/grow.h"
#include "lib/util/threads.h"


/* A record that is not a sample but changes what samples resolve to or
 * count (MMAP, MMAP2, COMM, FORK, EXIT, LOST, LOST_SAMPLES): few of them. */
struct vp_pd_nrec {
	uint64_t off;
	uint64_t time;		/* ~0: delivered as it comes (no timestamp to order by) */
	uint32_t round;		/* in the scan: the piece's round it falls in; then the file's */
	uint32_t flush;		/* the round whose end delivers it (or, without a
				 * time, it is read in): in the scan the piece's own
				 * (UINT32_MAX: not settled), then the plan's */
	union {			/* a copy of the record: the reader's buffer moves on */
		size_t pos;	/* (scan: in the piece's copies) */
		const struct perf_event_header *h;	/* (plan) */
	} rec;
};

/* A round's records that wait in perf's ordering queue (those with a
 * timestamp): how many, and the newest time among them. */
struct vp_pd_round {
	uint64_t queued, newest;
	uint64_t start;		/* where its first record is */
	size_t nfirst;		/* the piece's records that are not samples before it */
};

/* perf's ordering queue as FINISHED_ROUNDs see it (pieces.c's header says
 * how): the newest time queued so far, the limit the next round's end
 * flushes to, and whether records wait. */
struct vp_pd_queue {
	uint64_t newest, next_flush;
	int pending;
};

/* The flush limit at the end of round rd, before the limit at the end of
 * the round before: the file's (plan_rounds) and a piece's own, as if its
 * queue began empty (early.c). */
static inline uint64_t vp_pd_round_limit(struct vp_pd_queue *q, const struct vp_pd_round *rd,
					 uint64_t before)
{
	uint64_t lim = before;

	if (rd->queued && rd->newest > q->newest)
		q->newest = rd->newest;
	if (q->pending || rd->queued) {
		if (q->next_flush > lim)
			lim = q->next_flush;
		q->pending = q->newest > q->next_flush;
		q->next_flush = q->newest;
	}
	return lim;
}

/* Where the count may start within a piece: the first record at or after a
 * stride's boundary, and how many FINISHED_ROUNDs of the piece come before. */
struct vp_pd_cut {
	uint64_t off;
	uint32_t rounds;
};

struct vp_pd_piece {
	VP_THREAD_OWN uint64_t begin, end;	/* its records start in [begin, end): one thread's */
	uint64_t first, exit;		/* its first record; where its last one ends */
	int odd;			/* a record only the ordered walk takes (aux data, attrs...) */
	int broken;			/* the records break at exit: damaged, or cut short */
	/* rounds: one per FINISHED_ROUND in the piece, and the open one after */
	struct vp_pd_round *rounds;
	size_t nrounds, caprounds;
	struct vp_pd_nrec *n;
	size_t nn, capn;
	uint8_t *copies;		/* of the n records, 8-byte aligned */
	size_t ncopies, capcopies;
	size_t *hdr;			/* header records (types 64 and up) for vp_pd_header_record:
					 * where their copies are */
	size_t nhdr, caphdr;
	struct vp_pd_cut *cuts;		/* one per stride the piece crosses */
	size_t ncuts, capcuts;
	uint64_t records, skipped, compressed;
	/* While the scan runs: how far its reader is (scan.c), whether one
	 * reads it (PIECE_*, pieces.c), and its number for the count in the
	 * scan, which a piece split off keeps once the pieces are put back in
	 * file order. */
	uint64_t at, step;		/* step: how often it says so (0: never) */
	int state;
	size_t id;
	uint32_t round0;		/* the plan: the file's round its first record is in */
	size_t mark0;			/* the plan: the file's records that are not samples
					 * in the pieces before */
	/* The count in the scan (early.c): its rounds [elo, elo + erounds)
	 * counted as they were read, by the piece's own limits (llimit, by
	 * its rounds) and its own order of its records; what the scan's
	 * workers counted there stands when the plan finds the same (eok). */
	uint32_t elo, erounds;
	int eok;
	uint64_t *llimit;
	size_t capll;
	uint64_t esamples, eunknown, eooo;
};

/* Pieces begin on multiples of this (a piece's reads then start where
 * the page cache's large folios do). */
#define VP_PD_STRIDE VP_PD_PMD
/* Each record's place comes from the size in the one before, a chain of
 * loads the hardware prefetcher does not follow across pages: both passes
 * ask for the line a page ahead while they read this one. The scan (one
 * CPU, 294 MB file, medians of 10 alternating runs): 67-74 ms without,
 * 42-49 ms with; 2 KiB and 8 KiB ahead did no better. The count (316 MB -g
 * file, medians of 6-10 alternating runs): 222 to 194 ms on one CPU, 124 to
 * 111 ms on two; a 310 MB flat file 269 to 242 and 148 to 133; 2 KiB,
 * 8 KiB or a second line ahead did no better. (Measured when both passes
 * mapped the file.) */
#define VP_PD_PREFETCH 4096
/* The count's chunks: cut at the first record from a multiple of this
 * on, so a chunk and the record that runs past the multiple fit in a
 * reader's buffer of 2 MiB, one huge page. */
#define VP_PD_RECORD_MAX (64u << 10)	/* a record's size is 16 bits */
#define VP_PD_CHUNK (VP_PD_PMD - VP_PD_RECORD_MAX)

/* A reader's bytes of the file: a buffer of cap bytes holding [lo, hi),
 * read on a step at a time and, once full, started again from where what is
 * asked for begins. */
struct vp_pd_view {
	int fd;
	uint64_t end;			/* nothing is read from here on */
	uint8_t *buf;			/* made at the first fill */
	size_t cap;
	uint64_t lo, hi;
};
void vp_pd_view_init(struct vp_pd_view *v, int fd, uint64_t end, size_t cap);
void vp_pd_view_free(struct vp_pd_view *v);
const uint8_t *vp_pd_view_fill(struct vp_pd_view *v, uint64_t off, size_t n);
/* Bytes [off, off + n) of the file, valid until the next call; NULL when
 * they cannot be read (past the end, n over cap, a read error). */
static inline const uint8_t *vp_pd_view_at(struct vp_pd_view *v, uint64_t off, size_t n)
{
	if (off >= v->lo && off + n <= v->hi)
		return v->buf + (off - v->lo);
	return vp_pd_view_fill(v, off, n);
}

/* Scan one piece of the file through v from p->first, or (resync) from the
 * first offset in [begin, end) that looks like a run of records: the plan
 * checks that start against where the piece before ends; the piece is cut
 * for the count where its records cross a multiple of chunk bytes. 0, or
 * -ENOMEM. */
struct vp_pd_escan;
int vp_pd_scan_piece(struct vp_perfdata *pd, struct vp_pd_view *v, struct vp_pd_piece *p, int resync,
		     uint64_t chunk, struct vp_pd_escan *es);
void vp_pd_piece_reset(struct vp_pd_piece *p);

/* ---- where a sample goes among the records that are not samples ---- */

/* An order of such records (the plan's for the file, or a piece's own in
 * the scan): rounds numbered as its limits are; limit[r] is the flush limit
 * at the end of round r; n[lo[r]..qlo[r]) go out while round r is read,
 * n[qlo[r]..lo[r+1]) at its end. */
struct vp_pd_order {
	const uint64_t *limit;
	const struct vp_pd_nrec *n;
	const uint32_t *lo, *qlo;
	uint32_t nrounds;	/* limit[nrounds] = ~0 */
};

/* The last position a reader found (see vp_pd_position). */
struct vp_pd_hint {
	uint64_t when;		/* UINT64_MAX: none yet */
	uint32_t mark;
};

static inline int vp_pd_queued_time(uint64_t t)
{
	return t != 0 && t != ~0ull;
}

/* The round whose end delivers a record of round r with time t. */
static inline uint32_t vp_pd_flush_round(const struct vp_pd_order *o, uint32_t r, uint64_t t)
{
	uint32_t lo = r, hi = o->nrounds;	/* limit[nrounds] = ~0 always answers */

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (o->limit[mid] >= t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* 1 when record n goes out before a sample at (t, off): of those going out
 * at one moment, the untimed ones in file order, the queued ones in (time,
 * offset) order. */
static inline int vp_pd_goes_before(const struct vp_pd_nrec *n, int queued, uint64_t t, uint64_t off)
{
	return queued ? n->time < t || (n->time == t && n->off < off) : n->off < off;
}

/* Where perf delivers a sample of round r with time t at offset off: how
 * many records that are not samples go before it, and the round whose end
 * delivers it (or, without a time, the round it is read in). The last
 * answer is tried first: the samples of a chunk mostly fall between the
 * same two records (the search took a third of the walk's own time on the
 * flat bench file). */
static inline void vp_pd_position(const struct vp_pd_order *o, uint32_t r, uint64_t t, uint64_t off,
				  struct vp_pieces_pos *pos, struct vp_pd_hint *h)
{
	uint32_t lo, hi, f = r;
	int queued = vp_pd_queued_time(t);

	if (!queued) {
		lo = o->lo[r];
		hi = o->qlo[r];
	} else {
		/* most go out at the end of their round or of the next one */
		f = t <= o->limit[r] ? r : t <= o->limit[r + 1] ? r + 1 : vp_pd_flush_round(o, r, t);
		lo = o->qlo[f];
		hi = o->lo[f + 1];
	}
	pos->when = (uint64_t)f << 1 | queued;
	if (h->when == pos->when) {
		uint32_t m = h->mark;
		if ((m == lo || vp_pd_goes_before(&o->n[m - 1], queued, t, off)) &&
		    (m == hi || !vp_pd_goes_before(&o->n[m], queued, t, off))) {
			pos->mark = m;
			return;
		}
	}
	/* Records going out at the same moment: those before it in (time, offset). */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (vp_pd_goes_before(&o->n[mid], queued, t, off))
			lo = mid + 1;
		else
			hi = mid;
	}
	pos->mark = lo;
	h->when = pos->when;
	h->mark = lo;
}

/* How a walk of records places their samples and hands them over: the
 * count's walk of a chunk (pieces.c) and the scan's of a round (early.c). */
struct vp_pd_placing {
	struct vp_perfdata *pd;
	struct vp_pd_idcache *ids;
	const struct vp_pd_order *o;
	const uint64_t *limit;	/* by round: a sample below limit[round - 1] is out of order */
	int strict;		/* a sample past limit[round + 1] ends the walk: the
				 * order has no limits past it (a piece's own) */
	struct vp_pd_hint *hint;
	vp_pieces_sample_fn fn;
	void *wctx;
	uint64_t *out_of_order;
	struct vp_error *err;
};

enum { VP_PD_PLACED, VP_PD_PLACE_MALFORMED, VP_PD_PLACE_TOOL, VP_PD_PLACE_BEYOND };

/* The samples of the records [from, to) of the file, which start at buf,
 * from round `round` on (a FINISHED_ROUND ends one), each placed and handed
 * to fn: VP_PD_PLACED; VP_PD_PLACE_MALFORMED for a record that does not fit
 * or a sample that does not parse; VP_PD_PLACE_TOOL with fn's error in *rc;
 * VP_PD_PLACE_BEYOND (strict only). */
static inline int vp_pd_place_samples(const struct vp_pd_placing *pl, const uint8_t *buf,
				      uint64_t from, uint64_t to, uint32_t round, int *rc)
{
	struct vp_sample s;
	struct vp_pieces_pos pos;

	for (uint64_t off = from; off < to;) {
		const struct perf_event_header *h = (const void *)(buf + (off - from));
		if (h->size < sizeof(*h) || h->size > to - off)
			return VP_PD_PLACE_MALFORMED;
		if (off + VP_PD_PREFETCH < to)
			__builtin_prefetch(buf + (off - from) + VP_PD_PREFETCH);
		if (h->type == PERF_RECORD_SAMPLE) {
			int r = vp_pd_parse_sample(pl->pd, pl->ids, h, off, &s, pl->err);
			if (r < 0)
				return VP_PD_PLACE_MALFORMED;
			if (r > 0) {
				int queued = vp_pd_queued_time(s.time);
				if (pl->strict && queued && s.time > pl->limit[round + 1])
					return VP_PD_PLACE_BEYOND;
				if (queued && s.time < pl->limit[round - 1])
					(*pl->out_of_order)++;
				vp_pd_position(pl->o, round, s.time, off, &pos, pl->hint);
				if ((*rc = pl->fn(pl->wctx, &s, &pos, pl->err)) < 0)
					return VP_PD_PLACE_TOOL;
			}
		} else if (h->type == VP_REC_FINISHED_ROUND) {
			round++;
		}
		off += h->size;
	}
	return VP_PD_PLACED;
}

/* lo[r] and qlo[r] for flush rounds r in [from, to] of records n[j, nn) in
 * perf's order, none of them flushed before from: where round r's records
 * begin, and where its timed ones do (its untimed ones go first). */
static inline void vp_pd_index_flushes(const struct vp_pd_nrec *n, size_t nn, size_t j,
				       uint32_t from, uint32_t to, uint32_t *lo, uint32_t *qlo)
{
	for (uint32_t r = from; r <= to; r++) {
		while (j < nn && n[j].flush < r)
			j++;
		lo[r] = (uint32_t)j;
		while (j < nn && n[j].flush == r && n[j].time == ~0ull)
			j++;
		qlo[r] = (uint32_t)j;
	}
}

/* perf's order of the records that are not samples (qsort's). */
static inline int vp_pd_cmp_order(const void *a, const void *b)
{
	const struct vp_pd_nrec *x = a, *y = b;
	int qx = x->time != ~0ull, qy = y->time != ~0ull;

	if (x->flush != y->flush)
		return x->flush < y->flush ? -1 : 1;
	if (qx != qy)
		return qx - qy;	/* those read before the round ends first */
	if (qx && x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* ---- the count in the scan (early.c) ---- */

/* A piece's count while it is scanned: rounds from VP_PD_ELO on, each
 * counted once the next one is read (a sample of round r goes out at the
 * end of round r or r + 1, so its place among the piece's own records is
 * known then). */
#define VP_PD_ELO 3
struct vp_pd_escan {
	const struct vp_pieces_early *e;
	void *wctx;
	struct vp_pd_idcache ids;
	struct vp_error err;
	size_t piece;
	struct vp_pd_queue q;	/* the piece's own queue */
	int stopped;
	/* the piece's own order of its records, by local flush round */
	struct vp_pd_nrec *ln, *tmp;
	size_t nln, capln, captmp;
	uint32_t *lo, *qlo;
	size_t caplo;
	uint32_t upto;		/* flush rounds [0, upto) are in ln */
	size_t from;		/* records before this one (file order) are in ln */
	size_t assigned;	/* records before this one have their flush round */
	struct vp_pd_hint hint;
};
/* A piece's scan begins (es from vp_pd_escan_init), or ends. */
void vp_pd_escan_begin(struct vp_pd_escan *es, struct vp_pd_piece *p, size_t piece);
void vp_pd_escan_end(struct vp_pd_escan *es, struct vp_pd_piece *p);
void vp_pd_escan_free(struct vp_pd_escan *es);
/* Round p->nrounds - 1 has ended: its own limit, the flush rounds it
 * settles, and the round before it counted from v's buffer. */
void vp_pd_escan_round(struct vp_perfdata *pd, struct vp_pd_view *v, struct vp_pd_piece *p,
		       struct vp_pd_escan *es);
/* Where a refill of v must begin to keep the round still to be counted. */
static inline uint64_t vp_pd_escan_keep(const struct vp_pd_escan *es, const struct vp_pd_piece *p,
					uint64_t off)
{
	if (!es || es->stopped || p->nrounds < VP_PD_ELO + 1)
		return off;
	return p->rounds[p->nrounds - 1].start;
}
/* After the plan's limits: 1 when what the scan counted in piece pc stands.
 * A counted sample of round r (VP_PD_ELO <= r < elo + erounds) goes out at
 * the end of round r or r + 1 and sees limits r - 1 to r + 1; a record of
 * the piece of round q goes out at the end of q or q + 1: one of rounds 0
 * to 2 before every counted sample, one of rounds 2 on by limits q and
 * q + 1. So the piece's own order and the file's agree on every counted
 * sample's place when limits elo - 1 to elo + erounds agree. */
int vp_pd_escan_limits_hold(const struct vp_pd_piece *pc, const uint64_t *limit);

#endif
