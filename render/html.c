/* The HTML report (vmprof chart --format html): one self-contained page per
 * comparison, built as a libxml2 tree and written by its HTML serialiser.
 * In order: the sides' facts, the headline (where the time went, with its
 * waterfall), then per event the table of every row, the charts inline
 * (SVG), the flame graph when the event has call stacks, and a note on how
 * to read each. The style sheet and the scripts are this project's
 * (report.css, report.js, and flame.js when a flame graph is on the page,
 * compiled in); a Content-Security-Policy lets the page load nothing and
 * run only those scripts (by their hashes), so a name from a file can never
 * become code even if it were taken for markup. Deterministic: no clock, no
 * random ids. */
#include "html_internal.h"
#include "lib/util/timefmt.h"

#include <errno.h>
#include <libxml/HTMLtree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The page's head; *csp gets the policy's element, whose content is set once
 * the page knows which scripts it runs (csp_set). */
static void head(xmlNodePtr html, const char *title, xmlNodePtr *csp)
{
	xmlNodePtr h = vp_h_el(html, "head", NULL), m;

	vp_h_attr(vp_h_el(h, "meta", NULL), "charset", "utf-8");
	m = vp_h_el(h, "meta", NULL);
	vp_h_attr(m, "http-equiv", "Content-Security-Policy");
	*csp = m;
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

/* Nothing from outside, no script but ours (by hash); cairo's SVG needs
 * style attributes. */
static void csp_set(xmlNodePtr m, int flame)
{
	char csp[400];

	snprintf(csp, sizeof(csp), "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-%s'%s%s%s; "
		 "base-uri 'none'; form-action 'none'", vp_report_js_sha256, flame ? " 'sha256-" : "",
		 flame ? vp_flame_js_sha256 : "", flame ? "'" : "");
	vp_h_attr(m, "content", csp);
}

/* A script of ours at the end of the body (raw text: embed-assets.sh checks
 * it ends no element); 0, or -ENOMEM. */
static int script(xmlNodePtr body, const char *js)
{
	xmlNodePtr s = vp_h_el(body, "script", NULL);

	return s && xmlAddChild(s, xmlNewText(BAD_CAST js)) ? 0 : -ENOMEM;
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
	int time = vp_hm_is_time(c, e);
	for (size_t s = 0; s < vp_hm_nsides(c); s++) {
		const char *name = vp_hm_event_name(e, s);
		char period[48];
		vp_h_attrf(vp_h_el(p, "span", "swatch"), "data-side", "%zu", s);
		/* a time event's period in its unit, as the table shows it */
		if (time)
			vp_format_time(period, sizeof(period), (double)vp_hm_total_period(e, s), 1);
		else
			snprintf(period, sizeof(period), "%llu", (unsigned long long)vp_hm_total_period(e, s));
		if (name)
			vp_h_addf(p, "%s: %s, %llu samples, period %s%s", vp_hm_label(c, s), name,
				  (unsigned long long)vp_hm_total_samples(e, s), period,
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
	xmlNodePtr html, body, header, main, foot, csp = NULL;
	char title[1024];
	int r = 0, flames = 0;

	*out = NULL;
	*len = 0;
	if (!doc)
		return -ENOMEM;
	xmlCreateIntSubset(doc, BAD_CAST "html", NULL, NULL);
	html = xmlNewDocNode(doc, NULL, BAD_CAST "html", NULL);
	xmlDocSetRootElement(doc, html);
	vp_h_attr(html, "lang", "en");
	page_title(c, title, sizeof(title));
	head(html, o->title ? o->title : title, &csp);

	body = vp_h_el(html, "body", NULL);
	header = vp_h_el(body, "header", NULL);
	vp_h_text(header, "h1", NULL, o->title ? o->title : title);
	vp_h_text(header, "p", "lede", "Where, function by function, the sides differ: the sides' "
		  "facts, where the time went, then for each event every function in a table you can "
		  "sort and filter, the charts and, with call stacks, the flame graph.");
	nav(header, c);
	main = vp_h_el(body, "main", NULL);
	vp_h_attr(main, "id", "main");
	vp_html_facts(main, c);
	r = vp_html_headline(main, c, o);
	for (size_t i = 0; i < c->nevents && r >= 0; i++)
		if ((r = event_section(main, c, i, o)) > 0)
			flames += r;
	foot = vp_h_el(body, "footer", NULL);
	vp_h_text(foot, "p", NULL, "Written by vmprof " VP_VERSION " (vmprof chart --format html). "
		  "The numbers are those of vmprof compare --format csv for the same inputs.");
	if (r >= 0)
		r = script(body, vp_report_js);
	/* one copy of the flame graph's script runs every graph on the page */
	if (r >= 0 && flames)
		r = script(body, vp_flame_js);
	if (csp)
		csp_set(csp, flames > 0);
	/* a helper that met ENOMEM left something out: the page is incomplete */
	if (r >= 0 && (vp_h_failed(doc) || !foot))
		r = -ENOMEM;
	if (r >= 0)
		r = serialise(doc, out, len);
	xmlFreeDoc(doc);
	return r;
}
