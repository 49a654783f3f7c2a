/* Statistics of one comparison row across repeated runs: is a side's value
 * really different from the baseline's? The unit of replication is the run;
 * with a single run on a side only sampling noise is known. The method and
 * its assumptions are written in vmprof-compare(1) and checked against an
 * independent implementation (test/stats_oracle.py, scipy). */
#ifndef VP_STATS_H
#define VP_STATS_H

#include <stddef.h>

/* One side's runs for one row. A run in which the row is absent has value and
 * samples 0 (the event itself was recorded in that run). */
struct vp_stat_side {
	size_t nruns;
	const double *value;	/* per run: the row's value (period, or samples with --value samples) */
	const double *samples;	/* per run: the row's sample count (sampling noise of one run) */
	const double *total;	/* per run: the event's total value, for shares */
};

/* Where an interval's width comes from. */
enum vp_stat_basis {
	VP_STAT_RUNS = 0,	/* run-to-run variance (each side has >= 2 runs) */
	VP_STAT_SAMPLING,	/* a side has one run: its sampling noise alone */
};

struct vp_stat_result {
	double ratio;			/* mean value side / mean value baseline (INFINITY, or NAN when both 0) */
	double ratio_lo, ratio_hi;	/* confidence interval; 0 and INFINITY when unbounded */
	double delta_pp;		/* mean share side - mean share baseline, percentage points */
	double delta_lo, delta_hi;
	double p;			/* two-sided p-value of "the means differ" */
	enum vp_stat_basis basis;
};

/* The statistics of one row, side against baseline, at confidence 1 - alpha.
 * Returns 0, or -EINVAL when a side has no runs. */
int vp_stat_row(const struct vp_stat_side *base, const struct vp_stat_side *side, double alpha,
		struct vp_stat_result *out);

/* Benjamini-Hochberg adjusted p-values (q-values) of n p-values, in place
 * order: q[i] belongs to p[i]. Returns 0 or -ENOMEM. */
int vp_stat_bh(const double *p, size_t n, double *q);

#endif
