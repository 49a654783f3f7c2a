/* The wall-time gap split into its parts (see split.h). */
#include "split.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compare/stats.h"

static const char *const keys[VP_TIME_NPARTS] = { "user", "system", "steal", "waiting", "blocked",
						   "remainder" };
static const char *const names[VP_TIME_NPARTS] = { "user CPU", "kernel CPU", "steal", "runnable waiting",
						    "blocked", "remainder" };

/* What a run measured of a part; < 0 when it did not. */
static double part_of(const struct vp_profile_meta *m, enum vp_time_part p)
{
	switch (p) {
	case VP_TIME_USER: return m->user_time;
	case VP_TIME_SYSTEM: return m->system_time;
	case VP_TIME_STEAL: return m->steal_running >= 0 ? m->steal_running : m->steal_time;
	case VP_TIME_WAITING: return m->wall_waiting;
	case VP_TIME_BLOCKED: return m->wall_blocked;
	default: return -1;
	}
}

#define ALPHA 0.05

/* Part p of every run of runs (p < 0: the wall time; VP_TIME_REMAINDER: the
 * run's own wall minus its measured parts, the parts measured on every run
 * being given by known); 0 when a run did not measure it. */
static int values(const struct vp_profile_meta *const *runs, size_t n, int p, const int *known,
		  double *out)
{
	for (size_t i = 0; i < n; i++) {
		double v = p < 0 ? runs[i]->wall_time : part_of(runs[i], (enum vp_time_part)p);
		if (p == VP_TIME_REMAINDER) {
			v = runs[i]->wall_time;
			for (int q = 0; q < VP_TIME_REMAINDER; q++)
				if (known[q])
					v -= part_of(runs[i], (enum vp_time_part)q);
		} else if (!(v >= 0)) {
			return 0;
		}
		out[i] = v;
	}
	return 1;
}

/* Part p of both sides: means, difference, interval; 0 when not measured. */
static int diff(const struct vp_profile_meta *const *base, size_t nbase,
		const struct vp_profile_meta *const *side, size_t nside, int p, const int *known,
		double *scratch, struct vp_time_value *v)
{
	struct vp_stat_diff d;

	if (!values(base, nbase, p, known, scratch) || !values(side, nside, p, known, scratch + nbase) ||
	    vp_stat_mean_diff(scratch, nbase, scratch + nbase, nside, ALPHA, &d) < 0)
		return 0;
	*v = (struct vp_time_value){ d.base, d.side, d.delta, d.lo, d.hi, 1 };
	return 1;
}

int vp_time_split(const struct vp_profile_meta *const *base, size_t nbase,
		  const struct vp_profile_meta *const *side, size_t nside, struct vp_time_split *out,
		  struct vp_error *err)
{
	const struct vp_profile_meta *const *sides[2] = { base, side };
	size_t n[2] = { nbase, nside };
	int known[VP_TIME_REMAINDER];
	double *scratch;

	*out = (struct vp_time_split){ { nbase, nside } };
	if (!nbase || !nside)
		return vp_errorf(err, -EINVAL, "no runs to split the time of");
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n[s]; i++)
			if (!(sides[s][i]->wall_time >= 0))
				return vp_errorf(err, -ENODATA, "'%s': no wall time in the file (it was not "
						 "recorded by vmprof record with a command)",
						 sides[s][i]->source ? sides[s][i]->source : "?");
	if (!(scratch = malloc((nbase + nside) * sizeof(*scratch))))
		return vp_errorf(err, -ENOMEM, "out of memory");
	diff(base, nbase, side, nside, -1, NULL, scratch, &out->wall);
	out->ratio = out->wall.base > 0 ? out->wall.side / out->wall.base : 0;
	for (int p = 0; p < VP_TIME_REMAINDER; p++)
		known[p] = diff(base, nbase, side, nside, p, NULL, scratch, &out->part[p]);
	diff(base, nbase, side, nside, VP_TIME_REMAINDER, known, scratch, &out->part[VP_TIME_REMAINDER]);
	free(scratch);
	/* the remainder says what it holds besides what nothing measures */
	char *buf = out->remainder_name;
	size_t k = (size_t)snprintf(buf, sizeof(out->remainder_name), "remainder");
	for (int q = 0, first = 1; q < VP_TIME_REMAINDER; q++)
		if (!known[q]) {
			k += (size_t)snprintf(buf + k, sizeof(out->remainder_name) - k, "%s%s",
					      first ? " (" : ", ", names[q]);
			first = 0;
		}
	if (strcmp(buf, "remainder"))
		snprintf(buf + k, sizeof(out->remainder_name) - k, ", not measured)");
	return 0;
}

int vp_cmp_time_split(const struct vp_comparison *c, size_t side, struct vp_time_split *out,
		      struct vp_error *err)
{
	size_t nb = c->first_run[1] - c->first_run[0], ns;
	const struct vp_profile_meta **runs;
	int r;

	if (side < 1 || side >= c->nsides)
		return vp_errorf(err, -EINVAL, "no side %zu to split the time of", side);
	ns = c->first_run[side + 1] - c->first_run[side];
	if (!(runs = malloc((nb + ns) * sizeof(*runs))))
		return vp_errorf(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < nb; i++)
		runs[i] = &c->run_meta[c->first_run[0] + i];
	for (size_t i = 0; i < ns; i++)
		runs[nb + i] = &c->run_meta[c->first_run[side] + i];
	r = vp_time_split(runs, nb, runs + nb, ns, out, err);
	free(runs);
	return r;
}

const char *vp_time_part_name(const struct vp_time_split *s, enum vp_time_part p)
{
	return p == VP_TIME_REMAINDER ? s->remainder_name : names[p];
}

const char *vp_time_part_key(enum vp_time_part p)
{
	return keys[p];
}

double vp_time_part_percent(const struct vp_time_split *s, enum vp_time_part p)
{
	if (fabs(s->wall.delta) < 1e-6)
		return NAN;
	return 100 * s->part[p].delta / s->wall.delta;
}
