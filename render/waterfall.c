/* The time waterfall (charts.md rule 17): a row per bar, top to bottom:
 * the baseline's wall time from zero, then each measured part of the split
 * as a floating step from where the one before ended (right when it adds to
 * the gap, left when it takes from it), the remainder named as such, and
 * the side's wall time from zero, where the last step ended. Each step is
 * labelled with its seconds and its share of the gap; a zero-based linear
 * time axis below. */
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/time/split.h"
#include "lib/util/timefmt.h"

#define HEAD 104.0	/* title, subtitle, note, legend */
#define FOOT 60.0	/* tick labels, axis title */
#define BAND 34.0

/* The rows drawn: the two walls and the measured parts. */
static size_t rows_of(const struct vp_time_split *s)
{
	size_t n = 2;

	for (int p = 0; p < VP_TIME_NPARTS; p++)
		n += s->part[p].known;
	return n;
}

double vp_waterfall_height(const struct vp_time_split *s, const struct vp_chart_opts *o)
{
	double need = HEAD + FOOT + BAND * (double)rows_of(s);
	return o->height > need ? o->height : need;
}

/* "+61.58 ms (12.1%)": a step's seconds and share of the gap. */
static void step_label(const struct vp_time_split *s, int p, char *buf, size_t size)
{
	char t[32];
	double pct = vp_time_part_percent(s, p);

	vp_format_time(t, sizeof(t), s->part[p].delta * 1e9, 1);
	if (isnan(pct))
		snprintf(buf, size, "%s%s", s->part[p].delta >= 0 ? "+" : "", t);
	else
		snprintf(buf, size, "%s%s (%.1f%%)", s->part[p].delta >= 0 ? "+" : "", t, pct);
}

static void heading(struct canvas *c, const struct vp_comparison *cmp, size_t side,
		    const struct vp_time_split *s, const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	char buf[1024], fit[1024], b[32], v[32], d[32];
	const char *w = vp_chart_workload(cmp);

	if (o->title)
		snprintf(buf, sizeof(buf), "%s", o->title);
	else if (w)
		snprintf(buf, sizeof(buf), "Where the time went: %s, %s vs %s", w, cmp->label[0],
			 cmp->label[side]);
	else
		snprintf(buf, sizeof(buf), "Where the time went: %s vs %s", cmp->label[0],
			 cmp->label[side]);
	vp_font(cr, 17, 1);
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_fit(cr, buf, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, 28, 0);

	vp_format_time(b, sizeof(b), s->wall.base * 1e9, 1);
	vp_format_time(v, sizeof(v), s->wall.side * 1e9, 1);
	vp_format_time(d, sizeof(d), s->wall.delta * 1e9, 1);
	snprintf(buf, sizeof(buf), "wall time %s %s, %s %s (%.2f\u00d7): the gap of %s%s split into its "
		 "parts; %zu run%s against %zu%s", cmp->label[0], b, cmp->label[side], v, s->ratio,
		 s->wall.delta >= 0 ? "+" : "", d, s->nruns[1], s->nruns[1] == 1 ? "" : "s", s->nruns[0],
		 isnan(s->wall.lo) ? "" : ", whiskers: 95% intervals of the differences");
	vp_font(cr, 11, 0);
	vp_fit(cr, buf, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, 48, 0);
	vp_set_rgb(cr, &vp_muted_rgb);
	vp_fit(cr, "CPU times are summed over threads; waiting and blocked are the command's "
	       "(no thread running); the remainder is what the parts leave", c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, 64, 0);

	/* legend: what the colours of the steps mean */
	const struct { const char *what; size_t side; const struct rgb *rgb; } keys[] = {
		{ NULL, 0, NULL }, { NULL, side, NULL }, { "adds to the gap", 0, &vp_more_rgb },
		{ "takes from it", 0, &vp_less_rgb }, { "remainder", 0, &vp_other_rgb },
	};
	double x = 16;
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		const char *what = keys[i].what ? keys[i].what : cmp->label[keys[i].side];
		vp_set_rgb(cr, keys[i].rgb ? keys[i].rgb : vp_side_rgb((int)keys[i].side));
		cairo_rectangle(cr, x, 78, 12, 12);
		cairo_fill(cr);
		vp_set_rgb(cr, &vp_ink_rgb);
		x += 18 + vp_text(c, what, x + 18, 88, 0) + 22;
	}
}

int vp_draw_waterfall(struct canvas *c, const struct vp_comparison *cmp, size_t side,
		      const struct vp_time_split *s, const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	struct vp_axis a = { .time = 1 };
	double name_w = 0, label_w, max = 0, at = s->wall.base * 1e9, top = HEAD;
	char buf[256], name[256];

	heading(c, cmp, side, s, o);
	/* the axis reaches the furthest any bar or whisker goes */
	max = fmax(s->wall.base, s->wall.side) * 1e9;
	if (!isnan(s->wall.hi))
		max = fmax(max, s->wall.base * 1e9 + s->wall.hi * 1e9);	/* as drawn */
	for (int p = 0; p < VP_TIME_NPARTS; p++)
		if (s->part[p].known) {
			if (!isnan(s->part[p].hi))
				max = fmax(max, at + s->part[p].hi * 1e9);
			at += s->part[p].delta * 1e9;
			max = fmax(max, at);
		}
	vp_font(cr, 11, 0);
	for (int p = -1; p <= VP_TIME_NPARTS; p++) {
		const char *n = p < 0 ? cmp->label[0] : p == VP_TIME_NPARTS ? cmp->label[side] :
				vp_time_part_name(s, p);
		snprintf(name, sizeof(name), "%s%s", n, p < 0 || p == VP_TIME_NPARTS ? " wall time" : "");
		name_w = fmax(name_w, vp_text_width(cr, name));
	}
	name_w = fmin(name_w, c->w * 0.36);
	vp_font(cr, 10, 0);
	label_w = vp_text_width(cr, "+999.9 ms (-100.0%)") + 8;
	a.x0 = 16 + name_w + 10;
	a.x1 = c->w - 16 - label_w;
	vp_axis_pick(&a, 0, max, VP_SCALE_LINEAR);
	double bottom = top + BAND * (double)rows_of(s);
	vp_axis_draw(c, &a, top, bottom, "wall time");

	double y = top, from = 0, prev_end = -1;
	at = 0;
	for (int p = -1; p <= VP_TIME_NPARTS; p++) {
		int wall = p < 0 || p == VP_TIME_NPARTS, end = p == VP_TIME_NPARTS;
		size_t who = end ? side : 0;	/* whose wall bar */
		const struct vp_time_value *v = wall ? &s->wall : &s->part[p];
		double x0, x1, value;
		const struct rgb *rgb;

		if (!wall && !v->known)
			continue;
		if (wall) {
			value = (end ? v->side : v->base) * 1e9;
			from = 0;
			at = value;
			rgb = vp_side_rgb((int)who);
			snprintf(name, sizeof(name), "%s wall time", cmp->label[who]);
			vp_format_time(buf, sizeof(buf), value, 1);
			if (end)
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (%.2f\u00d7)", s->ratio);
		} else {
			value = v->delta * 1e9;
			from = at;
			at += value;
			rgb = p == VP_TIME_REMAINDER ? &vp_other_rgb : value >= 0 ? &vp_more_rgb : &vp_less_rgb;
			snprintf(name, sizeof(name), "%s", vp_time_part_name(s, p));
			step_label(s, p, buf, sizeof(buf));
		}
		x0 = vp_axis_pos(&a, fmin(from, at));
		x1 = vp_axis_pos(&a, fmax(from, at));
		double bt = y + BAND * 0.18, bh = BAND * 0.64;

		/* a connector from where the previous bar ended */
		if (prev_end >= 0) {
			double px = vp_axis_pos(&a, prev_end);
			vp_set_rgb(cr, &vp_muted_rgb);
			cairo_set_line_width(cr, 0.8);
			cairo_move_to(cr, floor(px) + 0.5, y - BAND * 0.18);
			cairo_line_to(cr, floor(px) + 0.5, bt);
			cairo_stroke(cr);
		}
		vp_set_rgb(cr, rgb);
		cairo_rectangle(cr, x0, bt, fmax(x1 - x0, 0.5), bh);
		cairo_fill(cr);
		struct mark m = { .kind = MARK_BAR, .x = x0, .y = bt, .w = x1 - x0, .h = bh,
				  .side = wall ? (int)who : -1, .value = value, .significant = -1 };
		vp_marks_add(c->marks, &m, "%s: %s", name, buf);
		/* across runs: a whisker for the difference's interval, where the
		 * step (or the side's bar) ends */
		if ((end || !wall) && !isnan(v->lo)) {
			double base = wall ? s->wall.base * 1e9 : from;
			vp_axis_whisker(c, &a, bt + bh / 2, bh * 0.6, base + v->lo * 1e9,
					base + v->hi * 1e9, NULL);
			x1 = fmax(x1, vp_axis_pos(&a, base + v->hi * 1e9));
		}

		char fit[256];
		vp_font(cr, 11, 0);
		vp_set_rgb(cr, &vp_ink_rgb);
		vp_fit(cr, name, name_w, fit, sizeof(fit));
		vp_text(c, fit, a.x0 - 10, y + BAND / 2 + 4, 1);
		vp_font(cr, 10, 0);
		vp_text(c, buf, x1 + 4, y + BAND / 2 + 3.5, 0);
		prev_end = at;
		y += BAND;
	}
	return 0;
}
