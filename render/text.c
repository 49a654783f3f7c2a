/* Text on charts: one fixed font, widths from cairo's own extents, and the
 * number formats every chart uses. */
#include "render_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vp_font(cairo_t *cr, double size, int bold)
{
	/* One fixed face (fonts-dejavu-core) keeps output the same everywhere. */
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

/* Length of the valid UTF-8 character at p (avail bytes left), 0 if none. */
static size_t utf8_len(const unsigned char *p, size_t avail)
{
	size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 && p[0] >= 0xc2 ? 2
		     : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 && p[0] <= 0xf4 ? 4 : 0;

	if (len > avail)
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Names come from untrusted files; cairo refuses invalid UTF-8 (and stays in
 * error for good), so such bytes become U+FFFD and control characters '?'.
 * Returns s itself when it is clean, else a copy to free(). */
static char *clean_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, len;
	char *o, *q;

	while (i < n && p[i] >= 0x20 && p[i] != 0x7f && (len = utf8_len(p + i, n - i)))
		i += len;
	if (i == n)
		return (char *)s;
	if (!(o = malloc(3 * n + 1)))
		return NULL;
	memcpy(o, s, i);
	q = o + i;
	while (i < n) {
		if (p[i] < 0x20 || p[i] == 0x7f) {
			*q++ = '?';
			i++;
		} else if ((len = utf8_len(p + i, n - i))) {
			memcpy(q, p + i, len);
			q += len;
			i += len;
		} else {
			memcpy(q, "\xef\xbf\xbd", 3);
			q += 3;
			i++;
		}
	}
	*q = '\0';
	return o;
}

double vp_text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;
	char *t = clean_utf8(s);

	if (!t)
		return 0;
	cairo_text_extents(cr, t, &e);
	if (t != s)
		free(t);
	return e.x_advance;
}

double vp_text(struct canvas *c, const char *s, double x, double y, double align)
{
	cairo_font_extents_t fe;
	cairo_matrix_t fm;
	double w = vp_text_width(c->cr, s);
	struct mark m = { .kind = MARK_TEXT, .side = -1 };

	cairo_font_extents(c->cr, &fe);
	cairo_get_font_matrix(c->cr, &fm);
	char *t = clean_utf8(s);

	x -= w * align;
	cairo_move_to(c->cr, x, y);
	if (t)
		cairo_show_text(c->cr, t);
	if (t && t != s)
		free(t);
	/* the box every glyph of the font fits in, from cairo's extents */
	m.x = x;
	m.y = y - fe.ascent;
	m.w = w;
	m.h = fe.ascent + fe.descent;
	m.baseline = y;
	m.font_size = fm.yy;
	m.bold = cairo_font_face_get_type(cairo_get_font_face(c->cr)) == CAIRO_FONT_TYPE_TOY &&
		 cairo_toy_font_face_get_weight(cairo_get_font_face(c->cr)) == CAIRO_FONT_WEIGHT_BOLD;
	vp_marks_add(c->marks, &m, "%s", s);
	return w;
}

void vp_format_count(double v, char *buf, size_t size)
{
	static const char *const unit[] = { "", "k", "M", "G", "T", "P", "E" };
	size_t u = 0;

	while (fabs(v) >= 999.95 && u + 1 < sizeof(unit) / sizeof(*unit)) {
		v /= 1000;
		u++;
	}
	if (u == 0 && v != floor(v))
		snprintf(buf, size, "%.1f", v);
	else if (u == 0 || v >= 9.95 || v == floor(v))
		snprintf(buf, size, "%.0f%s", v, unit[u]);
	else
		snprintf(buf, size, "%.1f%s", v, unit[u]);
}

void vp_format_share(double share, char *buf, size_t size)
{
	if (share > 0 && share < 0.0005)
		snprintf(buf, size, "<0.1%%");
	else if (share <= 0)
		snprintf(buf, size, "0%%");
	else
		snprintf(buf, size, "%.1f%%", 100 * share);
}

void vp_format_side_values(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
			   char *buf, size_t size)
{
	if (e->nruns[s] <= 1)
		snprintf(buf, size, "%" PRIu64 " samples, period %" PRIu64, r->samples[s], r->period[s]);
	else
		snprintf(buf, size, "mean of %zu runs: %.1f samples, period %.0f", e->nruns[s],
			 vp_cmp_mean(e, r, s, VP_VALUE_SAMPLES), vp_cmp_mean(e, r, s, VP_VALUE_PERIOD));
}

void vp_format_ratio(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		     enum vp_value v, char *buf, size_t size)
{
	enum vp_ratio_kind k;
	double x = vp_cmp_ratio(e, r, s, v, &k);
	char n[32];

	if (k == VP_RATIO_ONLY_HOST || k == VP_RATIO_ONLY_GUEST) {
		snprintf(buf, size, "%s", k == VP_RATIO_ONLY_HOST ? "only host" : "only guest");
		return;
	}
	if (k != VP_RATIO_BOTH || !isfinite(x)) {
		snprintf(buf, size, "\u2013");
		return;
	}
	if (x >= 999.5)
		vp_format_count(x, n, sizeof(n));
	else if (x >= 9.95)
		snprintf(n, sizeof(n), "%.0f", x);
	else if (x >= 0.995)
		snprintf(n, sizeof(n), "%.1f", x);
	else if (x >= 0.00995)
		snprintf(n, sizeof(n), "%.2g", x);	/* 0.72, 0.014: two significant digits */
	else
		snprintf(n, sizeof(n), "<0.01");
	snprintf(buf, size, "%s\u00d7", n);
}
