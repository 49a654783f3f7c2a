/* Function names that fit their column: shortened by rule, measured with
 * cairo's text extents, and never two rows with the same label. C++ names
 * lose, in turn, their parameter list, their template arguments, their middle
 * namespaces, and finally the middle of what is left; the start (namespace)
 * and the end (function name) stay. The full name stays in the SVG <title>. */
#include "render_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/profile/profile.h"

#define ELLIPSIS "\u2026"

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* "operator<", "operator<<=", "operator->": their angle brackets are no template. */
static size_t operator_len(const char *s, size_t i, size_t n)
{
	size_t j;

	if (n - i < 8 || memcmp(s + i, "operator", 8) || (i > 0 && ident_char(s[i - 1])))
		return 0;
	for (j = i + 8; j < n && s[j] && strchr("<>=-", s[j]); j++)
		;
	return j - i;
}

/* s[0..n) with every outermost template argument list as "<…>"; NULL when
 * there is none or the brackets do not balance (then the name stays whole). */
static char *drop_templates(const char *s, size_t n)
{
	char *o = malloc(2 * n + 8);
	size_t i = 0, k = 0;
	int changed = 0;

	if (!o)
		return NULL;
	while (i < n) {
		size_t op = operator_len(s, i, n);
		if (op) {
			memcpy(o + k, s + i, op);
			k += op;
			i += op;
		} else if (s[i] == '<') {
			size_t j = i + 1;
			int depth = 1;
			while (j < n && depth) {
				size_t opj = operator_len(s, j, n);
				if (opj) {
					j += opj;
					continue;
				}
				depth += s[j] == '<' ? 1 : s[j] == '>' ? -1 : 0;
				j++;
			}
			if (depth) {
				free(o);
				return NULL;
			}
			memcpy(o + k, "<" ELLIPSIS ">", 5);
			k += 5;
			i = j;
			changed = 1;
		} else {
			o[k++] = s[i++];
		}
	}
	o[k] = '\0';
	if (!changed) {
		free(o);
		return NULL;
	}
	return o;
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

static int fits(cairo_t *cr, const char *s, double width, size_t size)
{
	return strlen(s) < size && vp_text_width(cr, s) <= width;
}

/* Keep the first namespace and as many trailing scopes as fit:
 * "a::b::c::d::f" -> "a::…::d::f". */
static int drop_scopes(cairo_t *cr, const char *s, double width, char *out, size_t size)
{
	size_t cut[64], nc = 0, n = strlen(s);
	int depth = 0;

	for (size_t i = 0; i + 1 < n && nc < 64; i++) {
		size_t op = operator_len(s, i, n);
		if (op) {
			i += op - 1;
			continue;
		}
		if (s[i] == '<' || s[i] == '(' || s[i] == '[')
			depth++;
		else if ((s[i] == '>' || s[i] == ')' || s[i] == ']') && depth > 0)
			depth--;
		else if (!depth && s[i] == ':' && s[i + 1] == ':')
			cut[nc++] = i++;
	}
	if (nc < 2)
		return 0;
	/* keep the head up to cut[0] and the tail from cut[t], fewest dropped first */
	for (size_t t = 1; t < nc; t++) {
		snprintf(out, size, "%.*s::" ELLIPSIS "%s", (int)cut[0], s, s + cut[t]);
		if (fits(cr, out, width, size))
			return 1;
	}
	return 0;
}

/* Cut the middle, head and tail in a 1:2 balance: the function name is at the end. */
static void cut_middle(cairo_t *cr, const char *s, double width, char *out, size_t size)
{
	size_t n = strlen(s), keep = n;
	char *buf = malloc(n + 8);

	if (!buf) {
		snprintf(out, size, "%s", s);
		return;
	}
	snprintf(buf, n + 8, "%s", s);
	while (keep > 2 && !fits(cr, buf, width, size)) {
		keep--;
		size_t head = back_to_char(s, keep / 3);
		size_t tail = fwd_to_char(s, n - (keep - keep / 3));
		if (tail < head)
			tail = head;
		snprintf(buf, n + 8, "%.*s" ELLIPSIS "%s", (int)head, s, s + tail);
	}
	snprintf(out, size, "%s", buf);
	free(buf);
}

/* how: 0 by the rules above, 1 only the middle cut (keeps more of the
 * original text: used to tell apart names the rules made equal). */
static void shorten(cairo_t *cr, const char *sym, int full, double width, char *out, size_t size,
		    int how)
{
	size_t n = full ? strlen(sym) : vp_symbol_display_len(sym);
	char *name = malloc(n + 1), *t = NULL;

	if (!name || size < 8) {
		snprintf(out, size, "%.*s", (int)(size ? size - 1 : 0), sym);
		free(name);
		return;
	}
	memcpy(name, sym, n);
	name[n] = '\0';
	if (fits(cr, name, width, size)) {
		memcpy(out, name, n + 1);
	} else if (how == 0 && (t = drop_templates(name, n)) && fits(cr, t, width, size)) {
		snprintf(out, size, "%s", t);
	} else if (how == 0 && drop_scopes(cr, t ? t : name, width, out, size)) {
		/* out is set */
	} else {
		cut_middle(cr, how == 0 && t ? t : name, width, out, size);
	}
	free(t);
	free(name);
}

void vp_shorten(cairo_t *cr, const char *sym, int full, double width, char *out, size_t size)
{
	shorten(cr, sym, full, width, out, size, 0);
}

void vp_fit(cairo_t *cr, const char *text, double width, char *out, size_t size)
{
	cut_middle(cr, text, width, out, size);
}

static const char *row_name(const struct vp_cmp_row *r)
{
	return r->symbol ? r->symbol : r->dso ? vp_dso_short_name(r->dso) : "[unknown]";
}

/* Show the part of s around byte p (where it differs from a name it was
 * confused with) between its start and its end: "head…window…tail". */
static void cut_around(cairo_t *cr, const char *s, size_t p, double width, char *out, size_t size)
{
	size_t n = strlen(s);
	char *buf = malloc(n + 16);

	if (!buf) {
		snprintf(out, size, "%s", s);
		return;
	}
	snprintf(buf, n + 16, "%s", s);
	for (size_t keep = n; keep > 3 && !fits(cr, buf, width, size); keep--) {
		size_t head = keep / 5, tail = 2 * keep / 5, win = keep - head - tail;
		size_t ws = p > win / 3 ? p - win / 3 : 0, we;
		if (ws < head)
			ws = head;
		we = ws + win;
		if (we > n - tail) {
			we = n - tail;
			ws = we > win ? we - win : 0;
			if (ws < head)
				ws = head;
		}
		head = back_to_char(s, head);
		ws = fwd_to_char(s, ws);
		we = back_to_char(s, we);
		size_t ts = fwd_to_char(s, n - tail);
		if (we < ws)
			we = ws;
		if (ts < we)
			ts = we;
		snprintf(buf, n + 16, "%.*s%s%.*s%s%s", (int)head, s, ws > head ? ELLIPSIS : "",
			 (int)(we - ws), s + ws, ts > we ? ELLIPSIS : "", s + ts);
	}
	snprintf(out, size, "%s", buf);
	free(buf);
}

/* level 0: the rules; 1: the part that tells it from its look-alikes (at
 * byte diff of the name, with parameters when only they differ); 2: with the
 * dso when that differs; 3: with the row number too (names that differ in
 * several places one window cannot show). */
static void make_label(cairo_t *cr, const struct vp_cmp_row *r, size_t i, int level, size_t diff,
		       int with_dso, double width, char *out)
{
	char prefix[8], suffix[300] = "", name[VP_LABEL_MAX];
	const char *sym = row_name(r);
	double room;

	snprintf(prefix, sizeof(prefix), "[%c] ", r->domain ? r->domain : '.');
	if (level >= 2 && with_dso && r->dso && r->symbol)
		snprintf(suffix, sizeof(suffix), " (%.200s)", vp_dso_short_name(r->dso));
	if (level >= 3)
		snprintf(suffix + strlen(suffix), sizeof(suffix) - strlen(suffix), " #%zu", i + 1);
	room = width - vp_text_width(cr, prefix) - vp_text_width(cr, suffix);
	if (room < 20)
		room = 20;
	if (level == 0) {
		shorten(cr, sym, 0, room, name, sizeof(name) - 40 - strlen(suffix), 0);
	} else {
		size_t n = vp_symbol_display_len(sym);
		char *t = strndup(sym, diff < n ? n : strlen(sym));
		if (!t)
			snprintf(name, sizeof(name), "?");
		else
			cut_around(cr, t, diff, room, name, sizeof(name) - 40 - strlen(suffix));
		free(t);
	}
	size_t a = strlen(prefix), b = strlen(name), c = strlen(suffix);
	if (a + b + c >= VP_LABEL_MAX)	/* cannot happen: name was cut to leave room */
		b = VP_LABEL_MAX - 1 - a - c;
	memcpy(out, prefix, a);
	memcpy(out + a, name, b);
	memcpy(out + a + b, suffix, c);
	out[a + b + c] = '\0';
}

static size_t first_diff(const char *a, const char *b)
{
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	return i;
}

char (*vp_row_labels(cairo_t *cr, const struct vp_cmp_row *rows, size_t n, double width))[VP_LABEL_MAX]
{
	size_t m = n ? n : 1;
	char (*lab)[VP_LABEL_MAX] = calloc(m, sizeof(*lab));
	int *level = calloc(m, sizeof(*level)), *bump = calloc(m, sizeof(*bump));
	int *dso_differs = calloc(m, sizeof(*dso_differs));
	size_t *diff = calloc(m, sizeof(*diff));

	if (!lab || !level || !bump || !dso_differs || !diff) {
		free(lab);
		lab = NULL;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		make_label(cr, &rows[i], i, 0, 0, 0, width, lab[i]);
	/* Rows are distinct keys, so equal labels hide a difference: show more of
	 * the names that collide until none do (level 3 cannot collide). */
	for (int pass = 0; pass < 4; pass++) {
		int again = 0;
		memset(bump, 0, n * sizeof(*bump));
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				if (strcmp(lab[i], lab[j]))
					continue;
				size_t d = first_diff(row_name(&rows[i]), row_name(&rows[j]));
				int dd = (rows[i].dso && rows[j].dso) ? strcmp(rows[i].dso, rows[j].dso) != 0
								      : rows[i].dso != rows[j].dso;
				for (int k = 0; k < 2; k++) {
					size_t x = k ? j : i;
					if (!bump[x] || d < diff[x])
						diff[x] = d;
					bump[x] = 1;
					dso_differs[x] |= dd;
				}
				again = 1;
			}
		if (!again)
			break;
		for (size_t i = 0; i < n; i++) {
			if (!bump[i] || level[i] >= 3)
				continue;
			if (++level[i] == 2 && !dso_differs[i])
				level[i] = 3;	/* the dso would not tell them apart */
			make_label(cr, &rows[i], i, level[i], diff[i], dso_differs[i], width, lab[i]);
		}
	}
out:
	free(level);
	free(bump);
	free(dso_differs);
	free(diff);
	return lab;
}
