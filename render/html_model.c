/* The comparison as the HTML report reads it: sides, their facts and each
 * row's numbers, with the ratio written exactly as compare's CSV writes it
 * (the page's numbers are checked against that CSV). The one place that
 * knows the comparison's layout. */
#include "html_internal.h"

#include <math.h>
#include <stdio.h>

size_t vp_hm_nsides(const struct vp_comparison *c)
{
	return c->nsides;
}

const char *vp_hm_label(const struct vp_comparison *c, size_t side)
{
	return c->label[side] ? c->label[side] : side ? "guest" : "host";
}

const struct vp_profile_meta *vp_hm_meta(const struct vp_comparison *c, size_t side)
{
	return &c->meta[side];
}

size_t vp_hm_runs(const struct vp_comparison *c, size_t side)
{
	return vp_cmp_side_runs(c, side);
}

uint64_t vp_hm_samples(const struct vp_cmp_row *r, size_t side)
{
	return r->samples[side];
}

uint64_t vp_hm_period(const struct vp_cmp_row *r, size_t side)
{
	return r->period[side];
}

uint64_t vp_hm_total_samples(const struct vp_cmp_event *e, size_t side)
{
	return e->total_samples[side];
}

uint64_t vp_hm_total_period(const struct vp_cmp_event *e, size_t side)
{
	return e->total_period[side];
}

const char *vp_hm_event_name(const struct vp_cmp_event *e, size_t side)
{
	return e->present[side] ? (e->side_name[side] ? e->side_name[side] : e->name) : NULL;
}

double vp_hm_share(const struct vp_comparison *c, const struct vp_cmp_event *e,
		   const struct vp_cmp_row *r, size_t side)
{
	return vp_cmp_share(e, r, side, c->value);
}

double vp_hm_ratio(const struct vp_comparison *c, const struct vp_cmp_event *e,
		   const struct vp_cmp_row *r, size_t side, char *csv, size_t size)
{
	enum vp_ratio_kind k;
	double x = vp_cmp_ratio(e, r, side, c->value, &k);

	/* compare's CSV: "only base" and "only side" with more than two sides */
	switch (k) {
	case VP_RATIO_BOTH:
		snprintf(csv, size, "%.6f", x);
		return x;
	case VP_RATIO_ONLY_HOST:
		snprintf(csv, size, "%s", c->nsides == 2 ? "only host" : "only base");
		return 0;
	case VP_RATIO_ONLY_GUEST:
		snprintf(csv, size, "%s", c->nsides == 2 ? "only guest" : "only side");
		return INFINITY;
	default:
		snprintf(csv, size, "%s", "");
		return NAN;
	}
}

double vp_hm_delta_pp(const struct vp_comparison *c, const struct vp_cmp_event *e,
		      const struct vp_cmp_row *r, size_t side)
{
	return vp_cmp_delta_pp(e, r, side, c->value);
}

const struct vp_stat_result *vp_hm_stat(const struct vp_cmp_event *e, const struct vp_cmp_row *r,
					size_t side)
{
	return vp_cmp_stat(e, r, side);
}

double vp_hm_alpha(const struct vp_comparison *c)
{
	return c->alpha;
}

long vp_hm_noise_floor(const struct vp_cmp_event *e)
{
	return e->noise_floor;
}

/* 1 when e's periods are a time event's nanoseconds, shown as time. */
int vp_hm_is_time(const struct vp_comparison *c, const struct vp_cmp_event *e)
{
	return vp_value_is_time(c, e);
}
