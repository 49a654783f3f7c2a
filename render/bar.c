/* The bar chart: one row per function, largest on top, a host and a guest bar
 * in each, value labels at the bar ends, the ratio at the right; a linear
 * zero-based axis, or a log axis that says so when values span more than two
 * orders of magnitude. */
#include "render_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN_BAND 30.0

struct axis {
	int log;
	double lo, hi;		/* value at the axis start (log) and end */
	double x0, x1;
};

static double axis_pos(const struct axis *a, double v)
{
	if (v <= 0)
		return a->x0;
	if (a->log)
		return a->x0 + (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) * (a->x1 - a->x0);
	return a->x0 + v / a->hi * (a->x1 - a->x0);
}

static void pick_axis(struct axis *a, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		      const struct vp_chart_opts *o)
{
	double max = 0, min = 0;

	for (size_t i = 0; i < e->nrows; i++)
		for (int s = 0; s < 2; s++) {
			double v = (double)vp_cmp_value(&e->rows[i], s, cmp->value);
			if (v > max)
				max = v;
			if (v > 0 && (min == 0 || v < min))
				min = v;
		}
	a->log = o->scale == VP_SCALE_LOG || (o->scale == VP_SCALE_AUTO && min > 0 && max / min > 100);
	if (a->log) {
		/* one decade below the smallest value, so it still shows a bar */
		a->lo = pow(10, floor(log10(min)) - 1);
		a->hi = pow(10, ceil(log10(max)));
		if (a->hi <= a->lo * 10)
			a->hi = a->lo * 100;
	} else {
		double t[32];
		size_t n = vp_ticks(max > 0 ? max : 1, t, 32);
		a->lo = 0;
		a->hi = n ? t[n - 1] : 1;
	}
}

static void draw_axis(struct canvas *c, const struct axis *a, double top, double bottom,
		      const char *title)
{
	cairo_t *cr = c->cr;
	double ticks[32];
	size_t n = 0;
	char buf[32];

	if (a->log) {
		for (double v = a->lo; v <= a->hi * 1.0001 && n < 32; v *= 10)
			ticks[n++] = v;
	} else {
		n = vp_ticks(a->hi, ticks, 32);
	}
	vp_font(cr, 10, 0);
	double last_right = -1e9;
	for (size_t i = 0; i < n; i++) {
		double x = axis_pos(a, ticks[i]);
		if (a->log && i == 0)
			x = a->x0;
		vp_set_rgb(cr, &vp_grid_rgb);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, floor(x) + 0.5, top);
		cairo_line_to(cr, floor(x) + 0.5, bottom);
		cairo_stroke(cr);
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

static void ratio_text(const struct vp_cmp_row *r, enum vp_value v, char *buf, size_t n)
{
	enum vp_ratio_kind k;
	double x = vp_cmp_ratio(r, v, &k);

	if (k == VP_RATIO_BOTH)
		snprintf(buf, n, x >= 10 ? "%.0f\u00d7" : "%.1f\u00d7", x);
	else
		snprintf(buf, n, "%s", k == VP_RATIO_ONLY_HOST ? "only host" : "only guest");
}

int vp_draw_bar(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	const char *what = cmp->value == VP_VALUE_SAMPLES ? "samples" : "period";
	double y = vp_draw_heading(c, cmp, e, o, "bar");
	double name_w = 0, ratio_w = 0, label_w;
	struct axis a;
	char buf[512], title[256];
	size_t n = e->nrows;

	/* Legend: the two sides with their totals. */
	vp_font(cr, 11, 0);
	double lx = 16;
	for (int s = 0; s < 2; s++) {
		char tot[32];
		vp_format_count((double)vp_cmp_total(e, s, cmp->value), tot, sizeof(tot));
		snprintf(buf, sizeof(buf), "%s: %s %s", cmp->label[s], tot, what);
		vp_set_rgb(cr, s ? &vp_guest_rgb : &vp_host_rgb);
		cairo_rectangle(cr, lx, y - 10, 12, 12);
		cairo_fill(cr);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, buf, lx + 18, y, 0);
		lx += 18 + vp_text_width(cr, buf) + 24;
	}
	y += 18;

	/* Columns: names | bars and their labels | ratio. */
	vp_font(cr, 11, 0);
	for (size_t i = 0; i < n; i++) {
		char nm[512];
		snprintf(nm, sizeof(nm), "[%c] %.*s", e->rows[i].domain ? e->rows[i].domain : '.',
			 (int)vp_symbol_display_len(e->rows[i].symbol), e->rows[i].symbol);
		double w = vp_text_width(cr, nm);
		if (w > name_w)
			name_w = w;
		ratio_text(&e->rows[i], cmp->value, buf, sizeof(buf));
		if (vp_text_width(cr, buf) > ratio_w)
			ratio_w = vp_text_width(cr, buf);
	}
	if (name_w > c->w * 0.36)
		name_w = c->w * 0.36;
	vp_font(cr, 10, 0);
	label_w = vp_text_width(cr, "999.9M (100.0%)") + 8;
	a.x0 = 16 + name_w + 10;
	a.x1 = c->w - 16 - ratio_w - 14 - label_w;
	if (a.x1 < a.x0 + 50)
		a.x1 = a.x0 + 50;
	pick_axis(&a, cmp, e, o);

	double bottom_space = 48;
	double band = n ? (c->h - y - bottom_space) / (double)n : MIN_BAND;
	if (band < MIN_BAND)
		band = MIN_BAND;
	double top = y, bottom = y + band * (double)n;

	snprintf(title, sizeof(title), "%s %s%s", e->name, what, a.log ? " (log scale)" : "");
	draw_axis(c, &a, top, bottom, title);

	for (size_t i = 0; i < n; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		double by = top + band * (double)i;
		char nm[512], shown[600];

		/* name, shortened to its column; the domain letter in front */
		vp_font(cr, 11, 0);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_shorten(cr, r->symbol, 0, name_w - vp_text_width(cr, "[.] "), nm, sizeof(nm));
		snprintf(shown, sizeof(shown), "[%c] %s", r->domain ? r->domain : '.', nm);
		vp_text(c, shown, a.x0 - 10, by + band / 2 + 4, 1);

		for (int s = 0; s < 2; s++) {
			double v = (double)vp_cmp_value(r, s, cmp->value);
			double bh = band * 0.34, bt = by + band * (s ? 0.5 : 0.14);
			double x = axis_pos(&a, v);
			struct mark m = { .kind = MARK_BAR, .x = a.x0, .y = bt, .w = x - a.x0, .h = bh,
					  .side = s, .value = v };
			vp_set_rgb(cr, s ? &vp_guest_rgb : &vp_host_rgb);
			cairo_rectangle(cr, a.x0, bt, x - a.x0, bh);
			cairo_fill(cr);
			vp_marks_add(c->marks, &m, "%s\n%s: %" PRIu64 " samples, period %" PRIu64
				     " (%.2f%% of %s)", r->symbol, cmp->label[s], r->samples[s], r->period[s],
				     100 * vp_cmp_share(e, r, s, cmp->value), e->name);
			vp_font(cr, 10, 0);
			vp_set_rgb(cr, &vp_ink_rgb);
			if (v > 0) {
				char cnt[32];
				vp_format_count(v, cnt, sizeof(cnt));
				snprintf(buf, sizeof(buf), "%s (%.1f%%)", cnt,
					 100 * vp_cmp_share(e, r, s, cmp->value));
			} else {
				snprintf(buf, sizeof(buf), "absent");
			}
			vp_text(c, buf, x + 4, bt + bh / 2 + 3.5, 0);
		}
		vp_font(cr, 11, 1);
		vp_set_rgb(cr, &vp_ink_rgb);
		ratio_text(r, cmp->value, buf, sizeof(buf));
		vp_text(c, buf, c->w - 16, by + band / 2 + 4, 1);
	}
	return 0;
}
