/* The HTML report's parts (html.c the page, html_facts.c the sides,
 * html_headline.c the headline, html_table.c the comparison tables, html_charts.c the inline
 * charts) and what they share: building the document with libxml2, where
 * every name from a file goes in as a text node or an attribute value, so it
 * is escaped by the serialiser and never read as markup; and the comparison's
 * numbers through one set of accessors (html_model.c), so a change of the
 * comparison model is an edit there. */
#ifndef VP_HTML_INTERNAL_H
#define VP_HTML_INTERNAL_H

#include <libxml/tree.h>
#include <stddef.h>
#include <stdint.h>

#include "render_internal.h"
#include "lib/compare/stats.h"

/* ---- html_dom.c: elements under parent (NULL on ENOMEM, and every helper
 * takes a NULL parent quietly, so a builder checks once at the end with
 * vp_h_failed: 1 when anything was left out of doc). */
int vp_h_failed(xmlDocPtr doc);
xmlNodePtr vp_h_el(xmlNodePtr parent, const char *tag, const char *cls);
/* An element holding text (cleaned as vp_svg_clean does). */
xmlNodePtr vp_h_text(xmlNodePtr parent, const char *tag, const char *cls, const char *text);
xmlNodePtr vp_h_textf(xmlNodePtr parent, const char *tag, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Text appended to n. */
void vp_h_add(xmlNodePtr n, const char *text);
void vp_h_addf(xmlNodePtr n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vp_h_attr(xmlNodePtr n, const char *name, const char *value);
void vp_h_attrf(xmlNodePtr n, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A "How to read this" note. */
void vp_h_howto(xmlNodePtr parent, const char *text);
/* A box that scrolls sideways on narrow screens, labelled for keyboard users. */
xmlNodePtr vp_h_scroll(xmlNodePtr parent, const char *label);

/* ---- html_model.c: the comparison as the page reads it. */
size_t vp_hm_nsides(const struct vp_comparison *c);
const char *vp_hm_label(const struct vp_comparison *c, size_t side);
const struct vp_profile_meta *vp_hm_meta(const struct vp_comparison *c, size_t side);
size_t vp_hm_runs(const struct vp_comparison *c, size_t side);
uint64_t vp_hm_samples(const struct vp_cmp_row *r, size_t side);
uint64_t vp_hm_period(const struct vp_cmp_row *r, size_t side);
uint64_t vp_hm_total_samples(const struct vp_cmp_event *e, size_t side);
uint64_t vp_hm_total_period(const struct vp_cmp_event *e, size_t side);
const char *vp_hm_event_name(const struct vp_cmp_event *e, size_t side);	/* NULL: absent */
/* 1 when e's periods are nanoseconds (cpu-clock, task-clock, offcpu-time)
 * and the comparison compares periods: shown as time (vp_format_time),
 * exact in data-v. */
int vp_hm_is_time(const struct vp_comparison *c, const struct vp_cmp_event *e);
double vp_hm_share(const struct vp_comparison *c, const struct vp_cmp_event *e,
		   const struct vp_cmp_row *r, size_t side);
/* Side s (>= 1) against the baseline: the ratio as compare's CSV writes it
 * (buf, "" when there is none) and as a sort key (INFINITY for a row only
 * the side has, 0 for one only the baseline has, NAN for none); the delta in
 * percentage points. */
double vp_hm_ratio(const struct vp_comparison *c, const struct vp_cmp_event *e,
		   const struct vp_cmp_row *r, size_t side, char *csv, size_t size);
double vp_hm_delta_pp(const struct vp_comparison *c, const struct vp_cmp_event *e,
		      const struct vp_cmp_row *r, size_t side);
/* Row r's statistics for side s against the baseline (intervals, q, the
 * verdict), NULL when it was not judged; the significance level; the rows
 * the baseline's A/A split flags (-1: not computed). */
const struct vp_stat_result *vp_hm_stat(const struct vp_cmp_event *e, const struct vp_cmp_row *r,
					size_t side);
double vp_hm_alpha(const struct vp_comparison *c);
long vp_hm_noise_floor(const struct vp_cmp_event *e);

/* ---- the sections */
void vp_html_facts(xmlNodePtr main, const struct vp_comparison *c);
/* The headline; a negative code when its chart cannot be drawn. */
int vp_html_headline(xmlNodePtr main, const struct vp_comparison *c, const struct vp_chart_opts *o);
void vp_html_table(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		   size_t idx);
/* A chart's SVG tree inline, as a figure with id (its SVG ids prefixed with
 * it, its scripts left out), an accessible label for its scrolling box and a
 * how-to note; frees svg. A negative code when it cannot be copied. */
int vp_html_figure(xmlNodePtr sec, xmlDocPtr svg, const char *id, const char *label,
		   const char *howto);
/* One chart drawn (vp_chart_svg_doc: e's, or side's waterfall when e is
 * NULL) and put inline with vp_html_figure. */
int vp_html_chart(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		  size_t side, const struct vp_chart_opts *o, unsigned kind, const char *id,
		  const char *label, const char *howto);
/* The charts o->kinds asks for: bar, circle, then the flame graph when e has
 * call stacks. 1 when a flame graph is on the page (it needs the flame
 * script), 0 when not, a negative code when a chart cannot be drawn. */
int vp_html_charts(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		   size_t idx, const struct vp_chart_opts *o);

/* ---- report_assets.c (generated from render/report.css and report.js by
 * embed-assets.sh) */
extern const char vp_report_css[], vp_report_js[], vp_report_js_sha256[];

#endif
