/* The HTML report (vmprof chart --format html): one self-contained page per
 * comparison, built as a libxml2 tree and written by its HTML serialiser.
 * In order: the sides' facts, the headline, then per event the table of
 * every row, the charts inline (SVG) and a note on how to read each. The
 * style sheet and the script are this project's (report.css, report.js,
 * compiled in); a Content-Security-Policy lets the page load nothing and run
 * only that script (by its hash), so a name from a file can never become
 * code even if it were taken for markup. Deterministic: no clock, no
 * random ids. */
#include "html_internal.h"

#include <errno.h>
#include <libxml/HTMLtree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void head(xmlNodePtr html, const struct vp_comparison *c, const char *title)
{
	xmlNodePtr h = vp_h_el(html, "head", NULL), m;
	char csp[256];

	(void)c;
	vp_h_attr(vp_h_el(h, "meta", NULL), "charset", "utf-8");
	/* nothing from outside, no script but ours; cairo's SVG needs style attributes */
	snprintf(csp, sizeof(csp), "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-%s'; "
		 "base-uri 'none'; form-action 'none'", vp_report_js_sha256);
	m = vp_h_el(h, "meta", NULL);
	vp_h_attr(m, "http-equiv", "Content-Security-Policy");
	vp_h_attr(m, "content", csp);
	m = vp_h_el(h, "meta", NULL);
	vp_h_attr(m, "name", "viewport");
	vp_h_attr(m, "content", "width=device-width, initial-scale=1");
	m = vp_h_el(h, "meta", NULL);
	vp_h_attr(m, "name", "color-scheme");
	vp_h_attr(m, "content", "light dark");
	m = vp_h_el(h, "meta", NULL);
	vp_h_attr(m, "name", "generator");
	vp_h_attr(m, "content", "vmprof " VP_VERSION);
	vp_h_text(h, "title", NULL, title);
	/* the style sheet and the script are ours and end no element
	 * (embed-assets.sh checks): raw text */
	m = vp_h_el(h, "style", NULL);
	if (m && !xmlAddChild(m, xmlNewText(BAD_CAST vp_report_css)))
		h->doc->_private = h->doc;
}

static void page_title(const struct vp_comparison *c, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "vmprof: %s", vp_hm_label(c, 0));

	for (size_t s = 1; s < vp_hm_nsides(c) && n < size; s++)
		n += (size_t)snprintf(buf + n, size - n, " vs %s", vp_hm_label(c, s));
}

static void nav(xmlNodePtr header, const struct vp_comparison *c)
{
	xmlNodePtr n = vp_h_el(header, "nav", NULL), ol, a;

	vp_h_attr(n, "aria-label", "Contents");
	ol = vp_h_el(n, "ol", NULL);
	a = vp_h_text(vp_h_el(ol, "li", NULL), "a", NULL, "The sides");
	vp_h_attr(a, "href", "#sides");
	a = vp_h_text(vp_h_el(ol, "li", NULL), "a", NULL, "Headline");
	vp_h_attr(a, "href", "#headline");
	for (size_t i = 0; i < c->nevents; i++) {
		a = vp_h_text(vp_h_el(ol, "li", NULL), "a", NULL, c->events[i].name);
		vp_h_attrf(a, "href", "#e%zu", i);
	}
}

static int event_section(xmlNodePtr main, const struct vp_comparison *c, size_t i,
			 const struct vp_chart_opts *o)
{
	const struct vp_cmp_event *e = &c->events[i];
	xmlNodePtr sec = vp_h_el(main, "section", "event"), p;
	char id[32];

	snprintf(id, sizeof(id), "e%zu", i);
	vp_h_attr(sec, "id", id);
	vp_h_attrf(sec, "aria-labelledby", "%s-h", id);
	vp_h_attrf(vp_h_textf(sec, "h2", NULL, "Event %s", e->name), "id", "%s-h", id);
	p = vp_h_el(sec, "p", "sub");
	for (size_t s = 0; s < vp_hm_nsides(c); s++) {
		const char *name = vp_hm_event_name(e, s);
		vp_h_attrf(vp_h_el(p, "span", "swatch"), "data-side", "%zu", s);
		if (name)
			vp_h_addf(p, "%s: %s, %llu samples, period %llu%s", vp_hm_label(c, s), name,
				  (unsigned long long)vp_hm_total_samples(e, s),
				  (unsigned long long)vp_hm_total_period(e, s),
				  s + 1 < vp_hm_nsides(c) ? "; " : ". ");
		else
			vp_h_addf(p, "%s: not recorded%s", vp_hm_label(c, s), s + 1 < vp_hm_nsides(c) ? "; " : ". ");
	}
	vp_h_addf(p, "Shares and ratios compare %s.", c->value == VP_VALUE_SAMPLES ? "samples" : "periods");
	vp_html_table(sec, c, e, i);
	return vp_html_charts(sec, c, e, i, o);
}

/* The tree as HTML, in UTF-8 (libxml2's HTML writer escapes text and
 * attribute values; script and style it writes raw). */
static int serialise(xmlDocPtr doc, char **out, size_t *len)
{
	xmlOutputBufferPtr buf = xmlAllocOutputBuffer(NULL);
	const xmlChar *p;
	size_t n;

	if (!buf)
		return -ENOMEM;
	htmlDocContentDumpFormatOutput(buf, doc, "UTF-8", 0);
	xmlOutputBufferFlush(buf);
	p = xmlOutputBufferGetContent(buf);
	n = xmlOutputBufferGetSize(buf);
	if (buf->error || !p || !(*out = malloc(n + 1))) {
		xmlOutputBufferClose(buf);
		return -ENOMEM;
	}
	memcpy(*out, p, n);
	(*out)[n] = '\0';
	*len = n;
	xmlOutputBufferClose(buf);
	return 0;
}

int vp_html_page(const struct vp_comparison *c, const struct vp_chart_opts *o, char **out, size_t *len)
{
	xmlDocPtr doc = htmlNewDocNoDtD(NULL, NULL);	/* _private: vp_h_failed */
	xmlNodePtr html, body, header, main, foot, script;
	char title[1024];
	int r = 0;

	*out = NULL;
	*len = 0;
	if (!doc)
		return -ENOMEM;
	xmlCreateIntSubset(doc, BAD_CAST "html", NULL, NULL);
	html = xmlNewDocNode(doc, NULL, BAD_CAST "html", NULL);
	xmlDocSetRootElement(doc, html);
	vp_h_attr(html, "lang", "en");
	page_title(c, title, sizeof(title));
	head(html, c, o->title ? o->title : title);

	body = vp_h_el(html, "body", NULL);
	header = vp_h_el(body, "header", NULL);
	vp_h_text(header, "h1", NULL, o->title ? o->title : title);
	vp_h_text(header, "p", "lede", "Where, function by function, the sides differ: the sides' "
		  "facts, the headline, then for each event every function in a table you can sort "
		  "and filter, and the charts.");
	nav(header, c);
	main = vp_h_el(body, "main", NULL);
	vp_h_attr(main, "id", "main");
	vp_html_facts(main, c);
	r = vp_html_headline(main, c, o);
	for (size_t i = 0; i < c->nevents && r >= 0; i++)
		r = event_section(main, c, i, o);
	foot = vp_h_el(body, "footer", NULL);
	vp_h_text(foot, "p", NULL, "Written by vmprof " VP_VERSION " (vmprof chart --format html). "
		  "The numbers are those of vmprof compare --format csv for the same inputs.");
	script = vp_h_el(body, "script", NULL);
	if (!script || !xmlAddChild(script, xmlNewText(BAD_CAST vp_report_js)))
		r = r < 0 ? r : -ENOMEM;
	/* a helper that met ENOMEM left something out: the page is incomplete */
	if (r >= 0 && (vp_h_failed(doc) || !foot))
		r = -ENOMEM;
	if (r >= 0)
		r = serialise(doc, out, len);
	xmlFreeDoc(doc);
	return r;
}
