/* Chart colours. Host and guest are Okabe-Ito blue and orange: safe for the
 * common colour-vision deficiencies and far apart in luminance (about 0.16 and
 * 0.44), so greyscale print still tells them apart. Never red against green. */
#include "render_internal.h"

const struct rgb vp_host_rgb = { 0.0, 0.447, 0.698 };	/* #0072B2 */
const struct rgb vp_guest_rgb = { 0.902, 0.624, 0.0 };	/* #E69F00 */
const struct rgb vp_ink_rgb = { 0.13, 0.13, 0.13 };
const struct rgb vp_muted_rgb = { 0.55, 0.55, 0.55 };	/* findings within noise */
const struct rgb vp_grid_rgb = { 0.87, 0.87, 0.87 };
const struct rgb vp_other_rgb = { 0.75, 0.75, 0.75 };
const struct rgb vp_more_rgb = { 0.8, 0.475, 0.655 };	/* #CC79A7 */
const struct rgb vp_less_rgb = { 0.0, 0.62, 0.451 };	/* #009E73 */

/* Paul Tol's muted scheme: tells slices apart, not sides. */
static const struct rgb slices[VP_SLICE_COLOURS] = {
	{ 0.200, 0.133, 0.533 }, { 0.533, 0.800, 0.933 }, { 0.267, 0.667, 0.600 },
	{ 0.067, 0.467, 0.200 }, { 0.600, 0.600, 0.200 }, { 0.867, 0.800, 0.467 },
	{ 0.800, 0.400, 0.467 }, { 0.533, 0.133, 0.333 },
};

const struct rgb *vp_slice_rgb(size_t i)
{
	return &slices[i % VP_SLICE_COLOURS];
}

const struct rgb *vp_side_rgb(int side)
{
	return side ? &vp_guest_rgb : &vp_host_rgb;
}

void vp_set_rgb(cairo_t *cr, const struct rgb *c)
{
	cairo_set_source_rgb(cr, c->r, c->g, c->b);
}
