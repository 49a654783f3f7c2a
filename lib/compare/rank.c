/* Ranking a comparison's rows: each row's key computed once (a side's mean,
 * ratio, delta, q-value or effect; the largest over the sides compared with
 * the baseline), then rows sorted by it, ties by the larger mean and then by
 * name, so the order never depends on the input's. */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct keyed {
	double key;		/* larger first; the rank's own ordering folded in */
	double max;		/* the larger of the sides' means: first tie-break */
	struct vp_cmp_row row;
};

static int cmp_desc(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c;

	if ((c = cmp_desc(a->key, b->key)) || (c = cmp_desc(a->max, b->max)))
		return c;
	if ((c = vp_strcmp_null(a->row.symbol, b->row.symbol)) || (c = vp_strcmp_null(a->row.dso, b->row.dso)))
		return c;
	return a->row.domain - b->row.domain;
}

/* How far a ratio's interval stays from 1x on a log scale: 0 when it holds 1. */
static double effect(const struct vp_stat_result *st)
{
	if (st->ratio_lo > 1)
		return log(st->ratio_lo);
	if (st->ratio_hi < 1)
		return st->ratio_hi > 0 ? -log(st->ratio_hi) : INFINITY;
	return 0;
}

static double row_key(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t K,
		      enum vp_rank rank, enum vp_value v)
{
	double best = -INFINITY;

	if (rank == VP_RANK_HOST)
		return vp_cmp_mean(e, r, VP_HOST, v);
	for (size_t s = rank == VP_RANK_MAX ? 0 : 1; s < K; s++) {
		const struct vp_stat_result *st = vp_cmp_stat(e, r, s);
		enum vp_ratio_kind kind;
		double x = -INFINITY, ratio;

		switch (rank) {
		case VP_RANK_MAX:
		case VP_RANK_HOST:
		case VP_RANK_GUEST:
			x = vp_cmp_mean(e, r, s, v);
			break;
		case VP_RANK_RATIO:
			/* finite ratios first; one-sided rows after them, by their value */
			ratio = vp_cmp_ratio(e, r, s, v, &kind);
			x = kind == VP_RATIO_BOTH ? ratio : -1;
			break;
		case VP_RANK_DELTA:
			x = vp_cmp_delta_pp(e, r, s, v);
			break;
		case VP_RANK_ABSDELTA:
			x = fabs(vp_cmp_delta_pp(e, r, s, v));
			break;
		case VP_RANK_Q:
			/* smallest first: keyed by -q; no statistics after every q */
			x = st ? -st->q : -2;
			break;
		case VP_RANK_EFFECT:
			x = st ? effect(st) : -1;
			break;
		}
		if (x > best)
			best = x;
	}
	return best;
}

void vp_comparison_rank(struct vp_comparison *c, enum vp_rank rank, size_t top)
{
	c->rank = rank;
	for (size_t i = 0; i < c->nevents; i++) {
		struct vp_cmp_event *e = &c->events[i];
		struct keyed *k = malloc((e->total_rows ? e->total_rows : 1) * sizeof(*k));

		/* out of memory: the rows stay in their order, still every one */
		if (k) {
			for (size_t j = 0; j < e->total_rows; j++) {
				k[j].row = e->rows[j];
				k[j].key = row_key(e, &e->rows[j], c->nsides, rank, c->value);
				k[j].max = row_key(e, &e->rows[j], c->nsides, VP_RANK_MAX, c->value);
			}
			qsort(k, e->total_rows, sizeof(*k), keyed_cmp);
			for (size_t j = 0; j < e->total_rows; j++)
				e->rows[j] = k[j].row;
			free(k);
		}
		e->nrows = top && top < e->total_rows ? top : e->total_rows;
	}
}

static const char *const rank_names[] = {
	[VP_RANK_MAX] = "max", [VP_RANK_HOST] = "host", [VP_RANK_GUEST] = "guest",
	[VP_RANK_RATIO] = "ratio", [VP_RANK_DELTA] = "delta", [VP_RANK_ABSDELTA] = "absdelta",
	[VP_RANK_Q] = "q", [VP_RANK_EFFECT] = "effect",
};

int vp_rank_parse(const char *s, enum vp_rank *rank)
{
	for (size_t i = 0; i < sizeof(rank_names) / sizeof(*rank_names); i++)
		if (!strcmp(s, rank_names[i])) {
			*rank = (enum vp_rank)i;
			return 0;
		}
	return -EINVAL;
}

const char *vp_rank_name(enum vp_rank rank)
{
	return (unsigned)rank < sizeof(rank_names) / sizeof(*rank_names) ? rank_names[rank] : "?";
}
