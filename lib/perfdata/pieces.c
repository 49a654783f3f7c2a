/* The walk in pieces (see perfdata.h): the data section cut into byte
 * ranges, scanned on several threads (scan.c), then planned here on one:
 * the pieces' starts checked against each other, perf's ordering queue
 * replayed round by round to know each round's flush limit, and the few
 * records that are not samples sorted into the order `perf report`
 * delivers them. A sample's mark (how many of those come before it) is then
 * a lookup in that plan, so the samples are read on every thread at once.
 *
 * The ordering, as ordered.c and walk.c do it: a record with a timestamp is
 * queued; the FINISHED_ROUND that ends round r delivers the queued records
 * with time <= limit(r), in (time, file offset) order, where limit(r) is the
 * newest time queued when round r-1 ended (unchanged when the queue was
 * empty then); the file's end delivers the rest; a record without a
 * timestamp goes out as it is read. So a record of round r with time t goes
 * out at the end of the first round f >= r whose limit reaches t. The
 * queue's half flush (more than 4M records waiting) is not followed: a file
 * that could trigger it is left to the ordered walk, as are pipes, damaged
 * files and records this plan does not model (aux data, attrs mid-file). */
#include "pieces.h"
#include "sample.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util/bulk.h"
#include "lib/util/progress.h"
#include "lib/util/runsort.h"
#include "lib/util/threads.h"

/* The scan's pieces go to threads from one queue: the last one taken
 * decides when the scan ends, so there are several per thread. With 4 a
 * 2-CPU scan of the 338 MB -g bench file ended with one thread idle for a
 * median 4.3 ms (20 runs), with 6 for 0.6 ms; 8 were no faster than 6 in 30
 * alternating pairs (a piece costs about 0.06 ms of its own). */
#define PIECES_PER_THREAD 6
/* A thread that finds no piece left splits the one with most left to read
 * (when each half holds STEAL_MIN: a piece costs its keys' merge after the
 * plan) and reads its second half, so the threads end the scan together:
 * one of 2 CPUs sat idle a mean 9.6 ms (max 21.8) at the end of the -g
 * bench file's scan, 3.7 (max 8.9) with splits (20 alternated runs each).
 * At most STEALS_PER_THREAD pieces a thread are made this way. */
#define STEAL_MIN (4ull << 20)
#define STEAL_LESS (2ull << 20)
#define STEAL_ALIGN (256ull << 10)	/* scan.c's read step */
#define PUBLISH_STEP (64ull << 10)	/* how often a reader says where it is */
#define STEALS_PER_THREAD 4

uint64_t vp_pd_steal_min = STEAL_MIN;

enum { PIECE_WAITING, PIECE_READ, PIECE_DONE };
#define QUEUE_MAX	((256ull << 20) / 64)	/* ordered.c's half-flush threshold, in records */

struct worker {
	VP_THREAD_OWN struct vp_error err;
	int rc;			/* a tool's error */
	size_t rc_chunk;	/* in this chunk (the first chunk's error wins) */
	int malformed;		/* a sample the ordered walk must name */
	struct vp_pd_idcache ids;
	uint64_t out_of_order;
};

/* A thread's reader, for both passes: what it writes stays on its lines. */
struct reader {
	VP_THREAD_OWN struct vp_pd_view v;
	struct vp_pd_escan es;	/* the count in the scan's, when asked for */
};

struct vp_pieces {
	struct vp_perfdata *pd;
	struct reader *rd;	/* one per thread */
	struct vp_pd_piece *pc;
	size_t npc;
	/* the scan: its items taken (the side jobs, then the pieces cut), room
	 * for pieces split off, who splits, and where each piece's number
	 * went once they are in file order (NULL: nothing was split) */
	size_t nside, items, next, cappc;
	pthread_mutex_t steal_mu;
	size_t *slot, nslot;
	size_t split;		/* pieces split off */
	size_t reread;		/* pieces the join read again from the one before's end */
	int scan_rc;
	struct chunk *ch;	/* the count's items, in file order */
	size_t nch;
	int chunked;		/* ch made (at the first vp_pieces_samples) */
	uint64_t chunk_bytes;	/* their size (VP_PD_CHUNK) */
	void (*side)(void *ctx);	/* vp_pieces_side_job's, the count's item 0 */
	void *side_ctx;
	unsigned threads;
	/* The plan. Rounds are numbered from 1; round M+1 (nrounds) is what
	 * follows the last FINISHED_ROUND and ends with the file. */
	uint32_t nrounds;
	uint64_t *limit;	/* [0, M+1]: flush limit at the end of round r; limit[M+1] = ~0 */
	struct vp_pd_nrec *n;	/* in perf's order */
	size_t nn;
	uint32_t *lo, *qlo;	/* [1, M+2]: n[lo[r]..qlo[r]) go out while round r is read,
				 * n[qlo[r]..lo[r+1]) at its end */
	struct vp_pd_order ord;	/* the above, for vp_pd_position */
	const struct vp_pieces_early *early;	/* the count in the scan: NULL, none */
	struct vp_perfdata_stats stats;
	int replayed;
	int stop;		/* a worker failed: the others skip what is left */
	vp_pieces_sample_fn fn;
	void *const *wctx;
	struct worker *wk;
};

/* The count takes the file a chunk (VP_PD_CHUNK of records) at a time,
 * whatever the scan's pieces: a thread that finishes early takes the next
 * one, so the CPUs end together (counted by the scan's pieces, then 4 a
 * thread, whose samples differ by 2x, one of 2 CPUs sat idle for 7-17 ms
 * of a 100 ms count). */
struct chunk {
	uint64_t from, to;	/* its records start in [from, to) */
	uint32_t round;		/* the file's round at from */
};

static int scan_one(struct vp_pieces *p, unsigned thread, size_t k)
{
	struct vp_pd_escan *es = p->early ? &p->rd[thread].es : NULL;
	struct vp_pd_piece *pc = &p->pc[k];
	int r;

	if (es)
		vp_pd_escan_begin(es, pc, pc->id);
	r = vp_pd_scan_piece(p->pd, &p->rd[thread].v, pc, k > 0, p->chunk_bytes, es);
	if (es)
		vp_pd_escan_end(es, pc);
	pthread_mutex_lock(&p->steal_mu);
	pc->state = PIECE_DONE;
	pthread_mutex_unlock(&p->steal_mu);
	vp_progress_advance(__atomic_load_n(&pc->end, __ATOMIC_RELAXED) - pc->begin);
	return r;
}

/* The piece split off the one with most left to read, or SIZE_MAX: none
 * with two halves of vp_pd_steal_min. Pieces taken but not yet begun are
 * waited for, since they may be the ones to split. The reader of the piece
 * split stops at its first record past the cut, and the new piece starts
 * at the first record it finds past the cut, as any piece does: the plan's
 * join checks that they meet (and reads the piece again when not). */
static size_t steal(struct vp_pieces *p)
{
	/* a new piece starts slower (its keys all new, its first rounds not
	 * counted): the thief takes a little less than half, cut on the
	 * reader's step (tests' small sizes: on any record's alignment) */
	uint64_t min = vp_pd_steal_min, tests = min < VP_PD_STRIDE;
	uint64_t align = tests ? 8 : STEAL_ALIGN, less = tests ? 0 : STEAL_LESS;

	for (;;) {
		size_t best = SIZE_MAX, k = SIZE_MAX;
		uint64_t most = 0, cut = 0;
		int waiting = 0;

		pthread_mutex_lock(&p->steal_mu);
		for (size_t j = 0; j < p->npc; j++) {
			struct vp_pd_piece *pc = &p->pc[j];
			uint64_t at = __atomic_load_n(&pc->at, __ATOMIC_RELAXED);
			waiting |= pc->state == PIECE_WAITING;
			if (pc->state == PIECE_READ && pc->end > at && pc->end - at > most) {
				most = pc->end - at;
				best = j;
			}
		}
		if (best != SIZE_MAX && most >= 2 * min && p->npc < p->cappc) {
			struct vp_pd_piece *v = &p->pc[best];
			uint64_t at = __atomic_load_n(&v->at, __ATOMIC_RELAXED);
			cut = (at + (most + less) / 2) & ~(align - 1);
			if (cut > at && cut > v->begin && cut < v->end) {
				k = p->npc++;
				p->pc[k].begin = cut;
				p->pc[k].end = v->end;
				p->pc[k].at = cut;
				p->pc[k].step = v->step;
				p->pc[k].id = k;
				p->pc[k].state = PIECE_READ;
				__atomic_store_n(&v->end, cut, __ATOMIC_RELAXED);
			}
		}
		pthread_mutex_unlock(&p->steal_mu);
		if (k != SIZE_MAX || !waiting)
			return k;
		sched_yield();	/* a piece another thread took is about to begin */
	}
}

static void scan_main(void *ctx, unsigned thread)
{
	struct vp_pieces *p = ctx;
	size_t k;
	int r = 0;

	while (!r && (k = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED)) < p->items) {
		if (k < p->nside) {
			p->early->side(p->early->side_ctx, k);
			continue;
		}
		k -= p->nside;
		pthread_mutex_lock(&p->steal_mu);
		p->pc[k].state = PIECE_READ;
		pthread_mutex_unlock(&p->steal_mu);
		r = scan_one(p, thread, k);
	}
	while (!r && (k = steal(p)) != SIZE_MAX)
		r = scan_one(p, thread, k);
	if (r < 0)
		__atomic_store_n(&p->scan_rc, r, __ATOMIC_RELAXED);
}

static int by_begin(const void *a, const void *b)
{
	const struct vp_pd_piece *x = a, *y = b;

	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* The scan on every thread; the pieces then in file order. 0 or -ENOMEM. */
static int scan_pieces(struct vp_pieces *p)
{
	size_t cut = p->npc, run;

	p->nside = p->early && p->early->side ? p->early->nside : 0;
	p->items = p->npc + p->nside;
	/* threads beyond the items only split pieces big enough to split */
	run = p->items;
	if (p->pd->data_end - p->pd->data_start >= 2 * vp_pd_steal_min)
		run += p->cappc - p->npc;
	vp_run_threads(p->threads < run ? p->threads : (unsigned)run, scan_main, p);
	if (p->scan_rc < 0)
		return p->scan_rc;
	p->split = p->npc - cut;
	if (!p->split)
		return 0;
	qsort(p->pc, p->npc, sizeof(*p->pc), by_begin);
	if (!(p->slot = malloc(p->npc * sizeof(*p->slot))))
		return -ENOMEM;
	p->nslot = p->npc;
	for (size_t k = 0; k < p->npc; k++)
		p->slot[p->pc[k].id] = k;
	return 0;
}

size_t vp_pd_pieces_split(const struct vp_pieces *p)
{
	return p->split;
}

size_t vp_pd_pieces_reread(const struct vp_pieces *p)
{
	return p->reread;
}

/* How often a reader says where it is: well within a split's least half. */
static uint64_t publish_step(void)
{
	return vp_pd_steal_min / 4 < PUBLISH_STEP ? vp_pd_steal_min / 4 : PUBLISH_STEP;
}

/* Where piece number id is in file order. */
static size_t piece_at(const struct vp_pieces *p, size_t id)
{
	if (!p->slot)
		return id;
	return id < p->nslot ? p->slot[id] : SIZE_MAX;
}

/* Each piece starts where the one before ends (scanning it again from there
 * when its guess was wrong); a piece that breaks ends the file when it was
 * recovered. 0, 1 for the ordered walk, or -ENOMEM. */
static int join_pieces(struct vp_pieces *p)
{
	struct vp_perfdata *pd = p->pd;

	for (size_t k = 0; k < p->npc; k++) {
		struct vp_pd_piece *pc = &p->pc[k];
		if (k && pc->first != p->pc[k - 1].exit) {
			p->reread++;
			vp_pd_piece_reset(pc);
			pc->first = p->pc[k - 1].exit;
			if (vp_pd_scan_piece(pd, &p->rd[0].v, pc, 0, p->chunk_bytes, NULL) < 0)
				return -ENOMEM;
		}
		if (pc->odd)
			return 1;
		if (pc->broken) {
			/* A recorder killed mid-record: read up to the last whole one,
			 * as the ordered walk does; anywhere else the ordered walk
			 * names the damage. */
			if (!pd->stats.recovered)
				return 1;
			p->stats.dropped_bytes = pd->data_end - pc->exit;
			for (size_t j = k + 1; j < p->npc; j++)
				vp_pd_piece_reset(&p->pc[j]);
			p->npc = k + 1;
			break;
		}
	}
	return 0;
}

/* perf's queue, round by round: the flush limit at each round's end. */
static int plan_rounds(struct vp_pieces *p)
{
	uint32_t m = 0, g = 1;
	struct vp_pd_round *rd;

	for (size_t k = 0; k < p->npc; k++)
		m += (uint32_t)p->pc[k].nrounds - 1;
	if (m >= 1u << 30)	/* a position's `when` keeps a round in 31 bits */
		return 1;
	p->nrounds = m + 1;
	rd = calloc(m + 2, sizeof(*rd));
	p->limit = calloc(m + 2, sizeof(*p->limit));
	if (!rd || !p->limit) {
		free(rd);
		return -ENOMEM;
	}
	for (size_t k = 0; k < p->npc; k++) {
		struct vp_pd_piece *pc = &p->pc[k];
		pc->round0 = g;
		for (size_t i = 0; i < pc->nrounds; i++) {
			rd[g + i].queued += pc->rounds[i].queued;
			if (pc->rounds[i].newest > rd[g + i].newest)
				rd[g + i].newest = pc->rounds[i].newest;
		}
		g += (uint32_t)pc->nrounds - 1;
	}
	struct vp_pd_queue q = { 0 };
	for (uint32_t r = 1; r <= p->nrounds; r++) {
		/* The queue holds this round's records and what the last round
		 * left: past the threshold the ordered walk flushes half. */
		if (rd[r].queued + rd[r - 1].queued > QUEUE_MAX) {
			free(rd);
			return 1;
		}
		if (r == p->nrounds)
			break;
		p->limit[r] = vp_pd_round_limit(&q, &rd[r], p->limit[r - 1]);
	}
	p->limit[p->nrounds] = ~0ull;
	p->ord.limit = p->limit;
	p->ord.nrounds = p->nrounds;
	free(rd);
	return 0;
}

/* The records that are not samples, in perf's order. */
static int plan_records(struct vp_pieces *p)
{
	size_t nn = 0, i = 0;

	for (size_t k = 0; k < p->npc; k++)
		nn += p->pc[k].nn;
	if (nn >= UINT32_MAX)
		return 1;
	p->n = malloc((nn ? nn : 1) * sizeof(*p->n));
	p->lo = calloc(p->nrounds + 3, sizeof(*p->lo));
	p->qlo = calloc(p->nrounds + 3, sizeof(*p->qlo));
	if (!p->n || !p->lo || !p->qlo)
		return -ENOMEM;
	for (size_t k = 0; k < p->npc; k++) {
		struct vp_pd_piece *pc = &p->pc[k];
		/* the count in the scan stands where the piece's own order is the file's */
		pc->eok = vp_pd_escan_limits_hold(pc, p->limit);
		pc->mark0 = i;
		for (size_t j = 0; j < pc->nn; j++) {
			struct vp_pd_nrec n = pc->n[j];
			n.rec.h = (const void *)(pc->copies + pc->n[j].rec.pos);
			if (vp_pd_record_short(n.rec.h))
				return 1;	/* the ordered walk names it */
			n.round += pc->round0;
			n.flush = n.time == ~0ull ? n.round : vp_pd_flush_round(&p->ord, n.round, n.time);
			if (n.time != ~0ull && n.time < p->limit[n.round - 1])
				p->stats.out_of_order++;
			p->n[i++] = n;
		}
		/* p->n holds them now (the copies stay) */
		free(pc->n);
		pc->n = NULL;
		pc->nn = pc->capn = 0;
	}
	p->nn = nn;
	/* Nearly in order already: a 1.6 MB recording's 254 records came in 2
	 * runs, the 237 MB bench file grown from it (38100) in 300; qsort took
	 * 3.9-4.5 ms of this serial step on that file, vp_runsort 0.35-0.6. */
	if (vp_runsort(p->n, nn, sizeof(*p->n), vp_pd_cmp_order) < 0)
		return -ENOMEM;
	vp_pd_index_flushes(p->n, nn, 0, 1, p->nrounds + 1, p->lo, p->qlo);
	p->ord.n = p->n;
	p->ord.lo = p->lo;
	p->ord.qlo = p->qlo;
	return 0;
}

static int add_chunk(struct vp_pieces *p, size_t *cap, uint64_t from, uint64_t to, uint32_t round)
{
	if (to <= from)
		return 0;
	if (vp_grow((void **)&p->ch, cap, p->nch, sizeof(*p->ch), 64) < 0)
		return -ENOMEM;
	p->ch[p->nch++] = (struct chunk){ from, to, round };
	return 0;
}

/* The pieces cut where their records cross a multiple of chunk_bytes (the
 * scan's cuts), each chunk with the round it starts in; without the rounds
 * counted in the scan. */
static int plan_chunks(struct vp_pieces *p)
{
	size_t cap = 0;
	uint64_t early = 0;

	for (size_t k = 0; k < p->npc; k++) {
		const struct vp_pd_piece *pc = &p->pc[k];
		uint64_t from = pc->first, x = UINT64_MAX, y = UINT64_MAX;
		uint32_t round = pc->round0, yround = 0;
		if (pc->eok) {	/* [x, y) was counted in the scan */
			p->stats.samples += pc->esamples;
			p->stats.unknown_id += pc->eunknown;
			p->stats.out_of_order += pc->eooo;
			x = pc->rounds[pc->elo].start;
			y = pc->rounds[pc->elo + pc->erounds].start;
			yround = pc->round0 + pc->elo + pc->erounds;
			early += y - x;
		}
		for (size_t i = 0; i <= pc->ncuts; i++) {
			uint64_t to = i < pc->ncuts ? pc->cuts[i].off : pc->exit;
			int r;
			if (to <= x || from >= y)	/* all of it outside */
				r = add_chunk(p, &cap, from, to, round);
			else	/* what comes before x, and after y */
				r = add_chunk(p, &cap, from, x, round) < 0 ? -ENOMEM :
				    add_chunk(p, &cap, y, to, yround);
			if (r < 0)
				return -ENOMEM;
			if (i < pc->ncuts) {
				from = to;
				round = pc->round0 + pc->cuts[i].rounds;
			}
		}
	}
	vp_progress_advance(early);
	return 0;
}

/* Header records met in the data (event updates...), in file order. */
static int header_records(struct vp_pieces *p, struct vp_error *err)
{
	for (size_t k = 0; k < p->npc; k++) {
		const struct vp_pd_piece *pc = &p->pc[k];
		for (size_t j = 0; j < pc->nhdr; j++) {
			int r = vp_pd_header_record(p->pd, (const void *)(pc->copies + pc->hdr[j]), err);
			if (r < 0)
				return 1;
			p->stats.skipped_records += r == 0;
		}
		p->stats.records += pc->records;
		p->stats.skipped_records += pc->skipped;
		p->stats.compressed_records += pc->compressed;
	}
	return 0;
}

void vp_pieces_close(struct vp_pieces *p, int used)
{
	if (!p)
		return;
	if (used) {
		struct vp_perfdata_stats *s = &p->pd->stats;
		s->records += p->stats.records;
		s->samples += p->stats.samples;
		s->unknown_id += p->stats.unknown_id;
		s->lost_events += p->stats.lost_events;
		s->lost_samples += p->stats.lost_samples;
		s->skipped_records += p->stats.skipped_records;
		s->compressed_records += p->stats.compressed_records;
		s->out_of_order += p->stats.out_of_order;
		s->dropped_bytes += p->stats.dropped_bytes;
		p->pd->walked = 1;
	}
	for (size_t k = 0; k < p->npc; k++)
		vp_pd_piece_reset(&p->pc[k]);
	free(p->pc);
	free(p->slot);
	pthread_mutex_destroy(&p->steal_mu);
	free(p->ch);
	free(p->limit);
	free(p->n);
	free(p->lo);
	free(p->qlo);
	free(p->wk);
	if (p->rd)
		for (unsigned t = 0; t < p->threads; t++) {
			vp_pd_view_free(&p->rd[t].v);
			vp_pd_escan_free(&p->rd[t].es);
		}
	free(p->rd);
	free(p);
}

size_t vp_pd_piece_cut(uint64_t start, uint64_t end, unsigned threads, uint64_t *bytes)
{
	uint64_t b = *bytes;

	if (!b) {
		b = (end - start) / ((threads ? threads : 1) * PIECES_PER_THREAD);
		b = (b + VP_PD_STRIDE - 1) & ~(uint64_t)(VP_PD_STRIDE - 1);
		if (!b)
			b = VP_PD_STRIDE;
	}
	b = (b + 7) & ~7ull;
	*bytes = b;
	return (size_t)((end + b - 1) / b - start / b);
}

uint64_t vp_pd_piece_begin(uint64_t start, uint64_t bytes, size_t k)
{
	return k ? (start / bytes + k) * bytes : start;
}

int vp_pd_pieces_open(struct vp_perfdata *pd, unsigned threads, uint64_t piece_bytes,
		      uint64_t chunk_bytes, const struct vp_pieces_early *e, struct vp_pieces **out,
		      struct vp_error *err)
{
	struct vp_pieces *p;
	uint64_t size;
	int r;

	*out = NULL;
	if (pd->is_pipe || pd->walked || pd->data_end <= pd->data_start || pd->data_end == UINT64_MAX)
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return vp_errorf(err, -ENOMEM, "out of memory");
	p->pd = pd;
	p->threads = threads ? threads : 1;
	p->chunk_bytes = chunk_bytes ? chunk_bytes : VP_PD_CHUNK;
	size = pd->data_end - pd->data_start;
	p->npc = vp_pd_piece_cut(pd->data_start, pd->data_end, p->threads, &piece_bytes);
	p->cappc = p->npc + (p->threads > 1 ? STEALS_PER_THREAD * (size_t)p->threads : 0);
	pthread_mutex_init(&p->steal_mu, NULL);
	if (!(p->pc = vp_thread_calloc(p->cappc, sizeof(*p->pc))) ||
	    !(p->wk = vp_thread_calloc(p->threads, sizeof(*p->wk))) ||
	    !(p->rd = vp_thread_calloc(p->threads, sizeof(*p->rd)))) {
		vp_pieces_close(p, 0);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	/* a buffer holds the longest chunk (a multiple's cut and the record
	 * across it), or the whole data when that is less */
	size_t cap = p->chunk_bytes + VP_PD_RECORD_MAX;
	if (size < cap)
		cap = (size_t)size;
	for (unsigned t = 0; t < p->threads; t++) {
		vp_pd_view_init(&p->rd[t].v, pd->fd, pd->data_end, cap);
		if ((p->early = e)) {
			p->rd[t].es.e = e;
			p->rd[t].es.wctx = e->wctx[t];
		}
	}
	for (size_t k = 0; k < p->npc; k++) {
		p->pc[k].id = k;
		p->pc[k].begin = vp_pd_piece_begin(pd->data_start, piece_bytes, k);
		p->pc[k].end = k + 1 == p->npc ? pd->data_end
					       : vp_pd_piece_begin(pd->data_start, piece_bytes, k + 1);
		p->pc[k].at = p->pc[k].begin;
		p->pc[k].step = p->cappc > p->npc ? publish_step() : 0;
	}
	p->pc[0].first = pd->data_start;
	vp_progress_expect(size, 2);
	r = scan_pieces(p);
	if (r == 0)
		r = join_pieces(p);
	if (r == 0)
		r = header_records(p, err);
	if (r == 0)
		r = plan_rounds(p);
	if (r == 0)
		r = plan_records(p);
	if (r != 0) {
		vp_pieces_close(p, 0);
		/* the ordered walk counts its own */
		vp_progress_add(-(int64_t)size, -2 * (int64_t)size, -(int64_t)size);
		return r < 0 ? vp_errorf(err, r, "'%s': out of memory", pd->path) : 0;
	}
	*out = p;
	return 0;
}

int vp_pieces_open(struct vp_perfdata *pd, unsigned threads, struct vp_pieces **out,
		   struct vp_error *err)
{
	return vp_pd_pieces_open(pd, threads, 0, 0, NULL, out, err);
}

unsigned vp_pieces_early_threads(unsigned threads)
{
	return threads ? threads : 1;
}

int vp_pieces_open_early(struct vp_perfdata *pd, unsigned threads, uint64_t piece_bytes,
			 const struct vp_pieces_early *e, struct vp_pieces **out, struct vp_error *err)
{
	return vp_pd_pieces_open(pd, threads, piece_bytes, 0, e, out, err);
}

void vp_pieces_early_reject(struct vp_pieces *p, size_t id)
{
	size_t k = piece_at(p, id);

	if (k < p->npc && !p->chunked)
		p->pc[k].eok = 0;
}

int vp_pieces_early_piece(const struct vp_pieces *p, size_t id, uint64_t *mark_base,
			  uint64_t *when_base)
{
	size_t k = piece_at(p, id);

	if (k >= p->npc || !p->pc[k].eok)
		return 0;
	*mark_base = p->pc[k].mark0;
	*when_base = (uint64_t)p->pc[k].round0 << 1;
	return 1;
}

unsigned vp_pieces_threads(const struct vp_pieces *p)
{
	return p->threads;
}

int vp_pieces_replay(struct vp_pieces *p, const struct vp_perf_tool *tool, void *ctx,
		     int (*at)(void *actx, uint64_t mark), void *actx, struct vp_error *err)
{
	struct vp_pd_idcache ids = { 0 };
	struct vp_perfdata_stats keep = p->pd->stats;
	int r = 0;

	for (size_t i = 0; i < p->nn && r >= 0; i++) {
		const struct perf_event_header *h = p->n[i].rec.h;
		if (at && (r = at(actx, i)) < 0)
			break;
		r = vp_pd_deliver_record(p->pd, tool, ctx, &ids, h, p->n[i].off, err);
	}
	if (r >= 0 && at)
		r = at(actx, p->nn);
	/* The lost counts are the file's: once, however often it is replayed. */
	if (!p->replayed) {
		p->stats.lost_events += p->pd->stats.lost_events - keep.lost_events;
		p->stats.lost_samples += p->pd->stats.lost_samples - keep.lost_samples;
	}
	p->pd->stats = keep;
	p->replayed = 1;
	return r < 0 ? r : 0;
}

/* One chunk's samples, each with its mark. */
static void sample_chunk(struct vp_pieces *p, unsigned w, void *wctx, size_t c)
{
	struct worker *wk = &p->wk[w];
	const struct chunk *ch = &p->ch[c];
	struct vp_pd_hint hint = { .when = UINT64_MAX };
	const struct vp_pd_placing pl = { p->pd, &wk->ids, &p->ord, p->limit, 0, &hint,
					  p->fn, wctx, &wk->out_of_order, &wk->err };
	/* whole records (the scan's cuts are record starts), at most the
	 * buffer: read at once, the record at off at buf + (off - from) */
	const uint8_t *buf = vp_pd_view_at(&p->rd[w].v, ch->from, (size_t)(ch->to - ch->from));
	int r = VP_PD_PLACE_MALFORMED, rc = 0;

	if (buf)
		r = vp_pd_place_samples(&pl, buf, ch->from, ch->to, ch->round, &rc);
	if (r == VP_PD_PLACED)
		return;
	if (r == VP_PD_PLACE_TOOL) {
		wk->rc = rc;
		wk->rc_chunk = c;
	} else {	/* the ordered walk reads it again and names what went wrong */
		wk->malformed = 1;
	}
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
}

static int samples_item(void *ctx, unsigned w, size_t k)
{
	struct vp_pieces *p = ctx;

	if (p->side && k-- == 0) {
		p->side(p->side_ctx);
		return 0;
	}

	if (!__atomic_load_n(&p->stop, __ATOMIC_RELAXED))
		sample_chunk(p, w, p->wctx[w], k);
	vp_progress_advance(p->ch[k].to - p->ch[k].from);
	return 0;
}

void vp_pieces_side_job(struct vp_pieces *p, void (*fn)(void *ctx), void *ctx)
{
	p->side = fn;
	p->side_ctx = ctx;
}

int vp_pieces_samples(struct vp_pieces *p, vp_pieces_sample_fn fn, void *const *wctx,
		      struct vp_error *err)
{
	struct worker *first = NULL;
	int malformed = 0;

	if (!p->chunked) {	/* once the tool has said which counts in the scan stand */
		if (plan_chunks(p) < 0)
			return vp_errorf(err, -ENOMEM, "'%s': out of memory", p->pd->path);
		p->chunked = 1;
	}
	p->fn = fn;
	p->wctx = wctx;
	p->stop = 0;
	for (unsigned w = 0; w < p->threads; w++)
		p->wk[w] = (struct worker){ .rc = 0 };
	vp_run_queue(p->threads, p->nch + !!p->side, samples_item, p);
	p->side = NULL;
	/* what the chunks leave: a tail cut short */
	vp_progress_advance(p->pd->data_end - (p->nch ? p->ch[p->nch - 1].to : p->pd->data_start));
	for (unsigned w = 0; w < p->threads; w++) {
		struct worker *wk = &p->wk[w];
		p->stats.samples += wk->ids.samples;
		p->stats.unknown_id += wk->ids.unknown_id;
		p->stats.out_of_order += wk->out_of_order;
		malformed |= wk->malformed;
		if (wk->rc < 0 && (!first || wk->rc_chunk < first->rc_chunk))
			first = wk;
	}
	if (first) {
		*err = first->err;
		return first->rc;
	}
	return malformed ? VP_PIECES_ORDERED : 0;
}
