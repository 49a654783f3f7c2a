/* One chart in one format, drawn onto the matching cairo surface in memory:
 * image (PNG), SVG, PDF or EPS. Everything that would make two runs differ is
 * pinned: cairo's dates, and the fonts (text.c). */
#include "render_internal.h"

#include <cairo-pdf.h>
#include <cairo-ps.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/time/split.h"

static cairo_status_t mem_write(void *closure, const unsigned char *data, unsigned int len)
{
	return vp_membuf_put(closure, data, len) < 0 ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

/* cairo 1.16 has no metadata call for PostScript and writes the wall-clock
 * time as %%CreationDate; the comment is optional in DSC, so drop it. */
static void eps_drop_date(struct vp_membuf *b)
{
	static const char key[] = "\n%%CreationDate:";
	size_t head = b->n < 2048 ? b->n : 2048;

	for (size_t i = 0; i + sizeof(key) - 1 <= head; i++) {
		if (memcmp(b->p + i, key, sizeof(key) - 1))
			continue;
		size_t end = i + 1;
		while (end < b->n && b->p[end] != '\n')
			end++;
		memmove(b->p + i, b->p + end, b->n - end);
		b->n -= end - i;
		return;
	}
}

int vp_surface_begin(struct vp_surface *sf, unsigned fmt, double w, double h, double dpi,
		     struct vp_membuf *b, struct marks *m)
{
	cairo_surface_t *s;

	*sf = (struct vp_surface){ .fmt = fmt, .b = b, .c = { NULL, w, h, m } };
	if (fmt == VP_FMT_PNG) {
		double k = dpi > 0 ? dpi / 96.0 : 1;
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * k), (int)ceil(h * k));
		sf->c.cr = cairo_create(s);
		cairo_scale(sf->c.cr, k, k);
	} else if (fmt == VP_FMT_SVG) {
		s = cairo_svg_surface_create_for_stream(mem_write, b, w, h);
		cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
		sf->c.cr = cairo_create(s);
	} else if (fmt == VP_FMT_PDF) {
		s = cairo_pdf_surface_create_for_stream(mem_write, b, w, h);
		/* a fixed date: the same comparison gives the same file */
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z");
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "vmprof");
		sf->c.cr = cairo_create(s);
	} else {
		s = cairo_ps_surface_create_for_stream(mem_write, b, w, h);
		cairo_ps_surface_set_eps(s, 1);
		sf->c.cr = cairo_create(s);
	}
	sf->s = s;
	cairo_set_source_rgb(sf->c.cr, 1, 1, 1);
	cairo_paint(sf->c.cr);
	return cairo_status(sf->c.cr) == CAIRO_STATUS_SUCCESS ? 0 : -ENOMEM;
}

int vp_surface_end(struct vp_surface *sf, int r)
{
	struct vp_membuf *b = sf->b;
	cairo_surface_t *s = sf->s;

	if (cairo_status(sf->c.cr) != CAIRO_STATUS_SUCCESS && r >= 0)
		r = -ENOMEM;
	cairo_destroy(sf->c.cr);
	if (sf->fmt == VP_FMT_PNG && r >= 0 && cairo_surface_status(s) == CAIRO_STATUS_SUCCESS)
		r = vp_png_write(s, b);
	cairo_surface_finish(s);
	if (r >= 0 && (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS || b->oom))
		r = -ENOMEM;
	cairo_surface_destroy(s);
	if (r >= 0 && sf->fmt == VP_FMT_EPS)
		eps_drop_date(b);
	return r;
}

int vp_render_format(const struct vp_comparison *cmp, const struct vp_cmp_event *e, size_t side,
		     const struct vp_chart_opts *o, unsigned kind, unsigned fmt, struct vp_membuf *b,
		     struct marks *m, double *wp, double *hp)
{
	double w = o->width > 0 ? o->width : 1000, h;
	struct vp_time_split split;
	struct vp_error err = { 0 };
	struct vp_surface sf;
	int r;

	if (kind == VP_CHART_WATERFALL && (r = vp_cmp_time_split(cmp, side, &split, &err)) < 0)
		return r;
	h = kind == VP_CHART_BAR ? vp_bar_height(cmp, e, o) :
	    kind == VP_CHART_CIRCLE ? vp_circle_height(cmp, e, o) : vp_waterfall_height(&split, o);
	*wp = w;
	*hp = h;
	if (h < 0)
		return -ENOMEM;
	if ((r = vp_surface_begin(&sf, fmt, w, h, o->dpi, b, m)) >= 0)
		r = kind == VP_CHART_BAR ? vp_draw_bar(&sf.c, cmp, e, o) : kind == VP_CHART_CIRCLE ?
		    vp_draw_circle(&sf.c, cmp, e, o) : vp_draw_waterfall(&sf.c, cmp, side, &split, o);
	return vp_surface_end(&sf, r);
}
