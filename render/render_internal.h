/* Shared by the chart drawers: the drawing context and the marks each drawing
 * leaves behind (bars, slices, text boxes), from which the SVG gets its
 * tooltips and the tests their geometry. One file per job: colours.c,
 * marks.c, text.c (fonts, extents, numbers), names.c (shortening), axis.c,
 * heading.c, bar.c, circle.c, formats.c (cairo surfaces), svgmeta.c
 * (libxml2 enrichment), chart.c (files), html*.c (the HTML report). */
#ifndef VP_RENDER_INTERNAL_H
#define VP_RENDER_INTERNAL_H

#include <cairo.h>
#include <stddef.h>

#include "chart.h"

enum mark_kind { MARK_BAR, MARK_SLICE, MARK_TEXT };

struct mark {
	enum mark_kind kind;
	double x, y, w, h;		/* bars and text boxes (ink box of the text) */
	double cx, cy, r0, r1, a0, a1;	/* slices: centre, radii, angles (radians) */
	int side;			/* 0 host, 1 guest, -1 none */
	double value;			/* bars and slices: the value drawn */
	double font_size;		/* text: size in user units, baseline at y + ascent */
	double baseline;
	int bold;
	char *title;			/* bars, slices: tooltip; text: the string drawn */
};

struct marks {
	struct mark *v;
	size_t n, cap;
	int oom;
};

struct canvas {
	cairo_t *cr;
	double w, h;
	struct marks *marks;		/* NULL: do not record (formats other than SVG) */
};

/* ---- colours.c: host and guest (Okabe-Ito blue and orange: apart for
 * colour-blind readers and in greyscale too), ink, grid, and a qualitative
 * palette for slices. */
struct rgb { double r, g, b; };
extern const struct rgb vp_host_rgb, vp_guest_rgb, vp_ink_rgb, vp_muted_rgb, vp_grid_rgb,
	vp_other_rgb;
#define VP_SLICE_COLOURS 8
const struct rgb *vp_slice_rgb(size_t i);
const struct rgb *vp_side_rgb(int side);
void vp_set_rgb(cairo_t *cr, const struct rgb *c);

/* ---- marks.c */
void vp_marks_add(struct marks *m, const struct mark *k, const char *title_fmt, ...)
	__attribute__((format(printf, 3, 4)));
void vp_marks_free(struct marks *m);

/* ---- text.c: the fixed font, its extents, drawing with a recorded box. */
void vp_font(cairo_t *cr, double size, int bold);
double vp_text_width(cairo_t *cr, const char *s);
/* Draw s with its left (align 0), centre (0.5) or right (1) at x, baseline y;
 * returns its width. */
double vp_text(struct canvas *c, const char *s, double x, double y, double align);
/* Numbers for people: 1.2M, 310k, 7; round values without ".0". */
void vp_format_count(double v, char *buf, size_t size);
/* A share in percent: "12.3%", "<0.1%" for tiny non-zero ones, "0%". */
void vp_format_share(double share, char *buf, size_t size);
/* side s over the baseline of a row: "9.1×", "0.14×", "only host". */
void vp_format_ratio(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		     enum vp_value v, char *buf, size_t size);
/* A side's values of a row for a tooltip: "N samples, period P", or with
 * several runs "mean of K runs: N samples, period P". */
void vp_format_side_values(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
			   char *buf, size_t size);

/* ---- names.c: shorten a symbol to fit width: drop its parameter list (unless
 * full), then template arguments, then middle namespaces, then cut the middle
 * with an ellipsis keeping the start (namespace) and the end (function name). */
void vp_shorten(cairo_t *cr, const char *sym, int full, double width, char *out, size_t size);
/* Any text (titles): cut in the middle with an ellipsis until it fits. */
void vp_fit(cairo_t *cr, const char *text, double width, char *out, size_t size);
#define VP_LABEL_MAX 512
/* Labels "[d] name" for rows, each fitting width in the current font, and
 * distinct for distinct rows (two names never shorten to the same label).
 * Returns an array of n labels to free(), or NULL on ENOMEM. */
char (*vp_row_labels(cairo_t *cr, const struct vp_cmp_row *rows, size_t n, double width))[VP_LABEL_MAX];

/* ---- axis.c: a value axis, linear from zero or log. */
struct vp_axis {
	int log;
	double lo, hi;		/* value at the axis start (log only) and end */
	double x0, x1;
};
/* Round tick values from 0 to at least hi; steps of 1, 2 or 5 times a power of
 * ten, never below 1 (the values are counts). */
size_t vp_ticks(double hi, double *ticks, size_t max);
/* Scale for values between min_pos (smallest non-zero) and max. */
void vp_axis_pick(struct vp_axis *a, double min_pos, double max, enum vp_chart_scale scale);
double vp_axis_pos(const struct vp_axis *a, double v);
void vp_axis_draw(struct canvas *c, const struct vp_axis *a, double top, double bottom,
		  const char *title);

/* ---- heading.c: title and subtitle common to both charts; returns the y below. */
double vp_draw_heading(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_chart_opts *o);
void vp_chart_title(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		    const struct vp_chart_opts *o, char *buf, size_t size);
/* "samples" or "period" (or the tracepoint field the period sums). */
const char *vp_value_name(const struct vp_comparison *cmp);

/* ---- bar.c, circle.c */
int vp_draw_bar(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		const struct vp_chart_opts *o);
int vp_draw_circle(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		   const struct vp_chart_opts *o);
/* Height a chart needs for e (at least o->height when given). */
double vp_bar_height(const struct vp_cmp_event *e, const struct vp_chart_opts *o);
double vp_circle_height(const struct vp_cmp_event *e, const struct vp_chart_opts *o);
/* 1 when a row's host and guest shares differ by less than sampling noise. */
int vp_row_is_noise(const struct vp_cmp_event *e, const struct vp_cmp_row *r);

/* ---- formats.c: draw one chart in one format into memory. */
struct vp_membuf {
	unsigned char *p;
	size_t n, cap;
	int oom;
};
int vp_render_format(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_chart_opts *o, unsigned kind, unsigned fmt, struct vp_membuf *b,
		     struct marks *m, double *w, double *h);

struct _xmlDoc;
/* ---- svgchart.c: one chart of e as an enriched SVG tree (the HTML report's
 * inline charts; the .svg files are this tree serialised). */
int vp_chart_svg_doc(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_chart_opts *o, unsigned kind, struct _xmlDoc **out);

/* ---- html.c: the HTML report of cmp, one self-contained page (html_*.c). */
int vp_html_page(const struct vp_comparison *cmp, const struct vp_chart_opts *o, char **out,
		 size_t *len);

/* ---- svgmeta.c: rewrite cairo's SVG (svg, len) with tooltips, a description,
 * real text and a viewBox: as a libxml2 tree (the HTML report imports it), or
 * serialised (the .svg files). */
struct _xmlDoc;
int vp_svg_enrich_doc(const char *svg, size_t len, const struct marks *m, const char *title,
		      const char *desc, double w, double h, struct _xmlDoc **out);
int vp_svg_enrich(const char *svg, size_t len, const struct marks *m, const char *title,
		  const char *desc, double w, double h, char **out, size_t *out_len);
/* Text from a file made valid XML text: control characters (but \n, \t) and
 * bytes that are not UTF-8 become U+FFFD. A copy to free(); NULL on ENOMEM. */
unsigned char *vp_xml_clean(const char *s);

#endif
