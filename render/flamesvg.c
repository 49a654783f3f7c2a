/* The flame graph as an interactive SVG: cairo's heading (svgmeta.c makes
 * it accessible), then every frame of the layout as an element with its
 * values as attributes and a <title> tooltip, a search box, a reset button,
 * and the script and style of flame.js and flame.css (class names: the
 * HTML report holds several, their ids prefixed). Everything from a file goes in as
 * libxml2 text or attribute values (escaped), never as markup. */
#include "render_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void attr(xmlNodePtr n, const char *name, const char *v)
{
	xmlChar *c = vp_svg_clean(v ? v : "");
	xmlSetProp(n, BAD_CAST name, c ? c : BAD_CAST "");
	free(c);
}

static void attr_u64(xmlNodePtr n, const char *name, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "%" PRIu64, v);
	xmlSetProp(n, BAD_CAST name, BAD_CAST b);
}

static void colour(xmlNodePtr n, const char *name, struct rgb c)
{
	char b[16];
	snprintf(b, sizeof(b), "#%02X%02X%02X", (int)(c.r * 255 + 0.5), (int)(c.g * 255 + 0.5),
		 (int)(c.b * 255 + 0.5));
	xmlSetProp(n, BAD_CAST name, BAD_CAST b);
}

static const char *const change_names[] = {
	[VP_CHANGE_NONE] = "none", [VP_CHANGE_NOISE] = "noise", [VP_CHANGE_UP] = "up",
	[VP_CHANGE_DOWN] = "down", [VP_CHANGE_ONLY0] = "only0", [VP_CHANGE_ONLY1] = "only1",
};

/* A frame's rectangle of class cls (the script moves every one of a frame). */
static xmlNodePtr box(xmlNodePtr g, const char *cls, const struct vp_flame_frame *f, double y, double h)
{
	xmlNodePtr r = xmlNewChild(g, g->ns, BAD_CAST "rect", NULL);

	xmlSetProp(r, BAD_CAST "class", BAD_CAST cls);
	vp_svg_num(r, "x", f->x);
	vp_svg_num(r, "y", y);
	vp_svg_num(r, "width", f->w);
	vp_svg_num(r, "height", h);
	return r;
}

static int frame(xmlNodePtr parent, const struct vp_flame_layout *L, const struct vp_flame_frame *f,
		 cairo_t *cr)
{
	xmlNsPtr ns = parent->ns;
	xmlNodePtr g = xmlNewChild(parent, ns, BAD_CAST "g", NULL), r;
	double y = vp_flame_y(L, f->depth), h = VP_FLAME_ROW - 1;
	char label[512], *tip = vp_flame_tooltip(L, f);

	if (!g || !tip) {
		free(tip);
		return -ENOMEM;
	}
	xmlSetProp(g, BAD_CAST "class", BAD_CAST "vp-frame");
	attr(g, "data-name", vp_flame_name(L, f->node));
	attr_u64(g, "data-depth", (uint64_t)f->depth);
	for (int s = 0; s < L->nsides; s++) {
		char a[32];
		snprintf(a, sizeof(a), "data-v%d", s);
		attr_u64(g, a, vp_flame_value(L, f->node, s));
		snprintf(a, sizeof(a), "data-n%d", s);
		attr_u64(g, a, vp_flame_samples(L, f->node, s));
	}
	xmlSetProp(g, BAD_CAST "data-change", BAD_CAST change_names[f->change]);
	vp_svg_text_child(g, "title", tip);
	free(tip);
	r = box(g, "vp-box", f, y, h);
	colour(r, "fill", vp_flame_rgb(L, f));
	if (f->change == VP_CHANGE_ONLY0 || f->change == VP_CHANGE_ONLY1)
		xmlSetProp(box(g, "vp-hatch", f, y, h), BAD_CAST "fill", BAD_CAST "url(#vp-hatch)");
	/* the label a viewer without scripts shows; the script refits it */
	vp_flame_label(cr, vp_flame_name(L, f->node), f->w, label, sizeof(label));
	xmlNodePtr t = xmlNewChild(g, ns, BAD_CAST "text", NULL);
	vp_svg_num(t, "x", f->x + 3);
	vp_svg_num(t, "y", y + h - 4.5);
	xmlChar *c = vp_svg_clean(label);
	xmlNodeAddContent(t, c);
	free(c);
	return 0;
}

/* A pattern of diagonal strokes for one-side frames (as vp_flame_hatch draws). */
static void defs(xmlNodePtr root)
{
	xmlNodePtr d = xmlNewChild(root, root->ns, BAD_CAST "defs", NULL);
	xmlNodePtr p = xmlNewChild(d, root->ns, BAD_CAST "pattern", NULL);
	xmlSetProp(p, BAD_CAST "id", BAD_CAST "vp-hatch");
	xmlSetProp(p, BAD_CAST "patternUnits", BAD_CAST "userSpaceOnUse");
	xmlSetProp(p, BAD_CAST "width", BAD_CAST "5");
	xmlSetProp(p, BAD_CAST "height", BAD_CAST "5");
	xmlSetProp(p, BAD_CAST "patternTransform", BAD_CAST "rotate(45)");
	xmlNodePtr s = xmlNewChild(p, root->ns, BAD_CAST "rect", NULL);
	xmlSetProp(s, BAD_CAST "width", BAD_CAST "1.5");
	xmlSetProp(s, BAD_CAST "height", BAD_CAST "5");
	xmlSetProp(s, BAD_CAST "fill", BAD_CAST "#FFFFFF");
	xmlSetProp(s, BAD_CAST "fill-opacity", BAD_CAST "0.75");
}

/* Search box (an XHTML input), status line and reset button, in the
 * heading's last row. */
static void controls(xmlNodePtr root, const struct vp_flame_layout *L)
{
	double y = VP_FLAME_HEAD - 28;
	xmlNodePtr fo = xmlNewChild(root, root->ns, BAD_CAST "foreignObject", NULL);
	vp_svg_num(fo, "x", 16);
	vp_svg_num(fo, "y", y);
	vp_svg_num(fo, "width", 236);
	vp_svg_num(fo, "height", 22);
	xmlNodePtr div = xmlNewNode(NULL, BAD_CAST "div");
	xmlNsPtr xh = xmlNewNs(div, BAD_CAST "http://www.w3.org/1999/xhtml", NULL);
	xmlSetNs(div, xh);
	xmlAddChild(fo, div);
	xmlNodePtr in = xmlNewChild(div, xh, BAD_CAST "input", NULL);
	xmlSetProp(in, BAD_CAST "id", BAD_CAST "vp-search");
	xmlSetProp(in, BAD_CAST "class", BAD_CAST "vp-search");
	xmlSetProp(in, BAD_CAST "type", BAD_CAST "search");
	xmlSetProp(in, BAD_CAST "placeholder", BAD_CAST "search frames (regular expression)");
	xmlSetProp(in, BAD_CAST "aria-label", BAD_CAST "search frames");

	xmlNodePtr st = xmlNewChild(root, root->ns, BAD_CAST "text", NULL);
	xmlSetProp(st, BAD_CAST "id", BAD_CAST "vp-status");
	xmlSetProp(st, BAD_CAST "class", BAD_CAST "vp-status");
	vp_svg_num(st, "x", 264);
	vp_svg_num(st, "y", y + 15);
	xmlNodeAddContent(st, BAD_CAST "Click a frame to zoom into it; Esc or Reset zoom goes back; "
				     "hover for values.");
	xmlNodePtr rs = xmlNewChild(root, root->ns, BAD_CAST "text", NULL);
	xmlSetProp(rs, BAD_CAST "id", BAD_CAST "vp-reset");
	xmlSetProp(rs, BAD_CAST "class", BAD_CAST "vp-reset");
	vp_svg_num(rs, "x", L->width - 16);
	vp_svg_num(rs, "y", y + 15);
	xmlSetProp(rs, BAD_CAST "text-anchor", BAD_CAST "end");
	xmlSetProp(rs, BAD_CAST "visibility", BAD_CAST "hidden");
	xmlNodeAddContent(rs, BAD_CAST "Reset zoom");
}

static char *describe(const struct vp_flame_layout *L, const struct vp_chart_opts *o)
{
	char *out = NULL, title[1024];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	vp_flame_title(L, o, title, sizeof(title));
	fprintf(f, "%s. %zu frames; a frame is a function on the call stack, as wide as the %s of "
		"the samples whose stacks pass through it, above what called it.", title, L->n,
		vp_value_self(L->src->value) == VP_VALUE_SAMPLES ? "count" : "period");
	if (L->nsides > 1) {
		size_t up = 0, down = 0, only = 0;
		for (size_t i = 0; i < L->n; i++) {
			up += L->f[i].change == VP_CHANGE_UP;
			down += L->f[i].change == VP_CHANGE_DOWN;
			only += L->f[i].change == VP_CHANGE_ONLY0 || L->f[i].change == VP_CHANGE_ONLY1;
		}
		fprintf(f, " Beyond sampling noise: %zu frames larger on %s, %zu larger on %s; %zu on "
			"one side only.", up, L->label[1], down, L->label[0], only);
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* cairo's SVG of the heading (svg, len, its marks m) with the frames, the
 * controls, the style and the script. */
static int enrich(const struct vp_flame_layout *L, const struct vp_chart_opts *o, const char *svg,
		  size_t len, const struct marks *m, xmlDocPtr *out)
{
	char title[1024], *desc = describe(L, o);
	xmlDocPtr doc;
	xmlNodePtr root, g;
	int r = 0;

	*out = NULL;
	if (!desc)
		return -ENOMEM;
	vp_flame_title(L, o, title, sizeof(title));
	doc = vp_svg_parse(svg, len, m, title, desc, L->width, L->height);
	free(desc);
	if (!doc)
		return -ENOMEM;
	root = xmlDocGetRootElement(doc);
	defs(root);
	xmlNodePtr style = xmlNewChild(root, root->ns, BAD_CAST "style", NULL);
	xmlSetProp(style, BAD_CAST "type", BAD_CAST "text/css");
	xmlNodeAddContent(style, BAD_CAST vp_flame_css);

	g = xmlNewChild(root, root->ns, BAD_CAST "g", NULL);
	xmlSetProp(g, BAD_CAST "id", BAD_CAST "vp-flame");
	xmlSetProp(g, BAD_CAST "class", BAD_CAST "vp-flame");
	vp_svg_num(g, "data-plot-x", L->plot_x);
	vp_svg_num(g, "data-plot-w", L->plot_w);
	vp_svg_num(g, "data-font", VP_FLAME_FONT);
	attr_u64(g, "data-sides", (uint64_t)L->nsides);
	attr_u64(g, "data-wside", (uint64_t)L->wside);
	for (int s = 0; s < L->nsides; s++) {
		char a[32];
		snprintf(a, sizeof(a), "data-label%d", s);
		attr(g, a, L->label[s]);
		snprintf(a, sizeof(a), "data-total%d", s);
		attr_u64(g, a, vp_flame_value(L, 0, s));
	}
	xmlSetProp(g, BAD_CAST "data-value", BAD_CAST(vp_value_self(L->src->value) == VP_VALUE_SAMPLES
							  ? "samples" : "period"));
	/* labels measured as cairo measures the heading's text */
	cairo_t *cr = vp_measure_begin();
	if (!cr)
		r = -ENOMEM;
	else
		vp_font(cr, VP_FLAME_FONT, 0);
	for (size_t i = 0; i < L->n && r == 0; i++)
		r = frame(g, L, &L->f[i], cr);
	if (cr)
		vp_measure_end(cr);
	controls(root, L);
	xmlNodePtr sc = xmlNewChild(root, root->ns, BAD_CAST "script", NULL);
	xmlSetProp(sc, BAD_CAST "type", BAD_CAST "text/javascript");
	xmlAddChild(sc, xmlNewCDataBlock(doc, BAD_CAST vp_flame_js, (int)strlen(vp_flame_js)));
	if (r < 0) {
		xmlFreeDoc(doc);
		return r;
	}
	*out = doc;
	return 0;
}

/* In SVG cairo draws the heading (frames 0); the frames are elements. */
static int draw(const struct vp_flame_layout *L, const struct vp_chart_opts *o, unsigned fmt,
		struct vp_membuf *b, struct marks *m)
{
	struct vp_surface sf;
	int r;

	if ((r = vp_surface_begin(&sf, fmt, L->width, L->height, o->dpi, b, m)) >= 0)
		r = vp_draw_flame(&sf.c, L, o, fmt != VP_FMT_SVG);
	return vp_surface_end(&sf, r);
}

int vp_flame_svg_doc(const struct vp_flame_layout *L, const struct vp_chart_opts *o, xmlDocPtr *out)
{
	struct vp_membuf b = { 0 };
	struct marks m = { 0 };
	int r;

	*out = NULL;
	if ((r = draw(L, o, VP_FMT_SVG, &b, &m)) >= 0)
		r = m.oom ? -ENOMEM : enrich(L, o, (char *)b.p, b.n, &m, out);
	free(b.p);
	vp_marks_free(&m);
	return r;
}

int vp_flame_render(const struct vp_flame_layout *L, const struct vp_chart_opts *o, unsigned fmt,
		    struct vp_membuf *b)
{
	xmlDocPtr doc;
	int r;

	if (fmt != VP_FMT_SVG)
		return draw(L, o, fmt, b, NULL);
	if ((r = vp_flame_svg_doc(L, o, &doc)) < 0)
		return r;
	return vp_svg_dump(doc, (char **)&b->p, &b->n);
}
