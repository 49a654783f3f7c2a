/* Building the HTML report's tree: small helpers over libxml2 that put every
 * string in as a text node or an attribute value (cleaned of what XML cannot
 * hold), never as markup. */
#include "html_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* An allocation failed somewhere under n: the page is incomplete. The
 * document's _private (libxml2 leaves it to the application) says so. */
static void lost(xmlNodePtr n)
{
	if (n && n->doc)
		n->doc->_private = n->doc;
}

int vp_h_failed(xmlDocPtr doc)
{
	return doc->_private != NULL;
}

xmlNodePtr vp_h_el(xmlNodePtr parent, const char *tag, const char *cls)
{
	xmlNodePtr n;

	if (!parent)
		return NULL;
	if (!(n = xmlNewChild(parent, NULL, BAD_CAST tag, NULL)) ||
	    (cls && !xmlSetProp(n, BAD_CAST "class", BAD_CAST cls))) {
		lost(parent);
		return NULL;
	}
	return n;
}

void vp_h_add(xmlNodePtr n, const char *text)
{
	xmlChar *t;

	if (!n || !text)
		return;
	if (!(t = vp_svg_clean(text)) || !xmlAddChild(n, xmlNewText(t)))
		lost(n);
	free(t);
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

void vp_h_addf(xmlNodePtr n, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	if (!s)
		lost(n);
	vp_h_add(n, s);
	free(s);
}

xmlNodePtr vp_h_text(xmlNodePtr parent, const char *tag, const char *cls, const char *text)
{
	xmlNodePtr n = vp_h_el(parent, tag, cls);

	vp_h_add(n, text);
	return n;
}

xmlNodePtr vp_h_textf(xmlNodePtr parent, const char *tag, const char *cls, const char *fmt, ...)
{
	va_list ap;
	char *s;
	xmlNodePtr n;

	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	n = vp_h_text(parent, tag, cls, s ? s : "");
	if (!s)
		lost(parent);
	free(s);
	return n;
}

void vp_h_attr(xmlNodePtr n, const char *name, const char *value)
{
	xmlChar *v;

	if (!n)
		return;
	if (!(v = vp_svg_clean(value)) || !xmlSetProp(n, BAD_CAST name, v))
		lost(n);
	free(v);
}

void vp_h_attrf(xmlNodePtr n, const char *name, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	if (s)
		vp_h_attr(n, name, s);
	else
		lost(n);
	free(s);
}

void vp_h_howto(xmlNodePtr parent, const char *text)
{
	xmlNodePtr p = vp_h_el(parent, "p", "howto");

	vp_h_text(p, "strong", NULL, "How to read this: ");
	vp_h_add(p, text);
}

xmlNodePtr vp_h_scroll(xmlNodePtr parent, const char *label)
{
	xmlNodePtr d = vp_h_el(parent, "div", "scroll");

	/* a scrolling region must be reachable from the keyboard */
	vp_h_attr(d, "tabindex", "0");
	vp_h_attr(d, "role", "region");
	vp_h_attr(d, "aria-label", label);
	return d;
}
