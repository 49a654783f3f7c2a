/* Fonts, colours, name shortening and axis ticks for the charts. */
#include "render_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/profile.h"

const struct rgb vp_host_rgb = { 0.0, 0.447, 0.698 };	/* #0072B2 */
const struct rgb vp_guest_rgb = { 0.902, 0.624, 0.0 };	/* #E69F00 */
const struct rgb vp_ink_rgb = { 0.13, 0.13, 0.13 };
const struct rgb vp_grid_rgb = { 0.87, 0.87, 0.87 };
const struct rgb vp_other_rgb = { 0.75, 0.75, 0.75 };

/* Paul Tol's muted scheme: tells slices apart, not sides. */
static const struct rgb slices[VP_SLICE_COLOURS] = {
	{ 0.200, 0.133, 0.533 }, { 0.533, 0.800, 0.933 }, { 0.267, 0.667, 0.600 },
	{ 0.067, 0.467, 0.200 }, { 0.600, 0.600, 0.200 }, { 0.867, 0.800, 0.467 },
	{ 0.800, 0.400, 0.467 }, { 0.533, 0.133, 0.333 },
};

const struct rgb *vp_slice_rgb(size_t i)
{
	return &slices[i % VP_SLICE_COLOURS];
}

void vp_set_rgb(cairo_t *cr, const struct rgb *c)
{
	cairo_set_source_rgb(cr, c->r, c->g, c->b);
}

void vp_marks_add(struct marks *m, const struct mark *k, const char *fmt, ...)
{
	va_list ap;
	char *t = NULL;

	if (!m || m->oom)
		return;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct mark *v = realloc(m->v, cap * sizeof(*v));
		if (!v) {
			m->oom = 1;
			return;
		}
		m->v = v;
		m->cap = cap;
	}
	if (fmt) {
		va_start(ap, fmt);
		if (vasprintf(&t, fmt, ap) < 0)
			t = NULL;
		va_end(ap);
		if (!t) {
			m->oom = 1;
			return;
		}
	}
	m->v[m->n] = *k;
	m->v[m->n++].title = t;
}

void vp_marks_free(struct marks *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].title);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

void vp_font(cairo_t *cr, double size, int bold)
{
	/* One fixed face (fonts-dejavu-core) keeps output the same everywhere. */
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

double vp_text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

void vp_text(struct canvas *c, const char *s, double x, double y, double align)
{
	cairo_font_extents_t fe;
	double w = vp_text_width(c->cr, s);
	struct mark m = { .kind = MARK_TEXT, .side = -1 };

	cairo_font_extents(c->cr, &fe);
	x -= w * align;
	cairo_move_to(c->cr, x, y);
	cairo_show_text(c->cr, s);
	m.x = x;
	m.y = y - fe.ascent;
	m.w = w;
	m.h = fe.ascent + fe.descent;
	vp_marks_add(c->marks, &m, NULL);
}

/* UTF-8 safe cut points: never split a multibyte character. */
static size_t back_to_char(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

static size_t fwd_to_char(const char *s, size_t i)
{
	while (s[i] && ((unsigned char)s[i] & 0xc0) == 0x80)
		i++;
	return i;
}

void vp_shorten(cairo_t *cr, const char *sym, int full, double width, char *out, size_t size)
{
	size_t n = full ? strlen(sym) : vp_symbol_display_len(sym);
	char *buf = malloc(n + 8);

	if (!buf || size < 8) {
		snprintf(out, size, "%.*s", (int)(size ? size - 1 : 0), sym);
		free(buf);
		return;
	}
	memcpy(buf, sym, n);
	buf[n] = '\0';
	if (vp_text_width(cr, buf) <= width && n < size) {
		memcpy(out, buf, n + 1);
		free(buf);
		return;
	}
	/* Keep head and tail in a 1:2 balance: the function name is at the end. */
	size_t keep = n;
	while (keep > 2) {
		keep--;
		size_t head = back_to_char(sym, keep / 3);
		size_t tail = fwd_to_char(sym, n - (keep - keep / 3));
		if (tail < head)
			tail = head;
		int len = snprintf(buf, n + 8, "%.*s\u2026%.*s", (int)head, sym, (int)(n - tail), sym + tail);
		if (len > 0 && (size_t)len < size && vp_text_width(cr, buf) <= width)
			break;
	}
	snprintf(out, size, "%s", buf);
	free(buf);
}

size_t vp_ticks(double hi, double *ticks, size_t max)
{
	double step, mag;
	size_t n = 0;

	if (hi <= 0)
		hi = 1;
	mag = pow(10, floor(log10(hi / 5)));
	step = mag;
	if (hi / step > 10)
		step = 2 * mag;
	if (hi / step > 10)
		step = 5 * mag;
	if (hi / step > 10)
		step = 10 * mag;
	for (double v = 0; v <= hi * (1 + 1e-9) && n < max; v += step)
		ticks[n++] = v;
	if (n && ticks[n - 1] < hi && n < max)
		ticks[n] = ticks[n - 1] + step, n++;
	return n;
}

void vp_format_count(double v, char *buf, size_t size)
{
	static const char *const unit[] = { "", "k", "M", "G", "T", "P" };
	size_t u = 0;

	while (fabs(v) >= 1000 && u + 1 < sizeof(unit) / sizeof(*unit)) {
		v /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, v < 10 ? "%.1f%s" : "%.0f%s", v, unit[u]);
}
