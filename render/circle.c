/* The circle chart: two donuts side by side (host, guest) with the same top
 * functions in the same colours and order, largest at 12 o'clock going
 * clockwise, a grey "other"; shares written beside slices big enough to carry
 * them (smaller ones are named in the legend only), every function in the
 * legend with both shares, each run's total in its centre. */
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_MIN_SHARE 0.06	/* smaller slices are named in the legend only */
#define LEGEND_LINE 18.0

static size_t slices_of(const struct vp_cmp_event *e)
{
	return e->nrows < VP_SLICE_COLOURS ? e->nrows : VP_SLICE_COLOURS;
}

/* Two legend columns when names still get 150 units in each, else one. */
static size_t legend_columns(double w)
{
	return (w - 32) / 2 - 16 - 100 >= 150 ? 2 : 1;
}

static double legend_height(const struct vp_cmp_event *e, double w)
{
	size_t cols = legend_columns(w);
	/* the named slices and "other", plus a head line */
	return LEGEND_LINE * (double)((slices_of(e) + 1 + cols - 1) / cols) + 24;
}

static double radius(double w)
{
	double r = w / 4 - 60;
	return r > 180 ? 180 : r < 40 ? 40 : r;
}

double vp_circle_height(const struct vp_cmp_event *e, const struct vp_chart_opts *o)
{
	double w = o->width > 0 ? o->width : 1000;
	double need = 100 + 40 + 2 * 40 + 40 + legend_height(e, w);
	double want = o->height > 0 ? o->height : 100 + 40 + 2 * radius(w) + 40 + legend_height(e, w);
	return want < need ? need : want;
}

static void donut(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		  int s, double cx, double cy, double R, size_t k)
{
	cairo_t *cr = c->cr;
	const char *what = vp_value_name(cmp);
	double total = vp_cmp_mean_total(e, s, cmp->value), a = -M_PI / 2, rest = total;
	char buf[64], vals[160];

	if (total <= 0) {	/* nothing to divide: an empty ring that says so */
		vp_set_rgb(cr, &vp_grid_rgb);
		cairo_set_line_width(cr, 1.5);
		cairo_new_path(cr);
		cairo_arc(cr, cx, cy, R, 0, 2 * M_PI);
		cairo_stroke(cr);
		cairo_new_path(cr);
		cairo_arc(cr, cx, cy, R * 0.55, 0, 2 * M_PI);
		cairo_stroke(cr);
		vp_font(cr, 11, 0);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, e->present[s] ? "no samples" : "not recorded", cx, cy + 4, 0.5);
		return;
	}
	for (size_t i = 0; i <= k; i++) {
		int other = i == k;
		double v = other ? rest : vp_cmp_mean(e, &e->rows[i], s, cmp->value);
		double share = v / total;
		double a1 = a + share * 2 * M_PI;
		struct mark m = { .kind = MARK_SLICE, .cx = cx, .cy = cy, .r0 = R * 0.55, .r1 = R,
				  .a0 = a, .a1 = a1, .side = s, .value = v };

		if (!other)
			rest -= v;
		if (v <= 0)
			continue;
		vp_set_rgb(cr, other ? &vp_other_rgb : vp_slice_rgb(i));
		cairo_new_path(cr);
		cairo_arc(cr, cx, cy, R, a, a1);
		cairo_arc_negative(cr, cx, cy, R * 0.55, a1, a);
		cairo_close_path(cr);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, 1, 1, 1);	/* thin gaps between slices */
		cairo_set_line_width(cr, 1);
		cairo_stroke(cr);
		if (other)
			vp_marks_add(c->marks, &m, "other: %zu functions outside the %zu named\n%s: %.0f %s "
				     "(%.3f%% of its %s %s)", e->total_rows > k ? e->total_rows - k : 0, k,
				     cmp->label[s], v, what, 100 * share, e->name, what);
		else {
			vp_format_side_values(e, &e->rows[i], s, vals, sizeof(vals));
			vp_marks_add(c->marks, &m, "%s\n%s [%c]\n%s: %s (%.3f%% of its %s %s)",
				     e->rows[i].symbol ? e->rows[i].symbol : "[unknown]",
				     e->rows[i].dso ? e->rows[i].dso : "?",
				     e->rows[i].domain ? e->rows[i].domain : '.', cmp->label[s], vals,
				     100 * share, e->name, what);
		}
		if (share >= LABEL_MIN_SHARE) {
			double mid = (a + a1) / 2, ca = cos(mid), sa = sin(mid);
			vp_set_rgb(cr, &vp_ink_rgb);
			cairo_set_line_width(cr, 0.8);
			cairo_move_to(cr, cx + ca * (R + 2), cy + sa * (R + 2));
			cairo_line_to(cr, cx + ca * (R + 10), cy + sa * (R + 10));
			cairo_stroke(cr);
			vp_font(cr, 10, 0);
			vp_format_share(share, buf, sizeof(buf));
			vp_text(c, buf, cx + ca * (R + 14), cy + sa * (R + 14) + 3.5,
				ca < -0.2 ? 1 : ca > 0.2 ? 0 : 0.5);
		}
		a = a1;
	}
	/* the run's total in the centre, and what it counts when the hole has room */
	double hole = 2 * R * 0.55 - 8, size = 13;
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_format_count(total, buf, sizeof(buf));
	for (vp_font(cr, size, 1); size > 7 && vp_text_width(cr, buf) > hole; vp_font(cr, size, 1))
		size -= 1;
	vp_text(c, buf, cx, cy + (hole >= 70 ? -1 : 4), 0.5);
	vp_font(cr, 10, 0);
	snprintf(buf, sizeof(buf), "%s in all", what);
	if (hole >= 70 && vp_text_width(cr, buf) <= hole)
		vp_text(c, buf, cx, cy + 14, 0.5);
}

int vp_draw_circle(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		   const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	double y = vp_draw_heading(c, cmp, e, o);
	size_t k = slices_of(e);
	double R = fmin(radius(c->w), (c->h - y - legend_height(e, c->w) - 80) / 2);
	char buf[VP_LABEL_MAX + 64], sh[2][16];

	if (R < 40)
		R = 40;
	double cy = y + 40 + R;
	for (int s = 0; s < 2; s++) {
		double cx = c->w * (s ? 0.75 : 0.25);
		vp_font(cr, 13, 1);
		vp_set_rgb(cr, vp_side_rgb(s));
		vp_text(c, cmp->label[s], cx, y + 4, 0.5);
		donut(c, cmp, e, s, cx, cy, R, k);
	}

	/* Legend, two columns filled top to bottom: colour, name, both shares. */
	size_t cols = legend_columns(c->w), per_col = (k + 1 + cols - 1) / cols;
	double ly = cy + R + 40, col_w = (c->w - 32) / (double)cols;
	vp_font(cr, 10, 0);
	double share_w = vp_text_width(cr, "100.0% / 100.0%") + 12;
	snprintf(buf, sizeof(buf), "share of each run's %s: %s / %s", vp_value_name(cmp), cmp->label[0],
		 cmp->label[1]);
	char fit[VP_LABEL_MAX + 64];
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_fit(cr, buf, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, ly, 0);
	ly += LEGEND_LINE + 4;
	char (*labels)[VP_LABEL_MAX] = vp_row_labels(cr, e->rows, k, col_w - 16 - share_w);
	if (!labels)
		return -12;
	for (size_t i = 0; i <= k; i++) {
		double lx = 16 + col_w * (double)(i / per_col), yy = ly + LEGEND_LINE * (double)(i % per_col);
		double sv[2];
		for (int s = 0; s < 2; s++) {
			if (i < k) {
				sv[s] = vp_cmp_share(e, &e->rows[i], s, cmp->value);
			} else {	/* other: what the named slices leave */
				sv[s] = vp_cmp_total(e, s, cmp->value) > 0 ? 1 : 0;
				for (size_t j = 0; j < k; j++)
					sv[s] -= vp_cmp_share(e, &e->rows[j], s, cmp->value);
			}
			if (sv[s] > 1e-12)
				vp_format_share(sv[s], sh[s], sizeof(sh[s]));
			else
				snprintf(sh[s], sizeof(sh[s]), "\u2013");
		}
		if (i == k && e->total_rows > k) {
			char other[64];
			snprintf(other, sizeof(other), "other (%zu functions)", e->total_rows - k);
			vp_fit(cr, other, col_w - 16 - share_w, buf, sizeof(buf));
		} else if (i == k) {
			snprintf(buf, sizeof(buf), "other");
		}
		vp_set_rgb(cr, i == k ? &vp_other_rgb : vp_slice_rgb(i));
		cairo_rectangle(cr, lx, yy - 9, 10, 10);
		cairo_fill(cr);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, i == k ? buf : labels[i], lx + 16, yy, 0);
		snprintf(buf, sizeof(buf), "%s / %s", sh[0], sh[1]);
		vp_text(c, buf, lx + col_w - 12, yy, 1);
	}
	free(labels);
	return 0;
}
