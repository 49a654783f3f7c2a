/* Chart colours. Sides take Okabe-Ito hues in order: blue, orange, bluish
 * green, reddish purple, sky blue, vermillion (yellow is left out: too
 * light on white, and its pale form would look the same). They are safe for the
 * common colour-vision deficiencies, never red against green, and the first
 * three differ in lightness too (CIE L* 46, 71, 58), so greyscale print
 * still tells them apart; beyond that the fixed order in every bar group says
 * which side a bar is. A finding that is not significant is drawn pale. */
#include "render_internal.h"

const struct rgb vp_host_rgb = { 0.0, 0.447, 0.698 };	/* #0072B2 */
const struct rgb vp_guest_rgb = { 0.902, 0.624, 0.0 };	/* #E69F00 */
const struct rgb vp_ink_rgb = { 0.13, 0.13, 0.13 };
const struct rgb vp_muted_rgb = { 0.55, 0.55, 0.55 };	/* findings within noise */
const struct rgb vp_grid_rgb = { 0.87, 0.87, 0.87 };
const struct rgb vp_other_rgb = { 0.75, 0.75, 0.75 };
const struct rgb vp_more_rgb = { 0.8, 0.475, 0.655 };	/* #CC79A7 */
const struct rgb vp_less_rgb = { 0.0, 0.62, 0.451 };	/* #009E73 */

static const struct rgb sides[VP_SIDE_COLOURS] = {
	{ 0.0, 0.447, 0.698 },		/* #0072B2 blue */
	{ 0.902, 0.624, 0.0 },		/* #E69F00 orange */
	{ 0.0, 0.620, 0.451 },		/* #009E73 bluish green */
	{ 0.800, 0.475, 0.655 },	/* #CC79A7 reddish purple */
	{ 0.337, 0.706, 0.914 },	/* #56B4E9 sky blue */
	{ 0.835, 0.369, 0.0 },		/* #D55E00 vermillion */
};

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

const struct rgb *vp_side_rgb(size_t side)
{
	return &sides[side % VP_SIDE_COLOURS];
}

struct rgb vp_side_pale(size_t side)
{
	/* a fifth of the hue on light grey: reads as greyed out, keeps its hue
	 * beside the others, and is lighter than every full hue (L* 80 or more
	 * against 46 to 71), so greyscale print keeps the difference */
	const struct rgb *c = vp_side_rgb(side);
	return (struct rgb){ 0.2 * c->r + 0.8 * 0.9, 0.2 * c->g + 0.8 * 0.9, 0.2 * c->b + 0.8 * 0.9 };
}

void vp_set_rgb(cairo_t *cr, const struct rgb *c)
{
	cairo_set_source_rgb(cr, c->r, c->g, c->b);
}
