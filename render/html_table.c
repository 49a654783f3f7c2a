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
 * space (the exact digits stay in data-v). */
static void count_cell(xmlNodePtr tr, uint64_t v)
{
	char b[32], g[96];
	size_t n, k = 0;

	n = (size_t)snprintf(b, sizeof(b), "%" PRIu64, v);
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

static void columns(xmlNodePtr table, const struct vp_comparison *c)
{
	xmlNodePtr tr = vp_h_el(vp_h_el(table, "thead", NULL), "tr", NULL);
	size_t k = vp_hm_nsides(c);
	char t[600], col[64];

	head(tr, "#", NULL, 1, "rank in this comparison");
	/* the first click on # restores the ranked order */
	vp_h_attr(tr ? tr->children : NULL, "aria-sort", "ascending");
	head(tr, "Function", "symbol", 0, NULL);
	head(tr, "Object", "dso", 0, NULL);
	head(tr, "Dom.", "domain", 0, "domain: . user, k kernel, u guest user, g guest kernel, H hypervisor");
	for (size_t s = 0; s < k; s++) {
		/* CSV columns are named host_* and guest_* whatever the labels */
		const char *pre = s ? "guest" : "host";
		snprintf(t, sizeof(t), "%s samples", vp_hm_label(c, s));
		snprintf(col, sizeof(col), "%s_samples", pre);
		head(tr, t, col, 1, NULL);
		snprintf(t, sizeof(t), "%s %s", vp_hm_label(c, s), "period");
		snprintf(col, sizeof(col), "%s_period", pre);
		head(tr, t, col, 1, NULL);
		snprintf(t, sizeof(t), "%s share", vp_hm_label(c, s));
		snprintf(col, sizeof(col), "%s_share", pre);
		head(tr, t, col, 1, "share of the side's event total");
	}
	for (size_t s = 1; s < k; s++) {
		snprintf(t, sizeof(t), "%s / %s", vp_hm_label(c, s), vp_hm_label(c, 0));
		head(tr, t, "ratio", 1, "ratio of the values");
		head(tr, "\u0394 share (pp)", "delta", 1, "difference of the shares, percentage points");
		head(tr, "Finding", NULL, 0, "beyond or within sampling noise");
	}
}

static void row(xmlNodePtr tbody, const struct vp_comparison *c, const struct vp_cmp_event *e,
		const struct vp_cmp_row *r, size_t rank)
{
	xmlNodePtr tr = vp_h_el(tbody, "tr", NULL), th;
	size_t k = vp_hm_nsides(c);
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
		count_cell(tr, vp_hm_samples(r, s));
		count_cell(tr, vp_hm_period(r, s));
		snprintf(b, sizeof(b), "%.9f", share);
		snprintf(shown, sizeof(shown), "%.2f%%", 100 * share);
		num_cell(tr, b, shown);
	}
	for (size_t s = 1; s < k; s++) {
		double x = vp_hm_ratio(c, e, r, s, b, sizeof(b)), dpp = vp_hm_delta_pp(c, e, r, s);
		int noise = vp_hm_noise(c, e, r, s);
		xmlNodePtr td;

		vp_hm_ratio_text(c, e, r, s, shown, sizeof(shown));
		td = num_cell(tr, b, shown);
		/* a number for sorting: one-sided rows at the ends, none last */
		if (isinf(x))
			vp_h_attr(td, "data-s", "Infinity");
		else if (isnan(x))
			vp_h_attr(td, "data-s", "NaN");
		else if (strcmp(b, "") && x == 0)
			vp_h_attr(td, "data-s", "0");
		snprintf(b, sizeof(b), "%.6f", dpp);
		snprintf(shown, sizeof(shown), "%+.2f", dpp);
		num_cell(tr, b, fabs(dpp) < 0.005 ? "0.00" : shown);
		td = vp_h_text(tr, "td", noise ? "finding noise" : "finding", noise ? "within noise" : "differs");
		if (noise)
			vp_h_attr(tr, "class", "noise");
	}
}

void vp_html_table(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		   size_t idx)
{
	xmlNodePtr tools, in, out, box, table, cap, tbody;
	char id[64], tid[64];

	snprintf(tid, sizeof(tid), "t%zu", idx);
	vp_h_textf(sec, "h3", NULL, "Every function (%zu)", e->total_rows);
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
		   "never saw it); \u0394 share is the difference of shares in percentage points. "
		   "'within noise' marks a difference smaller than twice the sampling error of the "
		   "two sample counts: not a finding.");
}
