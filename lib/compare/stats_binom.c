/* Two Poisson counts ca, cb: given n = ca + cb, cb is binomial(n, pi) with
 * pi = lambda_b / (lambda_a + lambda_b), so the odds pi / (1 - pi) are the
 * ratio of rates. Clopper-Pearson bounds the odds, the central binomial test
 * gives p, and the two invert each other: an odds value is inside the
 * interval exactly when its test has p >= alpha.
 *
 * Why not gsl_cdf_beta_Pinv/Qinv: GSL 2.7 returns NaN (or calls its error
 * handler, which aborts by default) for skewed parameters as common as one
 * sample against 10^6, and pi near 1 loses the digits of 1 - pi that the odds
 * need. The bound is found instead as the root, in log-odds, of GSL's beta
 * CDF (the binomial tail) with GSL's Brent solver, each tail evaluated on the
 * smaller of pi and 1 - pi. GSL's incomplete beta (a continued fraction
 * capped at 512 iterations) has relative error near n pi (1 - pi) 1e-15 and
 * stops converging past a few 10^5 a side; when both counts exceed 20000 the
 * binomial is normal to a skew below 1/100, and the score test with its
 * inverse, the Wilson interval, is used. */
#include "stats_binom.h"

#include <errno.h>
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

/* P(X >= x) for X ~ binomial(n, pi); cpi = 1 - pi, given on its own so that
 * pi near 1 keeps its precision. */
static double binom_ge(double x, double n, double pi, double cpi)
{
	if (x <= 0)
		return 1;
	return pi <= 0.5 ? gsl_cdf_beta_P(pi, x, n - x + 1) : gsl_cdf_beta_Q(cpi, n - x + 1, x);
}

/* P(X <= x): n - X is binomial(n, 1 - pi). */
static double binom_le(double x, double n, double pi, double cpi)
{
	return binom_ge(n - x, n, cpi, pi);
}

struct tail {
	double x, n, target;
	int bad;
};

/* P(X >= x) - target at log-odds u: increasing in u. */
static double tail_at(double u, void *arg)
{
	struct tail *t = arg;
	double v = binom_ge(t->x, t->n, 1 / (1 + exp(-u)), 1 / (1 + exp(u))) - t->target;

	if (isfinite(v))
		return v;
	t->bad = 1;	/* GSL's error handler must not see a non-finite value */
	return 0;
}

/* The Clopper-Pearson lower bound of the odds for x of n (1 <= x <= n): the
 * odds at which P(X >= x) = alpha / 2. */
static int odds_lower(double x, double n, double alpha, double *out)
{
	struct tail t = { x, n, alpha / 2, 0 };
	gsl_function f = { tail_at, &t };
	double u = log(x / (n - x + 1)), lo = u, hi = u, flo, fhi, step = 1;
	gsl_root_fsolver *s;
	int i, rc = 0;

	/* bracket the root: a binomial bound lies a few units of log-odds away */
	for (i = 0; (flo = tail_at(lo, &t)) > 0 && i < 60; i++, step *= 2)
		lo -= step;
	for (i = 0, step = 1; (fhi = tail_at(hi, &t)) < 0 && i < 60; i++, step *= 2)
		hi += step;
	if (t.bad || flo > 0 || fhi < 0)
		return -EDOM;
	if (flo == 0 || fhi == 0) {
		*out = exp(flo == 0 ? lo : hi);
		return 0;
	}
	s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	if (!s)
		return -ENOMEM;
	gsl_root_fsolver_set(s, &f, lo, hi);
	for (i = 0; i < 200; i++) {
		if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS || t.bad) {
			rc = -EDOM;
			break;
		}
		if (gsl_root_test_interval(gsl_root_fsolver_x_lower(s), gsl_root_fsolver_x_upper(s),
					   1e-14, 1e-15) == GSL_SUCCESS)
			break;
	}
	*out = exp(gsl_root_fsolver_root(s));
	gsl_root_fsolver_free(s);
	return i == 200 ? -EDOM : rc;
}

/* Large counts: the score test of pi0 and the set it accepts (Wilson),
 * written in odds: (cb - ca theta)^2 <= z^2 n theta. */
static void normal_limit(double ca, double cb, double k, double alpha, struct vp_binom_odds *out)
{
	double n = ca + cb, z = gsl_cdf_ugaussian_Qinv(alpha / 2), z2n = z * z * n;
	double b = 2 * ca * cb + z2n, disc = z2n * (4 * ca * cb + z2n);
	double pi0 = 1 / (1 + k), cpi0 = k / (1 + k);
	double score = (cb * cpi0 - ca * pi0) / sqrt(n * pi0 * cpi0);

	out->hi = (b + sqrt(disc)) / (2 * ca * ca);
	out->lo = (cb / ca) * (cb / ca) / out->hi;	/* product of the roots */
	out->p = 2 * gsl_cdf_ugaussian_Q(fabs(score));
}

int vp_binom_odds(double ca, double cb, double k, double alpha, struct vp_binom_odds *out)
{
	double n = ca + cb, pi0, cpi0, le, ge;
	int rc;

	if (!(k > 0 && k < INFINITY))
		return -EINVAL;
	if (fmin(ca, cb) > VP_BINOM_EXACT_MAX) {
		normal_limit(ca, cb, k, alpha, out);
		return 0;
	}
	pi0 = 1 / (1 + k);
	cpi0 = k / (1 + k);
	le = binom_le(cb, n, pi0, cpi0);
	ge = binom_ge(cb, n, pi0, cpi0);
	if (!isfinite(le) || !isfinite(ge))
		return -EDOM;
	out->p = fmin(1, 2 * fmin(le, ge));
	out->lo = 0;
	out->hi = INFINITY;
	if (cb > 0 && (rc = odds_lower(cb, n, alpha, &out->lo)) < 0)
		return rc;
	/* the upper bound for b's odds is the inverse of the lower one for a's */
	if (ca > 0) {
		double l;

		if ((rc = odds_lower(ca, n, alpha, &l)) < 0)
			return rc;
		out->hi = 1 / l;
	}
	return 0;
}
