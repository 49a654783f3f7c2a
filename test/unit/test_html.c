/* The HTML report without a browser: names that are markup, script, C++
 * and broken UTF-8 come back from libxml2's HTML parser as the same text
 * (invalid bytes as U+FFFD) and add no element, attribute handler or
 * script; each table has every row of the join, not the charts' top N;
 * the same comparison gives the same bytes. (test/integration/chart_html.sh
 * holds the page against Chromium.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "lib/compare/compare.h"
#include "lib/profile/profile.h"
#include "render/chart.h"

static const char *const names[] = {
	"</script><script>alert(1)</script>",
	"\"><img src=x onerror=alert(1)>",
	"std::map<int, std::string>::operator[]",
	"a&b \"q\" 'p' <!-- --> ]]>",
	"bad\xff\x01utf8",
	"plain",
	"f11", "f12", "f13", "f14", "f15", "f16",
};
#define N (sizeof(names) / sizeof(*names))

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/vp-html-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static struct vp_profile *side(uint64_t mul)
{
	struct vp_profile *p = vp_profile_new();
	struct vp_event_table *t = vp_profile_table(p, "cpu-clock", VP_KEY_DEFAULT);

	assert_non_null(t);
	p->meta.hostname = vp_profile_intern(p, "<b>host</b>");
	for (size_t i = 0; i < N; i++) {
		struct vp_row r = { .pid = -1, .domain = '.' };
		r.symbol = vp_profile_intern(p, names[i]);
		r.dso = vp_profile_intern(p, "<i>lib</i>.so");
		r.samples = (i + 1) * mul;
		r.period = r.samples * 1000;
		assert_true(vp_table_add(t, &r) >= 0);
	}
	vp_table_sort(t, VP_VALUE_PERIOD);
	return p;
}

/* The page for a comparison cut to the top 5, as bytes. */
static char *page(const char *sub, size_t *len)
{
	struct vp_profile *h = side(3), *g = side(5);
	struct vp_compare_opts co;
	struct vp_comparison *c;
	struct vp_chart_opts o;
	struct vp_error err = { 0 };
	char out[128], path[160];
	FILE *f;
	char *buf;

	vp_compare_opts_init(&co);
	assert_int_equal(vp_compare(h, g, &co, &c, &err), 0);
	vp_comparison_rank(c, VP_RANK_MAX, 5);
	vp_chart_opts_init(&o);
	snprintf(out, sizeof(out), "%s/%s", dir, sub);
	o.outdir = out;
	o.formats = VP_FMT_HTML;
	assert_int_equal(vp_chart_render(c, &o, &err), 0);
	vp_comparison_free(c);
	vp_profile_free(h);
	vp_profile_free(g);
	snprintf(path, sizeof(path), "%s/index.html", out);
	assert_non_null(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	assert_non_null(buf = malloc(*len + 1));
	assert_int_equal(fread(buf, 1, *len, f), *len);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

struct seen {
	size_t scripts, foreign, handlers, rows, syms;
	int found[N];
};

static void walk(xmlNodePtr n, struct seen *s)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		const char *tag = (const char *)n->name;
		if (!strcmp(tag, "script"))
			s->scripts++;
		if (!strcmp(tag, "img") || !strcmp(tag, "b") || !strcmp(tag, "i") || !strcmp(tag, "iframe"))
			s->foreign++;
		for (xmlAttrPtr a = n->properties; a; a = a->next)
			if (!strncasecmp((const char *)a->name, "on", 2))
				s->handlers++;
		xmlChar *cls = xmlGetProp(n, BAD_CAST "class");
		xmlChar *rank = xmlGetProp(n, BAD_CAST "data-rank");
		if (!strcmp(tag, "tr") && rank)
			s->rows++;
		xmlFree(rank);
		if (!strcmp(tag, "th") && cls && !strcmp((char *)cls, "sym")) {
			xmlChar *t = xmlNodeGetContent(n);
			s->syms++;
			for (size_t i = 0; i < N; i++)
				if (!strcmp((char *)t, names[i]))
					s->found[i] = 1;
			/* the bytes that are not UTF-8 come back as U+FFFD */
			if (!strcmp((char *)t, "bad\xef\xbf\xbd\xef\xbf\xbdutf8"))
				s->found[4] = 1;
			xmlFree(t);
		}
		xmlFree(cls);
		walk(n->children, s);
	}
}

static void names_are_text(void **state)
{
	size_t len;
	char *buf = page("a", &len);
	htmlDocPtr doc = htmlReadMemory(buf, (int)len, "index.html", "UTF-8",
					HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	struct seen s = { 0 };

	(void)state;
	assert_non_null(doc);
	walk(xmlDocGetRootElement(doc), &s);
	assert_int_equal(s.scripts, 1);
	assert_int_equal(s.foreign, 0);
	assert_int_equal(s.handlers, 0);
	/* every row of the join, though the charts were cut to 5 */
	assert_int_equal(s.rows, N);
	assert_int_equal(s.syms, N);
	for (size_t i = 0; i < N; i++) {
		if (!s.found[i])
			fail_msg("name %zu '%s' is not a row's text", i, names[i]);
	}
	/* no raw name in the bytes that could close or open an element */
	assert_null(strstr(buf, "<script>alert"));
	assert_null(strstr(buf, "<img"));
	assert_non_null(strstr(buf, "Content-Security-Policy"));
	xmlFreeDoc(doc);
	free(buf);
}

static void same_bytes(void **state)
{
	size_t la, lb;
	char *a = page("x", &la), *b = page("y", &lb);

	(void)state;
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_are_text),
		cmocka_unit_test(same_bytes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
