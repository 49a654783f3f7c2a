/* The statistics of a comparison row: published and hand-derived values,
 * the interval/p consistency, Benjamini-Hochberg on published vectors, the
 * A/A split, input checks, and simulations (seeded) of the false-discovery
 * rate under no difference and of the power and coverage for a real one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/compare/stats.h"

#define MAXRUNS 16

/* One side of one row, every run's total the same. */
struct side {
	double v[MAXRUNS], c[MAXRUNS], t[MAXRUNS], tc[MAXRUNS];
	struct vp_stat_side s;
};

/* values; samples = values (as with --value samples); totals as given */
static struct vp_stat_side *mk(struct side *d, size_t n, const double *v, double total)
{
	for (size_t i = 0; i < n; i++) {
		d->v[i] = d->c[i] = v[i];
		d->t[i] = d->tc[i] = total;
	}
	d->s = (struct vp_stat_side){ n, d->v, d->c, d->t, d->tc };
	return &d->s;
}

/* as mk, with k samples per unit of value (the event's total too): with k
 * large, sampling noise is far below any spread between the runs */
static struct vp_stat_side *mkk(struct side *d, size_t n, const double *v, double total, double k)
{
	mk(d, n, v, total);
	for (size_t i = 0; i < n; i++) {
		d->c[i] = v[i] * k;
		d->tc[i] = total * k;
	}
	return &d->s;
}

static int excludes_one(const struct vp_stat_result *r)
{
	return r->ratio_lo > 1 || r->ratio_hi < 1;
}

/* R's t.test(ts1, ts2) (Welch) on these values prints t = -1.8325,
 * df = 17.9, p-value = 0.08356, and the 95% interval of mean(ts1) -
 * mean(ts2) -2.1469104 0.1469104 (quoted in a Cross Validated answer on
 * Welch intervals). As shares of a total of 100 per run, the delta in
 * percentage points is mean(ts2) - mean(ts1) and its interval the mirror.
 * Each unit of value is 1000 samples, so the floor of sampling noise (about
 * 0.01 against a spread of 0.14 per mean) does not bind. */
static void welch_matches_r(void **state)
{
	static const double ts1[] = { 11, 9, 10, 11, 10, 12, 9, 11, 12, 9 };
	static const double ts2[] = { 11, 13, 10, 13, 12, 9, 11, 12, 12, 11 };
	struct side a, b;
	struct vp_stat_result r;
	(void)state;

	assert_int_equal(vp_stat_row(mkk(&a, 10, ts1, 100, 1000), mkk(&b, 10, ts2, 100, 1000), 0.05, &r), 0);
	assert_int_equal(r.basis, VP_STAT_RUNS);
	assert_true(fabs(r.p - 0.08356) < 5e-6);
	assert_true(fabs(r.delta_pp - 1.0) < 1e-12);
	assert_true(fabs(r.delta_lo - -0.1469104) < 1e-7);
	assert_true(fabs(r.delta_hi - 2.1469104) < 1e-7);
	assert_true(fabs(r.ratio - 11.4 / 10.4) < 1e-12);
	/* p > 0.05: Fieller's interval holds 1 and the estimate */
	assert_true(r.ratio_lo < 1 && r.ratio_hi > r.ratio);
	assert_false(r.significant);
}

/* Welch's two-sided p and the t quantile of 1 - alpha/2 for squared
 * standard errors va, vb of means of na, nb runs (STATISTICS). */
static double welch_p(double d, double va, size_t na, double vb, size_t nb, double alpha, double *tq)
{
	double df = (va + vb) * (va + vb) / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));

	*tq = gsl_cdf_tdist_Qinv(alpha / 2, df);
	return 2 * gsl_cdf_tdist_Q(fabs(d) / sqrt(va + vb), df);
}

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-12 * fabs(want);
}

/* Cases whose answers follow from the definitions by hand. With samples =
 * values (one unit a sample), a side's sampling floor is its sum / n^2, and a
 * side with nothing takes the pooled sum / (n_A + n_B) per run. */
static void degenerate_rows(void **state)
{
	static const double zero[] = { 0, 0, 0 }, same[] = { 7, 7, 7 }, more[] = { 9, 9, 9 };
	static const double b3[] = { 10, 12, 11 }, one[] = { 1, 1, 1 };
	static const double big[] = { 500, 520, 480 };
	struct side a, b;
	struct vp_stat_result r;
	double p, tq, lo;
	(void)state;

	/* absent on both sides: no ratio, nothing to see */
	assert_int_equal(vp_stat_row(mk(&a, 3, zero, 100), mk(&b, 3, zero, 100), 0.05, &r), 0);
	assert_true(isnan(r.ratio));
	assert_true(r.ratio_lo == 0 && isinf(r.ratio_hi) && r.p == 1 && !r.significant);
	assert_true(r.delta_pp == 0 && r.delta_lo == 0 && r.delta_hi == 0);

	/* no spread, 7 against 9 samples a run: sampling noise alone is 7/3 and
	 * 9/3 per mean, t = 2 / sqrt(16/3), about 0.87: nothing to see */
	assert_int_equal(vp_stat_row(mk(&a, 3, same, 100), mk(&b, 3, more, 100), 0.05, &r), 0);
	p = welch_p(2, 7.0 / 3, 3, 3, 3, 0.05, &tq);
	assert_true(p > 0.4 && near(r.p, p) && !r.significant);
	assert_true(r.ratio == 9.0 / 7 && r.ratio_lo < 1 && r.ratio_hi > r.ratio);
	assert_true(r.delta_lo < 0 && r.delta_hi > 2);
	/* the same runs with 1000 samples a unit: the spread floor is 1000 times
	 * smaller, and 9/7 is beyond noise */
	assert_int_equal(vp_stat_row(mkk(&a, 3, same, 100, 1000), mkk(&b, 3, more, 100, 1000), 0.05, &r), 0);
	p = welch_p(2, 7.0 / 3000, 3, 3.0 / 1000, 3, 0.05, &tq);
	assert_true(p < 1e-4 && near(r.p, p) && r.significant);
	assert_true(r.ratio_lo > 1.2 && r.ratio_lo < 9.0 / 7 && r.ratio_hi > 9.0 / 7 && r.ratio_hi < 1.4);
	assert_true(r.delta_lo > 1.7 && r.delta_hi < 2.3);
	assert_int_equal(vp_stat_row(mk(&a, 3, same, 100), mk(&b, 3, same, 100), 0.05, &r), 0);
	assert_true(r.ratio == 1 && r.p == 1 && !r.significant);

	/* a function sampled once in each of 3 runs, never in 2: it was flagged
	 * (p = 0) before the floor. The 2 empty runs take the pooled 3/5 a run:
	 * v = 0.3 against 1/3, t = 1 / sqrt(19/30), about 1.26 */
	assert_int_equal(vp_stat_row(mk(&a, 2, zero, 100), mk(&b, 3, one, 100), 0.05, &r), 0);
	p = welch_p(1, 0.3, 2, 1.0 / 3, 3, 0.05, &tq);
	assert_true(p > 0.25 && near(r.p, p) && !r.significant);
	assert_true(isinf(r.ratio) && r.ratio_lo < 1 && isinf(r.ratio_hi));
	assert_true(r.delta_lo < 0 && r.delta_hi > 1);

	/* only the side has it, 33 samples in 3 runs: the baseline takes the
	 * pooled 5.5 a run (v = 11/6), the side its own 33/9, t = sqrt(22) on
	 * 3.6 df. A ratio below sqrt(c / (t*^2 v_A)), c = 11^2 - t*^2 11/3, is
	 * implausible; no upper bound */
	assert_int_equal(vp_stat_row(mk(&a, 3, zero, 100), mk(&b, 3, b3, 100), 0.05, &r), 0);
	p = welch_p(11, 11.0 / 6, 3, 11.0 / 3, 3, 0.05, &tq);
	lo = sqrt((121 - tq * tq * 11 / 3) / (tq * tq * 11 / 6));
	assert_true(p < 0.02 && near(r.p, p) && r.significant);
	assert_true(isinf(r.ratio) && near(r.ratio_lo, lo) && lo > 2 && isinf(r.ratio_hi));
	/* only the baseline has it: ratio 0, and the interval the mirror image */
	assert_int_equal(vp_stat_row(mk(&a, 3, b3, 100), mk(&b, 3, zero, 100), 0.05, &r), 0);
	assert_true(r.ratio == 0 && r.ratio_lo == 0 && near(r.ratio_hi, 1 / lo) && r.significant);
	assert_true(near(r.p, p));

	/* 0 against about 500 samples a run is still far beyond noise */
	assert_int_equal(vp_stat_row(mk(&a, 3, zero, 10000), mk(&b, 3, big, 10000), 0.05, &r), 0);
	p = welch_p(500, 250.0 / 3, 3, 1500.0 / 9, 3, 0.05, &tq);
	assert_true(p < 1e-4 && near(r.p, p) && r.significant && r.ratio_lo > 10);
	assert_true(r.delta_lo > 4 && r.delta_hi < 6);
}

/* One run a side: the binomial split of the pooled samples. */
static void one_run_binomial(void **state)
{
	static const double none = 0, five = 5, ten = 10, two = 2;
	struct side a, b;
	struct vp_stat_result r;
	double lo = pow(0.025, 0.2);
	(void)state;

	/* 0 against 5: P(all 5 on B | pi = 1/2) = 1/32, two-sided 1/16; the
	 * Clopper-Pearson lower bound is (alpha/2)^(1/5), the upper unbounded */
	assert_int_equal(vp_stat_row(mk(&a, 1, &none, 100), mk(&b, 1, &five, 100), 0.05, &r), 0);
	assert_int_equal(r.basis, VP_STAT_SAMPLING);
	assert_true(fabs(r.p - 1.0 / 16) < 1e-15);
	assert_true(fabs(r.ratio_lo / (lo / (1 - lo)) - 1) < 1e-12);
	assert_true(isinf(r.ratio) && isinf(r.ratio_hi));

	/* R's binom.test(5, 10) prints the interval 0.1870860 0.8129140 and
	 * p-value = 1; in odds, 5 against 5 */
	assert_int_equal(vp_stat_row(mk(&a, 1, &five, 100), mk(&b, 1, &five, 100), 0.05, &r), 0);
	assert_true(r.ratio == 1 && r.p == 1);
	assert_true(fabs(r.ratio_lo / (0.1870860 / 0.8129140) - 1) < 2e-6);
	assert_true(fabs(r.ratio_hi / (0.8129140 / 0.1870860) - 1) < 2e-6);

	/* 10 against 2 of 12: P(X <= 2) = (1 + 12 + 66) / 4096, doubled */
	assert_int_equal(vp_stat_row(mk(&a, 1, &ten, 100), mk(&b, 1, &two, 100), 0.05, &r), 0);
	assert_true(fabs(r.p - 158.0 / 4096) < 1e-15);
	assert_true(r.ratio == 0.2 && r.ratio_hi < 1 && r.significant);
}

/* A small seeded generator for the property tests and simulations. */
static gsl_rng *rng_new(unsigned long seed)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	assert_non_null(g);
	gsl_rng_set(g, seed);
	return g;
}

/* count >= 0, rounded, from a gamma with this mean and coefficient of
 * variation (the spread of one function's time across runs) */
static double draw(gsl_rng *g, double mean, double cv)
{
	return floor(gsl_ran_gamma(g, 1 / (cv * cv), mean * cv * cv) + 0.5);
}

/* The interval excludes 1 exactly when p < alpha, on both bases, and holds
 * the estimate; q = p for a row alone. */
static void interval_agrees_with_p(void **state)
{
	gsl_rng *g = rng_new(18);
	int rejected = 0, kept = 0;
	(void)state;

	for (int i = 0; i < 3000; i++) {
		size_t na = 1 + gsl_rng_uniform_int(g, 6), nb = 1 + gsl_rng_uniform_int(g, 6);
		double va[MAXRUNS], vb[MAXRUNS], mean = exp(gsl_rng_uniform(g) * 8);
		double ratio = 0.5 + gsl_rng_uniform(g) * 1.5, cv = 0.02 + gsl_rng_uniform(g) * 0.4;
		double alpha = i % 3 ? 0.05 : 0.01;
		struct side a, b;
		struct vp_stat_result r;

		for (size_t k = 0; k < na; k++)
			va[k] = draw(g, mean, cv);
		for (size_t k = 0; k < nb; k++)
			vb[k] = draw(g, mean * ratio, cv);
		assert_int_equal(vp_stat_row(mk(&a, na, va, 1e9), mk(&b, nb, vb, 1e9), alpha, &r), 0);
		if (fabs(r.p - alpha) < 1e-9)
			continue;
		assert_int_equal(excludes_one(&r), r.p < alpha);
		assert_true(r.q == r.p && r.significant == (r.p < alpha));
		if (!isnan(r.ratio))
			assert_true(r.ratio_lo <= r.ratio && r.ratio <= r.ratio_hi);
		assert_true(r.ratio_lo >= 0 && r.delta_lo <= r.delta_pp && r.delta_pp <= r.delta_hi);
		if (r.p < alpha)
			rejected++;
		else
			kept++;
	}
	/* both outcomes were exercised */
	assert_true(rejected > 300 && kept > 300);
	gsl_rng_free(g);
}

/* stdlib.io's padjust documentation: padjust([0.008, 0.03, 0.123, 0.6,
 * 0.2], 'bh') returns [0.04, 0.075, ~0.205, 0.6, 0.25] (as R's p.adjust). */
static void bh_published_vector(void **state)
{
	double p[] = { 0.008, 0.03, 0.123, 0.6, 0.2 }, q[5];
	static const double want[] = { 0.04, 0.075, 0.205, 0.6, 0.25 };
	(void)state;

	assert_int_equal(vp_stat_bh(p, 5, q), 0);
	for (int i = 0; i < 5; i++)
		assert_true(fabs(q[i] - want[i]) < 1e-15);
	/* in place */
	assert_int_equal(vp_stat_bh(p, 5, p), 0);
	assert_memory_equal(p, q, sizeof(q));
}

/* Benjamini & Hochberg (1995), section 4: the 15 p-values of a
 * myocardial-infarction trial; at q* = 0.05 their procedure rejects the four
 * smallest (p(4) = 0.0095 <= 4/15 0.05, p(5) = 0.0201 > 5/15 0.05, and no
 * larger k qualifies). The q-values are the step-up minima of p(k) 15/k. */
static void bh_paper_example(void **state)
{
	double p[] = { 0.0201, 0.7590, 0.0001, 0.3240, 0.0004, 0.0298, 0.0019, 0.5719,
		       0.0095, 0.0459, 0.4262, 0.0278, 1.0, 0.0344, 0.6528 };
	double q[15];
	int rejected = 0;
	(void)state;

	assert_int_equal(vp_stat_bh(p, 15, q), 0);
	for (int i = 0; i < 15; i++)
		rejected += q[i] < 0.05;
	assert_int_equal(rejected, 4);
	assert_true(fabs(q[2] - 0.0015) < 1e-15);		/* 0.0001 * 15 */
	assert_true(fabs(q[8] - 0.035625) < 1e-15);		/* 0.0095 * 15/4 */
	/* 0.0278 * 15/6 = 0.0695 steps down to 0.0298 * 15/7 */
	assert_true(fabs(q[11] - 0.0298 * 15 / 7) < 1e-15);
	assert_true(q[5] == q[11] && q[12] == 1.0);
	/* bad input */
	p[3] = NAN;
	assert_int_equal(vp_stat_bh(p, 15, q), -EINVAL);
	p[3] = 1.5;
	assert_int_equal(vp_stat_bh(p, 15, q), -EINVAL);
	assert_int_equal(vp_stat_bh(p, 0, q), 0);
}

/* A matrix of rows x runs with samples = values (or c and tc, when set). */
struct matrix {
	double v[64 * MAXRUNS], t[MAXRUNS], c[64 * MAXRUNS], tc[MAXRUNS];
	struct vp_stat_runs m;
};

static void mat_init(struct matrix *x, size_t nrows, size_t nruns, double total)
{
	for (size_t i = 0; i < nruns; i++)
		x->t[i] = total;
	x->m = (struct vp_stat_runs){ nrows, nruns, 0, x->v, x->v, x->t, x->t };
}

/* The event's q-values are BH of the rows' own p, and significance is q <
 * alpha; rows laid out with a stride compute the same. */
static void event_is_rows_plus_bh(void **state)
{
	gsl_rng *g = rng_new(7);
	static struct matrix a, b, wide;
	struct vp_stat_result ev[20], one, strided[20];
	double p[20], q[20];
	(void)state;

	mat_init(&a, 20, 5, 1e8);
	mat_init(&b, 20, 4, 1e8);
	for (size_t r = 0; r < 20; r++) {
		for (size_t k = 0; k < 5; k++)
			a.v[r * 5 + k] = draw(g, 1000 + 100 * r, 0.1);
		for (size_t k = 0; k < 4; k++)
			b.v[r * 4 + k] = draw(g, (1000 + 100 * r) * (r < 5 ? 1.3 : 1), 0.1);
	}
	assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 1, ev), 0);
	for (size_t r = 0; r < 20; r++) {
		struct vp_stat_side sa, sb;

		vp_stat_runs_row(&a.m, r, &sa);
		vp_stat_runs_row(&b.m, r, &sb);
		assert_int_equal(vp_stat_row(&sa, &sb, 0.05, &one), 0);
		assert_true(one.p == ev[r].p && one.ratio_lo == ev[r].ratio_lo);
		p[r] = one.p;
	}
	assert_int_equal(vp_stat_bh(p, 20, q), 0);
	for (size_t r = 0; r < 20; r++)
		assert_true(ev[r].q == q[r] && ev[r].significant == (q[r] < 0.05));

	/* the same baseline with rows 8 apart */
	mat_init(&wide, 20, 5, 1e8);
	wide.m.stride = 8;
	for (size_t r = 0; r < 20; r++)
		memcpy(&wide.v[r * 8], &a.v[r * 5], 5 * sizeof(double));
	assert_int_equal(vp_stat_event(&wide.m, &b.m, 0.05, 1, strided), 0);
	assert_memory_equal(strided, ev, sizeof(ev));

	b.m.nrows = 19;
	assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 1, ev), -EINVAL);
	gsl_rng_free(g);
}

/* The A/A split is the first floor(n/2) runs against the rest, in order:
 * runs 100,100 | 200,200,200 differ, the same runs interleaved do not. */
static void aa_floor_splits_in_order(void **state)
{
	static const double split[] = { 100, 101, 200, 199, 201 }, mixed[] = { 100, 200, 199, 101, 201 };
	static struct matrix x;
	size_t flagged = 99;
	(void)state;

	mat_init(&x, 2, 5, 1000);
	memcpy(x.v, split, sizeof(split));
	memcpy(x.v + 5, mixed, sizeof(mixed));
	assert_int_equal(vp_stat_aa_floor(&x.m, 0.05, 1, &flagged), 0);
	assert_int_equal(flagged, 1);
	memcpy(x.v, mixed, sizeof(mixed));
	assert_int_equal(vp_stat_aa_floor(&x.m, 0.05, 1, &flagged), 0);
	assert_int_equal(flagged, 0);
	x.m.nruns = 3;
	assert_int_equal(vp_stat_aa_floor(&x.m, 0.05, 1, &flagged), -EINVAL);
}

static void describe_and_bad_input(void **state)
{
	static const double v[] = { 1, 2, 3 };
	struct side a, b;
	struct vp_stat_desc d;
	struct vp_stat_result r;
	(void)state;

	vp_stat_describe(mk(&a, 3, v, 10), &d);
	assert_true(d.mean == 2 && d.sd == 1 && fabs(d.share - 0.2) < 1e-15);
	vp_stat_describe(mk(&a, 1, v, 10), &d);
	assert_true(d.mean == 1 && isnan(d.sd));

	mk(&b, 3, v, 10);
	assert_int_equal(vp_stat_row(mk(&a, 3, v, 10), &b.s, 0, &r), -EINVAL);
	assert_int_equal(vp_stat_row(&a.s, &b.s, 1, &r), -EINVAL);
	a.s.nruns = 0;
	assert_int_equal(vp_stat_row(&a.s, &b.s, 0.05, &r), -EINVAL);
	mk(&a, 3, v, 10);
	a.v[1] = -1;
	assert_int_equal(vp_stat_row(&a.s, &b.s, 0.05, &r), -EINVAL);
	a.v[1] = NAN;
	assert_int_equal(vp_stat_row(&a.s, &b.s, 0.05, &r), -EINVAL);
	a.v[1] = 11;	/* above the event's total */
	assert_int_equal(vp_stat_row(&a.s, &b.s, 0.05, &r), -EINVAL);
	a.v[1] = 2;
	a.c[1] = 1.5;	/* samples are counts */
	assert_int_equal(vp_stat_row(&a.s, &b.s, 0.05, &r), -EINVAL);
	a.c[1] = 0;	/* a value with no samples */
	assert_int_equal(vp_stat_row(&a.s, &b.s, 0.05, &r), -EINVAL);
	a.c[1] = 2;
	assert_int_equal(vp_stat_row(&a.s, &b.s, 0.05, &r), 0);
}

/* Fill an event of nrows rows: each row its own mean and spread, side B's
 * row 0 scaled by ratio0, the rest equal; totals the sum of the rows. */
static void fill_event(gsl_rng *g, struct matrix *a, struct matrix *b, size_t nrows, size_t na,
		       size_t nb, double ratio0, const double *mean, const double *cv)
{
	mat_init(a, nrows, na, 0);
	mat_init(b, nrows, nb, 0);
	for (size_t r = 0; r < nrows; r++) {
		for (size_t k = 0; k < na; k++)
			a->t[k] += a->v[r * na + k] = draw(g, mean[r], cv[r]);
		for (size_t k = 0; k < nb; k++)
			b->t[k] += b->v[r * nb + k] = draw(g, mean[r] * (r ? 1 : ratio0), cv[r]);
	}
}

/* Under no difference at all (2000 events of 50 rows, 5 runs a side, gamma
 * run-to-run noise with CV 5-40%), the share of events with any row flagged
 * (the FDR when every hypothesis is null) stays at or below 5% plus three
 * binomial standard deviations (0.0049). With row 0 at 1.5x it is flagged in
 * most events, its interval covers 1.5 about 95% of the time, and the FDR
 * (mean share of false discoveries) stays within 5%. */
static void simulated_fdr_and_power(void **state)
{
	enum { EVENTS = 2000, ROWS = 50 };
	gsl_rng *g = rng_new(1995);
	static struct matrix a, b;
	struct vp_stat_result res[ROWS];
	double mean[ROWS], cv[ROWS];
	int any = 0, hit[2] = { 0, 0 }, covered = 0;
	double fdp = 0, fdp2 = 0, fdr, sd;
	(void)state;

	for (int e = 0; e < EVENTS; e++) {
		for (int r = 0; r < ROWS; r++) {
			mean[r] = 20 * exp(gsl_rng_uniform(g) * 6);
			cv[r] = 0.05 + gsl_rng_uniform(g) * 0.35;
		}
		fill_event(g, &a, &b, ROWS, 5, 5, 1, mean, cv);
		assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 1, res), 0);
		for (int r = 0; r < ROWS; r++)
			if (res[r].significant) {
				any++;
				break;
			}
		/* power: the same event with row 0 at 1.5x, CV 5% or 10% */
		cv[0] = e % 2 ? 0.1 : 0.05;
		mean[0] = 2000;
		fill_event(g, &a, &b, ROWS, 5, 5, 1.5, mean, cv);
		assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 1, res), 0);
		hit[e % 2] += res[0].significant;
		covered += res[0].ratio_lo <= 1.5 && 1.5 <= res[0].ratio_hi;
		{
			/* the false share of this event's discoveries */
			int v = 0, n = res[0].significant;

			for (int r = 1; r < ROWS; r++)
				v += res[r].significant;
			n += v;
			fdp += n ? (double)v / n : 0;
			fdp2 += n ? ((double)v / n) * ((double)v / n) : 0;
		}
	}
	fdr = fdp / EVENTS;
	sd = sqrt((fdp2 / EVENTS - fdr * fdr) / EVENTS);
	print_message("A/A: %d of %d events with a discovery; 1.5x flagged in %d (CV 5%%) and %d "
		      "(CV 10%%) of %d, covered in %d; FDR with it %.4f (sd %.4f)\n", any, EVENTS, hit[0],
		      hit[1], EVENTS / 2, covered, fdr, sd);
	assert_true(any <= 0.05 * EVENTS + 3 * sqrt(0.05 * 0.95 * EVENTS));
	assert_true(any >= 0.01 * EVENTS);	/* not vacuously conservative */
	/* 5 runs: t about 12 at CV 5%, about 6 at CV 10% (then BH over 50 rows
	 * needs p < 0.001, which a t on ~7 df reaches about 2 times in 3) */
	assert_true(hit[0] >= 0.95 * EVENTS / 2);
	assert_true(hit[1] >= 0.55 * EVENTS / 2);
	assert_true(covered >= 0.93 * EVENTS && covered <= 0.97 * EVENTS);
	/* BH bounds the FDR by 0.05 * 49/50 when the tests are independent */
	assert_true(fdr <= 0.05 + 3 * sd);
	gsl_rng_free(g);
}

/* The A/A floor itself, 10 runs split 5/5, no difference: few events flag
 * anything. The one-run binomial test on Poisson counts with no difference:
 * the same bound. */
static void simulated_floor_and_sampling(void **state)
{
	enum { EVENTS = 400, ROWS = 50 };
	gsl_rng *g = rng_new(2013);
	static struct matrix a, b;
	struct vp_stat_result res[ROWS];
	double mean[ROWS], cv[ROWS];
	int floors = 0, any = 0;
	double tol = 3 * sqrt(0.05 * 0.95 * EVENTS);
	(void)state;

	for (int e = 0; e < EVENTS; e++) {
		size_t flagged;

		for (int r = 0; r < ROWS; r++) {
			mean[r] = 20 * exp(gsl_rng_uniform(g) * 6);
			cv[r] = 0.05 + gsl_rng_uniform(g) * 0.35;
		}
		fill_event(g, &a, &b, ROWS, 10, 1, 1, mean, cv);
		assert_int_equal(vp_stat_aa_floor(&a.m, 0.05, 1, &flagged), 0);
		floors += flagged > 0;

		/* one run each, counts Poisson around the same rate */
		mat_init(&a, ROWS, 1, 0);
		mat_init(&b, ROWS, 1, 0);
		for (int r = 0; r < ROWS; r++) {
			a.t[0] += a.v[r] = gsl_ran_poisson(g, mean[r]);
			b.t[0] += b.v[r] = gsl_ran_poisson(g, mean[r]);
		}
		assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 1, res), 0);
		for (int r = 0; r < ROWS; r++)
			if (res[r].significant) {
				assert_int_equal(res[r].basis, VP_STAT_SAMPLING);
				any++;
				break;
			}
	}
	print_message("A/A floor: %d of %d events flag a row; one-run Poisson: %d\n", floors,
		      EVENTS, any);
	assert_true(floors <= 0.05 * EVENTS + tol);
	assert_true(any <= 0.05 * EVENTS + tol);
	gsl_rng_free(g);
}

/* An event of rows x runs with Poisson sample counts at these rates per run
 * and nothing else varying, each sample worth period; the event's totals are
 * the rows plus 1000 samples of other functions. */
static void fill_poisson(gsl_rng *g, struct matrix *x, size_t nrows, size_t nruns,
			 const double *rate, double period)
{
	mat_init(x, nrows, nruns, 0);
	x->m.samples = x->c;
	x->m.total_samples = x->tc;
	for (size_t k = 0; k < nruns; k++) {
		x->tc[k] = 1000;
		x->t[k] = 1000 * period;
	}
	for (size_t r = 0; r < nrows; r++)
		for (size_t k = 0; k < nruns; k++) {
			double c = gsl_ran_poisson(g, rate[r]);

			x->tc[k] += x->c[r * nruns + k] = c;
			x->t[k] += x->v[r * nruns + k] = c * period;
		}
}

/* Tiny counts, no difference: functions sampled 0.3 to 3 times a run (a
 * kernel function, a rare path), runs differing by sampling noise alone. The
 * events with any row flagged stay within alpha (+ 3 binomial sd), for 2
 * runs against 3 and 5 against 5 at alpha 0.05 and 0.001, and for the A/A
 * floor of 5 runs (2 against 3); each row's delta interval misses 0 at most
 * alpha of the time (+ 3 sd). Runs whose counts happen to be equal on each
 * side, such as (0, 0) against (1, 1, 1), were flagged at any alpha before
 * the sampling floor (STATISTICS). A real difference at such counts is
 * still found: 3 against 12 samples a run (5 runs a side) in 95% of draws,
 * 0.5 against 5 in 85% (about 99% and 94% in scipy's simulation). */
static void simulated_tiny_counts(void **state)
{
	enum { EVENTS = 2000, ROWS = 20 };
	static const size_t shape[][2] = { { 2, 3 }, { 5, 5 } };
	static const double alphas[] = { 0.05, 0.001 };
	gsl_rng *g = rng_new(3);
	static struct matrix a, b;
	struct vp_stat_result res[ROWS];
	double rate[ROWS];
	(void)state;

	for (size_t ai = 0; ai < 2; ai++) {
		double alpha = alphas[ai];
		double tol = 3 * sqrt(alpha * (1 - alpha) * EVENTS);
		double rtol = 3 * sqrt(alpha * (1 - alpha) * EVENTS * ROWS);

		for (size_t si = 0; si < 3; si++) {
			int any = 0, missed = 0;

			for (int e = 0; e < EVENTS; e++) {
				double period = e % 2 ? 1e6 : 1;	/* cpu-clock's 1 ms, or --value samples */
				size_t flagged;

				for (int r = 0; r < ROWS; r++)
					rate[r] = 0.3 + 2.7 * gsl_rng_uniform(g);
				if (si == 2) {
					/* the A/A floor of a 5-run baseline: 2 runs against 3 */
					fill_poisson(g, &a, ROWS, 5, rate, period);
					assert_int_equal(vp_stat_aa_floor(&a.m, alpha, 1, &flagged), 0);
					any += flagged > 0;
					continue;
				}
				fill_poisson(g, &a, ROWS, shape[si][0], rate, period);
				fill_poisson(g, &b, ROWS, shape[si][1], rate, period);
				assert_int_equal(vp_stat_event(&a.m, &b.m, alpha, 1, res), 0);
				flagged = 0;
				for (int r = 0; r < ROWS; r++) {
					assert_int_equal(res[r].basis, VP_STAT_RUNS);
					flagged += res[r].significant;
					missed += res[r].delta_lo > 0 || res[r].delta_hi < 0;
				}
				any += flagged > 0;
			}
			if (si == 2)
				print_message("tiny counts, alpha %g, A/A floor of 5 runs: %d of %d events "
					      "flag a row\n", alpha, any, EVENTS);
			else
				print_message("tiny counts, alpha %g, %zu vs %zu runs: %d of %d events flag a "
					      "row; %d of %d delta intervals miss 0\n", alpha, shape[si][0],
					      shape[si][1], any, EVENTS, missed, EVENTS * ROWS);
			assert_true(any <= alpha * EVENTS + tol);
			assert_true(missed <= alpha * EVENTS * ROWS + rtol);
		}
	}
	{
		static const double rates[][2] = { { 3, 12 }, { 0.5, 5 } };
		int hit[2] = { 0, 0 };

		for (int e = 0; e < 1000; e++)
			for (int k = 0; k < 2; k++) {
				fill_poisson(g, &a, 1, 5, &rates[k][0], 1e6);
				fill_poisson(g, &b, 1, 5, &rates[k][1], 1e6);
				assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 1, res), 0);
				hit[k] += res[0].significant;
			}
		print_message("tiny counts, 5 vs 5 runs: 3 vs 12 a run flagged in %d of 1000, 0.5 vs 5 "
			      "in %d\n", hit[0], hit[1]);
		assert_true(hit[0] >= 950 && hit[1] >= 850);
	}
	gsl_rng_free(g);
}

/* An event's rows shared among threads give what one thread gives, bit for
 * bit, exact binomial rows (one run a side) and run rows alike; a bad row in
 * a later thread's share still fails the event. */
static void event_same_on_any_threads(void **state)
{
	static struct matrix a, b;
	static struct vp_stat_result one[64], many[64];
	static const size_t runs[][2] = { { 1, 1 }, { 5, 4 } };
	double rate[64];
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	(void)state;

	gsl_rng_set(g, 23);
	for (int r = 0; r < 64; r++)
		rate[r] = r % 3 ? 2 + 40 * gsl_rng_uniform(g) : 3000 * gsl_rng_uniform(g);
	for (size_t k = 0; k < 2; k++) {
		fill_poisson(g, &a, 64, runs[k][0], rate, 1e6);
		fill_poisson(g, &b, 64, runs[k][1], rate, 1e6);
		memset(one, 0, sizeof(one));
		assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 1, one), 0);
		for (unsigned t = 2; t <= 8; t *= 2) {
			memset(many, 0xa5, sizeof(many));
			assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, t, many), 0);
			assert_memory_equal(one, many, sizeof(one));
		}
		assert_int_equal(one[1].basis, k ? VP_STAT_RUNS : VP_STAT_SAMPLING);
	}
	b.c[60 * 4] = 0;	/* row 60 has a value without samples */
	b.v[60 * 4] = 1e6;
	assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 4, many), -EINVAL);
	gsl_rng_free(g);
}

/* Rows with the same numbers are computed once and share the result: every
 * row of an event whose tail repeats its small counts is still the row's
 * own vp_stat_row, q the BH of all rows' p; rows differing in one run's
 * samples, or only in which side holds the counts, are not merged; on any
 * number of threads alike. */
static void event_rows_with_the_same_numbers(void **state)
{
	static struct matrix a, b;
	static struct vp_stat_result ev[64], many[64];
	static const size_t runs[] = { 1, 3 };
	double rate[64], p[64], q[64];
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	(void)state;

	gsl_rng_set(g, 41);
	for (int r = 0; r < 64; r++)
		rate[r] = 0.5 + 4 * gsl_rng_uniform(g);
	for (size_t k = 0; k < 2; k++) {
		size_t n = runs[k];

		fill_poisson(g, &a, 64, n, rate, 1e6);
		fill_poisson(g, &b, 64, n, rate, 1e6);
		/* rows 32-63 repeat rows 0-31, but for two near twins */
		for (size_t r = 32; r < 64; r++)
			for (size_t j = 0; j < n; j++) {
				a.v[r * n + j] = a.v[(r - 32) * n + j];
				a.c[r * n + j] = a.c[(r - 32) * n + j];
				b.v[r * n + j] = b.v[(r - 32) * n + j];
				b.c[r * n + j] = b.c[(r - 32) * n + j];
			}
		b.c[40 * n + n - 1] += 1;	/* one run's samples differ */
		b.v[40 * n + n - 1] += 1e6;
		for (size_t j = 0; j < n; j++) {	/* row 50: row 18 with sides swapped */
			a.v[50 * n + j] = b.v[18 * n + j];
			a.c[50 * n + j] = b.c[18 * n + j];
			b.v[50 * n + j] = a.v[18 * n + j];
			b.c[50 * n + j] = a.c[18 * n + j];
		}
		assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 1, ev), 0);
		for (size_t r = 0; r < 64; r++) {
			struct vp_stat_side sa, sb;
			struct vp_stat_result one;

			vp_stat_runs_row(&a.m, r, &sa);
			vp_stat_runs_row(&b.m, r, &sb);
			assert_int_equal(vp_stat_row(&sa, &sb, 0.05, &one), 0);
			one.q = ev[r].q;
			one.significant = ev[r].significant;
			assert_memory_equal(&one, &ev[r], sizeof(one));
			p[r] = one.p;
		}
		assert_true(ev[40].p != ev[8].p || ev[40].ratio != ev[8].ratio);
		assert_true(ev[50].ratio != ev[18].ratio);
		assert_int_equal(vp_stat_bh(p, 64, q), 0);
		for (size_t r = 0; r < 64; r++)
			assert_true(ev[r].q == q[r] && ev[r].significant == (q[r] < 0.05));
		assert_int_equal(vp_stat_event(&a.m, &b.m, 0.05, 4, many), 0);
		assert_memory_equal(ev, many, sizeof(ev));
	}
	gsl_rng_free(g);
}

/* A side's own mean interval (a bar's whisker): R's t.test(1:5) prints the
 * 95% interval 1.036757 4.963243; two runs 10, 20 use t(0.975, 1) =
 * 12.7062047361747 (tables); one run of 10 samples is R's poisson.test(10)
 * interval 4.795389 18.390356 times the value per sample; equal runs, a
 * row without samples and bad input. */
static void mean_interval_published(void **state)
{
	static const double five[] = { 1, 2, 3, 4, 5 }, two[] = { 10, 20 }, same[] = { 7, 7, 7 };
	double lo, hi;
	struct side a;
	(void)state;

	assert_int_equal(vp_stat_mean_interval(mk(&a, 5, five, 100), 0.05, &lo, &hi), 0);
	assert_true(fabs(lo - 1.036757) < 5e-7 && fabs(hi - 4.963243) < 5e-7);
	assert_int_equal(vp_stat_mean_interval(mk(&a, 2, two, 100), 0.05, &lo, &hi), 0);
	assert_true(lo == 0);	/* 15 - 63.5: held at 0 */
	assert_true(fabs(hi - (15 + 12.7062047361747 * 5)) < 1e-9);
	assert_int_equal(vp_stat_mean_interval(mk(&a, 3, same, 100), 0.05, &lo, &hi), 0);
	assert_true(lo == 7 && hi == 7);

	/* one run: 10 samples of period 1000 each */
	a.v[0] = 10000;
	a.c[0] = 10;
	a.t[0] = 1e6;
	a.tc[0] = 1000;
	a.s = (struct vp_stat_side){ 1, a.v, a.c, a.t, a.tc };
	assert_int_equal(vp_stat_mean_interval(&a.s, 0.05, &lo, &hi), 0);
	assert_true(fabs(lo - 4795.389) < 5e-3 && fabs(hi - 18390.356) < 5e-3);
	/* counts where GSL's inverse gamma no longer converges (it aborted a
	 * chart of 6.5 M samples): scipy's chi2.ppf(0.025, 2c) / 2 and
	 * chi2.isf(0.025, 2c + 2) / 2 */
	static const double big[][3] = {
		{ 20001, 19724.760671144322, 20280.14055721625 },
		{ 1e6, 998040.9833402939, 1001961.9119454322 },
		{ 6504905, 6499907.114887695, 6509905.7798024 },
	};
	for (size_t i = 0; i < sizeof(big) / sizeof(*big); i++) {
		a.v[0] = a.c[0] = a.t[0] = a.tc[0] = big[i][0];
		assert_int_equal(vp_stat_mean_interval(&a.s, 0.05, &lo, &hi), 0);
		assert_true(fabs(lo / big[i][1] - 1) < 1e-8 && fabs(hi / big[i][2] - 1) < 1e-8);
	}
	a.v[0] = a.c[0] = 0;
	a.t[0] = 1e6;
	a.tc[0] = 1000;
	assert_int_equal(vp_stat_mean_interval(&a.s, 0.05, &lo, &hi), 0);
	assert_true(lo == 0 && hi == 0);
	a.v[0] = 5;	/* a value without samples */
	assert_int_equal(vp_stat_mean_interval(&a.s, 0.05, &lo, &hi), -EINVAL);
	assert_int_equal(vp_stat_mean_interval(mk(&a, 5, five, 100), 1.5, &lo, &hi), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(welch_matches_r),
		cmocka_unit_test(degenerate_rows),
		cmocka_unit_test(one_run_binomial),
		cmocka_unit_test(interval_agrees_with_p),
		cmocka_unit_test(bh_published_vector),
		cmocka_unit_test(bh_paper_example),
		cmocka_unit_test(event_is_rows_plus_bh),
		cmocka_unit_test(event_same_on_any_threads),
		cmocka_unit_test(event_rows_with_the_same_numbers),
		cmocka_unit_test(aa_floor_splits_in_order),
		cmocka_unit_test(describe_and_bad_input),
		cmocka_unit_test(mean_interval_published),
		cmocka_unit_test(simulated_fdr_and_power),
		cmocka_unit_test(simulated_floor_and_sampling),
		cmocka_unit_test(simulated_tiny_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
