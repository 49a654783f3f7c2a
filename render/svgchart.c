/* One chart as an enriched SVG tree: drawn by cairo in memory (formats.c),
 * then given its title, a <desc> that says the data, and the tooltips and
 * text layers (svgmeta.c). The .svg files are this tree serialised; the HTML
 * report copies it inline. */
#include "render_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/time/split.h"

/* The waterfall's <desc>: side's split as sentences. */
static char *describe_split(const struct vp_comparison *cmp, size_t side)
{
	struct vp_time_split sp;
	struct vp_error err = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (vp_cmp_time_split(cmp, side, &sp, &err) < 0 || !(f = open_memstream(&out, &len)))
		return NULL;
	fprintf(f, "Wall time %s %.6f s, %s %.6f s, ratio %.4f, gap %+.6f s.", cmp->label[0], sp.wall.base,
		cmp->label[side], sp.wall.side, sp.ratio, sp.wall.delta);
	for (int p = 0; p < VP_TIME_NPARTS; p++)
		if (sp.part[p].known)
			fprintf(f, "\n%s: %s %.6f s, %s %.6f s, difference %+.6f s (%.1f%% of the gap).",
				vp_time_part_name(&sp, p), cmp->label[0], sp.part[p].base, cmp->label[side],
				sp.part[p].side, sp.part[p].delta, vp_time_part_percent(&sp, p));
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static const char *kind_name(unsigned kind)
{
	return kind == VP_CHART_BAR ? "bar" : kind == VP_CHART_CIRCLE ? "circle" : "waterfall";
}

int vp_chart_svg_doc(const struct vp_comparison *cmp, const struct vp_cmp_event *e, size_t side,
		     const struct vp_chart_opts *o, unsigned kind, xmlDocPtr *out)
{
	struct vp_membuf b = { 0 };
	struct marks m = { 0 };
	char title[1024], *desc = NULL;
	double w, h;
	size_t n;
	int r;

	*out = NULL;
	r = vp_render_format(cmp, e, side, o, kind, VP_FMT_SVG, &b, &m, &w, &h);
	if (r >= 0 && (m.oom || !(desc = e ? vp_chart_describe(cmp, e) : describe_split(cmp, side))))
		r = -ENOMEM;
	if (r >= 0) {
		if (e)
			vp_chart_title(cmp, e, o, title, sizeof(title));
		else
			snprintf(title, sizeof(title), "Where the time went: %s vs %s", cmp->label[0],
				 cmp->label[side]);
		n = strlen(title);
		snprintf(title + n, sizeof(title) - n, " (%s chart)", kind_name(kind));
		if (b.n > INT32_MAX)
			r = -EFBIG;
		else if (!(*out = vp_svg_parse((char *)b.p, b.n, &m, title, desc, w, h)))
			r = -ENOMEM;
	}
	free(desc);
	free(b.p);
	vp_marks_free(&m);
	return r;
}
