/* Building the HTML report's tree: small helpers over libxml2 that put every
 * string in as a text node or an attribute value (cleaned of what XML cannot
 * hold), never as markup. */
#include "html_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

xmlNodePtr vp_h_el(xmlNodePtr parent, const char *tag, const char *cls)
{
	xmlNodePtr n;

	if (!parent || !(n = xmlNewChild(parent, NULL, BAD_CAST tag, NULL)))
		return NULL;
	if (cls)
		xmlSetProp(n, BAD_CAST "class", BAD_CAST cls);
	return n;
}

void vp_h_add(xmlNodePtr n, const char *text)
{
	xmlChar *t;

	if (!n || !text || !(t = vp_xml_clean(text)))
		return;
	xmlAddChild(n, xmlNewText(t));
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
	free(s);
	return n;
}

void vp_h_attr(xmlNodePtr n, const char *name, const char *value)
{
	xmlChar *v;

	if (!n || !(v = vp_xml_clean(value)))
		return;
	xmlSetProp(n, BAD_CAST name, v);
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
