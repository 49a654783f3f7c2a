/* The HTML report's charts: the bar and circle charts vmprof chart draws,
 * as the same enriched SVG trees (chart.c, svgmeta.c), copied into the page
 * inline. Every chart's ids (cairo's glyphs, clips, surfaces; the data
 * layers) get the chart's own prefix, references to them too, so that
 * several SVGs in one document never resolve each other's glyphs. */
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

int vp_html_chart(xmlNodePtr sec, const struct vp_comparison *c, const struct vp_cmp_event *e,
		  const struct vp_chart_opts *o, unsigned kind, const char *id, const char *label,
		  const char *howto)
{
	xmlDocPtr svg;
	xmlNodePtr fig, box, copy;
	char pre[64];
	int r;

	if ((r = vp_chart_svg_doc(c, e, 0, o, kind, &svg)) < 0)
		return r;
	snprintf(pre, sizeof(pre), "%s-", id);
	r = prefix_ids(xmlDocGetRootElement(svg), pre) < 0 ? -ENOMEM : 0;
	fig = vp_h_el(sec, "figure", "chart");
	vp_h_attr(fig, "id", id);
	box = vp_h_scroll(fig, label);
	copy = r < 0 || !box ? NULL : xmlDocCopyNode(xmlDocGetRootElement(svg), box->doc, 1);
	xmlFreeDoc(svg);
	if (!copy)
		return -ENOMEM;
	xmlAddChild(box, copy);
	vp_h_howto(vp_h_el(fig, "figcaption", NULL), howto);
	return 0;
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
		r = vp_html_chart(sec, c, e, o, VP_CHART_BAR, id, "bar chart, scrolls sideways",
				  "the top functions of the ranking, largest on top; each has a bar per "
				  "side (the legend gives the colours and totals) with its value and share "
				  "at the bar's end, and the ratio at the right, grey when the difference is "
				  "within sampling noise. A log axis says so under the chart. Hover a bar "
				  "for its full name and exact numbers.");
	snprintf(id, sizeof(id), "e%zu-circle", idx);
	if (r >= 0 && (o->kinds & VP_CHART_CIRCLE))
		r = vp_html_chart(sec, c, e, o, VP_CHART_CIRCLE, id, "circle chart, scrolls sideways",
				  "one ring per side, the same functions in the same order and colour on "
				  "both, largest at 12 o'clock going clockwise, the rest as grey 'other'; "
				  "the centre holds the side's total. The rings show how each side's time "
				  "is composed; the bars and the table carry the comparison.");
	return r;
}
