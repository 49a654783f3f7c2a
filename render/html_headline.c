/* The HTML report's headline: for each side against the baseline, where the
 * time went (lib/time/split.h): both wall times, the gap and the parts it
 * splits into, as a table with the numbers of compare --time-split --format
 * csv (exact seconds in data-v, named by data-col), then the waterfall
 * chart inline. A side whose recordings do not say gets a sentence why. */
#include "html_internal.h"

#include <math.h>
#include <stdio.h>

#include "lib/time/split.h"
#include "lib/util/timefmt.h"

static void head(xmlNodePtr tr, const char *text, const char *col)
{
	xmlNodePtr th = vp_h_text(tr, "th", col ? "num" : NULL, text);

	vp_h_attr(th, "scope", "col");
	if (col)
		vp_h_attr(th, "data-col", col);
}

/* Seconds: shown as time in its unit, exact as the CSV writes them. */
static void seconds(xmlNodePtr tr, double s, int sign)
{
	char shown[48], t[40], exact[48];
	xmlNodePtr td;

	vp_format_time(t, sizeof(t), s * 1e9, 1);
	snprintf(shown, sizeof(shown), "%s%s", sign && s >= 0 ? "+" : "", t);
	snprintf(exact, sizeof(exact), "%.6f", s);
	td = vp_h_text(tr, "td", "num", shown);
	vp_h_attr(td, "data-v", exact);
}

static void part_row(xmlNodePtr tbody, const char *key, const char *name,
		     const struct vp_time_value *v, double share, int intervals)
{
	xmlNodePtr tr = vp_h_el(tbody, "tr", NULL), th, td;
	char a[40], b[40], ex[48];

	vp_h_attr(tr, "data-part", key);
	th = vp_h_text(tr, "th", NULL, name);
	vp_h_attr(th, "scope", "row");
	seconds(tr, v->base, 0);
	seconds(tr, v->side, 0);
	seconds(tr, v->delta, 1);
	if (intervals) {
		if (isnan(v->lo)) {
			td = vp_h_text(tr, "td", "num", "\u2013");
			vp_h_attr(td, "data-v", "");
		} else {
			vp_format_time(a, sizeof(a), v->lo * 1e9, 1);
			vp_format_time(b, sizeof(b), v->hi * 1e9, 1);
			td = vp_h_textf(tr, "td", "num", "[%s%s, %s%s]", v->lo >= 0 ? "+" : "", a,
					v->hi >= 0 ? "+" : "", b);
			vp_h_attrf(td, "data-low", "%.6f", v->lo);
			vp_h_attrf(td, "data-high", "%.6f", v->hi);
		}
	}
	if (isnan(share)) {
		td = vp_h_text(tr, "td", "num", "\u2013");
		vp_h_attr(td, "data-v", "");
	} else {
		snprintf(ex, sizeof(ex), "%.6f", share);
		td = vp_h_textf(tr, "td", "num", "%.1f%%", 100 * share);
		vp_h_attr(td, "data-v", ex);
	}
}

static void split_table(xmlNodePtr sec, const struct vp_comparison *c, size_t side,
			const struct vp_time_split *sp)
{
	int intervals = !isnan(sp->wall.lo);
	xmlNodePtr box = vp_h_scroll(sec, "where the time went, scrolls sideways");
	xmlNodePtr table = vp_h_el(box, "table", "split"), tr, tbody;

	vp_h_attr(table, "data-side", vp_hm_label(c, side));
	vp_h_textf(table, "caption", NULL, "Where the time went: %s against %s (%zu run%s against %zu)",
		   vp_hm_label(c, side), vp_hm_label(c, 0), sp->nruns[1], sp->nruns[1] == 1 ? "" : "s",
		   sp->nruns[0]);
	tr = vp_h_el(vp_h_el(table, "thead", NULL), "tr", NULL);
	head(tr, "Part", NULL);
	head(tr, vp_hm_label(c, 0), "baseline");
	head(tr, vp_hm_label(c, side), "value");
	head(tr, "Difference", "delta");
	if (intervals)
		head(tr, "95% interval of the difference", "delta_lo");
	head(tr, "Share of the gap", "gap_share");
	tbody = vp_h_el(table, "tbody", NULL);
	part_row(tbody, "wall", "wall time", &sp->wall, 1, intervals);
	for (int p = 0; p < VP_TIME_NPARTS; p++)
		if (sp->part[p].known)
			part_row(tbody, vp_time_part_key(p), vp_time_part_name(sp, p), &sp->part[p],
				 vp_time_part_percent(sp, p) / 100, intervals);
	if (!intervals)
		vp_h_text(sec, "p", "note", "A side has one run: no interval; run-to-run variation "
			  "is not measured.");
}

/* Without a split: the wall times when both say, and why there is no split. */
static void no_split(xmlNodePtr sec, const struct vp_comparison *c, size_t s, const char *why)
{
	const struct vp_profile_meta *b = vp_hm_meta(c, 0), *m = vp_hm_meta(c, s);
	xmlNodePtr p = vp_h_el(sec, "p", "lede");

	if (b->duration > 0 && m->duration >= 0)
		vp_h_addf(p, "%s took %.3f s of wall time, %s %.3f s: %+.3f s (%+.1f%%). ",
			  vp_hm_label(c, s), m->duration, vp_hm_label(c, 0), b->duration,
			  m->duration - b->duration, 100 * (m->duration - b->duration) / b->duration);
	vp_h_addf(p, "Where the time went is not split for %s against %s: %s.", vp_hm_label(c, s),
		  vp_hm_label(c, 0), why);
}

int vp_html_headline(xmlNodePtr main, const struct vp_comparison *c, const struct vp_chart_opts *o)
{
	xmlNodePtr sec = vp_h_el(main, "section", "headline"), p;
	struct vp_time_split sp;
	char id[64], t[40], u[40];
	int r = 0;

	vp_h_attr(sec, "id", "headline");
	vp_h_attr(sec, "aria-labelledby", "headline-h");
	vp_h_attr(vp_h_text(sec, "h2", NULL, "Headline: where the time went"), "id", "headline-h");
	for (size_t s = 1; s < vp_hm_nsides(c) && r >= 0; s++) {
		struct vp_error err = { 0 };
		if (vp_hm_nsides(c) > 2)
			vp_h_textf(sec, "h3", NULL, "%s against %s", vp_hm_label(c, s), vp_hm_label(c, 0));
		if (vp_cmp_time_split(c, s, &sp, &err) < 0) {
			no_split(sec, c, s, err.msg);
			continue;
		}
		vp_format_time(t, sizeof(t), sp.wall.side * 1e9, 1);
		vp_format_time(u, sizeof(u), sp.wall.base * 1e9, 1);
		p = vp_h_el(sec, "p", "lede");
		vp_h_addf(p, "%s took %s of wall time, %s %s", vp_hm_label(c, s), t, vp_hm_label(c, 0), u);
		if (sp.ratio > 0)
			vp_h_addf(p, ": %.2f\u00d7", sp.ratio);
		vp_h_add(p, ". The table splits the gap into what the recordings measured.");
		split_table(sec, c, s, &sp);
		if (!(o->kinds & VP_CHART_WATERFALL))
			continue;
		snprintf(id, sizeof(id), "time%zu-waterfall", s);
		r = vp_html_chart(sec, c, NULL, s, o, VP_CHART_WATERFALL, id,
				  "time waterfall, scrolls sideways",
				  "the top bar is the baseline's wall time, the bottom bar the other side's; "
				  "between them each measured part of the gap is a step from where the one "
				  "before ended, to the right when the side spent more on it, to the left "
				  "when less (the legend gives the colours), labelled with its time and its "
				  "share of the gap, with a whisker for its 95% interval when both sides "
				  "have several runs; the remainder is what the measured parts do not "
				  "explain (with threads running in parallel, CPU time exceeds wall time "
				  "and it is negative). The table above has the same numbers.");
	}
	return r;
}
