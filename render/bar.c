/* The bar chart: a group of bars per function, largest on top, one bar per
 * side in the sides' order and hues, each with a whisker for its interval
 * (rowstat.c says which); a bar not significantly different from the
 * baseline is pale. Value and share at each bar's end, the ratio to the
 * baseline in a column at the right (grey when not significant); a
 * zero-based linear axis, or a log axis that says so when values span more
 * than two orders of magnitude. */
#include "render_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/profile/profile.h"

/* Each side's slot in a row is 16 units or more: value labels (10-unit font,
 * 11.6 units from ascent to descent) sit 12 units apart and never touch. */
#define MIN_SLOT 16.0
#define WANT_SLOT 18.0
#define FOOT 48.0		/* tick labels, axis title */
#define LEGEND_LINE 18.0
#define LEGEND_TEXT 600
/* The axis reaches to the whiskers up to this much past the largest bar;
 * a whisker beyond ends in an arrow at the axis end. */
#define WHISKER_REACH 1.5

/* The legend: a swatch and a text per side, then the whisker and the pale
 * keys, flowed into lines; the ratio column's head at the right of the
 * first. Laid out on a measuring context, so every format gets the same. */
struct legend {
	size_t n, lines;
	char (*text)[LEGEND_TEXT];
	double *x;
	size_t *line;
	char head[300];
};

static void legend_free(struct legend *L)
{
	free(L->text);
	free(L->x);
	free(L->line);
}

static void legend_texts(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
			 struct legend *L)
{
	/* a time event's totals carry their unit: "1.308 s", not "1.308 s time" */
	const char *what = vp_value_is_time(cmp, e) ? "" : vp_value_name(cmp);
	const char *sp = *what ? " " : "";
	size_t K = cmp->nsides;
	double conf = 100 * (1 - cmp->alpha);

	for (size_t s = 0; s < K; s++) {
		char tot[32];
		vp_format_value(cmp, e, vp_cmp_mean_total(e, s, cmp->value), tot, sizeof(tot));
		if (e->nruns[s] > 1)
			snprintf(L->text[s], LEGEND_TEXT, "%s: %s%s%s per run (%zu runs)", cmp->label[s], tot,
				 sp, what, e->nruns[s]);
		else
			snprintf(L->text[s], LEGEND_TEXT, "%s: %s%s%s%s", cmp->label[s], tot, sp, what,
				 e->present[s] ? "" : " (event not recorded)");
	}
	if (K == 2)
		snprintf(L->text[K], LEGEND_TEXT, "%g%% intervals: %s of its mean; %s of %s/%s \u00d7 %s's mean",
			 conf, cmp->label[0], cmp->label[1], cmp->label[1], cmp->label[0], cmp->label[0]);
	else
		snprintf(L->text[K], LEGEND_TEXT, "%g%% intervals: %s of its mean; others of their ratio "
			 "to %s \u00d7 %s's mean", conf, cmp->label[0], cmp->label[0], cmp->label[0]);
	int unjudged = 0;	/* a side with the event but no statistics of it */
	for (size_t s = 1; s < K; s++)
		unjudged |= e->present[s] && !e->stat_ok[s];
	snprintf(L->text[K + 1], LEGEND_TEXT, "pale: not significant at q < %g%s", cmp->alpha,
		 unjudged || !e->present[0] ? " (or without statistics)" : "");
}

static int legend_layout(const struct vp_comparison *cmp, const struct vp_cmp_event *e, double w,
			 struct legend *L)
{
	cairo_t *cr = vp_measure_begin();
	double lx = 16, head_w = 0;

	memset(L, 0, sizeof(*L));
	L->n = cmp->nsides + 2;
	L->text = calloc(L->n, sizeof(*L->text));
	L->x = calloc(L->n, sizeof(*L->x));
	L->line = calloc(L->n, sizeof(*L->line));
	if (!cr || !L->text || !L->x || !L->line) {
		if (cr)
			vp_measure_end(cr);
		legend_free(L);
		return -ENOMEM;
	}
	legend_texts(cmp, e, L);
	vp_font(cr, 11, 1);
	if (cmp->nsides == 2)
		snprintf(L->head, sizeof(L->head), "%s / %s", cmp->label[1], cmp->label[0]);
	else
		snprintf(L->head, sizeof(L->head), "ratio to %s", cmp->label[0]);
	if (vp_text_width(cr, L->head) > (w - 32) / 3)
		snprintf(L->head, sizeof(L->head), "ratio");
	head_w = vp_text_width(cr, L->head) + 24;
	vp_font(cr, 11, 0);
	for (size_t i = 0; i < L->n; i++) {
		double limit = w - 16 - (L->lines == 0 ? head_w : 0);
		double iw = 18 + vp_text_width(cr, L->text[i]);

		if (lx > 16 && lx + iw > limit) {
			L->lines++;
			lx = 16;
			limit = w - 16;
		}
		if (lx + iw > limit) {	/* alone on its line and still too long */
			char fit[LEGEND_TEXT];
			vp_fit(cr, L->text[i], limit - lx - 18, fit, sizeof(fit));
			memcpy(L->text[i], fit, sizeof(fit));
			iw = 18 + vp_text_width(cr, L->text[i]);
		}
		L->x[i] = lx;
		L->line[i] = L->lines;
		lx += iw + 24;
	}
	L->lines++;
	vp_measure_end(cr);
	return 0;
}

/* The head above the rows: the heading, then the legend's lines. */
static double rows_top(const struct vp_comparison *cmp, const struct legend *L)
{
	return vp_heading_bottom(cmp) + LEGEND_LINE * (double)(L->lines - 1) + 22;
}

double vp_bar_height(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_chart_opts *o)
{
	struct legend L;
	double rows = (double)(e->nrows ? e->nrows : 1), K = (double)cmp->nsides;

	if (legend_layout(cmp, e, o->width > 0 ? o->width : 1000, &L) < 0)
		return -1;
	double head = rows_top(cmp, &L);
	legend_free(&L);
	double need = head + FOOT + MIN_SLOT * K * rows;
	double want = o->height > 0 ? o->height : head + FOOT + WANT_SLOT * K * rows;
	return want < need ? need : want;
}

/* The axis: from the bars, and the whiskers within reach of them. */
static void pick_axis(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		      const struct vp_chart_opts *o, struct vp_axis *a)
{
	double min = 0, max = 0, reach = 0;

	for (size_t i = 0; i < e->nrows; i++)
		for (size_t s = 0; s < cmp->nsides; s++) {
			double v = vp_cmp_mean(e, &e->rows[i], s, cmp->value);
			if (v > max)
				max = v;
			if (v > 0 && (min == 0 || v < min))
				min = v;
		}
	for (size_t i = 0; i < e->nrows; i++)
		for (size_t s = 0; s < cmp->nsides; s++) {
			double lo, hi;
			int ratio;
			if (vp_row_whisker(cmp, e, &e->rows[i], s, &lo, &hi, &ratio) == 0 && isfinite(hi) &&
			    hi > reach && hi <= WHISKER_REACH * max)
				reach = hi;
		}
	vp_axis_pick(a, min, reach > max ? reach : max, o->scale);
}

static void legend_draw(struct canvas *c, const struct vp_comparison *cmp, const struct legend *L,
			double y)
{
	cairo_t *cr = c->cr;
	size_t K = cmp->nsides;

	for (size_t i = 0; i < L->n; i++) {
		double x = L->x[i], yy = y + LEGEND_LINE * (double)L->line[i];
		if (i < K) {
			vp_set_rgb(cr, vp_side_rgb(i));
			cairo_rectangle(cr, x, yy - 10, 12, 12);
			cairo_fill(cr);
		} else if (i == K) {
			struct mark m = { 0 };
			struct vp_axis a = { .lo = 0, .hi = 12, .x0 = x, .x1 = x + 12 };
			vp_axis_whisker(c, &a, yy - 4, 8, 0.5, 11.5, &m);
		} else {
			vp_set_rgb(cr, &vp_grid_rgb);
			cairo_rectangle(cr, x, yy - 10, 12, 12);
			cairo_fill(cr);
			vp_set_rgb(cr, &vp_muted_rgb);
			cairo_set_line_width(cr, 1);
			cairo_rectangle(cr, x + 0.5, yy - 9.5, 11, 11);
			cairo_stroke(cr);
		}
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, L->text[i], x + 18, yy, 0);
	}
	vp_font(cr, 11, 1);
	vp_text(c, L->head, c->w - 16, y, 1);
	vp_font(cr, 11, 0);
}

/* One side's bar of a row: the bar (pale when not significant), its
 * whisker, the value at the end, the marks. */
static void side_bar(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_cmp_row *r, size_t s, const struct vp_axis *a, double bt, double bh)
{
	cairo_t *cr = c->cr;
	double v = vp_cmp_mean(e, r, s, cmp->value), share = vp_cmp_share(e, r, s, cmp->value);
	double x = vp_axis_pos(a, v), lo, hi, end = x;
	int sig = vp_row_significant(cmp, e, r, s), ratio;
	struct mark m = { .kind = MARK_BAR, .x = a->x0, .y = bt, .w = x - a->x0, .h = bh,
			  .side = (int)s, .value = v, .significant = sig };
	char *tip = vp_row_tooltip(cmp, e, r, s), cnt[32], sh[16], buf[64];

	if (!tip && c->marks)
		c->marks->oom = 1;
	if (sig) {
		vp_set_rgb(cr, vp_side_rgb(s));
		cairo_rectangle(cr, a->x0, bt, x - a->x0, bh);
		cairo_fill(cr);
	} else {
		struct rgb pale = vp_side_pale(s);
		vp_set_rgb(cr, &pale);
		cairo_rectangle(cr, a->x0, bt, x - a->x0, bh);
		cairo_fill(cr);
		if (x - a->x0 >= 2) {	/* the side's hue stays on the edge */
			vp_set_rgb(cr, vp_side_rgb(s));
			cairo_set_line_width(cr, 1);
			cairo_rectangle(cr, a->x0 + 0.5, bt + 0.5, x - a->x0 - 1, bh - 1);
			cairo_stroke(cr);
		}
	}
	vp_marks_add(c->marks, &m, "%s", tip ? tip : "");
	if (vp_row_whisker(cmp, e, r, s, &lo, &hi, &ratio) == 0 && (hi > 0 || v > 0)) {
		struct mark w = { .side = (int)s, .value = v, .significant = -1 };
		vp_axis_whisker(c, a, bt + bh / 2, bh * 0.6 < 4 ? 4 : bh * 0.6, lo, hi, &w);
		vp_marks_add(c->marks, &w, "%s", tip ? tip : "");
		if (w.x + w.w > end)
			end = w.x + w.w;
	}
	free(tip);
	vp_font(cr, 10, 0);
	vp_set_rgb(cr, &vp_ink_rgb);
	if (v > 0) {
		vp_format_value(cmp, e, v, cnt, sizeof(cnt));
		vp_format_share(share, sh, sizeof(sh));
		snprintf(buf, sizeof(buf), "%s (%s)", cnt, sh);
	} else {
		snprintf(buf, sizeof(buf), "absent");
	}
	vp_text(c, buf, end + 4, bt + bh / 2 + 3.5, 0);
}

int vp_draw_bar(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	size_t n = e->nrows, K = cmp->nsides;
	double y = vp_draw_heading(c, cmp, e, o), name_w = 0, ratio_w = 0, label_w;
	double ratio_size = K == 2 ? 11 : 10;	/* one ratio per row, or one per side's slot */
	struct vp_axis a = { .time = vp_value_is_time(cmp, e) };
	struct legend L;
	char buf[600];

	if (legend_layout(cmp, e, c->w, &L) < 0)
		return -ENOMEM;
	vp_font(cr, 11, 0);
	legend_draw(c, cmp, &L, y);
	y = rows_top(cmp, &L);
	legend_free(&L);

	/* Columns: names | bars and their labels | ratios. */
	vp_font(cr, ratio_size, 1);
	for (size_t i = 0; i < n; i++)
		for (size_t s = 1; s < K; s++) {
			vp_format_ratio(cmp, e, &e->rows[i], s, buf, sizeof(buf));
			if (vp_text_width(cr, buf) > ratio_w)
				ratio_w = vp_text_width(cr, buf);
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
	/* the widest value label, and a whisker's arrow */
	label_w = vp_text_width(cr, a.time ? "999.9 ms (100.0%)" : "999.9M (100.0%)") + 8 + 4;
	a.x0 = 16 + name_w + 10;
	a.x1 = c->w - 16 - ratio_w - 14 - label_w;
	if (a.x1 < a.x0 + 50)
		a.x1 = a.x0 + 50;
	pick_axis(cmp, e, o, &a);

	double band = n ? (c->h - y - FOOT) / (double)n : MIN_SLOT * (double)K;
	if (band < MIN_SLOT * (double)K)
		band = MIN_SLOT * (double)K;
	double top = y, bottom = y + band * (double)n, slot = band * 0.76 / (double)K;
	char axis_title[300];
	if (a.time)
		snprintf(axis_title, sizeof(axis_title), "time per function (%s%s)%s", e->name,
			 e->nruns[0] > 1 ? ", mean per run" : "", a.log ? ", log scale" : "");
	else
		snprintf(axis_title, sizeof(axis_title), "%s %s per function%s%s", e->name,
			 vp_value_name(cmp), e->nruns[0] > 1 ? ", mean per run" : "",
			 a.log ? " (log scale)" : "");
	vp_axis_draw(c, &a, top, bottom, axis_title);

	vp_font(cr, 11, 0);
	char (*labels)[VP_LABEL_MAX] = vp_row_labels(cr, e->rows, n, name_w);
	if (!labels)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		double by = top + band * (double)i;

		vp_font(cr, 11, 0);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_text(c, labels[i], a.x0 - 10, by + band / 2 + 4, 1);
		for (size_t s = 0; s < K; s++) {
			double bt = by + band * 0.12 + slot * (double)s, bh = slot - band * 0.02;

			side_bar(c, cmp, e, r, s, &a, bt, bh);
			if (s == 0)
				continue;
			/* two sides: one ratio, mid-row; more: each at its side's bar */
			vp_font(cr, ratio_size, 1);
			vp_set_rgb(cr, vp_row_significant(cmp, e, r, s) ? &vp_ink_rgb : &vp_muted_rgb);
			vp_format_ratio(cmp, e, r, s, buf, sizeof(buf));
			vp_text(c, buf, c->w - 16, K == 2 ? by + band / 2 + 4 : bt + bh / 2 + 3.5, 1);
		}
	}
	free(labels);
	return 0;
}
