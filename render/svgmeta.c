/* SVG enrichment with libxml2: cairo's SVG gets a viewBox, a <title> and a
 * <desc> for screen readers, and an invisible layer of the bars, whiskers and
 * slices with a <title> each (hover tooltips with the full name and exact
 * values; data-side is the side's index, data-significant 1 for a coloured
 * bar, a whisker's data-low and data-high its interval, "inf" unbounded),
 * the text boxes cairo measured (so tests and tools can read the geometry
 * back), and the words themselves as transparent <text>. */
#include "render_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

/* Tooltip text must be valid XML text: drop control characters and bytes
 * that are not UTF-8 (symbol names come from untrusted files). */
xmlChar *vp_svg_clean(const char *s)
{
	size_t n = strlen(s);
	char *o = malloc(n * 3 + 1), *p = o;

	if (!o)
		return NULL;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		int len = 1;
		if (c >= 0x80) {
			len = (int)(n - i);
			if (xmlGetUTF8Char((const xmlChar *)s + i, &len) < 0)
				len = 0;
		} else if (c < 0x20 && c != '\n' && c != '\t') {
			len = 0;
		}
		if (len <= 0) {
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			i++;
		} else {
			memcpy(p, s + i, (size_t)len);
			p += len;
			i += (size_t)len;
		}
	}
	*p = '\0';
	return (xmlChar *)o;
}

void vp_svg_text_child(xmlNodePtr parent, const char *name, const char *text)
{
	xmlChar *t = vp_svg_clean(text);
	xmlNodePtr n = xmlNewNode(parent->ns, BAD_CAST name);
	xmlNodeAddContent(n, t);
	xmlAddChild(parent, n);
	free(t);
}

void vp_svg_num(xmlNodePtr n, const char *attr, double v)
{
	char b[64];
	snprintf(b, sizeof(b), "%.3f", v);
	xmlSetProp(n, BAD_CAST attr, BAD_CAST b);
}

static void slice_path(const struct mark *m, char *d, size_t size)
{
	double x0 = m->cx + m->r1 * cos(m->a0), y0 = m->cy + m->r1 * sin(m->a0);
	double x1 = m->cx + m->r1 * cos(m->a1), y1 = m->cy + m->r1 * sin(m->a1);
	double x2 = m->cx + m->r0 * cos(m->a1), y2 = m->cy + m->r0 * sin(m->a1);
	double x3 = m->cx + m->r0 * cos(m->a0), y3 = m->cy + m->r0 * sin(m->a0);
	int large = m->a1 - m->a0 > M_PI;

	if (m->a1 - m->a0 >= 2 * M_PI - 1e-9) {	/* a whole ring: two half arcs each way */
		double xm = m->cx - (x0 - m->cx), ym = m->cy - (y0 - m->cy);
		double xi = m->cx - (x3 - m->cx), yi = m->cy - (y3 - m->cy);
		snprintf(d, size, "M%.3f %.3fA%.3f %.3f 0 1 1 %.3f %.3fA%.3f %.3f 0 1 1 %.3f %.3fZ"
			 "M%.3f %.3fA%.3f %.3f 0 1 0 %.3f %.3fA%.3f %.3f 0 1 0 %.3f %.3fZ",
			 x0, y0, m->r1, m->r1, xm, ym, m->r1, m->r1, x0, y0,
			 x3, y3, m->r0, m->r0, xi, yi, m->r0, m->r0, x3, y3);
		return;
	}
	snprintf(d, size, "M%.3f %.3fA%.3f %.3f 0 %d 1 %.3f %.3fL%.3f %.3fA%.3f %.3f 0 %d 0 %.3f %.3fZ",
		 x0, y0, m->r1, m->r1, large, x1, y1, x2, y2, m->r0, m->r0, large, x3, y3);
}

/* cairo numbers its SVG surfaces with a process-wide counter; renumber them
 * in order of appearance so the same chart is the same bytes in any process. */
static char *renumber_surfaces(const char *svg, size_t len, size_t *out_len)
{
	/* a short old number may get a longer new one: room for that */
	char *out = malloc(len * 2 + 16), *o = out;
	unsigned long seen[256];
	size_t nseen = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		if (len - i > 7 && !memcmp(svg + i, "surface", 7) && i + 7 < len &&
		    svg[i + 7] >= '0' && svg[i + 7] <= '9') {
			size_t j = i + 7;
			unsigned long v = 0;
			while (j < len && svg[j] >= '0' && svg[j] <= '9' && v < 100000000)
				v = v * 10 + (unsigned long)(svg[j++] - '0');
			size_t k;
			for (k = 0; k < nseen && seen[k] != v; k++)
				;
			if (k == nseen && nseen < 256)
				seen[nseen++] = v;
			o += sprintf(o, "surface%zu", k < nseen ? k + 1 : (size_t)v);
			i = j;
			continue;
		}
		*o++ = svg[i++];
	}
	*out_len = (size_t)(o - out);
	return out;
}

xmlDocPtr vp_svg_parse(const char *svg, size_t len, const struct marks *m, const char *title,
		       const char *desc, double w, double h)
{
	xmlDocPtr doc;
	xmlNodePtr root, data, texts, words, first;
	char vb[128], d[1024];
	size_t rlen;
	char *renum;

	if (len > INT32_MAX)
		return NULL;
	if (!(renum = renumber_surfaces(svg, len, &rlen)))
		return NULL;
	doc = xmlReadMemory(renum, (int)rlen, "chart.svg", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING | XML_PARSE_HUGE);
	free(renum);
	if (!doc)
		return NULL;
	root = xmlDocGetRootElement(doc);
	snprintf(vb, sizeof(vb), "0 0 %g %g", w, h);
	xmlSetProp(root, BAD_CAST "viewBox", BAD_CAST vb);

	/* <title> and <desc> first, where assistive tools look. */
	first = root->children;
	xmlNodePtr t = xmlNewNode(root->ns, BAD_CAST "title");
	xmlChar *ct = vp_svg_clean(title);
	xmlNodeAddContent(t, ct);
	free(ct);
	xmlNodePtr ds = xmlNewNode(root->ns, BAD_CAST "desc");
	xmlChar *cd = vp_svg_clean(desc);
	xmlNodeAddContent(ds, cd);
	free(cd);
	if (first) {
		xmlAddPrevSibling(first, t);
		xmlAddNextSibling(t, ds);
	} else {
		xmlAddChild(root, t);
		xmlAddChild(root, ds);
	}

	/* The data layer: invisible shapes over the drawn ones, with tooltips. */
	data = xmlNewChild(root, root->ns, BAD_CAST "g", NULL);
	xmlSetProp(data, BAD_CAST "id", BAD_CAST "vmprof-data");
	xmlSetProp(data, BAD_CAST "fill", BAD_CAST "#000");
	xmlSetProp(data, BAD_CAST "fill-opacity", BAD_CAST "0");
	texts = xmlNewChild(root, root->ns, BAD_CAST "g", NULL);
	xmlSetProp(texts, BAD_CAST "id", BAD_CAST "vmprof-text");
	xmlSetProp(texts, BAD_CAST "visibility", BAD_CAST "hidden");
	/* cairo draws glyphs as shapes; this transparent copy keeps the words
	 * as text a browser can find, select and copy */
	words = xmlNewChild(root, root->ns, BAD_CAST "g", NULL);
	xmlSetProp(words, BAD_CAST "id", BAD_CAST "vmprof-words");
	xmlSetProp(words, BAD_CAST "fill-opacity", BAD_CAST "0");
	xmlSetProp(words, BAD_CAST "font-family", BAD_CAST "DejaVu Sans");
	for (size_t i = 0; i < m->n; i++) {
		const struct mark *k = &m->v[i];
		xmlNodePtr n;
		if (k->kind == MARK_TEXT) {
			n = xmlNewChild(texts, root->ns, BAD_CAST "rect", NULL);
			xmlSetProp(n, BAD_CAST "class", BAD_CAST "text-box");
		} else if (k->kind == MARK_BAR || k->kind == MARK_WHISKER) {
			n = xmlNewChild(data, root->ns, BAD_CAST "rect", NULL);
			xmlSetProp(n, BAD_CAST "class", BAD_CAST(k->kind == MARK_BAR ? "bar" : "whisker"));
		} else {
			slice_path(k, d, sizeof(d));
			n = xmlNewChild(data, root->ns, BAD_CAST "path", NULL);
			xmlSetProp(n, BAD_CAST "class", BAD_CAST "slice");
			xmlSetProp(n, BAD_CAST "d", BAD_CAST d);
		}
		if (k->kind != MARK_SLICE) {
			vp_svg_num(n, "x", k->x);
			vp_svg_num(n, "y", k->y);
			vp_svg_num(n, "width", k->w);
			vp_svg_num(n, "height", k->h);
		}
		if (k->side >= 0) {
			snprintf(d, sizeof(d), "%d", k->side);
			xmlSetProp(n, BAD_CAST "data-side", BAD_CAST d);
		}
		if (k->kind != MARK_TEXT)
			vp_svg_num(n, "data-value", k->value);
		if (k->kind == MARK_BAR && k->significant >= 0)
			xmlSetProp(n, BAD_CAST "data-significant", BAD_CAST(k->significant ? "1" : "0"));
		if (k->kind == MARK_WHISKER) {
			vp_svg_num(n, "data-low", k->lo);
			vp_svg_num(n, "data-high", k->hi);
			snprintf(d, sizeof(d), "%d", k->clipped);
			xmlSetProp(n, BAD_CAST "data-clipped", BAD_CAST d);
		}
		if (k->kind == MARK_TEXT && k->title) {
			xmlChar *t = vp_svg_clean(k->title);
			xmlSetProp(n, BAD_CAST "data-text", t);
			xmlNodePtr w = xmlNewChild(words, root->ns, BAD_CAST "text", NULL);
			vp_svg_num(w, "x", k->x);
			vp_svg_num(w, "y", k->baseline);
			vp_svg_num(w, "font-size", k->font_size);
			if (k->bold)
				xmlSetProp(w, BAD_CAST "font-weight", BAD_CAST "bold");
			xmlNodeAddContent(w, t);
			free(t);
		} else if (k->title) {
			vp_svg_text_child(n, "title", k->title);
		}
	}
	return doc;
}

int vp_svg_dump(xmlDocPtr doc, char **out, size_t *out_len)
{
	xmlChar *mem = NULL;
	int size = 0;

	xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 0);
	xmlFreeDoc(doc);
	if (!mem)
		return -ENOMEM;
	*out = malloc((size_t)size);
	if (!*out) {
		xmlFree(mem);
		return -ENOMEM;
	}
	memcpy(*out, mem, (size_t)size);
	*out_len = (size_t)size;
	xmlFree(mem);
	return 0;
}
