/* The one-run case of lib/compare/stats.c: two Poisson sample counts compared
 * through the binomial split of their sum (module-internal). */
#ifndef VP_STATS_BINOM_H
#define VP_STATS_BINOM_H

/* Odds theta = lambda_b / lambda_a of two Poisson counts ca, cb (whole
 * numbers, not both 0) at confidence 1 - alpha: lo, hi bound theta (hi may be
 * INFINITY), p tests theta = 1/k (k > 0, finite). */
struct vp_binom_odds {
	double lo, hi, p;
};

/* Counts up to this (the smaller of the two): exact binomial; above it the
 * normal limit (see stats_binom.c). */
#define VP_BINOM_EXACT_MAX 20000.0

/* 0, -EINVAL (k not finite and > 0), -EDOM (GSL failed to converge), -ENOMEM. */
int vp_binom_odds(double ca, double cb, double k, double alpha, struct vp_binom_odds *out);

#endif
