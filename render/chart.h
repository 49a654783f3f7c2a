/* Comparison charts with cairo: per event a bar chart (a group of bars per
 * function, one per side, with whiskers for their intervals), a circle
 * chart (a donut per side) and a flame graph of the call stacks, and a
 * waterfall of the wall-time gap, to SVG, PNG, PDF and EPS; and an HTML
 * report that holds them with the sides' facts and the tables (libxml2).
 * SVG output is enriched with libxml2: tooltips (<title>) with full names,
 * every side's exact values and the statistics on every bar, whisker and
 * slice, a <desc> with the data, a viewBox. */
#ifndef VP_CHART_H
#define VP_CHART_H

#include "lib/compare/compare.h"
#include "lib/profile/profile.h"
#include "lib/util/error.h"

enum vp_chart_format { VP_FMT_SVG = 1, VP_FMT_PNG = 2, VP_FMT_PDF = 4, VP_FMT_EPS = 8, VP_FMT_HTML = 16 };
enum vp_chart_scale { VP_SCALE_AUTO = 0, VP_SCALE_LINEAR, VP_SCALE_LOG };
enum vp_chart_kind { VP_CHART_BAR = 1, VP_CHART_CIRCLE = 2, VP_CHART_WATERFALL = 4, VP_CHART_FLAME = 8 };

struct vp_chart_opts {
	const char *outdir;	/* created when missing */
	unsigned formats;	/* enum vp_chart_format mask */
	unsigned kinds;		/* enum vp_chart_kind mask */
	int width, height;	/* pixels (points for PDF/EPS) */
	double dpi;		/* PNG: 96 draws 1:1 */
	enum vp_chart_scale scale;
	const char *title;	/* NULL: from the event and the workload */
	const char *flame_width;	/* side whose values are the frames' widths: "host",
					 * "guest" or a side's label; NULL: the non-baseline side */
	int flame_absolute;	/* compare raw values, not shares of each side's total */
	enum vp_value value;	/* flame graphs of a profile: widths by samples or period */
	/* told of each file once it is in place (the caller prints), or NULL */
	void (*wrote)(const char *path, void *ctx);
	void *wrote_ctx;
	unsigned procs;		/* processes that draw at once; 0: one per CPU the process may use */
};

void vp_chart_opts_init(struct vp_chart_opts *o);
/* Parse "svg,png" into a mask; -1 on an unknown name. */
int vp_chart_formats_parse(const char *s, unsigned *mask);

/* Parse "bar,circle,flame" into a mask; -1 on an unknown name. */
int vp_chart_kinds_parse(const char *s, unsigned *mask);

/* Draw every event of c (its rows as ranked and cut: nrows of each event) into
 * o->outdir as EVENT-bar.FMT and EVENT-circle.FMT, EVENT-flame.FMT for
 * events with call stacks, and where the time went (lib/time/split.h) as
 * time-waterfall.FMT when both sides' recordings say, each file written
 * atomically; with VP_FMT_HTML also o->outdir/index.html, one
 * self-contained page: the sides' facts, the headline, and per event the
 * table of every row of the join (total_rows) and the charts inline. All
 * files or none. */
int vp_chart_render(const struct vp_comparison *c, const struct vp_chart_opts *o,
		    struct vp_error *err);

/* What a flame graph draws: one event's stack tree with a value column per
 * run. One side: a plain flame graph. More: differential, each other side
 * against side 0 (the baseline), a side's values the sums of its runs'. */
struct vp_flame_src {
	const struct vp_stack_tree *tree;
	size_t nsides;
	const size_t *first_run;	/* [nsides + 1]: side s has the columns first_run[s] to
					 * first_run[s + 1] - 1; NULL: column s is side s */
	const char *const *label;	/* [nsides] side names */
	const char *event;
	enum vp_value value;	/* samples or period (the self kind of any value) */
};

/* Flame graphs of the tables of p that have call stacks (loaded with
 * stacks), as EVENT-flame.FMT in o->outdir; the SVG is interactive (click to
 * zoom, search, tooltips). All files or none, as vp_chart_render. */
int vp_chart_render_profile(const struct vp_profile *p, const struct vp_chart_opts *o,
			    struct vp_error *err);

#endif
