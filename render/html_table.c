/* The HTML report's comparison table of one event: every row of the join
 * (not only the charts' top N), with the numbers compare's CSV has. Each
 * numeric cell shows a number for people and keeps the CSV's exact text in
 * data-v (the sort key in data-s when it differs), so report.js sorts on
 * exact values and a test can hold the page against the CSV; each column
 * head names its CSV column in data-col. */
#include "html_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/profile/profile.h"
#include "lib/util/timefmt.h"

/* A column head: a button that sorts (report.js), the CSV column it is. */
static void head(xmlNodePtr tr, const char *text, const char *col, int numeric, const char *abbr)
{
	xmlNodePtr th = vp_h_el(tr, "th", numeric ? "num" : NULL), b;

	vp_h_attr(th, "scope", "col");
	vp_h_attr(th, "data-type", numeric ? "num" : "text");
	if (col)
		vp_h_attr(th, "data-col", col);
	b = vp_h_el(th, "button", NULL);
	vp_h_attr(b, "type", "button");
	if (abbr)
		vp_h_attr(b, "title", abbr);
	vp_h_add(b, text);
}

static xmlNodePtr num_cell(xmlNodePtr tr, const char *exact, const char *shown)
{
	xmlNodePtr td = vp_h_text(tr, "td", "num", shown);

	vp_h_attr(td, "data-v", exact);
	return td;
}

/* A count for people: digits in groups of three, split by a narrow no-break
 * space, or a time in its unit (vp_format_time) for nanoseconds; the exact
 * digits stay in data-v. */
static void count_cell(xmlNodePtr tr, uint64_t v, int time)
{
	char b[32], g[96];
	size_t n, k = 0;

	n = (size_t)snprintf(b, sizeof(b), "%" PRIu64, v);
	if (time && vp_format_time(g, sizeof(g), (double)v, 1) > 0) {
		num_cell(tr, b, g);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0) {
			memcpy(g + k, "\u202f", 3);
			k += 3;
		}
		g[k++] = b[i];
	}
	g[k] = '\0';
	num_cell(tr, b, g);
}

/* The CSV column a side's number is in: host_ and guest_ with two sides;
 * with more, base_ for the baseline and side_ for the others (their lines
 * say which side). */
static const char *prefix(const struct vp_comparison *c, size_t s)
{
	if (vp_hm_nsides(c) == 2)
		return s ? "guest" : "host";
	return s ? "side" : "base";
}

/* A head for side s: with more than two sides it says which (data-side). */
static void side_head(xmlNodePtr tr, const struct vp_comparison *c, size_t s, const char *text,
		      const char *col, int numeric, const char *abbr)
{
	head(tr, text, col, numeric, abbr);
	if (tr && vp_hm_nsides(c) > 2) {
		vp_h_attrf(tr->last, "data-side", "%zu", s);
		if (!strcmp(col, "ratio"))
			vp_h_attr(tr->last, "data-label", vp_hm_label(c, s));
	}
}

static void columns(xmlNodePtr table, const struct vp_comparison *c)
{
	xmlNodePtr tr = vp_h_el(vp_h_el(table, "thead", NULL), "tr", NULL);
	size_t k = vp_hm_nsides(c);
	char t[600], col[64], note[160];

	head(tr, "#", NULL, 1, "rank in this comparison");
	/* the first click on # restores the ranked order */
	vp_h_attr(tr ? tr->children : NULL, "aria-sort", "ascending");
	head(tr, "Function", "symbol", 0, NULL);
	head(tr, "Object", "dso", 0, NULL);
	head(tr, "Dom.", "domain", 0, "domain: . user, k kernel, u guest user, g guest kernel, H hypervisor");
	for (size_t s = 0; s < k; s++) {
		static const char *const what[] = { "samples", "period", "share" };
		for (size_t w = 0; w < 3; w++) {
			snprintf(t, sizeof(t), "%s %s", vp_hm_label(c, s), what[w]);
			snprintf(col, sizeof(col), "%s_%s", prefix(c, s), what[w]);
			side_head(tr, c, s, t, col, 1, w == 2 ? "mean of the runs' shares of the event total"
				  : vp_hm_runs(c, s) > 1 ? "sum over the side's runs" : NULL);
		}
	}
	snprintf(note, sizeof(note), "%.0f%% confidence interval in brackets", 100 * (1 - vp_hm_alpha(c)));
	for (size_t s = 1; s < k; s++) {
		snprintf(t, sizeof(t), "%s / %s", vp_hm_label(c, s), vp_hm_label(c, 0));
		side_head(tr, c, s, t, "ratio", 1, note);
		side_head(tr, c, s, "\u0394 share (pp)", "delta", 1, note);
		side_head(tr, c, s, "q", "q_value", 1, "Benjamini-Hochberg q across the event's rows");
		side_head(tr, c, s, "Finding", "significant", 1, "significant (q below alpha) or within noise");
	}
}

/* An interval for people: "[1.44, 1.61]", an unbounded end as "∞". */
static void interval(char *buf, size_t size, double lo, double hi, const char *fmt)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), fmt, lo);
	if (isinf(hi))
		snprintf(b, sizeof(b), "\u221e");
	else
		snprintf(b, sizeof(b), fmt, hi);
	snprintf(buf, size, " [%s, %s]", a, b);
}

/* A statistic exactly as compare's CSV writes it ("inf" when unbounded). */
static void stat_attr(xmlNodePtr td, const char *name, const struct vp_stat_result *st, double v)
{
	if (st)
		vp_h_attrf(td, name, "%.12g", v);
	else
		vp_h_attr(td, name, "");
}

/* Side s against the baseline: ratio, delta (each with its interval), q and
 * the finding. A row without statistics (not judged) is marked as no finding,
 * as the charts draw it pale. */
static void judged(xmlNodePtr tr, const struct vp_comparison *c, const struct vp_cmp_event *e,
		   const struct vp_cmp_row *r, size_t s)
{
	const struct vp_stat_result *st = vp_hm_stat(e, r, s);
	double x, dpp = vp_hm_delta_pp(c, e, r, s);
	int noise = !st || !st->significant;
	const char *cls = noise ? "num noise" : "num";
	char b[96], shown[160], ci[96] = "";
	xmlNodePtr td;

	/* three digits, as the interval; "only host" and the like as the CSV says */
	x = vp_hm_ratio(c, e, r, s, b, sizeof(b));
	if (isfinite(x) && x > 0)
		snprintf(shown, sizeof(shown), "%.3g\u00d7", x);
	else
		snprintf(shown, sizeof(shown), "%s", *b ? b : "\u2013");
	if (st && !isnan(st->ratio))
		interval(ci, sizeof(ci), st->ratio_lo, st->ratio_hi, "%.3g");
	td = vp_h_text(tr, "td", cls, shown);
	vp_h_attr(td, "data-v", b);
	if (*ci)
		vp_h_text(td, "span", "ci", ci);
	/* a number for sorting: one-sided rows at the ends, none last */
	if (isinf(x))
		vp_h_attr(td, "data-s", "Infinity");
	else if (isnan(x))
		vp_h_attr(td, "data-s", "NaN");
	else if (strcmp(b, "") && x == 0)
		vp_h_attr(td, "data-s", "0");
	stat_attr(td, "data-low", st, st ? st->ratio_lo : 0);
	stat_attr(td, "data-high", st, st ? st->ratio_hi : 0);

	snprintf(b, sizeof(b), "%.6f", dpp);
	snprintf(shown, sizeof(shown), "%+.2f", fabs(dpp) < 0.005 ? 0.0 : dpp);
	td = vp_h_text(tr, "td", cls, shown);
	vp_h_attr(td, "data-v", b);
	if (st) {
		interval(ci, sizeof(ci), st->delta_lo, st->delta_hi, "%+.2f");
		vp_h_text(td, "span", "ci", ci);
	}
	stat_attr(td, "data-low", st, st ? st->delta_lo : 0);
	stat_attr(td, "data-high", st, st ? st->delta_hi : 0);

	if (st)
		snprintf(shown, sizeof(shown), st->q < 0.001 ? "<0.001" : "%.3f", st->q);
	td = vp_h_text(tr, "td", cls, st ? shown : "\u2013");
	stat_attr(td, "data-v", st, st ? st->q : 0);
	stat_attr(td, "data-p", st, st ? st->p : 0);

	td = vp_h_text(tr, "td", noise ? "finding noise" : "finding",
		       noise ? "within noise" : "\u2731 differs");
	vp_h_attr(td, "data-v", st ? (st->significant ? "1" : "0") : "");
	if (!st)
		vp_h_attr(td, "data-s", noise ? "0" : "1");
}

static void row(xmlNodePtr tbody, const struct vp_comparison *c, const struct vp_cmp_event *e,
		const struct vp_cmp_row *r, size_t rank)
{
	xmlNodePtr tr = vp_h_el(tbody, "tr", NULL), th;
	size_t k = vp_hm_nsides(c);
	int time = vp_hm_is_time(c, e);
	const char *sym = r->symbol ? r->symbol : "";
	size_t dlen = vp_symbol_display_len(sym);
	char b[96], shown[96];
	char d[2] = { r->domain ? r->domain : '.', 0 };

	vp_h_attrf(tr, "data-rank", "%zu", rank);
	snprintf(b, sizeof(b), "%zu", rank);
	num_cell(tr, b, b);
	/* the name as the CSV shows it; the full name (parameters) as a tooltip */
	th = vp_h_el(tr, "th", "sym");
	vp_h_attr(th, "scope", "row");
	if (!*sym) {
		vp_h_attr(th, "data-v", "");
		vp_h_add(th, "[unknown]");
	} else {
		char *shortname = strndup(sym, dlen);
		vp_h_add(th, shortname ? shortname : sym);
		free(shortname);
		if (dlen != strlen(sym))
			vp_h_attr(th, "title", sym);
	}
	vp_h_text(tr, "td", "dso", r->dso ? r->dso : "");
	vp_h_text(tr, "td", "dom", d);
	for (size_t s = 0; s < k; s++) {
		double share = vp_hm_share(c, e, r, s);
		count_cell(tr, vp_hm_samples(r, s), 0);
		count_cell(tr, vp_hm_period(r, s), time);
		snprintf(b, sizeof(b), "%.9f", share);
		snprintf(shown, sizeof(shown), "%.2f%%", 100 * share);
		num_cell(tr, b, shown);
	}
	for (size_t s = 1; s < k; s++)
		judged(tr, c, e, r, s);
}

/* How the rows were judged: the basis of the intervals, alpha, how many
 * rows differ, and the noise floor of the baseline's A/A split. */
static void judgement(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e)
{
	xmlNodePtr p = vp_h_el(sec, "p", "judged");

	for (size_t s = 1; s < vp_hm_nsides(c); s++) {
		const struct vp_stat_result *st = NULL;
		size_t sig = 0;
		for (size_t i = 0; i < e->total_rows; i++) {
			const struct vp_stat_result *x = vp_hm_stat(e, &e->rows[i], s);
			if (x) {
				st = st ? st : x;
				sig += x->significant != 0;
			}
		}
		if (!st) {
			vp_h_addf(p, "%s against %s: not judged (the comparison carries no statistics). ",
				  vp_hm_label(c, s), vp_hm_label(c, 0));
			continue;
		}
		vp_h_addf(p, "%s against %s: %zu of %zu functions differ significantly (q < %g); "
			  "intervals at %.0f%% from %s. ", vp_hm_label(c, s), vp_hm_label(c, 0), sig,
			  e->total_rows, vp_hm_alpha(c), 100 * (1 - vp_hm_alpha(c)),
			  st->basis == VP_STAT_RUNS ? "the spread between runs"
			  : "sampling noise alone (one run: run-to-run variation is not measured)");
	}
	if (vp_hm_noise_floor(e) >= 0)
		vp_h_addf(p, "Noise floor: %ld functions differ when %s's runs are split in two halves "
			  "and compared (A/A).", vp_hm_noise_floor(e), vp_hm_label(c, 0));
}

void vp_html_table(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		   size_t idx)
{
	xmlNodePtr tools, in, out, box, table, cap, tbody;
	char id[64], tid[64];

	snprintf(tid, sizeof(tid), "t%zu", idx);
	vp_h_textf(sec, "h3", NULL, "Every function (%zu)", e->total_rows);
	judgement(sec, c, e);
	tools = vp_h_el(sec, "div", "tools");
	snprintf(id, sizeof(id), "f%zu", idx);
	vp_h_attr(vp_h_text(tools, "label", NULL, "Filter by name"), "for", id);
	in = vp_h_el(tools, "input", "filter");
	vp_h_attr(in, "type", "search");
	vp_h_attr(in, "id", id);
	vp_h_attr(in, "data-table", tid);
	vp_h_attr(in, "autocomplete", "off");
	vp_h_attr(in, "spellcheck", "false");
	out = vp_h_textf(tools, "output", "count", "%zu of %zu functions shown", e->total_rows, e->total_rows);
	vp_h_attrf(out, "id", "n%zu", idx);
	vp_h_attr(out, "aria-live", "polite");

	vp_h_attrf(vp_h_el(tools, "span", "sr-only"), "id", "s%zu", idx);
	vp_h_attr(tools ? tools->last : NULL, "aria-live", "polite");
	box = vp_h_scroll(sec, "comparison table, scrolls sideways");
	table = vp_h_el(box, "table", "cmp");
	vp_h_attr(table, "id", tid);
	vp_h_attr(table, "data-event", e->name);
	vp_h_attrf(table, "data-count", "n%zu", idx);
	vp_h_attrf(table, "data-status", "s%zu", idx);
	cap = vp_h_textf(table, "caption", NULL, "%s: every function of the join, ranked by %s. ", e->name,
			 vp_rank_name(c->rank));
	vp_h_text(cap, "span", "hint", "Sort by a column with its heading (click, Enter or Space).");
	columns(table, c);
	tbody = vp_h_el(table, "tbody", NULL);
	for (size_t i = 0; i < e->total_rows; i++)
		row(tbody, c, e, &e->rows[i], i + 1);
	vp_h_howto(sec, "each row is one function (symbol, object, domain as perf prints it) with each "
		   "side's samples, period and share of that side's total; the ratio divides the "
		   "compared values (side over baseline, 'only host' or 'only guest' when one side "
		   "never saw it); \u0394 share is the difference of shares in percentage points; "
		   "brackets hold their confidence intervals, q the false-discovery-adjusted p "
		   "value. '\u2731 differs' marks a significant difference; 'within noise' one "
		   "that is not a finding (the line above says how the rows were judged).");
}
