/* The HTML report's charts: the bar, circle, waterfall and flame charts
 * vmprof chart draws, as the same enriched SVG trees (svgchart.c,
 * flamesvg.c), copied into the page inline. Every chart's ids (cairo's
 * glyphs, clips, surfaces; the data layers; the flame graph's controls) get
 * the chart's own prefix, references to them too, so that several SVGs in
 * one document never resolve each other's glyphs. Their scripts are left
 * out: the page runs the flame graph's once, for every graph (html.c). */
#include "html_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* value with every "#ID" reference (a whole href, or url(#ID)) prefixed. */
static xmlChar *prefix_refs(const xmlChar *value, const char *pre, int href)
{
	const char *v = (const char *)value;
	size_t n = strlen(v), pl = strlen(pre), count = 0;
	char *out, *o;

	for (const char *p = v; (p = strstr(p, "url(#")); p += 5)
		count++;
	if (!(out = malloc(n + (count + 1) * pl + 1)))
		return NULL;
	o = out;
	if (href && v[0] == '#') {
		o += sprintf(o, "#%s", pre);
		v++;
	}
	for (const char *p; (p = strstr(v, "url(#")); v = p + 5) {
		memcpy(o, v, (size_t)(p - v) + 5);
		o += p - v + 5;
		o += sprintf(o, "%s", pre);
	}
	strcpy(o, v);
	return (xmlChar *)out;
}

static int prefix_ids(xmlNodePtr n, const char *pre)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (xmlAttrPtr a = n->properties; a; a = a->next) {
			xmlChar *v = xmlNodeGetContent((xmlNodePtr)a), *nv = NULL;
			if (!v)
				return -1;
			if (!strcmp((const char *)a->name, "id")) {
				size_t len = strlen(pre) + strlen((char *)v) + 1;
				if ((nv = malloc(len)))
					snprintf((char *)nv, len, "%s%s", pre, (char *)v);
			} else if (strstr((char *)v, "url(#") ||
				   (!strcmp((const char *)a->name, "href") && v[0] == '#')) {
				nv = prefix_refs(v, pre, !strcmp((const char *)a->name, "href"));
			} else {
				xmlFree(v);
				continue;
			}
			xmlFree(v);
			if (!nv)
				return -1;
			/* the attribute keeps its namespace (xlink:href stays one) */
			xmlNodeSetContent((xmlNodePtr)a, NULL);
			xmlAddChild((xmlNodePtr)a, xmlNewText(nv));
			free(nv);
		}
		if (prefix_ids(n->children, pre) < 0)
			return -1;
	}
	return 0;
}

/* Take out n's <script> elements and those below it. */
static void drop_scripts(xmlNodePtr n)
{
	for (xmlNodePtr next; n; n = next) {
		next = n->next;
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)n->name, "script")) {
			xmlUnlinkNode(n);
			xmlFreeNode(n);
		} else {
			drop_scripts(n->children);
		}
	}
}

int vp_html_figure(xmlNodePtr sec, xmlDocPtr svg, const char *id, const char *label,
		   const char *howto)
{
	xmlNodePtr fig, box, copy, root = xmlDocGetRootElement(svg);
	char pre[64];
	int r;

	snprintf(pre, sizeof(pre), "%s-", id);
	drop_scripts(root);
	r = prefix_ids(root, pre) < 0 ? -ENOMEM : 0;
	fig = vp_h_el(sec, "figure", "chart");
	vp_h_attr(fig, "id", id);
	box = vp_h_scroll(fig, label);
	copy = r < 0 || !box ? NULL : xmlDocCopyNode(root, box->doc, 1);
	xmlFreeDoc(svg);
	if (!copy)
		return -ENOMEM;
	xmlAddChild(box, copy);
	vp_h_howto(vp_h_el(fig, "figcaption", NULL), howto);
	return 0;
}

int vp_html_chart(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		  size_t side, const struct vp_chart_opts *o, unsigned kind, const char *id,
		  const char *label, const char *howto)
{
	xmlDocPtr svg;
	int r;

	if ((r = vp_chart_svg_doc(c, e, side, o, kind, &svg)) < 0)
		return r;
	return vp_html_figure(sec, svg, id, label, howto);
}

/* The event's flame graph: 1 when drawn, 0 when a side has no stacks (the
 * page says so), or a negative code. */
static int flame(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		 size_t idx, const struct vp_chart_opts *o)
{
	struct vp_flame_src src;
	struct vp_flame_layout L;
	struct vp_error err = { 0 };
	xmlDocPtr svg;
	char id[64];
	int r;

	vp_h_text(sec, "h3", NULL, "Call stacks");
	r = vp_flame_layout(&src, vp_flame_cmp_src(c, e, o, &src), o, &L, &err);
	if (r == -ENODATA) {
		vp_h_textf(sec, "p", "note", "No flame graph: %s.", err.msg);
		return 0;
	}
	if (r < 0)
		return r;
	r = vp_flame_svg_doc(&L, o, &svg);
	vp_flame_layout_free(&L);
	if (r < 0)
		return r;
	snprintf(id, sizeof(id), "e%zu-flame", idx);
	r = vp_html_figure(sec, svg, id, "flame graph, scrolls sideways",
			   "each frame is a function on the call stack, above the function that "
			   "called it, as wide as its inclusive value (it and what it called) on the "
			   "side the heading names; its colour says which side's share is larger: "
			   "blue the baseline's, orange the other side's, grey within sampling noise "
			   "(the 95% interval of the difference); hatched and outlined frames are on "
			   "one side only. Click a frame to zoom into it, Escape or Reset zoom to go "
			   "back; the search box highlights the frames whose names match and says "
			   "their total. Hover a frame for both sides' exact values.");
	return r < 0 ? r : 1;
}

int vp_html_charts(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		   size_t idx, const struct vp_chart_opts *o)
{
	char id[64];
	int r = 0;

	if (o->kinds & (VP_CHART_BAR | VP_CHART_CIRCLE))
		vp_h_textf(sec, "h3", NULL, "Charts (top %zu)", e->nrows);
	snprintf(id, sizeof(id), "e%zu-bar", idx);
	if (o->kinds & VP_CHART_BAR)
		r = vp_html_chart(sec, c, e, 0, o, VP_CHART_BAR, id, "bar chart, scrolls sideways",
				  "the top functions of the ranking, largest on top; each has a bar per "
				  "side (the legend gives the colours and totals), its mean per run, with "
				  "its value and share at the bar's end and a whisker for its interval; the "
				  "ratio to the baseline is in the column at the right. A pale bar (and a "
				  "grey ratio) is a difference that is not significant (q at or above "
				  "alpha), a coloured one a finding. A log axis says so under the chart. "
				  "Hover a bar or whisker for its full name and exact numbers, each ratio "
				  "with its interval, q and the verdict.");
	snprintf(id, sizeof(id), "e%zu-circle", idx);
	if (r >= 0 && (o->kinds & VP_CHART_CIRCLE))
		r = vp_html_chart(sec, c, e, 0, o, VP_CHART_CIRCLE, id, "circle chart, scrolls sideways",
				  "one donut per side, the same functions in the same order and colour on "
				  "each, largest at 12 o'clock going clockwise, the rest as grey 'other'; "
				  "the centre holds the side's total. The donuts show how each side's time "
				  "is composed; the bars and the table carry the comparison.");
	if (r >= 0 && (o->kinds & VP_CHART_FLAME) && e->stacks)
		r = flame(sec, c, e, idx, o);
	return r;
}
