/* Shared by the chart drawers: the drawing context and the marks each drawing
 * leaves behind (bars, whiskers, slices, text boxes), from which the SVG gets
 * its tooltips and the tests their geometry. One file per job: colours.c,
 * marks.c, text.c (fonts, extents, numbers), names.c (shortening), axis.c,
 * heading.c, rowstat.c (whiskers, significance, tooltips, <desc>), bar.c,
 * circle.c, waterfall.c, flame*.c, formats.c (cairo surfaces), svgmeta.c
 * (libxml2 enrichment), svgchart.c (a chart as an SVG tree), chart.c
 * (files), html*.c (the HTML report). */
#ifndef VP_RENDER_INTERNAL_H
#define VP_RENDER_INTERNAL_H

#include <cairo.h>
#include <libxml/tree.h>
#include <stddef.h>

#include "chart.h"

enum mark_kind { MARK_BAR, MARK_SLICE, MARK_TEXT, MARK_WHISKER };

struct mark {
	enum mark_kind kind;
	double x, y, w, h;		/* bars, whiskers and text boxes (ink box of the text) */
	double cx, cy, r0, r1, a0, a1;	/* slices: centre, radii, angles (radians) */
	int side;			/* the side's index, -1 none */
	double value;			/* bars and slices: the value drawn */
	double lo, hi;			/* whiskers: the interval (hi may be INFINITY) */
	int significant;		/* bars: 1 coloured, 0 pale; -1 not said */
	int clipped;			/* whiskers: 1 the low end, 2 the high end, 3 both run
					   past the axis (drawn as arrows) */
	double font_size;		/* text: size in user units, baseline at y + ascent */
	double baseline;
	int bold;
	char *title;			/* bars, slices, whiskers: tooltip; text: the string drawn */
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

/* ---- colours.c: a hue per side (Okabe-Ito, colours.c says why these), its
 * pale form for findings that are not significant, ink, grid, and a
 * qualitative palette for slices. */
struct rgb { double r, g, b; };
extern const struct rgb vp_host_rgb, vp_guest_rgb, vp_ink_rgb, vp_muted_rgb, vp_grid_rgb,
	vp_other_rgb;
/* The waterfall's steps: a part that adds to the gap, one that takes from it
 * (Okabe-Ito reddish purple and bluish green: apart from the sides' colours
 * and from each other for colour-blind readers). */
extern const struct rgb vp_more_rgb, vp_less_rgb;
#define VP_SIDE_COLOURS 6
#define VP_SLICE_COLOURS 8
const struct rgb *vp_slice_rgb(size_t i);
const struct rgb *vp_side_rgb(size_t side);
struct rgb vp_side_pale(size_t side);
void vp_set_rgb(cairo_t *cr, const struct rgb *c);

/* ---- marks.c */
void vp_marks_add(struct marks *m, const struct mark *k, const char *title_fmt, ...)
	__attribute__((format(printf, 3, 4)));
void vp_marks_free(struct marks *m);

/* ---- text.c: the fixed font, its extents, drawing with a recorded box. */
void vp_font(cairo_t *cr, double size, int bold);
/* A context to measure text on before any surface exists, unhinted as on the
 * vector surfaces, so a layout decided with it is the same in every format
 * (NULL on ENOMEM); vp_measure_end frees it. */
cairo_t *vp_measure_begin(void);
void vp_measure_end(cairo_t *cr);
double vp_text_width(cairo_t *cr, const char *s);
/* Draw s with its left (align 0), centre (0.5) or right (1) at x, baseline y;
 * returns its width. */
double vp_text(struct canvas *c, const char *s, double x, double y, double align);
/* Numbers for people: 1.2M, 310k, 7; round values without ".0". */
void vp_format_count(double v, char *buf, size_t size);
/* A value of e as the chart shows it: time for a time event's period
 * ("16.50 ms"), else vp_format_count. */
void vp_format_value(const struct vp_comparison *cmp, const struct vp_cmp_event *e, double v,
		     char *buf, size_t size);
/* A share in percent: "12.3%", "<0.1%" for tiny non-zero ones, "0%". */
void vp_format_share(double share, char *buf, size_t size);
/* side s over the baseline of a row: "9.1×", "0.14×", "only host" ("only
 * guest"; with more sides "only LABEL", or "only base"/"only side" for a
 * label longer than 16 bytes). */
void vp_format_ratio(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_cmp_row *r, size_t s, char *buf, size_t size);
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
	int time;		/* values are nanoseconds: ticks labelled in one time unit */
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
/* A whisker from lo to hi at height y, cap units tall; an end past the axis
 * is an arrow at the axis end. m (or NULL) gets a MARK_WHISKER's box and
 * interval. */
void vp_axis_whisker(struct canvas *c, const struct vp_axis *a, double y, double cap, double lo,
		     double hi, struct mark *m);

/* ---- heading.c: title, subtitle (what is shown of what), the statistics'
 * line (runs per side, what the intervals come from, the noise floor) and
 * the machines, common to both charts; returns the y below, which
 * vp_heading_bottom gives without drawing. */
double vp_draw_heading(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_chart_opts *o);
double vp_heading_bottom(const struct vp_comparison *cmp);
void vp_chart_title(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		    const struct vp_chart_opts *o, char *buf, size_t size);
/* The command both sides recorded (without the recorder's options), NULL
 * when unknown or they differ. */
const char *vp_chart_workload(const struct vp_comparison *cmp);
/* "samples" or "period" (or the tracepoint field the period sums). */
const char *vp_value_name(const struct vp_comparison *cmp);
/* 1 when e's values are a time event's periods (nanoseconds); what they
 * are called then is "time". */
int vp_value_is_time(const struct vp_comparison *cmp, const struct vp_cmp_event *e);
const char *vp_event_value_name(const struct vp_comparison *cmp, const struct vp_cmp_event *e);

/* ---- waterfall.c: from the baseline's wall time to the side's, one
 * floating step per part of the split (lib/time/split.h). */
struct vp_time_split;
int vp_draw_waterfall(struct canvas *c, const struct vp_comparison *cmp, size_t side,
		      const struct vp_time_split *s, const struct vp_chart_opts *o);
double vp_waterfall_height(const struct vp_time_split *s, const struct vp_chart_opts *o);

/* ---- rowstat.c: a row's statistics as the charts show them, and in words. */
/* 1 when side s of row r is significant against the baseline (for the
 * baseline: when some side is); 0 when not, or without statistics. */
int vp_row_significant(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_cmp_row *r, size_t s);
/* The interval side s's bar carries as a whisker, in the bar's units: the
 * baseline's (or a side's without a ratio to it) own mean interval; a side's
 * ratio interval times the baseline's mean. 0 and *ratio set when it is the
 * latter; -EINVAL when there is none (nothing recorded); -ENOMEM. */
int vp_row_whisker(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		   const struct vp_cmp_row *r, size_t s, double *lo, double *hi, int *ratio);
/* The tooltip of row r's mark for side s: its full name, object and domain,
 * side s's exact values first, then the other sides', then each side's ratio
 * to the baseline with its interval, delta, p, q and verdict. A string to
 * free(), NULL on ENOMEM. */
char *vp_row_tooltip(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_cmp_row *r, size_t s);
/* The chart's <desc>: its data as sentences (every side's totals and runs;
 * per row every side's mean and share, each ratio with interval, q and
 * verdict). A string to free(), NULL on ENOMEM. */
char *vp_chart_describe(const struct vp_comparison *cmp, const struct vp_cmp_event *e);

/* ---- bar.c, circle.c */
int vp_draw_bar(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		const struct vp_chart_opts *o);
int vp_draw_circle(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		   const struct vp_chart_opts *o);
/* Height a chart needs for e (at least o->height when given); -1 on ENOMEM. */
double vp_bar_height(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_chart_opts *o);
double vp_circle_height(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
			const struct vp_chart_opts *o);

struct vp_membuf;

/* ---- flame.c: a flame graph's layout (shared by the cairo drawing and the
 * interactive SVG of flamesvg.c) and its drawing. */
#define VP_FLAME_ROW 17.0	/* a frame's row: 16 units and a gap */
#define VP_FLAME_FONT 10.5
#define VP_FLAME_HEAD 142.0	/* title, what width and colour mean, legend, notes, controls */
#define VP_FLAME_MIN_WIDTH 0.1	/* narrower frames are left out, with what is above them */
enum vp_flame_change {
	VP_CHANGE_NONE = 0,	/* one side: no change to show */
	VP_CHANGE_NOISE,	/* both sides, the difference within sampling noise */
	VP_CHANGE_UP,		/* side 1's share larger, beyond noise */
	VP_CHANGE_DOWN,		/* side 0's share larger, beyond noise */
	VP_CHANGE_ONLY0,	/* on side 0 only */
	VP_CHANGE_ONLY1,	/* on side 1 only */
};
struct vp_flame_frame {
	uint32_t node;		/* in the source's tree */
	double x, w;		/* units, at the full view */
	int depth;		/* 0 the root */
	enum vp_flame_change change;
	double lo, hi;		/* two sides: the 95% interval of the share difference (pp),
				 * or of the ratio with --flame-norm none */
};
struct vp_flame_layout {
	const struct vp_flame_src *src;
	int nsides, wside, absolute;	/* nsides 1 or 2: drawn sides, 0 the baseline */
	size_t side[2];			/* the source's sides they are */
	const char *label[2];
	double run_max, run_max_samples;	/* the largest run total (--flame-norm none) */
	int basis;			/* enum vp_stat_basis of the judgement */
	double width, height, plot_x, plot_w, top;
	int max_depth;
	struct vp_flame_frame *f;	/* every frame drawn, parents before children */
	size_t n, cap;
	size_t omitted, hidden;		/* frames too narrow; frames of the other side only */
	double omitted_share, hidden_share;
};
/* Event e of cmp as a flame graph's source; returns the side drawn against
 * the baseline (the second, or the one o->flame_width names). */
size_t vp_flame_cmp_src(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
			const struct vp_chart_opts *o, struct vp_flame_src *src);
/* The source's side 0 against side other (ignored for one side). */
int vp_flame_layout(const struct vp_flame_src *src, size_t other, const struct vp_chart_opts *o,
		    struct vp_flame_layout *L, struct vp_error *err);
void vp_flame_layout_free(struct vp_flame_layout *L);
/* frames 0: the heading alone (the SVG's frames are elements, flamesvg.c) */
int vp_draw_flame(struct canvas *c, const struct vp_flame_layout *L, const struct vp_chart_opts *o,
		  int frames);
uint64_t vp_flame_value(const struct vp_flame_layout *L, size_t node, int side);
uint64_t vp_flame_samples(const struct vp_flame_layout *L, size_t node, int side);
double vp_flame_total(const struct vp_flame_layout *L, int side);
double vp_flame_share(const struct vp_flame_layout *L, size_t node, int side);
const char *vp_flame_name(const struct vp_flame_layout *L, size_t node);
double vp_flame_y(const struct vp_flame_layout *L, int depth);
struct rgb vp_flame_rgb(const struct vp_flame_layout *L, const struct vp_flame_frame *f);
extern const struct rgb vp_flame_neutral_rgb;
/* Both sides' exact values, the ratio and the verdict; caller frees. */
char *vp_flame_tooltip(const struct vp_flame_layout *L, const struct vp_flame_frame *f);
void vp_flame_title(const struct vp_flame_layout *L, const struct vp_chart_opts *o, char *buf,
		    size_t size);
/* The label a frame w units wide shows (empty when none fits). */
void vp_flame_label(cairo_t *cr, const char *name, double w, char *out, size_t size);
/* Diagonal hatching and an outline over a box: the mark of one-side frames. */
void vp_flame_hatch(cairo_t *cr, double x, double y, double w, double h);
/* ---- flamesvg.c: one flame graph in one format into b (the SVG's frames
 * as elements, with its script), or as the SVG tree (the HTML report's). */
int vp_flame_render(const struct vp_flame_layout *L, const struct vp_chart_opts *o, unsigned fmt,
		    struct vp_membuf *b);
int vp_flame_svg_doc(const struct vp_flame_layout *L, const struct vp_chart_opts *o, xmlDocPtr *out);
/* ---- flame.js, flame.css (compiled in by embed-assets.sh): the SVG's
 * script and style, written for vmprof; the script's hash for a page's CSP. */
extern const char vp_flame_js[], vp_flame_css[], vp_flame_js_sha256[];

/* ---- formats.c: draw one chart in one format into memory. */
struct vp_membuf {
	unsigned char *p;
	size_t n, cap;
	int oom;
};
/* ---- membuf.c: len bytes appended to b: 0, or -ENOMEM (and b->oom set). */
int vp_membuf_put(struct vp_membuf *b, const void *data, size_t len);
/* ---- png.c: an RGB24 image surface as a PNG into b: 0 or -errno. */
int vp_png_write(cairo_surface_t *s, struct vp_membuf *b);
/* A cairo surface of one format drawing into b (begin), finished and
 * written out (end, given the drawing's status; returns the final one). */
struct vp_surface {
	cairo_surface_t *s;
	struct canvas c;
	unsigned fmt;
	struct vp_membuf *b;
};
int vp_surface_begin(struct vp_surface *sf, unsigned fmt, double w, double h, double dpi,
		     struct vp_membuf *b, struct marks *m);
int vp_surface_end(struct vp_surface *sf, int r);
int vp_render_format(const struct vp_comparison *cmp, const struct vp_cmp_event *e, size_t side,
		     const struct vp_chart_opts *o, unsigned kind, unsigned fmt, struct vp_membuf *b,
		     struct marks *m, double *w, double *h);

/* ---- svgchart.c: one chart as an enriched SVG tree (cairo's drawing with
 * its title, <desc> and marks): e's bar or circle chart, or side's waterfall
 * when e is NULL. The .svg files are this tree serialised; the HTML report
 * copies it inline. Caller frees with xmlFreeDoc. */
int vp_chart_svg_doc(const struct vp_comparison *cmp, const struct vp_cmp_event *e, size_t side,
		     const struct vp_chart_opts *o, unsigned kind, xmlDocPtr *out);

/* ---- html.c: the HTML report of cmp, one self-contained page (html_*.c). */
int vp_html_page(const struct vp_comparison *cmp, const struct vp_chart_opts *o, char **out,
		 size_t *len);

/* ---- svgmeta.c: rewrite cairo's SVG (svg, len) with tooltips, a description,
 * real text and a viewBox: parse and enrich (NULL when cairo's SVG does not
 * parse or memory runs out), then serialise and free the document. */
xmlDocPtr vp_svg_parse(const char *svg, size_t len, const struct marks *m, const char *title,
		       const char *desc, double w, double h);
int vp_svg_dump(xmlDocPtr doc, char **out, size_t *out_len);
/* Text from a file made valid XML text (U+FFFD for what is not UTF-8, no
 * control characters but tab and newline); caller frees. NULL on ENOMEM. */
xmlChar *vp_svg_clean(const char *s);
/* A child element holding text (through libxml2: escaped, never markup),
 * and a number attribute written "%.3f". */
void vp_svg_text_child(xmlNodePtr parent, const char *name, const char *text);
void vp_svg_num(xmlNodePtr n, const char *attr, double v);

#endif
