/* The circle chart: two donuts side by side (host, guest) with the same top
 * functions in the same colours and order, largest at 12 o'clock going
 * clockwise, a grey "other", shares written beside slices big enough to carry
 * them, every function in the legend, each run's total in its centre. */
#include "render_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define LABEL_MIN_SHARE 0.06	/* smaller slices are named in the legend only */

int vp_draw_circle(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		   const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	const char *what = cmp->value == VP_VALUE_SAMPLES ? "samples" : "period";
	double y = vp_draw_heading(c, cmp, e, o, "circle");
	size_t k = e->nrows < VP_SLICE_COLOURS ? e->nrows : VP_SLICE_COLOURS;
	size_t legend_rows = (k + 2) / 2;	/* two columns, "other" included */
	double legend_h = 18.0 * (double)legend_rows + 10;
	double R = fmin(c->w / 4 - 60, (c->h - y - legend_h - 70) / 2);
	char buf[512];

	if (R < 40)
		R = 40;
	double cy = y + 34 + R;
	for (int s = 0; s < 2; s++) {
		double cx = c->w * (s ? 0.75 : 0.25), total = (double)vp_cmp_total(e, s, cmp->value);
		double a = -M_PI / 2, rest = total;

		vp_font(cr, 13, 1);
		vp_set_rgb(cr, s ? &vp_guest_rgb : &vp_host_rgb);
		vp_text(c, cmp->label[s], cx, y + 14, 0.5);
		for (size_t i = 0; i <= k; i++) {
			int other = i == k;
			double v = other ? rest : (double)vp_cmp_value(&e->rows[i], s, cmp->value);
			double share = total > 0 ? v / total : 0;
			double a1 = a + share * 2 * M_PI;
			struct mark m = { .kind = MARK_SLICE, .cx = cx, .cy = cy, .r0 = R * 0.55, .r1 = R,
					  .a0 = a, .a1 = a1, .side = s, .value = v };

			if (!other)
				rest -= v;
			if (v <= 0 || total <= 0)
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
				vp_marks_add(c->marks, &m, "other functions\n%s: %.0f %s (%.2f%%)",
					     cmp->label[s], v, what, 100 * share);
			else
				vp_marks_add(c->marks, &m, "%s\n%s: %" PRIu64 " samples, period %" PRIu64
					     " (%.2f%%)", e->rows[i].symbol, cmp->label[s],
					     e->rows[i].samples[s], e->rows[i].period[s], 100 * share);
			if (share >= LABEL_MIN_SHARE) {
				double mid = (a + a1) / 2, ca = cos(mid), sa = sin(mid);
				vp_set_rgb(cr, &vp_ink_rgb);
				cairo_set_line_width(cr, 0.8);
				cairo_move_to(cr, cx + ca * (R + 2), cy + sa * (R + 2));
				cairo_line_to(cr, cx + ca * (R + 10), cy + sa * (R + 10));
				cairo_stroke(cr);
				vp_font(cr, 10, 0);
				snprintf(buf, sizeof(buf), "%.1f%%", 100 * share);
				vp_text(c, buf, cx + ca * (R + 14), cy + sa * (R + 14) + 3.5, ca < -0.2 ? 1 : ca > 0.2 ? 0 : 0.5);
			}
			a = a1;
		}
		/* the run's total in the centre */
		vp_font(cr, 11, 0);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_format_count(total, buf, sizeof(buf));
		vp_text(c, buf, cx, cy - 2, 0.5);
		vp_font(cr, 9, 0);
		vp_text(c, what, cx, cy + 11, 0.5);
	}

	/* Legend: colour, name, both shares. */
	double ly = cy + R + 40, col_w = (c->w - 32) / 2;
	for (size_t i = 0; i <= k; i++) {
		double lx = 16 + col_w * (double)(i % 2), yy = ly + 18.0 * (double)(i / 2);
		char nm[512], line[600];
		if (i == k) {
			snprintf(line, sizeof(line), "other");
		} else {
			vp_font(cr, 10, 0);
			vp_shorten(cr, e->rows[i].symbol, 0, col_w - 160, nm, sizeof(nm));
			snprintf(line, sizeof(line), "%s  %.1f%% / %.1f%%", nm,
				 100 * vp_cmp_share(e, &e->rows[i], 0, cmp->value),
				 100 * vp_cmp_share(e, &e->rows[i], 1, cmp->value));
		}
		vp_set_rgb(cr, i == k ? &vp_other_rgb : vp_slice_rgb(i));
		cairo_rectangle(cr, lx, yy - 9, 10, 10);
		cairo_fill(cr);
		vp_font(cr, 10, 0);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, line, lx + 16, yy, 0);
	}
	return 0;
}
