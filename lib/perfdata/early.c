/* The count in the scan (see pieces.h and vp_pieces_open_early): a piece's
 * samples counted while the scan reads it, so that most of the file is
 * read once. A piece alone knows its own records that are not samples,
 * its own rounds and perf's queue as if it began empty: it orders its
 * records by that queue (the plan's rules, pieces.c) and places each
 * sample of its rounds from VP_PD_ELO on among them, once the next round
 * is read. Every record of the pieces before goes out by the end of the
 * piece's round 1 and every record of the pieces after from its last
 * round on, so such a sample's mark in the file is the pieces before's
 * records plus its mark in the piece, whenever the piece's limits and
 * its records' flush rounds are the file's: the plan checks that
 * (pieces.c), and where they differ the piece is counted again. */
#include "pieces.h"
#include "sample.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void vp_pd_escan_begin(struct vp_pd_escan *es, struct vp_pd_piece *p, size_t piece)
{
	es->piece = piece;
	es->ids = (struct vp_pd_idcache){ 0 };
	es->q = (struct vp_pd_queue){ 0 };
	es->stopped = 0;
	es->nln = 0;
	es->upto = 0;
	es->from = es->assigned = 0;
	es->hint.when = UINT64_MAX;
	p->elo = VP_PD_ELO;
	p->erounds = 0;
	p->esamples = p->eunknown = p->eooo = 0;
	if (es->e->begin && es->e->begin(es->wctx, piece))
		es->stopped = 1;	/* its samples come in vp_pieces_samples */
}

void vp_pd_escan_end(struct vp_pd_escan *es, struct vp_pd_piece *p)
{
	p->esamples = es->ids.samples;
	p->eunknown = es->ids.unknown_id;
	if (es->e->end)
		es->e->end(es->wctx, es->piece);
}

void vp_pd_escan_free(struct vp_pd_escan *es)
{
	free(es->ln);
	free(es->tmp);
	free(es->lo);
	free(es->qlo);
	es->ln = es->tmp = NULL;
	es->lo = es->qlo = NULL;
	es->capln = es->captmp = es->caplo = 0;
}

/* Nothing of the piece stands: the tool drops what it was given. */
static void drop(struct vp_pd_escan *es, struct vp_pd_piece *p)
{
	es->stopped = 1;
	p->erounds = 0;
}

/* The limit at the end of the piece's round c, for a queue that began empty. */
static int own_limit(struct vp_pd_escan *es, struct vp_pd_piece *p, uint32_t c)
{
	if (vp_grow((void **)&p->llimit, &p->capll, c, sizeof(*p->llimit), 64) < 0)
		return -ENOMEM;
	p->llimit[c] = vp_pd_round_limit(&es->q, &p->rounds[c], c ? p->llimit[c - 1] : 0);
	return 0;
}

/* The flush rounds the limits up to round c settle: a record of round r
 * goes out at the end of round r or r + 1. 0, or -1 when one does not. */
static int settle(struct vp_pd_escan *es, struct vp_pd_piece *p, uint32_t c)
{
	for (size_t j = es->assigned; j < p->nn; j++) {
		struct vp_pd_nrec *n = &p->n[j];
		if (n->flush != UINT32_MAX)
			continue;
		if (n->time <= p->llimit[n->round])
			n->flush = n->round;
		else if (n->round < c && n->time <= p->llimit[n->round + 1])
			n->flush = n->round + 1;
		else if (n->round < c)
			return -1;
	}
	while (es->assigned < p->nn && p->n[es->assigned].flush != UINT32_MAX)
		es->assigned++;
	return 0;
}

static int has_callback(const struct vp_perf_tool *t, uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return t->mmap != NULL;
	case PERF_RECORD_COMM:
		return t->comm != NULL;
	case PERF_RECORD_FORK:
		return t->fork != NULL;
	case PERF_RECORD_EXIT:
		return t->exit != NULL;
	default:
		return 0;	/* LOST ones count into the file's stats: the plan's replay's */
	}
}

/* The piece's records of flush rounds [upto, last] into its own order, and
 * to the tool in that order. */
static int append(struct vp_perfdata *pd, struct vp_pd_escan *es, struct vp_pd_piece *p,
		  uint32_t last)
{
	size_t ntmp = 0, was = es->nln, j;

	for (j = es->from; j < p->nn; j++) {
		const struct vp_pd_nrec *n = &p->n[j];
		if (n->flush < es->upto || n->flush > last)
			continue;
		if (vp_grow((void **)&es->tmp, &es->captmp, ntmp, sizeof(*es->tmp), 64) < 0)
			return -ENOMEM;
		es->tmp[ntmp++] = *n;
	}
	if (ntmp) {
		qsort(es->tmp, ntmp, sizeof(*es->tmp), vp_pd_cmp_order);
		while (es->capln < es->nln + ntmp)
			if (vp_grow((void **)&es->ln, &es->capln, es->capln, sizeof(*es->ln), 64) < 0)
				return -ENOMEM;
		memcpy(es->ln + es->nln, es->tmp, ntmp * sizeof(*es->tmp));
		es->nln += ntmp;
	}
	while (es->caplo < (size_t)last + 2) {
		size_t cap = es->caplo;	/* lo and qlo grow together */
		if (vp_grow((void **)&es->lo, &cap, es->caplo, sizeof(*es->lo), 64) < 0 ||
		    vp_grow((void **)&es->qlo, &es->caplo, es->caplo, sizeof(*es->qlo), 64) < 0)
			return -ENOMEM;
	}
	vp_pd_index_flushes(es->ln, es->nln, was, es->upto, last + 1, es->lo, es->qlo);
	es->upto = last + 1;
	for (j = was; j < es->nln; j++) {
		const struct perf_event_header *h = (const void *)(p->copies + es->ln[j].rec.pos);
		if (vp_pd_record_short(h))
			return -EINVAL;
		if (!has_callback(es->e->tool, h->type))
			continue;
		if ((es->e->at && es->e->at(es->wctx, j) < 0) ||
		    vp_pd_deliver_record(pd, es->e->tool, es->wctx, &es->ids, h, es->ln[j].off,
					 &es->err) < 0)
			return -EINVAL;
	}
	return 0;
}

/* Round i's samples, from v's buffer, placed in the piece's own order. */
static int count_round(struct vp_perfdata *pd, struct vp_pd_view *v, struct vp_pd_piece *p,
		       struct vp_pd_escan *es, uint32_t i)
{
	uint64_t from = p->rounds[i].start, to = p->rounds[i + 1].start;
	const struct vp_pd_order o = { p->llimit, es->ln, es->lo, es->qlo, UINT32_MAX };
	const struct vp_pd_placing pl = { pd, &es->ids, &o, p->llimit, 1, &es->hint,
					  es->e->sample, es->wctx, &p->eooo, &es->err };
	int rc;

	if (from < v->lo || to > v->hi)
		return 1;	/* the buffer moved on: the rest of the piece waits */
	if (vp_pd_place_samples(&pl, v->buf + (from - v->lo), from, to, i, &rc) != VP_PD_PLACED)
		return -1;
	p->erounds++;
	return 0;
}

void vp_pd_escan_round(struct vp_perfdata *pd, struct vp_pd_view *v, struct vp_pd_piece *p,
		       struct vp_pd_escan *es)
{
	uint32_t c = (uint32_t)p->nrounds - 1;	/* the round that ended */
	int r;

	if (es->stopped)
		return;
	if (own_limit(es, p, c) < 0 || settle(es, p, c) < 0) {
		drop(es, p);
		return;
	}
	if (c < VP_PD_ELO + 1)
		return;
	/* round c - 1: its samples go out by the end of round c */
	if (append(pd, es, p, c) < 0 || (r = count_round(pd, v, p, es, c - 1)) < 0) {
		drop(es, p);
		return;
	}
	if (r > 0)
		es->stopped = 1;
	es->from = p->rounds[c].nfirst;
}

int vp_pd_escan_limits_hold(const struct vp_pd_piece *pc, const uint64_t *limit)
{
	if (!pc->erounds)
		return 0;
	for (uint32_t r = pc->elo - 1; r <= pc->elo + pc->erounds; r++)
		if (pc->llimit[r] != limit[pc->round0 + r])
			return 0;
	return 1;
}
