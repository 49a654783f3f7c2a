/* Comparison charts with cairo: per event a bar chart (a group of bars per
 * function, one per side, with whiskers for their intervals) and a circle
 * chart (a donut per side), to SVG, PNG, PDF and EPS. SVG output is enriched
 * with libxml2: tooltips (<title>) with full names, every side's exact
 * values and the statistics on every bar, whisker and slice, a <desc> with
 * the data, a viewBox. */
#ifndef VP_CHART_H
#define VP_CHART_H

#include "lib/compare/compare.h"
#include "lib/util/error.h"

enum vp_chart_format { VP_FMT_SVG = 1, VP_FMT_PNG = 2, VP_FMT_PDF = 4, VP_FMT_EPS = 8 };
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
 * o->outdir as EVENT-bar.FMT and EVENT-circle.FMT, each file written atomically. */
int vp_chart_render(const struct vp_comparison *c, const struct vp_chart_opts *o,
		    struct vp_error *err);

#endif
