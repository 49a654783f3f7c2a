/* Shared by the chart drawers: the drawing context and the marks each drawing
 * leaves behind (bars, slices, text boxes), from which the SVG gets its
 * tooltips and the tests their geometry. */
#ifndef VP_RENDER_INTERNAL_H
#define VP_RENDER_INTERNAL_H

#include <cairo.h>
#include <stddef.h>

#include "chart.h"

enum mark_kind { MARK_BAR, MARK_SLICE, MARK_TEXT };

struct mark {
	enum mark_kind kind;
	double x, y, w, h;		/* bars and text boxes */
	double cx, cy, r0, r1, a0, a1;	/* slices: centre, radii, angles (radians) */
	int side;			/* 0 host, 1 guest, -1 none */
	double value;			/* bars: the value drawn */
	char *title;			/* tooltip: full name and exact values */
};

struct marks {
	struct mark *v;
	size_t n, cap;
	int oom;
};

struct canvas {
	cairo_t *cr;
	double w, h;
	struct marks *marks;		/* NULL: do not record (second format) */
};

/* Colours: host and guest (Okabe-Ito blue and orange: apart in greyscale too),
 * ink, grid, and a qualitative palette for slices. */
struct rgb { double r, g, b; };
extern const struct rgb vp_host_rgb, vp_guest_rgb, vp_ink_rgb, vp_grid_rgb, vp_other_rgb;
const struct rgb *vp_slice_rgb(size_t i);
void vp_set_rgb(cairo_t *cr, const struct rgb *c);
#define VP_SLICE_COLOURS 8

void vp_marks_add(struct marks *m, const struct mark *k, const char *title_fmt, ...)
	__attribute__((format(printf, 3, 4)));
void vp_marks_free(struct marks *m);

/* Text: the fixed font, its extents, drawing with a recorded box. */
void vp_font(cairo_t *cr, double size, int bold);
double vp_text_width(cairo_t *cr, const char *s);
/* Draw s with its left (align 0), centre (0.5) or right (1) at x, baseline y. */
void vp_text(struct canvas *c, const char *s, double x, double y, double align);
/* Shorten a symbol to fit width: drop its parameter list, then cut the middle
 * with an ellipsis keeping the start (namespace) and end (function name). */
void vp_shorten(cairo_t *cr, const char *sym, int full, double width, char *out, size_t size);

/* Axis ticks: round values from lo to hi. */
size_t vp_ticks(double hi, double *ticks, size_t max);
void vp_format_count(double v, char *buf, size_t size);

int vp_draw_bar(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		const struct vp_chart_opts *o);
int vp_draw_circle(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		   const struct vp_chart_opts *o);
/* Title and subtitle common to both charts; returns the y below them. */
double vp_draw_heading(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_chart_opts *o, const char *kind);

/* Rewrite cairo's SVG (svg, len) with tooltips, a description and a viewBox. */
int vp_svg_enrich(const char *svg, size_t len, const struct marks *m, const char *title,
		  const char *desc, double w, double h, char **out, size_t *out_len);

#endif
