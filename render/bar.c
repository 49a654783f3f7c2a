/* The bar chart: one row per function, largest on top, a host and a guest bar
 * in each, value and share at the bar ends, the guest/host ratio in a column
 * at the right (greyed when the difference is within sampling noise); a
 * zero-based linear axis, or a log axis that says so when values span more
 * than two orders of magnitude. */
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/profile/profile.h"

/* A row is 32 units or more: the host and guest value labels (10-unit font,
 * 11.6 units from ascent to descent) sit 12 units apart and never touch. */
#define MIN_BAND 32.0
#define HEAD 110.0	/* title, subtitle, machines line, legend */
#define FOOT 64.0	/* tick labels, axis title, noise note */

double vp_bar_height(const struct vp_cmp_event *e, const struct vp_chart_opts *o)
{
	double need = HEAD + FOOT + MIN_BAND * (double)(e->nrows ? e->nrows : 1);
	double want = o->height > 0 ? o->height : HEAD + FOOT + 36.0 * (double)(e->nrows ? e->nrows : 1);
	return want < need ? need : want;
}

int vp_row_is_noise(const struct vp_cmp_event *e, const struct vp_cmp_row *r)
{
	/* Two-proportion test on sample counts: the shares differ by less than
	 * twice the standard error a Poisson sampler gives them. */
	double H = (double)e->total_samples[0], G = (double)e->total_samples[1];
	double h = (double)r->samples[0], g = (double)r->samples[1];

	if (H <= 0 || G <= 0 || h > H || g > G)
		return 0;
	double p = (h + g) / (H + G);
	double se = sqrt(p * (1 - p) * (1 / H + 1 / G));
	return fabs(h / H - g / G) < 2 * se;
}

int vp_draw_bar(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	const char *what = vp_value_name(cmp);
	double y = vp_draw_heading(c, cmp, e, o);
	double name_w = 0, ratio_w = 0, label_w, min = 0, max = 0, lx = 16;
	struct vp_axis a;
	char buf[600], head[300];
	size_t n = e->nrows;
	int noisy = 0;

	/* Legend: the two sides with their totals; the ratio column's head at the right. */
	vp_font(cr, 11, 0);
	for (int s = 0; s < 2; s++) {
		char tot[32];
		vp_format_count(vp_cmp_mean_total(e, s, cmp->value), tot, sizeof(tot));
		snprintf(buf, sizeof(buf), "%s: %s %s%s", cmp->label[s], tot, what,
			 e->present[s] ? "" : " (event not recorded)");
		vp_set_rgb(cr, vp_side_rgb(s));
		cairo_rectangle(cr, lx, y - 10, 12, 12);
		cairo_fill(cr);
		vp_set_rgb(cr, &vp_ink_rgb);
		lx += 18 + vp_text(c, buf, lx + 18, y, 0) + 24;
	}
	vp_font(cr, 11, 1);
	snprintf(head, sizeof(head), "%s / %s", cmp->label[1], cmp->label[0]);
	if (c->w - 16 - vp_text_width(cr, head) < lx)
		snprintf(head, sizeof(head), "ratio");
	if (c->w - 16 - vp_text_width(cr, head) >= lx)
		vp_text(c, head, c->w - 16, y, 1);
	y += 22;

	/* Columns: names | bars and their labels | ratio. */
	vp_font(cr, 11, 1);
	for (size_t i = 0; i < n; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		vp_format_ratio(e, r, VP_GUEST, cmp->value, buf, sizeof(buf));
		if (vp_text_width(cr, buf) > ratio_w)
			ratio_w = vp_text_width(cr, buf);
		for (int s = 0; s < 2; s++) {
			double v = vp_cmp_mean(e, r, s, cmp->value);
			if (v > max)
				max = v;
			if (v > 0 && (min == 0 || v < min))
				min = v;
		}
	}
	vp_font(cr, 11, 0);
	for (size_t i = 0; i < n; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		const char *sym = r->symbol ? r->symbol : "[unknown]";
		snprintf(buf, sizeof(buf), "[%c] %.*s", r->domain ? r->domain : '.',
			 (int)(vp_symbol_display_len(sym) < 580 ? vp_symbol_display_len(sym) : 580), sym);
		double w = vp_text_width(cr, buf);
		if (w > name_w)
			name_w = w;
	}
	if (name_w > c->w * 0.36)
		name_w = c->w * 0.36;
	vp_font(cr, 10, 0);
	label_w = vp_text_width(cr, "999.9M (100.0%)") + 8;
	a.x0 = 16 + name_w + 10;
	a.x1 = c->w - 16 - ratio_w - 14 - label_w;
	if (a.x1 < a.x0 + 50)
		a.x1 = a.x0 + 50;
	vp_axis_pick(&a, min, max, o->scale);

	double band = n ? (c->h - y - FOOT) / (double)n : MIN_BAND;
	if (band < MIN_BAND)
		band = MIN_BAND;
	double top = y, bottom = y + band * (double)n;
	char axis_title[300];
	snprintf(axis_title, sizeof(axis_title), "%s %s per function%s", e->name, what,
		 a.log ? " (log scale)" : "");
	vp_axis_draw(c, &a, top, bottom, axis_title);

	vp_font(cr, 11, 0);
	char (*labels)[VP_LABEL_MAX] = vp_row_labels(cr, e->rows, n, name_w);
	if (!labels)
		return -12;
	for (size_t i = 0; i < n; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		const char *sym = r->symbol ? r->symbol : "[unknown]";
		double by = top + band * (double)i;

		vp_font(cr, 11, 0);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, labels[i], a.x0 - 10, by + band / 2 + 4, 1);

		for (int s = 0; s < 2; s++) {
			double v = vp_cmp_mean(e, r, s, cmp->value), share = vp_cmp_share(e, r, s, cmp->value);
			double bh = band * 0.36, bt = by + band * (s ? 0.5 : 0.12);
			double x = vp_axis_pos(&a, v);
			struct mark m = { .kind = MARK_BAR, .x = a.x0, .y = bt, .w = x - a.x0, .h = bh,
					  .side = s, .value = v };
			char cnt[32], sh[16], vals[160];

			vp_set_rgb(cr, vp_side_rgb(s));
			cairo_rectangle(cr, a.x0, bt, x - a.x0, bh);
			cairo_fill(cr);
			vp_format_side_values(e, r, s, vals, sizeof(vals));
			vp_marks_add(c->marks, &m, "%s\n%s [%c]\n%s: %s (%.3f%% of its %s %s)", sym,
				     r->dso ? r->dso : "?", r->domain ? r->domain : '.', cmp->label[s], vals,
				     100 * share, e->name, what);
			vp_font(cr, 10, 0);
			vp_set_rgb(cr, &vp_ink_rgb);
			if (v > 0) {
				vp_format_count(v, cnt, sizeof(cnt));
				vp_format_share(share, sh, sizeof(sh));
				snprintf(buf, sizeof(buf), "%s (%s)", cnt, sh);
			} else {
				snprintf(buf, sizeof(buf), "absent");
			}
			vp_text(c, buf, x + 4, bt + bh / 2 + 3.5, 0);
		}
		int noise = vp_row_is_noise(e, r);
		noisy |= noise;
		vp_font(cr, 11, 1);
		vp_set_rgb(cr, noise ? &vp_muted_rgb : &vp_ink_rgb);
		vp_format_ratio(e, r, VP_GUEST, cmp->value, buf, sizeof(buf));
		vp_text(c, buf, c->w - 16, by + band / 2 + 4, 1);
	}
	free(labels);
	if (noisy) {
		vp_font(cr, 10, 0);
		vp_set_rgb(cr, &vp_muted_rgb);
		vp_fit(cr, "grey ratio: the two shares differ by less than sampling noise "
		       "(2 standard errors of the sample counts)", c->w - 32, buf, sizeof(buf));
		vp_text(c, buf, c->w - 16, bottom + 52, 1);
	}
	return 0;
}
