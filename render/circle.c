/* The circle chart: a donut per side, in the sides' order (up to three in a
 * line), with the same top functions in the same colours and order, largest
 * at 12 o'clock going clockwise, a grey "other"; shares written beside
 * slices big enough to carry them (smaller ones are named in the legend
 * only), every function in the legend with every side's share, each side's
 * total per run in its centre. */
#include "render_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_MIN_SHARE 0.06	/* smaller slices are named in the legend only */
#define LEGEND_LINE 18.0
#define MAX_SLICES 6		/* a composition, not confetti: the rest is "other" */

static size_t slices_of(const struct vp_cmp_event *e)
{
	return e->nrows < MAX_SLICES ? e->nrows : MAX_SLICES;
}

/* Donuts per line: all of two or three, else three (two on narrow charts). */
static size_t donut_columns(size_t K, double w)
{
	size_t most = w >= 900 ? 3 : 2;
	return K < most ? K : most;
}

/* The width of every side's share, "100.0% / 100.0%", estimated from the
 * digits' advance so the layout needs no surface (10-unit DejaVu Sans). */
static double shares_width(size_t K)
{
	return 41.0 * (double)K + 13.0 * (double)(K - 1) + 12;
}

/* Two legend columns when names still get 150 units in each, else one. */
static size_t legend_columns(size_t K, double w)
{
	return (w - 32) / 2 - 16 - shares_width(K) >= 150 ? 2 : 1;
}

static double legend_height(const struct vp_comparison *cmp, const struct vp_cmp_event *e, double w)
{
	size_t cols = legend_columns(cmp->nsides, w);
	/* the named slices and "other", plus a head line */
	return LEGEND_LINE * (double)((slices_of(e) + 1 + cols - 1) / cols) + 24;
}

static double radius(size_t cols, double w)
{
	double r = w / (2 * (double)cols) - 60;
	return r > 180 ? 180 : r < 40 ? 40 : r;
}

/* A line of donuts: the side labels' line, the donuts and room for the
 * slice labels beside them. */
static double donut_line(double R)
{
	return 40 + 2 * R + 40;
}

double vp_circle_height(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
			const struct vp_chart_opts *o)
{
	double w = o->width > 0 ? o->width : 1000, head = vp_heading_bottom(cmp);
	size_t cols = donut_columns(cmp->nsides, w), lines = (cmp->nsides + cols - 1) / cols;
	double need = head + (double)lines * donut_line(40) + legend_height(cmp, e, w);
	double want = o->height > 0 ? o->height
				    : head + (double)lines * donut_line(radius(cols, w)) + legend_height(cmp, e, w);
	return want < need ? need : want;
}

/* What "other" holds on every side (side s first): the total per run less
 * the named slices. A string to free(), NULL on ENOMEM. */
static char *other_tooltip(const struct vp_comparison *cmp, const struct vp_cmp_event *e, size_t k,
			   size_t s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	fprintf(f, "other: %zu functions outside the %zu named", e->total_rows > k ? e->total_rows - k : 0, k);
	for (size_t n = 0; n < cmp->nsides; n++) {
		size_t j = n == 0 ? s : n <= s ? n - 1 : n;	/* s, then the others in order */
		double total = vp_cmp_mean_total(e, j, cmp->value), rest = total;
		for (size_t i = 0; i < k; i++)
			rest -= vp_cmp_mean(e, &e->rows[i], j, cmp->value);
		fprintf(f, "\n%s: %.0f %s (%.3f%% of its %s %s)", cmp->label[j], rest, vp_value_name(cmp),
			total > 0 ? 100 * rest / total : 0.0, e->name, vp_value_name(cmp));
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static void donut(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		  size_t s, double cx, double cy, double R, size_t k)
{
	cairo_t *cr = c->cr;
	const char *what = vp_event_value_name(cmp, e);
	double total = vp_cmp_mean_total(e, s, cmp->value), a = -M_PI / 2, rest = total;
	char buf[64];

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
				  .a0 = a, .a1 = a1, .side = (int)s, .value = v, .significant = -1 };

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
		if (other) {
			char *tip = other_tooltip(cmp, e, k, s);
			if (!tip && c->marks)
				c->marks->oom = 1;
			vp_marks_add(c->marks, &m, "%s", tip ? tip : "");
			free(tip);
		} else {
			char *tip = vp_row_tooltip(cmp, e, &e->rows[i], s);
			if (!tip && c->marks)
				c->marks->oom = 1;
			vp_marks_add(c->marks, &m, "%s", tip ? tip : "");
			free(tip);
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
	/* the side's total (per run) in the centre, and what it counts when the hole has room */
	double hole = 2 * R * 0.55 - 8, size = 13;
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_format_value(cmp, e, total, buf, sizeof(buf));
	for (vp_font(cr, size, 1); size > 7 && vp_text_width(cr, buf) > hole; vp_font(cr, size, 1))
		size -= 1;
	vp_text(c, buf, cx, cy + (hole >= 70 ? -1 : 4), 0.5);
	vp_font(cr, 10, 0);
	snprintf(buf, sizeof(buf), e->nruns[s] > 1 ? "%s per run" : "%s in all", what);
	if (hole >= 70 && vp_text_width(cr, buf) <= hole)
		vp_text(c, buf, cx, cy + 14, 0.5);
}

int vp_draw_circle(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		   const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	size_t K = cmp->nsides, cols = donut_columns(K, c->w), lines = (K + cols - 1) / cols;
	double y = vp_draw_heading(c, cmp, e, o);
	size_t k = slices_of(e);
	double R = fmin(radius(cols, c->w), ((c->h - y - legend_height(cmp, e, c->w)) / (double)lines - 80) / 2);
	size_t size = VP_LABEL_MAX + 16 * K + 64;
	char *buf = malloc(size), *fit = malloc(size), sh[16];

	if (!buf || !fit) {
		free(buf);
		free(fit);
		return -ENOMEM;
	}
	if (R < 40)
		R = 40;
	for (size_t s = 0; s < K; s++) {
		/* a line of donuts is centred: a last line of fewer stays in the middle */
		size_t line = s / cols, in_line = line + 1 < lines ? cols : K - line * cols;
		double cx = c->w * ((double)(s % cols) + 0.5 + ((double)cols - (double)in_line) / 2) / (double)cols;
		double top = y + (double)line * donut_line(R), cy = top + 40 + R;
		vp_font(cr, 13, 1);
		vp_set_rgb(cr, vp_side_rgb(s));
		vp_fit(cr, cmp->label[s], c->w / (double)cols - 16, fit, size);
		vp_text(c, fit, cx, top + 4, 0.5);
		donut(c, cmp, e, s, cx, cy, R, k);
	}

	/* Legend, two columns filled top to bottom: colour, name, every side's share. */
	size_t lcols = legend_columns(K, c->w), per_col = (k + 1 + lcols - 1) / lcols;
	double ly = y + (double)lines * donut_line(R), col_w = (c->w - 32) / (double)lcols;
	size_t n = (size_t)snprintf(buf, size, "share of each run's %s:", vp_value_name(cmp));
	for (size_t s = 0; s < K && n < size; s++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", s ? " / " : " ", cmp->label[s]);
	vp_font(cr, 10, 0);
	double share_w = vp_text_width(cr, "100.0%") * (double)K + vp_text_width(cr, " / ") * (double)(K - 1) + 12;
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_fit(cr, buf, c->w - 32, fit, size);
	vp_text(c, fit, 16, ly, 0);
	ly += LEGEND_LINE + 4;
	char (*labels)[VP_LABEL_MAX] = vp_row_labels(cr, e->rows, k, col_w - 16 - share_w);
	if (!labels) {
		free(buf);
		free(fit);
		return -ENOMEM;
	}
	for (size_t i = 0; i <= k; i++) {
		double lx = 16 + col_w * (double)(i / per_col), yy = ly + LEGEND_LINE * (double)(i % per_col);
		size_t m = 0;

		for (size_t s = 0; s < K && m < size; s++) {
			double sv;
			if (i < k) {
				sv = vp_cmp_share(e, &e->rows[i], s, cmp->value);
			} else {	/* other: what the named slices leave */
				sv = vp_cmp_total(e, s, cmp->value) > 0 ? 1 : 0;
				for (size_t j = 0; j < k; j++)
					sv -= vp_cmp_share(e, &e->rows[j], s, cmp->value);
			}
			if (sv > 1e-12)
				vp_format_share(sv, sh, sizeof(sh));
			else
				snprintf(sh, sizeof(sh), "\u2013");
			m += (size_t)snprintf(fit + m, size - m, "%s%s", s ? " / " : "", sh);
		}
		vp_set_rgb(cr, i == k ? &vp_other_rgb : vp_slice_rgb(i));
		cairo_rectangle(cr, lx, yy - 9, 10, 10);
		cairo_fill(cr);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, fit, lx + col_w - 12, yy, 1);
		if (i == k && e->total_rows > k) {
			char other[64];
			snprintf(other, sizeof(other), "other (%zu functions)", e->total_rows - k);
			vp_fit(cr, other, col_w - 16 - share_w, buf, size);
		} else if (i == k) {
			snprintf(buf, size, "other");
		}
		vp_text(c, i == k ? buf : labels[i], lx + 16, yy, 0);
	}
	free(labels);
	free(buf);
	free(fit);
	return 0;
}
