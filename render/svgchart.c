/* One chart as an enriched SVG tree: drawn by cairo in memory (formats.c),
 * then given its title, a <desc> that says the data, and the tooltips and
 * text layers (svgmeta.c). The .svg files are this tree serialised; the HTML
 * report copies it inline. */
#include "render_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The <desc>: the chart's numbers as a sentence a screen reader can say. */
static char *describe(const struct vp_comparison *cmp, const struct vp_cmp_event *e)
{
	char *out = NULL, ratio[64];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	/* with several runs a side's numbers are its means per run */
	fprintf(f, "%s %s per function, %s vs %s: top %zu of %zu functions. Totals: %s %.0f, %s %.0f.",
		e->name, vp_value_name(cmp), cmp->label[0], cmp->label[1], e->nrows, e->total_rows,
		cmp->label[0], vp_cmp_mean_total(e, 0, cmp->value), cmp->label[1],
		vp_cmp_mean_total(e, 1, cmp->value));
	for (size_t i = 0; i < e->nrows; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		vp_format_ratio(e, r, VP_GUEST, cmp->value, ratio, sizeof(ratio));
		fprintf(f, "\n%s [%c]: %s %.0f (%.2f%%), %s %.0f (%.2f%%), guest/host %s.",
			r->symbol ? r->symbol : "[unknown]", r->domain ? r->domain : '.', cmp->label[0],
			vp_cmp_mean(e, r, 0, cmp->value), 100 * vp_cmp_share(e, r, 0, cmp->value), cmp->label[1],
			vp_cmp_mean(e, r, 1, cmp->value), 100 * vp_cmp_share(e, r, 1, cmp->value), ratio);
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

int vp_chart_svg_doc(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_chart_opts *o, unsigned kind, struct _xmlDoc **out)
{
	struct vp_membuf b = { 0 };
	struct marks m = { 0 };
	char title[1024], *desc = NULL;
	double w, h;
	size_t n;
	int r;

	*out = NULL;
	r = vp_render_format(cmp, e, o, kind, VP_FMT_SVG, &b, &m, &w, &h);
	if (r >= 0 && (m.oom || !(desc = describe(cmp, e))))
		r = -ENOMEM;
	if (r >= 0) {
		vp_chart_title(cmp, e, o, title, sizeof(title));
		n = strlen(title);
		snprintf(title + n, sizeof(title) - n, " (%s chart)", kind == VP_CHART_BAR ? "bar" : "circle");
		r = vp_svg_enrich_doc((char *)b.p, b.n, &m, title, desc, w, h, out);
	}
	free(desc);
	free(b.p);
	vp_marks_free(&m);
	return r;
}

