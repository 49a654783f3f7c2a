/* Chart files: for each event and chart kind, draw once per format onto the
 * matching cairo surface, in memory, then write the file atomically. */
#include "render_internal.h"

#include <cairo-pdf.h>
#include <cairo-ps.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/outfile.h"

void vp_chart_opts_init(struct vp_chart_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->outdir = "charts";
	o->formats = VP_FMT_SVG | VP_FMT_PNG;
	o->kinds = VP_CHART_BAR | VP_CHART_CIRCLE;
	o->width = 1000;
	o->dpi = 96;
}

static const struct { const char *name; unsigned bit; } fmts[] = {
	{ "svg", VP_FMT_SVG }, { "png", VP_FMT_PNG }, { "pdf", VP_FMT_PDF }, { "eps", VP_FMT_EPS },
};

int vp_chart_formats_parse(const char *s, unsigned *mask)
{
	*mask = 0;
	while (*s) {
		size_t n = strcspn(s, ","), i;
		for (i = 0; i < sizeof(fmts) / sizeof(*fmts); i++)
			if (strlen(fmts[i].name) == n && !strncmp(s, fmts[i].name, n))
				break;
		if (i == sizeof(fmts) / sizeof(*fmts))
			return -1;
		*mask |= fmts[i].bit;
		s += n + (s[n] == ',');
	}
	return *mask ? 0 : -1;
}

double vp_draw_heading(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_chart_opts *o, const char *kind)
{
	cairo_t *cr = c->cr;
	char buf[1024], sub[1024];
	size_t n = 0;

	(void)kind;
	if (o->title)
		snprintf(buf, sizeof(buf), "%s", o->title);
	else
		snprintf(buf, sizeof(buf), "%s: %s vs %s", e->name, cmp->label[0], cmp->label[1]);
	vp_font(cr, 17, 1);
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_text(c, buf, 16, 28, 0);

	/* What is shown of what: top N of M, and how much of each run that is. */
	double cover[2] = { 0, 0 };
	for (size_t i = 0; i < e->nrows; i++)
		for (int s = 0; s < 2; s++)
			cover[s] += vp_cmp_share(e, &e->rows[i], s, cmp->value);
	n += (size_t)snprintf(sub + n, sizeof(sub) - n, "top %zu of %zu functions (%.0f%% of %s, %.0f%% of %s), "
			      "ranked by %s", e->nrows, e->total_rows, 100 * cover[0], cmp->label[0],
			      100 * cover[1], cmp->label[1], vp_rank_name(cmp->rank));
	for (int s = 0; s < 2 && n < sizeof(sub); s++) {
		const struct vp_profile_meta *m = &cmp->meta[s];
		if (m->hypervisor && n < sizeof(sub))
			n += (size_t)snprintf(sub + n, sizeof(sub) - n, "; %s hypervisor: %s", cmp->label[s],
					      m->hypervisor);
		if (m->steal_time >= 0 && n < sizeof(sub))
			n += (size_t)snprintf(sub + n, sizeof(sub) - n, "; %s steal %.2f s", cmp->label[s],
					      m->steal_time);
	}
	vp_font(cr, 11, 0);
	vp_set_rgb(cr, &vp_ink_rgb);
	char fit[1024];
	vp_shorten(cr, sub, 1, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, 48, 0);
	return 72;
}

/* ---- surfaces in memory ---- */

struct membuf {
	unsigned char *p;
	size_t n, cap;
	int oom;
};

static cairo_status_t mem_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct membuf *b = closure;

	if (b->n + len > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		while (cap < b->n + len)
			cap *= 2;
		unsigned char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return CAIRO_STATUS_WRITE_ERROR;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
	return CAIRO_STATUS_SUCCESS;
}

static int draw(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		const struct vp_chart_opts *o, unsigned kind)
{
	cairo_set_source_rgb(c->cr, 1, 1, 1);
	cairo_paint(c->cr);
	return kind == VP_CHART_BAR ? vp_draw_bar(c, cmp, e, o) : vp_draw_circle(c, cmp, e, o);
}

static double chart_height(const struct vp_cmp_event *e, const struct vp_chart_opts *o, unsigned kind)
{
	double need = kind == VP_CHART_BAR ? 150 + 30.0 * (double)e->nrows
					   : 470 + 18.0 * (double)((e->nrows < VP_SLICE_COLOURS ? e->nrows : VP_SLICE_COLOURS) + 2) / 2;
	double h = o->height > 0 ? o->height : (kind == VP_CHART_BAR ? 120 + 36.0 * (double)e->nrows : need);
	return h < need ? need : h;
}

/* Draw one chart in one format into b; marks are recorded when m is given. */
static int render_one(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		      const struct vp_chart_opts *o, unsigned kind, unsigned fmt, struct membuf *b,
		      struct marks *m, double *wp, double *hp)
{
	double w = o->width > 0 ? o->width : 1000, h = chart_height(e, o, kind);
	cairo_surface_t *s;
	struct canvas c = { NULL, w, h, m };
	int r;

	*wp = w;
	*hp = h;
	if (fmt == VP_FMT_PNG) {
		double k = o->dpi > 0 ? o->dpi / 96.0 : 1;
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * k), (int)ceil(h * k));
		c.cr = cairo_create(s);
		cairo_scale(c.cr, k, k);
	} else if (fmt == VP_FMT_SVG) {
		s = cairo_svg_surface_create_for_stream(mem_write, b, w, h);
		cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
		c.cr = cairo_create(s);
	} else if (fmt == VP_FMT_PDF) {
		s = cairo_pdf_surface_create_for_stream(mem_write, b, w, h);
		/* a fixed date: the same comparison gives the same file */
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z");
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "vmprof");
		c.cr = cairo_create(s);
	} else {
		s = cairo_ps_surface_create_for_stream(mem_write, b, w, h);
		cairo_ps_surface_set_eps(s, 1);
		c.cr = cairo_create(s);
	}
	r = draw(&c, cmp, e, o, kind);
	cairo_destroy(c.cr);
	if (fmt == VP_FMT_PNG && r >= 0 && cairo_surface_status(s) == CAIRO_STATUS_SUCCESS)
		cairo_surface_write_to_png_stream(s, mem_write, b);
	cairo_surface_finish(s);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS || b->oom)
		r = -ENOMEM;
	cairo_surface_destroy(s);
	return r;
}

static void file_name(char *out, size_t size, const char *dir, const char *event, const char *kind,
		      const char *ext)
{
	char e[200];
	size_t k;

	for (k = 0; event[k] && k + 1 < sizeof(e); k++)
		e[k] = (event[k] == '/' || event[k] == ':' || event[k] == ' ') ? '_' : event[k];
	e[k] = '\0';
	snprintf(out, size, "%s/%s-%s.%s", dir, e, kind, ext);
}

static int write_file(const char *path, const void *data, size_t len, struct vp_error *err)
{
	struct vp_outfile f;
	int r;

	if ((r = vp_outfile_open(&f, path, err)) < 0)
		return r;
	fwrite(data, 1, len, f.fp);
	return vp_outfile_commit(&f, err);
}

static void describe(const struct vp_comparison *cmp, const struct vp_cmp_event *e, char *out, size_t size)
{
	size_t n = 0;

	n += (size_t)snprintf(out + n, size - n, "%s per function, %s vs %s:", e->name, cmp->label[0],
			      cmp->label[1]);
	for (size_t i = 0; i < e->nrows && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, " %s: %.2f%% vs %.2f%%;", e->rows[i].symbol,
				      100 * vp_cmp_share(e, &e->rows[i], 0, cmp->value),
				      100 * vp_cmp_share(e, &e->rows[i], 1, cmp->value));
}

/* mkdir -p: the output directory and any missing parents. */
static int make_dirs(const char *dir)
{
	char p[4096];
	size_t n = strlen(dir);

	if (n >= sizeof(p))
		return -ENAMETOOLONG;
	memcpy(p, dir, n + 1);
	for (size_t i = 1; i <= n; i++)
		if (p[i] == '/' || p[i] == '\0') {
			char c = p[i];
			p[i] = '\0';
			if (mkdir(p, 0777) != 0 && errno != EEXIST)
				return -errno;
			p[i] = c;
		}
	return 0;
}

int vp_chart_render(const struct vp_comparison *cmp, const struct vp_chart_opts *o, struct vp_error *err)
{
	static const struct { unsigned bit; const char *name; } kinds[] = {
		{ VP_CHART_BAR, "bar" }, { VP_CHART_CIRCLE, "circle" },
	};
	char path[4096], desc[8192], title[600];

	int md = make_dirs(o->outdir);
	if (md < 0)
		return vp_errorf(err, md, "'%s': cannot create directory: %s", o->outdir, strerror(-md));
	for (size_t i = 0; i < cmp->nevents; i++) {
		const struct vp_cmp_event *e = &cmp->events[i];
		for (size_t k = 0; k < 2; k++) {
			if (!(o->kinds & kinds[k].bit))
				continue;
			for (size_t f = 0; f < sizeof(fmts) / sizeof(*fmts); f++) {
				struct membuf b = { 0 };
				struct marks m = { 0 };
				double w, h;
				int r;

				if (!(o->formats & fmts[f].bit))
					continue;
				r = render_one(cmp, e, o, kinds[k].bit, fmts[f].bit, &b,
					       fmts[f].bit == VP_FMT_SVG ? &m : NULL, &w, &h);
				if (r >= 0 && fmts[f].bit == VP_FMT_SVG) {
					char *svg;
					size_t len;
					snprintf(title, sizeof(title), "%s: %s vs %s (%s chart)", e->name,
						 cmp->label[0], cmp->label[1], kinds[k].name);
					describe(cmp, e, desc, sizeof(desc));
					r = m.oom ? -ENOMEM : vp_svg_enrich((char *)b.p, b.n, &m, title, desc, w, h, &svg, &len);
					if (r >= 0) {
						free(b.p);
						b.p = (unsigned char *)svg;
						b.n = len;
					}
				}
				vp_marks_free(&m);
				file_name(path, sizeof(path), o->outdir, e->name, kinds[k].name, fmts[f].name);
				if (r < 0) {
					free(b.p);
					return vp_errorf(err, r, "'%s': cannot draw the chart", path);
				}
				r = write_file(path, b.p, b.n, err);
				free(b.p);
				if (r < 0)
					return r;
				if (o->wrote)
					o->wrote(path, o->wrote_ctx);
			}
		}
	}
	return 0;
}
