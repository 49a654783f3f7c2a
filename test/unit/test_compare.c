/* The join: full outer by key, dso by base name, one-sided rows and events
 * kept and marked, ranks, and top-N cuts that a re-rank can undo. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "lib/compare/compare.h"

static void add(struct vp_profile *p, const char *ev, const char *sym, const char *dso, char dom,
		uint64_t samples, uint64_t period)
{
	struct vp_event_table *t = vp_profile_table(p, ev, VP_KEY_DEFAULT);
	struct vp_row r = { vp_profile_intern(p, sym), vp_profile_intern(p, dso), NULL, -1, dom,
			    samples, period };
	assert_non_null(t);
	assert_true(vp_table_add(t, &r) >= 0);
}

static const struct vp_cmp_row *find(const struct vp_cmp_event *e, const char *sym)
{
	for (size_t i = 0; i < e->total_rows; i++)
		if (!strcmp(e->rows[i].symbol, sym))
			return &e->rows[i];
	return NULL;
}

static const struct vp_cmp_event *event(const struct vp_comparison *c, const char *name)
{
	for (size_t i = 0; i < c->nevents; i++)
		if (!strcmp(c->events[i].name, name))
			return &c->events[i];
	return NULL;
}

static void make(struct vp_profile **h, struct vp_profile **g)
{
	*h = vp_profile_new();
	*g = vp_profile_new();
	add(*h, "cpu-clock", "work", "/usr/bin/app", '.', 10, 100);
	add(*h, "cpu-clock", "memcpy", "/usr/lib/x86_64-linux-gnu/libc.so.6", '.', 5, 50);
	add(*h, "cpu-clock", "host_only", "/usr/bin/app", '.', 1, 10);
	add(*g, "cpu-clock", "work", "/opt/app", '.', 20, 400);
	add(*g, "cpu-clock", "memcpy", "/lib64/libc.so.6", '.', 5, 50);
	add(*g, "cpu-clock", "memcpy", "[kernel.kallsyms]", 'k', 1, 10);	/* same name, kernel */
	add(*g, "cpu-clock", "guest_only", "/opt/app", '.', 2, 40);
	add(*g, "page-faults", "touch", "/opt/app", '.', 3, 3);
}

static void full_outer_join_by_symbol(void **state)
{
	struct vp_profile *h, *g;
	struct vp_comparison *c;
	struct vp_compare_opts o;
	struct vp_error err = { 0 };
	enum vp_ratio_kind k;
	(void)state;

	make(&h, &g);
	vp_compare_opts_init(&o);
	o.top = 0;
	assert_int_equal(vp_compare(h, g, &o, &c, &err), 0);
	const struct vp_cmp_event *e = event(c, "cpu-clock");
	assert_non_null(e);
	assert_int_equal(e->total_rows, 4);	/* work, memcpy (both domains), host_only, guest_only */
	const struct vp_cmp_row *w = find(e, "work");
	assert_int_equal(w->period[VP_HOST], 100);
	assert_int_equal(w->period[VP_GUEST], 400);
	assert_true(vp_cmp_ratio(w, VP_VALUE_PERIOD, &k) == 4.0 && k == VP_RATIO_BOTH);
	const struct vp_cmp_row *m = find(e, "memcpy");
	assert_int_equal(m->period[VP_GUEST], 60);	/* key sym: user and kernel memcpy meet */
	vp_cmp_ratio(find(e, "host_only"), VP_VALUE_PERIOD, &k);
	assert_int_equal(k, VP_RATIO_ONLY_HOST);
	vp_cmp_ratio(find(e, "guest_only"), VP_VALUE_PERIOD, &k);
	assert_int_equal(k, VP_RATIO_ONLY_GUEST);
	/* shares of the event totals: 100/160 host, 400/500 guest */
	assert_true(fabs(vp_cmp_delta_pp(e, w, VP_VALUE_PERIOD) - 100.0 * (400.0 / 500 - 100.0 / 160)) < 1e-9);
	/* an event on one side only is kept and says so */
	const struct vp_cmp_event *pf = event(c, "page-faults");
	assert_non_null(pf);
	assert_false(pf->present[VP_HOST]);
	assert_true(pf->present[VP_GUEST]);
	vp_comparison_free(c);
	vp_profile_free(h);
	vp_profile_free(g);
}

static void dso_joins_by_base_name_and_domain_splits(void **state)
{
	struct vp_profile *h, *g;
	struct vp_comparison *c;
	struct vp_compare_opts o;
	struct vp_error err = { 0 };
	(void)state;

	make(&h, &g);
	vp_compare_opts_init(&o);
	o.top = 0;
	o.key = VP_KEY_SYM | VP_KEY_DSO | VP_KEY_DOMAIN;
	assert_int_equal(vp_compare(h, g, &o, &c, &err), 0);
	const struct vp_cmp_event *e = event(c, "cpu-clock");
	size_t libc = 0, kernel = 0;
	for (size_t i = 0; i < e->total_rows; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		if (!strcmp(r->symbol, "memcpy") && r->domain == '.') {
			libc++;
			assert_int_equal(r->period[VP_HOST], 50);	/* libc.so.6 met libc.so.6 */
			assert_int_equal(r->period[VP_GUEST], 50);
		}
		if (!strcmp(r->symbol, "memcpy") && r->domain == 'k')
			kernel++;
		if (!strcmp(r->symbol, "work")) {	/* /usr/bin/app meets /opt/app */
			assert_int_equal(r->period[VP_HOST], 100);
			assert_int_equal(r->period[VP_GUEST], 400);
		}
	}
	assert_int_equal(libc, 1);
	assert_int_equal(kernel, 1);
	vp_comparison_free(c);
	vp_profile_free(h);
	vp_profile_free(g);
}

static void ranks_and_cuts_keep_every_row(void **state)
{
	struct vp_profile *h, *g;
	struct vp_comparison *c;
	struct vp_compare_opts o;
	struct vp_error err = { 0 };
	(void)state;

	make(&h, &g);
	vp_compare_opts_init(&o);
	o.top = 2;
	o.rank = VP_RANK_RATIO;
	assert_int_equal(vp_compare(h, g, &o, &c, &err), 0);
	const struct vp_cmp_event *e = event(c, "cpu-clock");
	assert_int_equal(e->nrows, 2);
	assert_int_equal(e->total_rows, 4);
	assert_string_equal(e->rows[0].symbol, "work");		/* 4x */
	assert_string_equal(e->rows[1].symbol, "memcpy");	/* 60/50 */
	vp_comparison_rank(c, VP_RANK_ABSDELTA, 0);
	assert_int_equal(e->nrows, 4);
	vp_comparison_rank(c, VP_RANK_HOST, 1);
	assert_string_equal(e->rows[0].symbol, "work");
	vp_comparison_rank(c, VP_RANK_DELTA, 0);
	/* largest gain in guest share first, largest loss last */
	assert_string_equal(e->rows[0].symbol, "work");
	assert_string_equal(e->rows[3].symbol, "memcpy");
	vp_comparison_free(c);
	vp_profile_free(h);
	vp_profile_free(g);
}

/* A saved comparison cut to some events (vmprof chart -e), relabelled. */
static void keeps_events_and_relabels(void **state)
{
	struct vp_profile *h, *g;
	struct vp_comparison *c;
	struct vp_error err = { 0 };
	static const char *const keep[] = { "page-faults", NULL };
	static const char *const missing[] = { "page-faults", "cycles", NULL };
	(void)state;

	make(&h, &g);
	assert_int_equal(vp_compare(h, g, NULL, &c, &err), 0);
	assert_int_equal(c->nevents, 2);
	assert_int_equal(vp_comparison_keep_events(c, NULL, &err), 0);
	assert_int_equal(c->nevents, 2);
	assert_int_equal(vp_comparison_keep_events(c, keep, &err), 0);
	assert_int_equal(c->nevents, 1);
	assert_string_equal(c->events[0].name, "page-faults");
	assert_int_equal(vp_comparison_keep_events(c, missing, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "'cycles'"));
	assert_int_equal(c->nevents, 1);
	assert_int_equal(vp_comparison_relabel(c, "bare", "vm"), 0);
	assert_string_equal(c->label[VP_HOST], "bare");
	assert_string_equal(c->label[VP_GUEST], "vm");
	vp_comparison_free(c);
	vp_profile_free(h);
	vp_profile_free(g);
}

static void rank_names_round_trip(void **state)
{
	enum vp_rank r;
	(void)state;
	for (int i = VP_RANK_MAX; i <= VP_RANK_ABSDELTA; i++) {
		assert_int_equal(vp_rank_parse(vp_rank_name(i), &r), 0);
		assert_int_equal(r, i);
	}
	assert_true(vp_rank_parse("sideways", &r) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_outer_join_by_symbol),
		cmocka_unit_test(dso_joins_by_base_name_and_domain_splits),
		cmocka_unit_test(ranks_and_cuts_keep_every_row),
		cmocka_unit_test(keeps_events_and_relabels),
		cmocka_unit_test(rank_names_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
