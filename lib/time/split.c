/* The wall-time gap split into its parts (see split.h). */
#include "split.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

static int mean(const struct vp_profile_meta *const *runs, size_t n, enum vp_time_part p, int wall,
		double *out)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		double v = wall ? runs[i]->wall_time : part_of(runs[i], p);
		if (!(v >= 0))
			return 0;
		sum += v;
	}
	*out = sum / (double)n;
	return 1;
}

int vp_time_split(const struct vp_profile_meta *const *base, size_t nbase,
		  const struct vp_profile_meta *const *side, size_t nside, struct vp_time_split *out,
		  struct vp_error *err)
{
	const struct vp_profile_meta *const *sides[2] = { base, side };
	size_t n[2] = { nbase, nside };

	*out = (struct vp_time_split){ { nbase, nside } };
	if (!nbase || !nside)
		return vp_errorf(err, -EINVAL, "no runs to split the time of");
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n[s]; i++)
			if (!(sides[s][i]->wall_time >= 0))
				return vp_errorf(err, -ENODATA, "'%s': no wall time in the file (it was not "
						 "recorded by vmprof record with a command)",
						 sides[s][i]->source ? sides[s][i]->source : "?");
	mean(base, nbase, 0, 1, &out->wall.base);
	mean(side, nside, 0, 1, &out->wall.side);
	out->wall.delta = out->wall.side - out->wall.base;
	out->wall.known = 1;
	out->ratio = out->wall.base > 0 ? out->wall.side / out->wall.base : 0;
	struct vp_time_value *rest = &out->part[VP_TIME_REMAINDER];
	*rest = out->wall;
	for (int p = 0; p < VP_TIME_REMAINDER; p++) {
		struct vp_time_value *v = &out->part[p];
		v->known = mean(base, nbase, p, 0, &v->base) && mean(side, nside, p, 0, &v->side);
		if (!v->known) {
			v->base = v->side = 0;
			continue;
		}
		v->delta = v->side - v->base;
		rest->base -= v->base;
		rest->side -= v->side;
		rest->delta -= v->delta;
	}
	/* the remainder says what it holds besides what nothing measures */
	char *buf = out->remainder_name;
	size_t k = (size_t)snprintf(buf, sizeof(out->remainder_name), "remainder");
	for (int q = 0, first = 1; q < VP_TIME_REMAINDER; q++)
		if (!out->part[q].known) {
			k += (size_t)snprintf(buf + k, sizeof(out->remainder_name) - k, "%s%s",
					      first ? " (" : ", ", names[q]);
			first = 0;
		}
	if (strcmp(buf, "remainder"))
		snprintf(buf + k, sizeof(out->remainder_name) - k, ", not measured)");
	return 0;
}

int vp_cmp_time_split(const struct vp_comparison *c, struct vp_time_split *out,
		      struct vp_error *err)
{
	const struct vp_profile_meta *base = &c->meta[0], *side = &c->meta[1];

	return vp_time_split(&base, 1, &side, 1, out, err);
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
