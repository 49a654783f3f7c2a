/* Comparison charts with cairo: per event a bar chart (host and guest bars per
 * function) and a circle chart (two donuts), to SVG, PNG, PDF and EPS, and an
 * HTML report that holds them with the tables (libxml2). SVG
 * output is enriched with libxml2: tooltips (<title>) with full names and
 * exact values on every bar and slice, a <desc> with the data, a viewBox. */
#ifndef VP_CHART_H
#define VP_CHART_H

#include "lib/compare/compare.h"
#include "lib/util/error.h"

enum vp_chart_format { VP_FMT_SVG = 1, VP_FMT_PNG = 2, VP_FMT_PDF = 4, VP_FMT_EPS = 8, VP_FMT_HTML = 16 };
enum vp_chart_scale { VP_SCALE_AUTO = 0, VP_SCALE_LINEAR, VP_SCALE_LOG };
enum vp_chart_kind { VP_CHART_BAR = 1, VP_CHART_CIRCLE = 2 };

struct vp_chart_opts {
	const char *outdir;	/* created when missing */
	unsigned formats;	/* enum vp_chart_format mask */
	unsigned kinds;		/* enum vp_chart_kind mask */
	int width, height;	/* pixels (points for PDF/EPS) */
	double dpi;		/* PNG: 96 draws 1:1 */
	enum vp_chart_scale scale;
	const char *title;	/* NULL: from the event and the workload */
	/* told of each file once it is in place (the caller prints), or NULL */
	void (*wrote)(const char *path, void *ctx);
	void *wrote_ctx;
};

void vp_chart_opts_init(struct vp_chart_opts *o);
/* Parse "svg,png" into a mask; -1 on an unknown name. */
int vp_chart_formats_parse(const char *s, unsigned *mask);

/* Draw every event of c (its rows as ranked and cut: nrows of each event) into
 * o->outdir as EVENT-bar.FMT and EVENT-circle.FMT, each file written
 * atomically; with VP_FMT_HTML also o->outdir/index.html, one self-contained
 * page: the sides' facts, and per event the table of every row of the join
 * (total_rows), the charts inline. All files or none. */
int vp_chart_render(const struct vp_comparison *c, const struct vp_chart_opts *o,
		    struct vp_error *err);

#endif
