/* The value axis of the bar chart and the waterfall: zero-based linear with
 * round ticks, or log with a tick per decade when the values span more than
 * two orders of magnitude.
 * Time (nanoseconds) is labelled in the unit of the axis' end. Whiskers
 * (intervals) are drawn against it, an end beyond it as an arrow. */
#include "render_internal.h"

#include <math.h>
#include <stdio.h>

#include "lib/util/timefmt.h"

size_t vp_ticks(double hi, double *ticks, size_t max)
{
	double step, mag;
	size_t n = 0;

	if (hi <= 0)
		hi = 1;
	mag = pow(10, floor(log10(hi / 5)));
	step = mag;
	if (hi / step > 10)
		step = 2 * mag;
	if (hi / step > 10)
		step = 5 * mag;
	if (hi / step > 10)
		step = 10 * mag;
	if (step < 1)
		step = 1;	/* counts: no 0.5 samples */
	for (double v = 0; v <= hi * (1 + 1e-9) && n < max; v += step)
		ticks[n++] = v;
	if (n && ticks[n - 1] < hi && n < max)
		ticks[n] = ticks[n - 1] + step, n++;
	return n;
}

void vp_axis_pick(struct vp_axis *a, double min, double max, enum vp_chart_scale scale)
{
	a->log = scale == VP_SCALE_LOG || (scale == VP_SCALE_AUTO && min > 0 && max / min > 100);
	if (a->log && min > 0) {
		/* one decade below the smallest value, so it still shows a bar */
		a->lo = pow(10, floor(log10(min)) - 1);
		a->hi = pow(10, ceil(log10(max)));
		if (a->hi <= a->lo * 10)
			a->hi = a->lo * 100;
	} else if (a->log) {	/* forced log with nothing above zero */
		a->lo = 1;
		a->hi = 10;
	} else {
		double t[64];
		size_t n = vp_ticks(max > 0 ? max : 1, t, 64);
		a->lo = 0;
		a->hi = n ? t[n - 1] : 1;
	}
}

double vp_axis_pos(const struct vp_axis *a, double v)
{
	if (v <= 0)
		return a->x0;
	if (a->log) {
		double f = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
		return a->x0 + (f < 0 ? 0 : f) * (a->x1 - a->x0);
	}
	return a->x0 + v / a->hi * (a->x1 - a->x0);
}

void vp_axis_draw(struct canvas *c, const struct vp_axis *a, double top, double bottom,
		  const char *title)
{
	cairo_t *cr = c->cr;
	double ticks[64], last_right = -1e9;
	size_t n = 0;
	char buf[32];

	if (a->log) {
		for (double v = a->lo; v <= a->hi * 1.0001 && n < 64; v *= 10)
			ticks[n++] = v;
	} else {
		n = vp_ticks(a->hi, ticks, 64);
	}
	const char *unit = "";
	double per = 1;	/* nanoseconds per unit of the labels */
	if (a->time && a->hi > 0)
		per = a->hi / vp_time_scale(a->hi, 1, &unit);
	vp_font(cr, 10, 0);
	for (size_t i = 0; i < n; i++) {
		double x = vp_axis_pos(a, ticks[i]);
		vp_set_rgb(cr, &vp_grid_rgb);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, floor(x) + 0.5, top);
		cairo_line_to(cr, floor(x) + 0.5, bottom);
		cairo_stroke(cr);
		if (a->time && a->log) {	/* decades: each in its own unit */
			double v = vp_time_scale(ticks[i], 1, &unit);
			snprintf(buf, sizeof(buf), "%g %s", v, unit);
		} else if (a->time && ticks[i] > 0)
			snprintf(buf, sizeof(buf), "%g %s", ticks[i] / per, unit);
		else
			vp_format_count(ticks[i], buf, sizeof(buf));
		double w = vp_text_width(cr, buf);
		if (x - w / 2 < last_right + 6)
			continue;	/* tick labels never collide: skip one that would */
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, buf, x, bottom + 14, 0.5);
		last_right = x + w / 2;
	}
	vp_font(cr, 11, 0);
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_text(c, title, (a->x0 + a->x1) / 2, bottom + 32, 0.5);
}

/* A whisker ├──┤ at height y from lo to hi; an end past the axis is an arrow
 * at the axis end. m (or NULL) gets its box and interval. */
void vp_axis_whisker(struct canvas *c, const struct vp_axis *a, double y, double cap, double lo,
		    double hi, struct mark *m)
{
	cairo_t *cr = c->cr;
	int clip = (a->log && lo < a->lo ? 1 : 0) | (hi > a->hi ? 2 : 0);
	double x0 = vp_axis_pos(a, lo), x1 = clip & 2 ? a->x1 : vp_axis_pos(a, hi);

	vp_set_rgb(cr, &vp_ink_rgb);
	cairo_set_line_width(cr, 1.2);
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	for (int end = 0; end < 2; end++) {
		double x = end ? x1 : x0, dir = end ? 1 : -1;
		if (clip & (1 << end)) {	/* an arrow: the interval goes on */
			cairo_move_to(cr, x - dir * 4, y - cap / 2);
			cairo_line_to(cr, x, y);
			cairo_line_to(cr, x - dir * 4, y + cap / 2);
		} else {
			cairo_move_to(cr, x, y - cap / 2);
			cairo_line_to(cr, x, y + cap / 2);
		}
	}
	cairo_stroke(cr);
	if (!m)
		return;
	m->kind = MARK_WHISKER;
	m->x = x0;
	m->w = x1 - x0;
	m->y = y - cap / 2;
	m->h = cap;
	m->lo = lo;
	m->hi = hi;
	m->clipped = clip;
}
