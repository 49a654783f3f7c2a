/* One comparison row, side against baseline: the ratio of means with its
 * interval, the delta of shares with its interval and a p-value, from the
 * run-to-run variance floored at sampling noise (Welch, Fieller) or, with a
 * one-run side, from sampling noise alone (conditional binomial,
 * Clopper-Pearson). vmprof-compare(1) STATISTICS states the method;
 * test/stats_oracle.py computes it with scipy. */
#include "stats.h"
#include "stats_binom.h"

#include <errno.h>
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

static double at(const double *x, const double *div, size_t i)
{
	return div ? (div[i] > 0 ? x[i] / div[i] : 0) : x[i];
}

/* Mean and sample variance (ddof 1; 0 with one run) of x[i], or of the
 * shares x[i] / div[i] (0 where div[i] is 0) when div is given. Equal
 * values have variance 0 exactly (a sum of n equal shares divided by n need
 * not give the share back), so "no spread" is recognised. */
static void moments(const double *x, const double *div, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	int equal = 1;

	for (size_t i = 0; i < n; i++) {
		s += at(x, div, i);
		equal &= at(x, div, i) == at(x, div, 0);
	}
	*mean = !n ? NAN : equal ? at(x, div, 0) : s / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = at(x, div, i) - *mean;

		ss += d * d;
	}
	*var = n > 1 && !equal ? ss / (double)(n - 1) : 0;
}

void vp_stat_describe(const struct vp_stat_side *s, struct vp_stat_desc *out)
{
	double var, svar;

	moments(s->value, NULL, s->nruns, &out->mean, &var);
	moments(s->value, s->total, s->nruns, &out->share, &svar);
	out->sd = s->nruns > 1 ? sqrt(var) : NAN;
}

static int valid(const struct vp_stat_side *s)
{
	if (!s->nruns)
		return 0;
	for (size_t i = 0; i < s->nruns; i++) {
		double x = s->value[i], c = s->samples[i], t = s->total[i], tc = s->total_samples[i];

		/* written so that NAN fails every test */
		if (!(x >= 0 && c >= 0 && t < INFINITY && tc < INFINITY && x <= t && c <= tc))
			return 0;
		if (c != floor(c) || (x > 0 && c == 0))
			return 0;
	}
	return 1;
}

/* Welch-Satterthwaite degrees of freedom of a difference of two means whose
 * squared standard errors are va, vb (not both 0). */
static double welch_df(double va, size_t na, double vb, size_t nb)
{
	double s = va + vb;

	return s * s / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
}

/* Fieller's set {rho >= 0 : (mb - rho ma)^2 <= t^2 (vb + rho^2 va)} for means
 * ma, mb >= 0 (not both 0) with squared standard errors va, vb (va > 0 when
 * ma is 0): the quadratic a rho^2 - 2 b rho + c <= 0. Roots are taken in the
 * forms that do not cancel (b >= 0). */
static void fieller(double ma, double va, double mb, double vb, double t, double *lo, double *hi)
{
	double t2 = t * t, a = ma * ma - t2 * va, b = ma * mb, c = mb * mb - t2 * vb;
	/* b^2 - a c, expanded so that the ma^2 mb^2 terms cancel exactly */
	double disc = t2 * (ma * ma * vb + mb * mb * va - t2 * va * vb);
	double s = disc > 0 ? sqrt(disc) : 0;

	if (a > 0) {
		/* bounded: the roots straddle mb/ma */
		*hi = (b + s) / a;
		*lo = *hi > 0 ? c / (a * *hi) : 0;
	} else {
		/* the baseline's mean is within noise of 0: the set reaches infinity;
		 * its part on rho >= 0 starts at the larger root (both roots <= 0 when
		 * c <= 0 or disc <= 0) */
		*lo = disc > 0 && b + s > 0 ? c / (b + s) : 0;
		*hi = INFINITY;
	}
	if (*lo < 0)
		*lo = 0;
}

/* A side pooled over its runs. */
struct pool {
	double n, c, x, t, tc;	/* runs, samples, value, total value, total samples */
};

static struct pool pool(const struct vp_stat_side *s)
{
	struct pool p = { (double)s->nruns, 0, 0, 0, 0 };

	for (size_t i = 0; i < s->nruns; i++) {
		p.c += s->samples[i];
		p.x += s->value[i];
		p.t += s->total[i];
		p.tc += s->total_samples[i];
	}
	return p;
}

/* The squared standard error of a side's mean value (shares: of its mean
 * share) from sampling noise alone. Samples are Poisson: a run's value x = c w
 * (c samples worth w each) varies by x^2 / c, a share q of N samples by
 * q (1 - q) / N. A side that has nothing gives no estimate of its own (0 is
 * not a variance that its runs can show): under the null it has the other
 * side's rate, so its runs take the pooled mean value per run with the
 * other's value per sample, or the pooled share. */
static double sampling_se2(const struct vp_stat_side *s, const struct vp_stat_side *o, int shares)
{
	struct pool S = pool(s), O = pool(o);
	double v = 0, m0 = O.x / (S.n + O.n), w0 = O.c > 0 ? O.x / O.c : 0;
	double q0 = S.t + O.t > 0 ? O.x / (S.t + O.t) : 0;

	for (size_t i = 0; i < s->nruns; i++) {
		double x = s->value[i], c = s->samples[i], n = s->total_samples[i];

		if (shares) {
			double q = S.x > 0 ? at(s->value, s->total, i) : q0;

			v += n > 0 ? q * (1 - q) / n : 0;
		} else {
			v += S.x > 0 ? (x > 0 ? x / c * x : 0) : m0 * w0;
		}
	}
	return v / (S.n * S.n);
}

/* A side's mean value (shares: mean share) and the squared standard error of
 * that mean: the runs' sample variance / n, floored at sampling noise alone
 * (by chance the runs may agree more than their samples allow: (0, 0) against
 * (1, 1, 1) has no spread at all). */
static void side_mean(const struct vp_stat_side *s, const struct vp_stat_side *o, int shares,
		      double *mean, double *se2)
{
	double var;

	moments(s->value, shares ? s->total : NULL, s->nruns, mean, &var);
	*se2 = fmax(var / (double)s->nruns, sampling_se2(s, o, shares));
}

/* Both sides have >= 2 runs: Welch's t-test of the difference of means,
 * Fieller's interval for their ratio at the same df, and a Welch interval for
 * the difference of the mean shares (with its own df). */
static void by_runs(const struct vp_stat_side *a, const struct vp_stat_side *b, double alpha,
		    struct vp_stat_result *out)
{
	double ma, va, mb, vb, qa, sa, qb, sb;

	side_mean(a, b, 0, &ma, &va);
	side_mean(b, a, 0, &mb, &vb);
	out->basis = VP_STAT_RUNS;
	if ((ma == 0 && mb == 0) || !(va + vb > 0)) {
		/* nothing on either side (or values so small, below 1e-154, that
		 * their variance underflows): nothing to judge */
		out->ratio = ma > 0 ? mb / ma : mb > 0 ? INFINITY : NAN;
		out->ratio_lo = 0;
		out->ratio_hi = INFINITY;
		out->p = 1;
	} else {
		double df = welch_df(va, a->nruns, vb, b->nruns);
		double t = (mb - ma) / sqrt(va + vb);

		out->ratio = mb / ma;
		out->p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
		if (out->p > 1)
			out->p = 1;
		fieller(ma, va, mb, vb, gsl_cdf_tdist_Qinv(alpha / 2, df), &out->ratio_lo,
			&out->ratio_hi);
	}

	side_mean(a, b, 1, &qa, &sa);
	side_mean(b, a, 1, &qb, &sb);
	out->delta_pp = 100 * (qb - qa);
	if (sa + sb == 0) {
		/* shares 0 (or 1) on both sides in every run: no noise to speak of */
		out->delta_lo = out->delta_hi = out->delta_pp;
	} else {
		double half = 100 * gsl_cdf_tdist_Qinv(alpha / 2, welch_df(sa, a->nruns, sb, b->nruns)) *
			      sqrt(sa + sb);

		out->delta_lo = out->delta_pp - half;
		out->delta_hi = out->delta_pp + half;
	}
}

/* A side has one run: run-to-run variation is unmeasured. Samples are Poisson,
 * so given their sum, side B's count is binomial; its odds, scaled by the
 * value per sample and the runs per side, are the ratio. Shares get a normal
 * interval from the binomial variance of the share of samples. */
static int by_sampling(const struct vp_stat_side *a, const struct vp_stat_side *b, double alpha,
		       struct vp_stat_result *out)
{
	struct pool A = pool(a), B = pool(b);
	/* samples with value 0 carry nothing of what is compared: as absent */
	double ca = A.x > 0 ? A.c : 0, cb = B.x > 0 ? B.c : 0;
	double sa = A.t > 0 ? A.x / A.t : 0, sb = B.t > 0 ? B.x / B.t : 0;
	double va = A.tc > 0 ? sa * (1 - sa) / A.tc : 0, vb = B.tc > 0 ? sb * (1 - sb) / B.tc : 0;
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2);

	out->basis = VP_STAT_SAMPLING;
	out->delta_pp = 100 * (sb - sa);
	out->delta_lo = out->delta_pp - 100 * z * sqrt(va + vb);
	out->delta_hi = out->delta_pp + 100 * z * sqrt(va + vb);

	if (ca == 0 && cb == 0) {
		out->ratio = NAN;
		out->ratio_lo = 0;
		out->ratio_hi = INFINITY;
		out->p = 1;
		return 0;
	}
	{
		/* value per sample; a side without samples borrows the other's */
		double wa = ca > 0 ? A.x / ca : B.x / cb, wb = cb > 0 ? B.x / cb : wa;
		double k = (wb / B.n) / (wa / A.n);
		struct vp_binom_odds r;
		int rc = vp_binom_odds(ca, cb, k, alpha, &r);

		if (rc < 0)
			return rc;
		out->ratio = (B.x / B.n) / (A.x / A.n);
		out->ratio_lo = k * r.lo;
		out->ratio_hi = k * r.hi;
		out->p = r.p;
	}
	return 0;
}

/* GSL's error handler aborts by default: a quantile that does not converge
 * on some input must give a value or an error code, never end the process. */
__attribute__((constructor)) static void gsl_errors_returned(void)
{
	gsl_set_error_handler_off();
}

/* The chi-square quantile with this tail below it (above it: upper). GSL's inverse gamma stops converging at some
 * millions of degrees of freedom (a run of 6.5 M samples aborted chart);
 * above VP_BINOM_EXACT_MAX samples (df twice that) Wilson and Hilferty's
 * cube-root normal form is within 1e-8 relative of the exact value (scipy:
 * -5.6e-9 at 20001 samples, 1e-12 at 6.5 M). */
static double chisq_quantile(double tail, double df, int upper)
{
	if (df <= 2 * VP_BINOM_EXACT_MAX)
		return upper ? gsl_cdf_chisq_Qinv(tail, df) : gsl_cdf_chisq_Pinv(tail, df);
	double a = 2 / (9 * df), z = upper ? gsl_cdf_ugaussian_Qinv(tail) : gsl_cdf_ugaussian_Pinv(tail);
	double t = 1 - a + z * sqrt(a);
	return df * t * t * t;
}

int vp_stat_mean_interval(const struct vp_stat_side *s, double alpha, double *lo, double *hi)
{
	double mean, var;

	if (!(alpha > 0 && alpha < 1) || !valid(s))
		return -EINVAL;
	if (s->nruns >= 2) {
		moments(s->value, NULL, s->nruns, &mean, &var);
		double half = var > 0 ? gsl_cdf_tdist_Qinv(alpha / 2, (double)(s->nruns - 1)) *
					  sqrt(var / (double)s->nruns) : 0;
		*lo = mean - half > 0 ? mean - half : 0;
		*hi = mean + half;
	} else if (s->samples[0] > 0) {
		double c = s->samples[0], per = s->value[0] / c;

		*lo = per * chisq_quantile(alpha / 2, 2 * c, 0) / 2;
		*hi = per * chisq_quantile(alpha / 2, 2 * c + 2, 1) / 2;
	} else {
		*lo = *hi = 0;
	}
	return 0;
}

int vp_stat_row(const struct vp_stat_side *base, const struct vp_stat_side *side, double alpha,
		struct vp_stat_result *out)
{
	int rc = 0;

	if (!(alpha > 0 && alpha < 1) || !valid(base) || !valid(side))
		return -EINVAL;
	if (base->nruns >= 2 && side->nruns >= 2)
		by_runs(base, side, alpha, out);
	else
		rc = by_sampling(base, side, alpha, out);
	if (rc < 0)
		return rc;
	out->q = out->p;
	out->significant = out->q < alpha;
	return 0;
}

int vp_stat_mean_diff(const double *base, size_t nbase, const double *side, size_t nside,
		      double alpha, struct vp_stat_diff *out)
{
	double va, vb;

	if (!nbase || !nside || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	for (size_t i = 0; i < nbase + nside; i++) {
		double x = i < nbase ? base[i] : side[i - nbase];
		if (!isfinite(x))
			return -EINVAL;
	}
	moments(base, NULL, nbase, &out->base, &va);
	moments(side, NULL, nside, &out->side, &vb);
	out->delta = out->side - out->base;
	out->lo = out->hi = NAN;
	if (nbase < 2 || nside < 2)
		return 0;
	va /= (double)nbase;
	vb /= (double)nside;
	if (va + vb == 0) {	/* no spread: the interval is the point */
		out->lo = out->hi = out->delta;
		return 0;
	}
	double half = gsl_cdf_tdist_Qinv(alpha / 2, welch_df(va, nbase, vb, nside)) * sqrt(va + vb);
	out->lo = out->delta - half;
	out->hi = out->delta + half;
	return 0;
}
