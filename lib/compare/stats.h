/* Statistics of one comparison row across repeated runs: is a side's value
 * really different from the baseline's? The unit of replication is the run;
 * with a single run on a side only sampling noise is known. The method and
 * its assumptions are written in vmprof-compare(1) (STATISTICS) and checked
 * against an independent implementation (test/stats_oracle.py, scipy). */
#ifndef VP_STATS_H
#define VP_STATS_H

#include <stddef.h>

/* One side's runs for one row. A run in which the row is absent has value and
 * samples 0 (the event itself was recorded in that run). Every number is
 * finite and >= 0, samples are whole numbers, value <= total, samples <=
 * total_samples, and a run with value > 0 has samples > 0; anything else is
 * -EINVAL. */
struct vp_stat_side {
	size_t nruns;
	const double *value;		/* per run: the row's value (period, or samples with --value samples) */
	const double *samples;		/* per run: the row's sample count */
	const double *total;		/* per run: the event's total value, for shares */
	const double *total_samples;	/* per run: the event's total sample count */
};

/* Where an interval's width comes from. */
enum vp_stat_basis {
	VP_STAT_RUNS = 0,	/* run-to-run variance (each side has >= 2 runs) */
	VP_STAT_SAMPLING,	/* a side has one run: its sampling noise alone; run-to-run
				   variation is unmeasured and the output must say so */
};

struct vp_stat_result {
	double ratio;			/* mean value side / mean value baseline; INFINITY when
					   only the side has it, NAN when neither has */
	double ratio_lo, ratio_hi;	/* confidence interval of the ratio: lo >= 0, hi may be
					   INFINITY (unbounded); [0, INFINITY] when ratio is NAN */
	double delta_pp;		/* share side - share baseline, percentage points */
	double delta_lo, delta_hi;	/* its confidence interval */
	double p;			/* two-sided p-value of "the means differ" */
	double q;			/* Benjamini-Hochberg q-value across the event's rows
					   (vp_stat_row alone: a family of one, q = p) */
	int significant;		/* q < alpha; then and only then the ratio interval
					   excludes 1 (vp_stat_row alone) */
	enum vp_stat_basis basis;
};

/* One side of one row, for display: mean of the runs' values, their standard
 * deviation (NAN with one run) and the mean of the runs' shares in [0, 1]. */
struct vp_stat_desc {
	double mean, sd, share;
};

/* The statistics of one row, side against baseline, at confidence 1 - alpha
 * (0 < alpha < 1; vmprof's default 0.05). Returns 0, or -EINVAL for a side
 * with no runs or numbers outside the contract above. Deterministic. */
int vp_stat_row(const struct vp_stat_side *base, const struct vp_stat_side *side, double alpha,
		struct vp_stat_result *out);
/* Mean, spread and share of one side of one row (no checks; nruns 0 gives NAN). */
void vp_stat_describe(const struct vp_stat_side *s, struct vp_stat_desc *out);

/* The confidence interval (1 - alpha) of one side's mean value per run, for
 * a bar's whisker: with >= 2 runs Student's t on the runs' values (mean +- t
 * sd / sqrt(n), the lower end held at 0); with one run its sampling noise
 * alone: the exact (Garwood) Poisson interval of its sample count, times its
 * value per sample ([0, 0] without samples). Returns 0, or -EINVAL as
 * vp_stat_row for bad numbers or alpha. Deterministic. */
int vp_stat_mean_interval(const struct vp_stat_side *s, double alpha, double *lo, double *hi);

/* Benjamini-Hochberg adjusted p-values (step-up, monotone, capped at 1) of n
 * p-values in [0, 1]: q[i] belongs to p[i]; q may be p. Returns 0, -EINVAL
 * for a p outside [0, 1], or -ENOMEM. */
int vp_stat_bh(const double *p, size_t n, double *q);

/* One side's runs for all rows of one event, rows in the comparison's order
 * (row r of the baseline and of a side are the same key). */
struct vp_stat_runs {
	size_t nrows, nruns;
	size_t stride;			/* between rows of value/samples; 0 means nruns */
	const double *value;		/* value[row * stride + run] */
	const double *samples;		/* samples[row * stride + run] */
	const double *total;		/* total[run]: the event's total value */
	const double *total_samples;	/* total_samples[run] */
};

/* Row r of m as a vp_stat_side (pointers into m). */
void vp_stat_runs_row(const struct vp_stat_runs *m, size_t row, struct vp_stat_side *out);
/* Every row of an event, side against baseline: out[r] for r < nrows, with q
 * by Benjamini-Hochberg across the event's rows and significant = q < alpha.
 * The rows are shared among up to `threads` threads (0: this process's
 * CPUs); each row is computed alone, so out is the same on any number.
 * Returns 0, -EINVAL (as vp_stat_row, or nrows differ) or -ENOMEM. */
int vp_stat_event(const struct vp_stat_runs *base, const struct vp_stat_runs *side, double alpha,
		  unsigned threads, struct vp_stat_result *out);

/* The A/A noise floor: the baseline's first floor(n/2) runs against the rest,
 * in the order given, compared as vp_stat_event does; *flagged = the rows
 * significant there (under no real difference, ideally 0). Needs n >= 4 runs:
 * -EINVAL otherwise; -ENOMEM. */
int vp_stat_aa_floor(const struct vp_stat_runs *base, double alpha, unsigned threads,
		     size_t *flagged);

/* A quantity measured once per run (a recording's wall time, CPU time...):
 * the difference of the side's mean and the baseline's, with Welch's
 * interval at confidence 1 - alpha. */
struct vp_stat_diff {
	double base, side;	/* the means */
	double delta;		/* side - base */
	double lo, hi;		/* NAN when a side has fewer than 2 runs: run-to-run
				   variation unmeasured */
};
/* Returns 0, or -EINVAL for an empty side, a value that is not finite or an
 * alpha outside (0, 1). */
int vp_stat_mean_diff(const double *base, size_t nbase, const double *side, size_t nside,
		      double alpha, struct vp_stat_diff *out);

#endif
