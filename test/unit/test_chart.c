/* Chart geometry read back from the SVG (libxml2): 2N bars whose lengths are
 * proportional to the values (linear) or their logs (log scale) within a
 * pixel, no two text boxes overlapping; the PNG has the right size and the
 * host/guest colours at the bars' centres; output is byte-for-byte stable. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "render/chart.h"

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

/* A comparison with one event whose rows have the given values per side. */
static struct vp_comparison *make(const char *const *names, const uint64_t (*v)[2], size_t n)
{
	struct vp_comparison *c = vp_comparison_new();
	int at = vp_comparison_add_event(c, "cpu-clock");
	struct vp_cmp_event *e = &c->events[at];

	c->label[0] = vp_strpool_intern(c->pool, "host");
	c->label[1] = vp_strpool_intern(c->pool, "guest");
	c->value = VP_VALUE_PERIOD;
	e->rows = calloc(n, sizeof(*e->rows));
	e->present[0] = e->present[1] = 1;
	for (size_t i = 0; i < n; i++) {
		struct vp_cmp_row *r = &e->rows[i];
		r->symbol = vp_strpool_intern(c->pool, names[i]);
		r->dso = vp_strpool_intern(c->pool, "/bin/app");
		r->domain = '.';
		for (int s = 0; s < 2; s++) {
			r->period[s] = v[i][s];
			r->samples[s] = v[i][s] / 1000;
			e->total_period[s] += v[i][s] * 2;	/* rows are half of the total */
			e->total_samples[s] += v[i][s] / 500;
		}
	}
	e->total_rows = e->nrows = n;
	return c;
}

struct box { double x, y, w, h, value; int side; };

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
				const char *a[] = { "x", "y", "width", "height", "data-value" };
				double *f[] = { &b->x, &b->y, &b->w, &b->h, &b->value };
				for (int k = 0; k < 5; k++) {
					xmlChar *s = xmlGetProp(r, BAD_CAST a[k]);
					*f[k] = s ? atof((char *)s) : 0;
					xmlFree(s);
				}
				xmlChar *s = xmlGetProp(r, BAD_CAST "data-side");
				b->side = s && !xmlStrcmp(s, BAD_CAST "guest");
				xmlFree(s);
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

static void render(struct vp_comparison *c, const char *sub, enum vp_chart_scale scale)
{
	struct vp_chart_opts o;
	struct vp_error err = { 0 };
	char out[128];

	snprintf(out, sizeof(out), "%s/%s", dir, sub);
	vp_chart_opts_init(&o);
	o.outdir = out;
	o.scale = scale;
	assert_int_equal(vp_chart_render(c, &o, &err), 0);
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
	struct box b[64];
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
	struct box b[64];
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

static void png_has_the_size_and_the_side_colours(void **state)
{
	static const double host[3] = { 0.0, 0.447, 0.698 }, guest[3] = { 0.902, 0.624, 0.0 };
	struct vp_comparison *c = make(names, linear_v, 6);
	struct box b[64];
	char svg[256], png[256];
	(void)state;

	render(c, "png", VP_SCALE_AUTO);
	snprintf(svg, sizeof(svg), "%s/png/cpu-clock-bar.svg", dir);
	snprintf(png, sizeof(png), "%s/png/cpu-clock-bar.png", dir);
	size_t n = read_marks(svg, "bar", b, 64);
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
	unsigned char *data = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	size_t checked = 0;
	for (size_t i = 0; i < n; i++) {
		if (b[i].w < 4)
			continue;
		int x = (int)(b[i].x + b[i].w / 2), y = (int)(b[i].y + b[i].h / 2);
		assert_true(close_to(data + y * stride + x * 4, b[i].side ? guest : host));
		checked++;
	}
	assert_true(checked >= 9);
	cairo_surface_destroy(s);
	vp_comparison_free(c);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bars_are_proportional_linear),
		cmocka_unit_test(bars_follow_logs_on_a_wide_range),
		cmocka_unit_test(png_has_the_size_and_the_side_colours),
		cmocka_unit_test(output_is_deterministic),
		cmocka_unit_test(edge_cases_draw_without_overlaps),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
