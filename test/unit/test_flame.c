/* Differential flame graphs, SVG parsed back with libxml2: widths are the
 * width side's shares, colours have the sign of each frame's change (grey
 * within noise), one-side frames are hatched, the legend says what width
 * and colour mean, --flame-width and --flame-norm none work, runs are judged
 * by their spread, and names that are markup stay text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "render/render_internal.h"
#include "fixtures.h"

#define HOSTILE "</script><script>alert(1)</script><![CDATA[ ]]>&amp \"'"

struct fx {
	struct vp_strpool *pool;
	struct vp_stack_tree *t;
	xmlDocPtr doc;
};


/* host (column 0) and guest (column 1): grow 100 -> 400, shrink 400 -> 100,
 * same 300 -> 300, only_guest 0 -> 200, only_host 200 -> 0, and a hostile
 * name 50 -> 50. Totals 1050 and 1050. */
/* samples of "comm;a;b" in column col, period 10 each */
static void add(struct vp_stack_tree *t, size_t col, const char *spec, uint64_t samples)
{
	vp_test_stack_add(t, col, spec, samples, 10 * samples);
}

static struct vp_stack_tree *two_sides(struct vp_strpool *pool, size_t runs_per_side)
{
	struct vp_stack_tree *t = vp_stack_tree_new(2 * runs_per_side, pool);
	for (size_t r = 0; r < runs_per_side; r++) {
		size_t h = r, g = runs_per_side + r;
		add(t, h, "prog;main;grow", 100);
		add(t, g, "prog;main;grow", 400);
		add(t, h, "prog;main;shrink", 400);
		add(t, g, "prog;main;shrink", 100);
		add(t, h, "prog;main;same", 300 + r);
		add(t, g, "prog;main;same", 300 - r);
		add(t, g, "prog;main;only_guest", 200);
		add(t, h, "prog;main;only_host", 200);
		add(t, h, "prog;main;" HOSTILE, 50);
		add(t, g, "prog;main;" HOSTILE, 50);
	}
	vp_stack_tree_sort(t);
	return t;
}

static xmlDocPtr draw(const struct vp_flame_src *src, const struct vp_chart_opts *o, char **errmsg)
{
	struct vp_flame_layout L;
	struct vp_membuf b = { 0 };
	struct vp_error err = { 0 };
	xmlDocPtr doc;

	*errmsg = NULL;
	if (vp_flame_layout(src, 1, o, &L, &err) < 0) {
		*errmsg = strdup(err.msg);
		return NULL;
	}
	assert_int_equal(vp_flame_render(&L, o, VP_FMT_SVG, &b), 0);
	vp_flame_layout_free(&L);
	doc = xmlReadMemory((const char *)b.p, (int)b.n, "flame.svg", NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
	free(b.p);
	assert_non_null(doc);
	return doc;
}

static xmlXPathObjectPtr q(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr c = xmlXPathNewContext(doc);
	xmlXPathRegisterNs(c, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, c);
	xmlXPathFreeContext(c);
	return r;
}

static int count(xmlDocPtr doc, const char *expr)
{
	xmlXPathObjectPtr r = q(doc, expr);
	int n = r && r->nodesetval ? r->nodesetval->nodeNr : 0;
	xmlXPathFreeObject(r);
	return n;
}

/* The frame named name: its box's attribute, or NULL when not drawn. */
static char *frame_attr(xmlDocPtr doc, const char *name, const char *box_attr)
{
	xmlXPathObjectPtr r = q(doc, "//s:g[@class='vp-frame']");
	char *out = NULL;

	for (int i = 0; r && r->nodesetval && i < r->nodesetval->nodeNr && !out; i++) {
		xmlNodePtr g = r->nodesetval->nodeTab[i];
		xmlChar *n = xmlGetProp(g, BAD_CAST "data-name");
		if (n && !strcmp((char *)n, name)) {
			if (!strncmp(box_attr, "data-", 5)) {
				out = (char *)xmlGetProp(g, BAD_CAST box_attr);
			} else {
				for (xmlNodePtr c = g->children; c; c = c->next) {
					xmlChar *cl = xmlGetProp(c, BAD_CAST "class");
					if (cl && !strcmp((char *)cl, !strcmp(box_attr, "hatch") ? "vp-hatch" : "vp-box"))
						out = (char *)xmlGetProp(c, BAD_CAST(!strcmp(box_attr, "hatch") ? "class"
															 : box_attr));
					xmlFree(cl);
				}
			}
		}
		xmlFree(n);
	}
	xmlXPathFreeObject(r);
	return out;
}

/* -1 blue (the baseline's share larger), 1 orange (the other's), 0 grey. */
static int hue(xmlDocPtr doc, const char *name)
{
	char *f = frame_attr(doc, name, "fill");
	unsigned r, g, b;
	assert_non_null(f);
	assert_int_equal(sscanf(f, "#%2x%2x%2x", &r, &g, &b), 3);
	xmlFree(f);
	return r == g && g == b ? 0 : r > b ? 1 : -1;
}

static double width(xmlDocPtr doc, const char *name)
{
	char *w = frame_attr(doc, name, "width");
	double v;
	assert_non_null(w);
	v = atof(w);
	xmlFree(w);
	return v;
}

static int has_text(xmlDocPtr doc, const char *needle)
{
	xmlChar *all = xmlNodeGetContent(xmlDocGetRootElement(doc));
	int found = all && strstr((char *)all, needle);
	xmlFree(all);
	return found;
}

static void test_colours_widths_marks_legend(void **state)
{
	(void)state;
	struct vp_strpool *pool = vp_strpool_new();
	struct vp_stack_tree *t = two_sides(pool, 1);
	const char *labels[2] = { "host", "guest" };
	struct vp_flame_src src = { t, 2, NULL, labels, "cpu-clock", VP_VALUE_PERIOD };
	struct vp_chart_opts o;
	char *e;

	vp_chart_opts_init(&o);
	xmlDocPtr doc = draw(&src, &o, &e);
	/* widths: guest's shares of 980 units */
	assert_true(fabs(width(doc, "grow") - 980.0 * 400 / 1050) < 0.002);
	assert_true(fabs(width(doc, "only_guest") - 980.0 * 200 / 1050) < 0.002);
	assert_true(fabs(width(doc, "all") - 980.0) < 0.002);
	/* colours by the sign of the change; equal shares are grey */
	assert_int_equal(hue(doc, "grow"), 1);
	assert_int_equal(hue(doc, "shrink"), -1);
	assert_int_equal(hue(doc, "same"), 0);
	assert_int_equal(hue(doc, HOSTILE), 0);
	/* one-side frames, and only they, are hatched; host's has no guest width */
	char *h = frame_attr(doc, "only_guest", "hatch");
	assert_non_null(h);
	xmlFree(h);
	assert_null(frame_attr(doc, "grow", "hatch"));
	assert_null(frame_attr(doc, "only_host", "width"));
	char *ch = frame_attr(doc, "only_guest", "data-change");
	assert_string_equal(ch, "only1");
	xmlFree(ch);
	/* both sides' exact values on every frame */
	char *v0 = frame_attr(doc, "grow", "data-v0"), *v1 = frame_attr(doc, "grow", "data-v1");
	assert_string_equal(v0, "1000");
	assert_string_equal(v1, "4000");
	xmlFree(v0);
	xmlFree(v1);
	/* the legend */
	assert_true(has_text(doc, "width: guest's inclusive period"));
	assert_true(has_text(doc, "within noise"));
	assert_true(has_text(doc, "only in guest"));
	assert_true(has_text(doc, "1 frames only in host"));
	/* the hostile name is an attribute value and text, never markup */
	assert_int_equal(count(doc, "//s:script"), 1);

	assert_true(has_text(doc, "</script><script>alert(1)</script>"));
	xmlFreeDoc(doc);

	/* the baseline's widths: its one-side frame is drawn, the other's is not */
	o.flame_width = "host";
	doc = draw(&src, &o, &e);
	assert_true(fabs(width(doc, "only_host") - 980.0 * 200 / 1050) < 0.002);
	assert_null(frame_attr(doc, "only_guest", "width"));
	assert_int_equal(hue(doc, "grow"), 1);	/* the colour still says guest vs host */
	xmlFreeDoc(doc);

	o.flame_width = "nosuch";
	assert_null(draw(&src, &o, &e));
	assert_non_null(strstr(e, "nosuch"));
	free(e);
	vp_stack_tree_free(t);
	vp_strpool_free(pool);
}

static void test_absolute_and_runs(void **state)
{
	(void)state;
	struct vp_strpool *pool = vp_strpool_new();
	struct vp_stack_tree *t = vp_stack_tree_new(2, pool);
	const char *labels[2] = { "host", "guest" };
	struct vp_flame_src src = { t, 2, NULL, labels, "cpu-clock", VP_VALUE_SAMPLES };
	struct vp_chart_opts o;
	char *e;

	/* guest does twice the work in f, the same in g: by share f grows and g
	 * shrinks; by raw values f grows and g stays */
	add(t, 0, "p;f", 1000);
	add(t, 0, "p;g", 1000);
	add(t, 1, "p;f", 2000);
	add(t, 1, "p;g", 1000);
	vp_stack_tree_sort(t);
	vp_chart_opts_init(&o);
	xmlDocPtr doc = draw(&src, &o, &e);
	assert_int_equal(hue(doc, "f"), 1);
	assert_int_equal(hue(doc, "g"), -1);
	xmlFreeDoc(doc);
	o.flame_absolute = 1;
	doc = draw(&src, &o, &e);
	assert_int_equal(hue(doc, "f"), 1);
	assert_int_equal(hue(doc, "g"), 0);
	/* full width is the larger total: guest's 3000 */
	assert_true(fabs(width(doc, "f") - 980.0 * 2000 / 3000) < 0.002);
	xmlFreeDoc(doc);
	vp_stack_tree_free(t);

	/* two runs a side: judged by their spread, said in the legend */
	t = two_sides(pool, 2);
	size_t first_run[3] = { 0, 2, 4 };
	struct vp_flame_src runs = { t, 2, first_run, labels, "cpu-clock", VP_VALUE_PERIOD };
	o.flame_absolute = 0;
	doc = draw(&runs, &o, &e);
	assert_true(has_text(doc, "spread between each side's runs"));
	char *v0 = frame_attr(doc, "grow", "data-v0");
	assert_string_equal(v0, "2000");	/* the side's runs summed */
	xmlFree(v0);
	assert_int_equal(hue(doc, "same"), 0);
	xmlFreeDoc(doc);
	vp_stack_tree_free(t);
	vp_strpool_free(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colours_widths_marks_legend),
		cmocka_unit_test(test_absolute_and_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
