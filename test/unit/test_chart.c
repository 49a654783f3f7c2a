/* Chart geometry read back from the SVG (libxml2): 2N bars whose lengths are
 * proportional to the values (linear) or their logs (log scale) within a
 * pixel, no two text boxes overlapping; the PNG has the right size and the
 * host/guest colours at the bars' centres, and every pixel read back as
 * written; output is byte-for-byte stable. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "render/chart.h"
#include "render/render_internal.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/vp-chart-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), getenv("KEEP") ? "true '%s'" : "rm -rf '%s'", dir);
	return system(cmd);
}

/* A comparison of K sides of R runs each, one event: row i of side s's run
 * k has the period v(i, s, k, ctx) and a sample per 1000 of it (rounded
 * up); each run's total is twice the sum of its rows. present[s] 0 leaves
 * the event out of side s. */
typedef uint64_t (*value_fn)(size_t i, size_t s, size_t k, const void *ctx);

static struct vp_comparison *make_runs(const char *const *names, size_t n, size_t K, size_t R,
				       const int *present, value_fn v, const void *ctx)
{
	static const char *const label[] = { "host", "guest", "third", "fourth" };
	size_t per[8];
	struct vp_error err = { 0 };

	assert_true(K <= 4);
	for (size_t s = 0; s < K; s++)
		per[s] = R;
	struct vp_comparison *c = vp_comparison_new(K, per);
	int at = vp_comparison_add_event(c, "cpu-clock");
	struct vp_cmp_event *e = &c->events[at];

	for (size_t s = 0; s < K; s++)
		c->label[s] = vp_strpool_intern(c->pool, label[s]);
	c->value = VP_VALUE_PERIOD;
	for (size_t k = 0; k < K * R; k++)
		e->run_present[k] = present[k / R];
	for (size_t i = 0; i < n; i++) {
		struct vp_cmp_row *r = vp_cmp_event_add_row(c, e);
		assert_non_null(r);
		r->symbol = vp_strpool_intern(c->pool, names[i]);
		r->dso = vp_strpool_intern(c->pool, "/bin/app");
		r->domain = '.';
		for (size_t k = 0; k < K * R; k++) {
			if (!present[k / R])
				continue;
			uint64_t x = v(i, k / R, k % R, ctx);
			r->run_period[k] = x;
			r->run_samples[k] = (x + 999) / 1000;
			e->run_total_period[k] += x * 2;	/* rows are half of the total */
			e->run_total_samples[k] += (x + 999) / 1000 * 2;
		}
	}
	assert_int_equal(vp_comparison_finish(c, &err), 0);
	return c;
}

static uint64_t from_table(size_t i, size_t s, size_t k, const void *ctx)
{
	(void)k;
	return ((const uint64_t(*)[2])ctx)[i][s];
}

/* Two sides of one run each, rows with the values given. */
static struct vp_comparison *make_sides(const char *const *names, const uint64_t (*v)[2], size_t n,
					const int present[2])
{
	return make_runs(names, n, 2, 1, present, from_table, v);
}

static struct vp_comparison *make(const char *const *names, const uint64_t (*v)[2], size_t n)
{
	static const int both[2] = { 1, 1 };
	return make_sides(names, v, n, both);
}

struct box { double x, y, w, h, value, lo, hi; int side, sig, clipped; char text[2000]; };

static size_t read_marks(const char *path, const char *cls, struct box *out, size_t max)
{
	xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	size_t n = 0;

	assert_non_null(doc);
	for (xmlNodePtr g = xmlDocGetRootElement(doc)->children; g; g = g->next) {
		if (g->type != XML_ELEMENT_NODE || xmlStrcmp(g->name, BAD_CAST "g"))
			continue;
		for (xmlNodePtr r = g->children; r; r = r->next) {
			xmlChar *c = r->type == XML_ELEMENT_NODE ? xmlGetProp(r, BAD_CAST "class") : NULL;
			if (c && !xmlStrcmp(c, BAD_CAST cls) && n < max) {
				struct box *b = &out[n++];
				const char *a[] = { "x", "y", "width", "height", "data-value", "data-low",
						    "data-high" };
				double *f[] = { &b->x, &b->y, &b->w, &b->h, &b->value, &b->lo, &b->hi };
				for (int k = 0; k < 7; k++) {
					xmlChar *s = xmlGetProp(r, BAD_CAST a[k]);
					*f[k] = s ? strtod((char *)s, NULL) : 0;
					xmlFree(s);
				}
				const char *ia[] = { "data-side", "data-significant", "data-clipped" };
				int *fi[] = { &b->side, &b->sig, &b->clipped };
				for (int k = 0; k < 3; k++) {
					xmlChar *s = xmlGetProp(r, BAD_CAST ia[k]);
					*fi[k] = s ? atoi((char *)s) : -1;
					xmlFree(s);
				}
				xmlChar *s;
				s = xmlGetProp(r, BAD_CAST "data-text");
				snprintf(b->text, sizeof(b->text), "%s", s ? (char *)s : "");
				xmlFree(s);
				if (r->children && r->children->type == XML_ELEMENT_NODE) {
					xmlChar *t = xmlNodeGetContent(r->children);
					snprintf(b->text, sizeof(b->text), "%s", t ? (char *)t : "");
					xmlFree(t);
				}
				if (!strcmp(cls, "bar")) {	/* every bar carries its tooltip */
					assert_non_null(r->children);
					assert_string_equal((char *)r->children->name, "title");
				}
			}
			xmlFree(c);
		}
	}
	xmlFreeDoc(doc);
	return n;
}

static void no_text_overlaps(const char *svg)
{
	static struct box t[2000];
	size_t n = read_marks(svg, "text-box", t, 2000);

	assert_true(n > 5);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double ox = fmin(t[i].x + t[i].w, t[j].x + t[j].w) - fmax(t[i].x, t[j].x);
			double oy = fmin(t[i].y + t[i].h, t[j].y + t[j].h) - fmax(t[i].y, t[j].y);
			if (ox > 0.5 && oy > 0.5)
				fail_msg("%s: text boxes %zu and %zu overlap (%.1fx%.1f)", svg, i, j, ox, oy);
		}
}

static void render_sized(struct vp_comparison *c, const char *sub, enum vp_chart_scale scale,
			 int width, int height, unsigned formats)
{
	struct vp_chart_opts o;
	struct vp_error err = { 0 };
	char out[128];

	snprintf(out, sizeof(out), "%s/%s", dir, sub);
	vp_chart_opts_init(&o);
	o.outdir = out;
	o.scale = scale;
	if (width)
		o.width = width;
	o.height = height;
	if (formats)
		o.formats = formats;
	assert_int_equal(vp_chart_render(c, &o, &err), 0);
}

static void render(struct vp_comparison *c, const char *sub, enum vp_chart_scale scale)
{
	render_sized(c, sub, scale, 0, 0, 0);
}

static const char *const names[] = {
	"main", "ns::detail::Parser<std::basic_string<char>, std::allocator<char>>::parse_expression(int, char const*) const",
	"memcpy", "only_on_host", "only_on_guest", "compute_kernel_with_a_rather_long_c_name_indeed",
};
static const uint64_t linear_v[][2] = {
	{ 900000, 800000 }, { 500000, 700000 }, { 300000, 90000 }, { 250000, 0 }, { 0, 200000 },
	{ 60000, 120000 },
};

static void bars_are_proportional_linear(void **state)
{
	struct vp_comparison *c = make(names, linear_v, 6);
	static struct box b[64];
	char svg[256];
	(void)state;

	render(c, "lin", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/lin/cpu-clock-bar.svg", dir);
	size_t n = read_marks(svg, "bar", b, 64);
	assert_int_equal(n, 12);
	double k = 0;
	for (size_t i = 0; i < n; i++)
		if (b[i].value > 0 && b[i].w / b[i].value > k)
			k = b[i].w / b[i].value;	/* pixels per unit, from the data */
	for (size_t i = 0; i < n; i++) {
		assert_true(fabs(b[i].w - k * b[i].value) <= 1.0);
		assert_true(fabs(b[i].x - b[0].x) < 0.01);	/* one baseline */
	}
	no_text_overlaps(svg);
	snprintf(svg, sizeof(svg), "%s/lin/cpu-clock-circle.svg", dir);
	no_text_overlaps(svg);
	assert_int_equal(read_marks(svg, "slice", b, 64), 12);	/* 5 + other, 4 + other ... */
	vp_comparison_free(c);
}

static void bars_follow_logs_on_a_wide_range(void **state)
{
	static const uint64_t v[][2] = { { 1000000, 3 }, { 50000, 200 }, { 700, 9000 }, { 10, 1 } };
	struct vp_comparison *c = make(names, v, 4);
	static struct box b[64];
	char svg[256];
	(void)state;

	render(c, "log", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/log/cpu-clock-bar.svg", dir);
	size_t n = read_marks(svg, "bar", b, 64);
	assert_int_equal(n, 8);
	/* width = a + k*log10(v): fit a and k on the extremes, check every bar */
	size_t lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (b[i].value < b[lo].value)
			lo = i;
		if (b[i].value > b[hi].value)
			hi = i;
	}
	double k = (b[hi].w - b[lo].w) / (log10(b[hi].value) - log10(b[lo].value));
	double a = b[lo].w - k * log10(b[lo].value);
	assert_true(b[lo].w > 1);	/* the smallest value still shows */
	for (size_t i = 0; i < n; i++)
		assert_true(fabs(b[i].w - (a + k * log10(b[i].value))) <= 1.0);
	no_text_overlaps(svg);
	/* and forced linear on the same data is proportional to the values */
	render(c, "loglin", VP_SCALE_LINEAR);
	snprintf(svg, sizeof(svg), "%s/loglin/cpu-clock-bar.svg", dir);
	n = read_marks(svg, "bar", b, 64);
	k = b[hi].w / b[hi].value;
	for (size_t i = 0; i < n; i++)
		assert_true(fabs(b[i].w - k * b[i].value) <= 1.0);
	vp_comparison_free(c);
}

static int close_to(unsigned char *px, const double rgb[3])
{
	/* cairo RGB24 is native-endian xRGB */
	uint32_t v = *(uint32_t *)px;
	double r = ((v >> 16) & 255) / 255.0, g = ((v >> 8) & 255) / 255.0, b = (v & 255) / 255.0;
	return fabs(r - rgb[0]) < 0.02 && fabs(g - rgb[1]) < 0.02 && fabs(b - rgb[2]) < 0.02;
}

/* Okabe-Ito blue, orange, bluish green (charts.md: one hue per side), and
 * their pale forms: a fifth of the hue on 0.9 grey. */
static const double hue[3][3] = { { 0.0, 0.447, 0.698 }, { 0.902, 0.624, 0.0 }, { 0.0, 0.620, 0.451 } };

static void pale_of(size_t s, double out[3])
{
	for (int k = 0; k < 3; k++)
		out[k] = 0.2 * hue[s][k] + 0.8 * 0.9;
}

/* The colour at each bar's centre in the PNG: its side's hue when the model
 * says the row differs significantly from the host's (for the host's bar:
 * when any side does), else the pale form. Returns how many bars of each. */
static void bars_coloured_by_verdict(const struct vp_comparison *c, const char *dirname, size_t *full,
				     size_t *pale)
{
	static struct box b[256];
	const struct vp_cmp_event *e = &c->events[0];
	char svg[256], png[256];

	snprintf(svg, sizeof(svg), "%s/%s/cpu-clock-bar.svg", dir, dirname);
	snprintf(png, sizeof(png), "%s/%s/cpu-clock-bar.png", dir, dirname);
	size_t n = read_marks(svg, "bar", b, 256);
	cairo_surface_t *s = cairo_image_surface_create_from_png(png);
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	unsigned char *data = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	assert_int_equal(n, e->nrows * c->nsides);
	*full = *pale = 0;
	for (size_t i = 0; i < n; i++) {
		const struct vp_cmp_row *r = &e->rows[i / c->nsides];
		size_t side = (size_t)b[i].side;
		int sig = 0;
		double want[3];

		assert_int_equal(side, i % c->nsides);	/* side by side, in the sides' order */
		for (size_t k = 1; k < c->nsides; k++)
			if ((side == 0 || side == k) && vp_cmp_stat(e, r, k) && vp_cmp_stat(e, r, k)->significant)
				sig = 1;
		assert_int_equal(b[i].sig, sig);
		if (b[i].w < 6)
			continue;
		if (sig)
			memcpy(want, hue[side], sizeof(want));
		else
			pale_of(side, want);
		int x = (int)(b[i].x + b[i].w / 2), y = (int)(b[i].y + b[i].h / 2);
		assert_true(close_to(data + y * stride + x * 4, want));
		(*(sig ? full : pale))++;
	}
	cairo_surface_destroy(s);
}

static void png_has_the_size_and_the_side_colours(void **state)
{
	struct vp_comparison *c = make(names, linear_v, 6);
	char svg[256], png[256];
	size_t full, pale;
	(void)state;

	render(c, "png", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/png/cpu-clock-bar.svg", dir);
	snprintf(png, sizeof(png), "%s/png/cpu-clock-bar.png", dir);
	cairo_surface_t *s = cairo_image_surface_create_from_png(png);
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	assert_int_equal(cairo_image_surface_get_width(s), 1000);
	xmlDocPtr doc = xmlReadFile(svg, NULL, XML_PARSE_NONET);
	xmlChar *vb = xmlGetProp(xmlDocGetRootElement(doc), BAD_CAST "viewBox");
	double vw, vh;
	assert_int_equal(sscanf((char *)vb, "0 0 %lf %lf", &vw, &vh), 2);
	assert_int_equal(cairo_image_surface_get_height(s), (int)ceil(vh));
	xmlFree(vb);
	xmlFreeDoc(doc);
	cairo_surface_destroy(s);
	bars_coloured_by_verdict(c, "png", &full, &pale);
	/* hundreds of samples a row, shares far apart: every row differs */
	assert_true(full >= 9);
	vp_comparison_free(c);
}

static cairo_status_t read_membuf(void *closure, unsigned char *data, unsigned int len)
{
	struct vp_membuf *b = closure;

	if (len > b->cap - b->n)	/* cap holds the PNG's length here */
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, b->p + b->n, len);
	b->n += len;
	return CAIRO_STATUS_SUCCESS;
}

/* Our PNG writer (libpng at its own settings) against cairo's reader: every
 * pixel back as drawn, whatever its colour, at an odd width; a channel
 * swapped or a row misplaced fails here. */
static void png_writer_gives_back_every_pixel(void **state)
{
	const int w = 257, h = 67;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h), *back;
	struct vp_membuf b = { 0 };
	uint32_t x = 2463534242u;
	(void)state;

	cairo_surface_flush(s);
	for (int y = 0; y < h; y++) {
		uint32_t *row = (uint32_t *)(cairo_image_surface_get_data(s) +
					     (size_t)y * cairo_image_surface_get_stride(s));
		for (int i = 0; i < w; i++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			row[i] = x & 0xffffff;
		}
	}
	cairo_surface_mark_dirty(s);
	assert_int_equal(vp_png_write(s, &b), 0);
	assert_true(b.n > 8 && !memcmp(b.p, "\x89PNG\r\n\x1a\n", 8));
	b.cap = b.n;
	b.n = 0;
	back = cairo_image_surface_create_from_png_stream(read_membuf, &b);
	assert_int_equal(cairo_surface_status(back), CAIRO_STATUS_SUCCESS);
	assert_int_equal(cairo_image_surface_get_width(back), w);
	assert_int_equal(cairo_image_surface_get_height(back), h);
	for (int y = 0; y < h; y++) {
		const uint32_t *a = (const uint32_t *)(cairo_image_surface_get_data(s) +
						       (size_t)y * cairo_image_surface_get_stride(s));
		const uint32_t *c = (const uint32_t *)(cairo_image_surface_get_data(back) +
						       (size_t)y * cairo_image_surface_get_stride(back));
		for (int i = 0; i < w; i++)
			if ((a[i] & 0xffffff) != (c[i] & 0xffffff))
				fail_msg("pixel (%d, %d): %06x written, %06x read", i, y,
					 a[i] & 0xffffff, c[i] & 0xffffff);
	}
	/* an image surface of another format is refused, not misread */
	cairo_surface_t *argb = cairo_image_surface_create(CAIRO_FORMAT_A8, 4, 4);
	b.n = 0;
	assert_true(vp_png_write(argb, &b) < 0);
	cairo_surface_destroy(argb);
	cairo_surface_destroy(back);
	cairo_surface_destroy(s);
	free(b.p);
}

static int same_file(const char *a, const char *b)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd) == 0;
}

static void output_is_deterministic(void **state)
{
	struct vp_comparison *c = make(names, linear_v, 6);
	const char *files[] = { "cpu-clock-bar.svg", "cpu-clock-bar.png", "cpu-clock-circle.svg",
				"cpu-clock-circle.png" };
	char a[256], b[256];
	(void)state;

	render(c, "d1", VP_SCALE_AUTO);
	render(c, "d2", VP_SCALE_AUTO);
	for (size_t i = 0; i < 4; i++) {
		snprintf(a, sizeof(a), "%s/d1/%s", dir, files[i]);
		snprintf(b, sizeof(b), "%s/d2/%s", dir, files[i]);
		assert_true(same_file(a, b));
	}
	vp_comparison_free(c);
}

static void edge_cases_draw_without_overlaps(void **state)
{
	static const uint64_t one[][2] = { { 5, 0 } };
	static const uint64_t zeros[][2] = { { 0, 7 }, { 0, 0 } };
	static const char *const hostile[] = { "<script>&\"'\x01\n\xff" };
	char svg[256];
	struct vp_comparison *c;
	(void)state;

	c = make(names, one, 1);
	render(c, "one", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/one/cpu-clock-bar.svg", dir);
	no_text_overlaps(svg);
	vp_comparison_free(c);
	c = make(names, zeros, 2);
	render(c, "zero", VP_SCALE_LOG);
	snprintf(svg, sizeof(svg), "%s/zero/cpu-clock-circle.svg", dir);
	no_text_overlaps(svg);
	vp_comparison_free(c);
	c = make(hostile, one, 1);	/* must stay well-formed XML */
	render(c, "hostile", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/hostile/cpu-clock-bar.svg", dir);
	xmlDocPtr doc = xmlReadFile(svg, NULL, XML_PARSE_NONET);
	assert_non_null(doc);
	xmlFreeDoc(doc);
	vp_comparison_free(c);
}


/* The tooltip of each bar and slice starts with the row's full name, exactly
 * (libxml2 unescapes what the enrichment escaped), and holds its exact values. */
static void tooltips_hold_full_names_and_exact_values(void **state)
{
	static const char *const tricky[] = {
		"operator<<(std::ostream&, Foo<\"a\", 'b'> const&)",
		"a & b<c, d>::e()",
		"std::vector<std::pair<int, double>, std::allocator<std::pair<int, double>>>::_M_realloc_insert("
		"__gnu_cxx::__normal_iterator<std::pair<int, double>*, std::vector<std::pair<int, double>>>, "
		"std::pair<int, double>&&)",
	};
	static const uint64_t v[][2] = { { 123457, 98765 }, { 5, 0 }, { 77, 3000 } };
	static struct box b[64];
	struct vp_comparison *c = make(tricky, v, 3);
	char path[256], want[64];
	(void)state;

	render(c, "titles", VP_SCALE_AUTO);
	for (int kind = 0; kind < 2; kind++) {
		snprintf(path, sizeof(path), "%s/titles/cpu-clock-%s.svg", dir, kind ? "circle" : "bar");
		size_t n = read_marks(path, kind ? "slice" : "bar", b, 64);
		assert_true(n >= (kind ? 5u : 6u));
		size_t named = 0;
		for (size_t i = 0; i < n; i++) {
			const char *nl = strchr(b[i].text, '\n');
			assert_non_null(nl);
			if (!strncmp(b[i].text, "other", 5))
				continue;
			size_t row = 0;
			while (row < 3 && strncmp(b[i].text, tricky[row], strlen(tricky[row])))
				row++;
			assert_true(row < 3);
			assert_int_equal((size_t)(nl - b[i].text), strlen(tricky[row]));
			snprintf(want, sizeof(want), "period %llu", (unsigned long long)v[row][b[i].side]);
			assert_non_null(strstr(b[i].text, want));
			named++;
		}
		assert_true(named >= 5);
	}
	FILE *f = fopen(path, "r");	/* and the file really escapes them */
	char buf[1 << 16];
	size_t len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "a &amp; b&lt;c, d&gt;::e()"));
	vp_comparison_free(c);
}

/* Text boxes of name labels: all distinct, left of the bars, no overlaps. */
static void check_name_labels(const char *svg, size_t rows, double max_right)
{
	static struct box t[2000];
	size_t n = read_marks(svg, "text-box", t, 2000), names = 0;

	for (size_t i = 0; i < n; i++) {
		if (strncmp(t[i].text, "[.] ", 4))
			continue;
		names++;
		assert_true(t[i].x >= -0.5);
		assert_true(t[i].x + t[i].w <= max_right + 0.5);
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(t[i].text, t[j].text))
				fail_msg("%s: two rows labelled '%s'", svg, t[i].text);
	}
	assert_int_equal(names, rows);
	no_text_overlaps(svg);
}

/* 200-character C++ names that differ only in the middle: shortened, kept
 * apart, the namespace start and function name end kept. */
static void long_names_shorten_apart(void **state)
{
	static char buf[12][260];
	static const char *nm[12];
	static uint64_t v[12][2];
	static struct box b[64];
	char svg[256];
	(void)state;

	for (int i = 0; i < 12; i++) {
		snprintf(buf[i], sizeof(buf[i]), "outer::inner::Widget<std::map<std::string, int>, %c>::"
			 "very_long_member_function_name_that_goes_on_and_on_number_%02d_with_a_tail_"
			 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx_end(int, char const*)",
			 i < 6 ? 'A' : 'B', i % 6);
		nm[i] = buf[i];
		v[i][0] = 1000u * (uint64_t)(13 - i);
		v[i][1] = 900u * (uint64_t)(13 - i);
	}
	assert_true(strlen(buf[0]) >= 200);
	struct vp_comparison *c = make(nm, (const uint64_t(*)[2])v, 12);
	render_sized(c, "long", VP_SCALE_AUTO, 700, 0, VP_FMT_SVG);
	snprintf(svg, sizeof(svg), "%s/long/cpu-clock-bar.svg", dir);
	assert_int_equal(read_marks(svg, "bar", b, 64), 24);
	check_name_labels(svg, 12, b[0].x);
	static struct box t[2000];
	size_t n = read_marks(svg, "text-box", t, 2000);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(t[i].text, "[.] ", 4)) {
			assert_memory_equal(t[i].text, "[.] oute", 8);	/* the namespace start */
			assert_non_null(strstr(t[i].text, "_end"));	/* the function name end */
			assert_non_null(strstr(t[i].text, "\u2026"));
			assert_null(strstr(t[i].text, "(int"));	/* parameters dropped first */
		}
	snprintf(svg, sizeof(svg), "%s/long/cpu-clock-circle.svg", dir);
	check_name_labels(svg, 6, 700);	/* 6 slices, the rest in "other" */
	vp_comparison_free(c);
}

/* The rules alone: a name too long for its column loses its templates first. */
static void templates_go_before_the_middle_cut(void **state)
{
	static const char *const nm[] = {
		"ns::detail::Parser<std::basic_string<char>, std::allocator<char>>::parse_expression(int) const",
		"operator<<(std::ostream&, int)", "ns::f(int)", "ns::f(double)",
	};
	static const uint64_t v[][2] = { { 10, 20 }, { 5, 5 }, { 4, 4 }, { 3, 3 } };
	static struct box t[2000];
	struct vp_comparison *c = make(nm, v, 4);
	char svg[256];
	int seen = 0;
	(void)state;

	render_sized(c, "tmpl", VP_SCALE_AUTO, 800, 0, VP_FMT_SVG);
	snprintf(svg, sizeof(svg), "%s/tmpl/cpu-clock-bar.svg", dir);
	size_t n = read_marks(svg, "text-box", t, 2000);
	for (size_t i = 0; i < n; i++) {
		seen += !strcmp(t[i].text, "[.] ns::detail::Parser<\u2026>::parse_expression");
		seen += !strcmp(t[i].text, "[.] operator<<");
		/* overloads shown as perf shows them ("ns::f") would collide: parameters tell them apart */
		seen += !strcmp(t[i].text, "[.] ns::f(int)") + !strcmp(t[i].text, "[.] ns::f(double)");
	}
	assert_int_equal(seen, 4);
	vp_comparison_free(c);
}

/* An event only one side recorded: bars for both sides (zero on one), an
 * empty ring that says so, nothing overlapping. */
static void one_side_empty(void **state)
{
	static const uint64_t v[][2] = { { 500, 0 }, { 300, 0 }, { 1, 0 } };
	static const int host_only[2] = { 1, 0 };
	static struct box b[64], t[2000];
	struct vp_comparison *c = make_sides(names, v, 3, host_only);
	char svg[256];
	int said = 0;
	(void)state;

	render(c, "empty", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/empty/cpu-clock-bar.svg", dir);
	assert_int_equal(read_marks(svg, "bar", b, 64), 6);
	check_name_labels(svg, 3, b[0].x);
	snprintf(svg, sizeof(svg), "%s/empty/cpu-clock-circle.svg", dir);
	no_text_overlaps(svg);
	size_t n = read_marks(svg, "text-box", t, 2000);
	for (size_t i = 0; i < n; i++)
		said |= !strcmp(t[i].text, "not recorded");
	assert_true(said);
	assert_int_equal(read_marks(svg, "slice", b, 64), 4);	/* host: 3 named + other */
	vp_comparison_free(c);
}

/* Many rows squeezed into a small --size: rows keep their minimum height. */
static void small_size_never_overlaps(void **state)
{
	static char buf[40][64];
	static const char *nm[40];
	static uint64_t v[40][2];
	static struct box b[128];
	char svg[256];
	(void)state;

	for (int i = 0; i < 40; i++) {
		snprintf(buf[i], sizeof(buf[i]), "function_%02d", i);
		nm[i] = buf[i];
		v[i][0] = 1000000u / (uint64_t)(i + 1);
		v[i][1] = i % 3 ? 999999u / (uint64_t)(i + 1) : 0;
	}
	struct vp_comparison *c = make(nm, (const uint64_t(*)[2])v, 40);
	render_sized(c, "small", VP_SCALE_LINEAR, 400, 200, VP_FMT_SVG | VP_FMT_PNG);
	snprintf(svg, sizeof(svg), "%s/small/cpu-clock-bar.svg", dir);
	assert_int_equal(read_marks(svg, "bar", b, 128), 80);
	check_name_labels(svg, 40, b[0].x);
	snprintf(svg, sizeof(svg), "%s/small/cpu-clock-circle.svg", dir);
	no_text_overlaps(svg);
	vp_comparison_free(c);
}

/* Three sides of four runs: row 0 does 1.5x and 2x the host's work on the
 * second and third side, the others the same up to a few percent of
 * run-to-run wobble. */
static uint64_t three_sides(size_t i, size_t s, size_t k, const void *ctx)
{
	static const double base[] = { 400000, 300000, 200000, 120000, 60000 };
	double mult = i == 0 ? (s == 0 ? 1 : s == 1 ? 1.5 : 2) : 1;
	(void)ctx;
	return (uint64_t)(base[i] * mult * (1 + 0.03 * sin((double)(7 * i + 3 * s + k))));
}

static struct vp_comparison *make_three(void)
{
	static const int all[3] = { 1, 1, 1 };
	static const char *const nm[] = { "hot", "warm", "cool", "cold", "rare" };
	return make_runs(nm, 5, 3, 4, all, three_sides, NULL);
}

/* K = 3: three bars per row in the sides' order and hues, the legend's
 * swatches in the same order, coloured or pale by the model's verdict, and
 * the subtitle says the runs per side. */
static void three_sides_group_in_order(void **state)
{
	struct vp_comparison *c = make_three();
	static struct box t[2000];
	char svg[256];
	size_t full, pale, seen = 0;
	double last_x = -1;
	int runs = 0;
	(void)state;

	render(c, "k3", VP_SCALE_LINEAR);
	bars_coloured_by_verdict(c, "k3", &full, &pale);
	assert_true(vp_cmp_stat(&c->events[0], &c->events[0].rows[0], 1)->significant);
	assert_true(vp_cmp_stat(&c->events[0], &c->events[0].rows[0], 2)->significant);
	assert_true(full >= 3 && pale >= 1);
	snprintf(svg, sizeof(svg), "%s/k3/cpu-clock-bar.svg", dir);
	no_text_overlaps(svg);
	size_t n = read_marks(svg, "text-box", t, 2000);
	for (size_t i = 0; i < n; i++) {
		static const char *const want[] = { "host: ", "guest: ", "third: " };
		if (seen < 3 && !strncmp(t[i].text, want[seen], strlen(want[seen]))) {
			assert_true(t[i].x > last_x);	/* left to right on the legend's line */
			last_x = t[i].x;
			seen++;
		}
		runs |= !strncmp(t[i].text, "4 runs per side; 95% intervals across runs", 42);
	}
	assert_int_equal(seen, 3);
	assert_true(runs);
	vp_comparison_free(c);
}

/* Every bar's whisker: the host's is the interval of its mean, another
 * side's the ratio's interval times the host's mean, both from the model;
 * drawn at the bar's scale (pixels per unit from the bars themselves) and
 * centred on its bar. */
static void whiskers_are_the_intervals(void **state)
{
	struct vp_comparison *c = make_three();
	const struct vp_cmp_event *e = &c->events[0];
	static struct box b[64], w[64];
	char svg[256];
	(void)state;

	render(c, "wh", VP_SCALE_LINEAR);
	snprintf(svg, sizeof(svg), "%s/wh/cpu-clock-bar.svg", dir);
	size_t nb = read_marks(svg, "bar", b, 64), nw = read_marks(svg, "whisker", w, 64);
	assert_int_equal(nb, 15);
	assert_int_equal(nw, 15);
	double k = b[0].w / b[0].value, x0 = b[0].x;
	for (size_t i = 0; i < nw; i++) {
		const struct vp_cmp_row *r = &e->rows[i / 3];
		size_t s = (size_t)w[i].side;
		double lo, hi, base = vp_cmp_mean(e, r, 0, VP_VALUE_PERIOD);

		assert_int_equal(s, i % 3);
		if (s == 0) {
			assert_int_equal(vp_cmp_mean_interval(e, r, 0, VP_VALUE_PERIOD, 0.05, &lo, &hi), 0);
		} else {
			lo = base * vp_cmp_stat(e, r, s)->ratio_lo;
			hi = base * vp_cmp_stat(e, r, s)->ratio_hi;
		}
		assert_true(lo < vp_cmp_mean(e, r, s, VP_VALUE_PERIOD) && vp_cmp_mean(e, r, s, VP_VALUE_PERIOD) < hi);
		assert_true(fabs(w[i].lo - lo) <= 5e-4 + 1e-9 * lo && fabs(w[i].hi - hi) <= 5e-4 + 1e-9 * hi);
		assert_int_equal(w[i].clipped, 0);
		assert_true(fabs(w[i].x - (x0 + k * lo)) <= 0.5);
		assert_true(fabs(w[i].x + w[i].w - (x0 + k * hi)) <= 0.5);
		assert_true(fabs(w[i].y + w[i].h / 2 - (b[i].y + b[i].h / 2)) < 0.01);
		assert_non_null(strstr(w[i].text, "whisker 95% ["));
	}
	vp_comparison_free(c);
}

/* K donuts: one per side, the same functions in the same order on each,
 * every slice's tooltip with every side; of eight functions six get a slice
 * and the rest is one grey "other" per donut. */
static void donuts_share_their_order(void **state)
{
	static const char *const nm[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	static uint64_t v[8][2];
	static struct box sl[64];
	char svg[256], first[3][8][64];
	size_t count[3] = { 0 }, others = 0;
	(void)state;

	struct vp_comparison *c = make_three();
	render(c, "donuts", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/donuts/cpu-clock-circle.svg", dir);
	no_text_overlaps(svg);
	size_t n = read_marks(svg, "slice", sl, 64);
	for (size_t i = 0; i < n; i++) {
		size_t s = (size_t)sl[i].side;
		assert_true(s < 3 && count[s] < 8);
		snprintf(first[s][count[s]++], 64, "%.*s", (int)strcspn(sl[i].text, "\n"), sl[i].text);
		for (size_t k = 0; k < 3; k++) {	/* every side's values: the slice's first */
			static const char *const lab[] = { "\nhost: ", "\nguest: ", "\nthird: " };
			const char *at = strstr(sl[i].text, lab[k]);
			assert_non_null(at);
			if (k != s)
				assert_true(at > strstr(sl[i].text, lab[s]));
		}
		if (strncmp(sl[i].text, "other", 5))
			assert_non_null(strstr(sl[i].text, "\nthird/host: "));
	}
	assert_int_equal(count[0], 6);	/* five rows and the rest of the totals */
	for (size_t s = 1; s < 3; s++) {
		assert_int_equal(count[s], count[0]);
		for (size_t i = 0; i < count[0]; i++)
			assert_string_equal(first[s][i], first[0][i]);
	}
	vp_comparison_free(c);

	for (int i = 0; i < 8; i++)
		v[i][0] = v[i][1] = 1000u * (uint64_t)(9 - i);
	c = make(nm, (const uint64_t(*)[2])v, 8);
	render(c, "confetti", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/confetti/cpu-clock-circle.svg", dir);
	n = read_marks(svg, "slice", sl, 64);
	assert_int_equal(n, 2 * 7);
	for (size_t i = 0; i < n; i++)
		others += !strncmp(sl[i].text, "other: 2 functions outside the 6 named", 38);
	assert_int_equal(others, 2);
	vp_comparison_free(c);
}

/* PDF and EPS carry no wall-clock date: the same comparison, the same bytes. */
static void pdf_and_eps_are_deterministic(void **state)
{
	struct vp_comparison *c = make(names, linear_v, 6);
	const char *files[] = { "cpu-clock-bar.pdf", "cpu-clock-bar.eps", "cpu-clock-circle.pdf",
				"cpu-clock-circle.eps" };
	char a[256], b[256];
	(void)state;

	char today[2][32], cmd[400];
	time_t now = time(NULL);
	struct tm tm;

	render_sized(c, "p1", VP_SCALE_AUTO, 0, 0, VP_FMT_PDF | VP_FMT_EPS);
	render_sized(c, "p2", VP_SCALE_AUTO, 0, 0, VP_FMT_PDF | VP_FMT_EPS);
	/* today's date as cairo would write it (ctime in EPS, D:YYYYMMDD in PDF) is nowhere */
	localtime_r(&now, &tm);
	strftime(today[0], sizeof(today[0]), "%a %b %e", &tm);
	strftime(today[1], sizeof(today[1]), "D:%Y%m%d", &tm);
	for (size_t i = 0; i < 4; i++) {
		snprintf(a, sizeof(a), "%s/p1/%s", dir, files[i]);
		snprintf(b, sizeof(b), "%s/p2/%s", dir, files[i]);
		assert_true(same_file(a, b));
		for (int d = 0; d < 2; d++) {
			snprintf(cmd, sizeof(cmd), "grep -aqF '%s' '%s'", today[d], a);
			assert_int_not_equal(system(cmd), 0);
		}
	}
	vp_comparison_free(c);
}

/* An output directory that cannot be made: an error naming it, no files. */
static void unwritable_outdir_fails_cleanly(void **state)
{
	struct vp_comparison *c = make(names, linear_v, 6);
	struct vp_chart_opts o;
	struct vp_error err = { 0 };
	char file[256], out[300];
	(void)state;

	snprintf(file, sizeof(file), "%s/plainfile", dir);
	FILE *f = fopen(file, "w");
	fclose(f);
	snprintf(out, sizeof(out), "%s/sub", file);
	vp_chart_opts_init(&o);
	o.outdir = out;
	assert_true(vp_chart_render(c, &o, &err) < 0);
	assert_non_null(strstr(err.msg, out));
	vp_comparison_free(c);
}

/* ---- drawn on several processes as on one ---- */

struct wrote_list {
	char names[64][64];
	size_t n;
};

static void note_wrote(const char *path, void *ctx)
{
	struct wrote_list *w = ctx;
	const char *base = strrchr(path, '/');

	assert_true(w->n < 64);
	snprintf(w->names[w->n++], sizeof(w->names[0]), "%s", base ? base + 1 : path);
}

/* Two sides, events ev0..ev(nev-1) with rows of their own. */
static struct vp_comparison *make_events(size_t nev)
{
	size_t per[2] = { 1, 1 };
	struct vp_comparison *c = vp_comparison_new(2, per);
	struct vp_error err = { 0 };
	char name[16];

	c->label[0] = vp_strpool_intern(c->pool, "host");
	c->label[1] = vp_strpool_intern(c->pool, "guest");
	c->value = VP_VALUE_PERIOD;
	for (size_t ev = 0; ev < nev; ev++) {
		snprintf(name, sizeof(name), "ev%zu", ev);
		int at = vp_comparison_add_event(c, name);
		assert_true(at >= 0);
		struct vp_cmp_event *e = &c->events[at];
		e->run_present[0] = e->run_present[1] = 1;
		for (size_t i = 0; i < 6; i++) {
			struct vp_cmp_row *r = vp_cmp_event_add_row(c, e);
			assert_non_null(r);
			r->symbol = vp_strpool_intern(c->pool, names[i]);
			r->dso = vp_strpool_intern(c->pool, "/bin/app");
			r->domain = '.';
			for (size_t k = 0; k < 2; k++) {
				r->run_period[k] = (linear_v[i][k] + 1000) * (ev + 1);
				r->run_samples[k] = r->run_period[k] / 1000;
				e->run_total_period[k] += r->run_period[k];
				e->run_total_samples[k] += r->run_samples[k];
			}
		}
	}
	assert_int_equal(vp_comparison_finish(c, &err), 0);
	return c;
}

static int render_procs(struct vp_comparison *c, const char *sub, unsigned procs,
			  struct wrote_list *w, struct vp_error *err)
{
	struct vp_chart_opts o;
	char out[128];

	snprintf(out, sizeof(out), "%s/%s", dir, sub);
	vp_chart_opts_init(&o);
	o.outdir = out;
	o.formats = VP_FMT_SVG | VP_FMT_PNG | VP_FMT_HTML;
	o.procs = procs;
	o.wrote = note_wrote;
	o.wrote_ctx = w;
	return vp_chart_render(c, &o, err);
}

static void procs_draw_as_one(void **state)
{
	struct vp_comparison *c = make_events(6);
	static struct wrote_list one, four;
	struct vp_error err = { 0 };
	char a[256], b[256];
	(void)state;

	assert_int_equal(render_procs(c, "th1", 1, &one, &err), 0);
	assert_int_equal(render_procs(c, "th4", 4, &four, &err), 0);
	/* each event's bar and circle in SVG and PNG, then the page: in that order */
	assert_int_equal(one.n, 6 * 2 * 2 + 1);
	assert_string_equal(one.names[0], "ev0-bar.svg");
	assert_string_equal(one.names[one.n - 1], "index.html");
	assert_int_equal(four.n, one.n);
	for (size_t i = 0; i < one.n; i++) {
		assert_string_equal(four.names[i], one.names[i]);
		snprintf(a, sizeof(a), "%s/th1/%s", dir, one.names[i]);
		snprintf(b, sizeof(b), "%s/th4/%s", dir, one.names[i]);
		assert_true(same_file(a, b));
	}
	vp_comparison_free(c);
}

/* Two charts that cannot be written: the first in the charts' order is
 * the error, and no file of the run is left, whichever process drew what. */
static void procs_fail_as_one(void **state)
{
	struct vp_comparison *c = make_events(6);
	static struct wrote_list w;
	char path[256];
	(void)state;

	for (int round = 0; round < 8; round++) {
		struct vp_error err = { 0 };
		snprintf(path, sizeof(path), "%s/thf", dir);
		mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/thf/ev1-circle.png", dir);
		mkdir(path, 0777);	/* a directory where a chart goes */
		snprintf(path, sizeof(path), "%s/thf/ev4-bar.svg", dir);
		mkdir(path, 0777);
		w.n = 0;
		assert_true(render_procs(c, "thf", 4, &w, &err) < 0);
		assert_non_null(strstr(err.msg, "ev1-circle.png"));
		assert_int_equal(w.n, 0);
		char cmd[512];
		snprintf(cmd, sizeof(cmd), "test \"$(ls '%s/thf' | tr '\\n' ' ')\" = 'ev1-circle.png ev4-bar.svg '", dir);
		assert_int_equal(system(cmd), 0);	/* only the two directories */
	}
	vp_comparison_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bars_are_proportional_linear),
		cmocka_unit_test(bars_follow_logs_on_a_wide_range),
		cmocka_unit_test(png_has_the_size_and_the_side_colours),
		cmocka_unit_test(png_writer_gives_back_every_pixel),
		cmocka_unit_test(output_is_deterministic),
		cmocka_unit_test(edge_cases_draw_without_overlaps),
		cmocka_unit_test(tooltips_hold_full_names_and_exact_values),
		cmocka_unit_test(long_names_shorten_apart),
		cmocka_unit_test(templates_go_before_the_middle_cut),
		cmocka_unit_test(one_side_empty),
		cmocka_unit_test(small_size_never_overlaps),
		cmocka_unit_test(three_sides_group_in_order),
		cmocka_unit_test(whiskers_are_the_intervals),
		cmocka_unit_test(donuts_share_their_order),
		cmocka_unit_test(pdf_and_eps_are_deterministic),
		cmocka_unit_test(unwritable_outdir_fails_cleanly),
		cmocka_unit_test(procs_draw_as_one),
		cmocka_unit_test(procs_fail_as_one),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
