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
	assert_true(vp_cmp_ratio(e, w, VP_GUEST, VP_VALUE_PERIOD, &k) == 4.0 && k == VP_RATIO_BOTH);
	const struct vp_cmp_row *m = find(e, "memcpy");
	assert_int_equal(m->period[VP_GUEST], 60);	/* key sym: user and kernel memcpy meet */
	vp_cmp_ratio(e, find(e, "host_only"), VP_GUEST, VP_VALUE_PERIOD, &k);
	assert_int_equal(k, VP_RATIO_ONLY_HOST);
	vp_cmp_ratio(e, find(e, "guest_only"), VP_GUEST, VP_VALUE_PERIOD, &k);
	assert_int_equal(k, VP_RATIO_ONLY_GUEST);
	/* shares of the event totals: 100/160 host, 400/500 guest */
	assert_true(fabs(vp_cmp_delta_pp(e, w, VP_GUEST, VP_VALUE_PERIOD) - 100.0 * (400.0 / 500 - 100.0 / 160)) < 1e-9);
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
	static const char *const labels[] = { "bare", "vm" };
	assert_int_equal(vp_comparison_relabel(c, labels, 2), 0);
	assert_int_equal(vp_comparison_relabel(c, labels, 1), -EINVAL);
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
	for (int i = VP_RANK_MAX; i <= VP_RANK_EFFECT; i++) {
		assert_int_equal(vp_rank_parse(vp_rank_name(i), &r), 0);
		assert_int_equal(r, i);
	}
	assert_true(vp_rank_parse("sideways", &r) < 0);
}

/* K sides of several runs: a side's sums are integers over its runs, its
 * mean is over the runs that recorded the event, its share the mean of the
 * runs' shares; a row absent in a run counts 0 there, an event absent in a
 * run is no data; ratios and deltas are each side's against the baseline. */
static void sides_of_runs(void **state)
{
	struct vp_profile *p[5];
	struct vp_comparison *c;
	struct vp_compare_opts o;
	struct vp_error err = { 0 };
	static const size_t runs[3] = { 2, 2, 1 };
	enum vp_ratio_kind k;
	(void)state;

	for (int i = 0; i < 5; i++) {
		p[i] = vp_profile_new();
		p[i]->meta.label = vp_profile_intern(p[i], i < 2 ? "bare" : i < 4 ? "kvm" : "xen");
		p[i]->meta.duration = 1.0 + i;
	}
	p[3]->meta.label = vp_profile_intern(p[3], "other");	/* labels differ: file name */
	p[2]->meta.source = vp_profile_intern(p[2], "runs/kvm-1.data");
	/* baseline: f 10 of 40, then 30 of 60; g only in run 2 */
	add(p[0], "cpu-clock", "f", "/a", '.', 1, 10);
	add(p[0], "cpu-clock", "h", "/a", '.', 3, 30);
	add(p[1], "cpu-clock", "f", "/a", '.', 3, 30);
	add(p[1], "cpu-clock", "g", "/a", '.', 3, 30);
	/* side 1: f 20 of 20; its run 2 lacks cpu-clock (no data, not zeros) */
	add(p[2], "cpu-clock", "f", "/a", '.', 2, 20);
	add(p[3], "page-faults", "pf", "/a", '.', 1, 1);
	/* side 2: f 5 of 10 */
	add(p[4], "cpu-clock", "f", "/a", '.', 1, 5);
	add(p[4], "cpu-clock", "h", "/a", '.', 1, 5);
	vp_compare_opts_init(&o);
	o.top = 0;
	assert_int_equal(vp_compare_runs((const struct vp_profile *const *)p, runs, 3, &o, &c, &err), 0);
	assert_int_equal(c->nsides, 3);
	assert_int_equal(c->nruns, 5);
	assert_int_equal(vp_cmp_side_runs(c, 1), 2);
	assert_int_equal(vp_cmp_run_side(c, 3), 1);
	assert_int_equal(vp_cmp_run_side(c, 4), 2);
	assert_string_equal(c->label[0], "bare");
	assert_string_equal(c->label[1], "kvm-1.data");	/* labels differ: its first run's file */
	assert_string_equal(c->label[2], "xen");
	assert_true(fabs(c->meta[0].duration - 1.5) < 1e-12);	/* mean of the side's runs */
	assert_true(fabs(c->run_meta[3].duration - 4.0) < 1e-12);

	const struct vp_cmp_event *e = event(c, "cpu-clock");
	assert_non_null(e);
	assert_int_equal(e->nruns[0], 2);
	assert_int_equal(e->nruns[1], 1);
	assert_false(e->run_present[3]);
	assert_int_equal(e->total_period[0], 100);
	const struct vp_cmp_row *f = find(e, "f");
	assert_int_equal(f->period[0], 40);
	assert_int_equal(f->samples[0], 4);
	assert_int_equal(f->run_period[1], 30);
	assert_true(vp_cmp_mean(e, f, 0, VP_VALUE_PERIOD) == 20.0);
	assert_true(vp_cmp_mean(e, f, 1, VP_VALUE_PERIOD) == 20.0);	/* one run recorded it */
	assert_true(fabs(vp_cmp_share(e, f, 0, VP_VALUE_PERIOD) - (0.25 + 0.5) / 2) < 1e-15);
	assert_true(vp_cmp_share(e, f, 1, VP_VALUE_PERIOD) == 1.0);
	assert_true(vp_cmp_ratio(e, f, 1, VP_VALUE_PERIOD, &k) == 1.0 && k == VP_RATIO_BOTH);
	assert_true(vp_cmp_ratio(e, f, 2, VP_VALUE_PERIOD, &k) == 0.25 && k == VP_RATIO_BOTH);
	assert_true(fabs(vp_cmp_delta_pp(e, f, 2, VP_VALUE_PERIOD) - 100 * (0.5 - 0.375)) < 1e-12);
	const struct vp_cmp_row *g = find(e, "g");
	assert_int_equal(g->run_period[0], 0);		/* absent in run 1: zero there */
	assert_true(vp_cmp_mean(e, g, 0, VP_VALUE_PERIOD) == 15.0);
	vp_cmp_ratio(e, g, 2, VP_VALUE_PERIOD, &k);
	assert_int_equal(k, VP_RATIO_ONLY_HOST);

	/* ranks over K sides: ratio by the largest of the sides' ratios */
	vp_comparison_rank(c, VP_RANK_RATIO, 0);
	assert_string_equal(e->rows[0].symbol, "f");	/* 1x (kvm) beats h's 0.5x (xen) */
	assert_string_equal(e->rows[1].symbol, "h");
	const struct vp_cmp_event *pf = event(c, "page-faults");
	assert_false(pf->present[0]);
	assert_true(pf->present[1]);
	assert_int_equal(pf->nruns[1], 1);
	assert_false(pf->present[2]);

	/* statistics: per side after the baseline, only where both have the
	 * event; kvm's one run with cpu-clock is judged on sampling noise; no
	 * noise floor with 2 baseline runs */
	assert_true(e->stat_ok[1] && e->stat_ok[2]);
	assert_non_null(vp_cmp_stat(e, f, 1));
	assert_null(vp_cmp_stat(e, f, 0));
	assert_int_equal(vp_cmp_stat(e, f, 1)->basis, VP_STAT_SAMPLING);
	assert_int_equal(e->noise_floor, -1);
	assert_false(pf->stat_ok[1]);
	assert_null(vp_cmp_stat(pf, &pf->rows[0], 1));
	assert_int_equal(vp_comparison_judge(c, 0, &err), -EINVAL);
	assert_int_equal(vp_comparison_judge(c, 0.01, &err), 0);
	assert_true(c->alpha == 0.01);
	vp_comparison_free(c);

	/* four baseline runs: a noise floor; two runs a side: judged on runs */
	static const size_t four[2] = { 4, 1 };
	const struct vp_profile *q[5] = { p[0], p[1], p[0], p[1], p[4] };
	assert_int_equal(vp_compare_runs(q, four, 2, &o, &c, &err), 0);
	assert_true(event(c, "cpu-clock")->noise_floor >= 0);
	vp_comparison_free(c);
	static const size_t twos[2] = { 2, 2 };
	const struct vp_profile *r2[4] = { p[0], p[1], p[0], p[4] };
	assert_int_equal(vp_compare_runs(r2, twos, 2, &o, &c, &err), 0);
	e = event(c, "cpu-clock");
	assert_int_equal(vp_cmp_stat(e, find(e, "f"), 1)->basis, VP_STAT_RUNS);
	vp_comparison_free(c);

	/* a side without runs, or one side, is refused */
	static const size_t none[2] = { 1, 0 };
	assert_int_equal(vp_compare_runs((const struct vp_profile *const *)p, none, 2, &o, &c, &err),
			 -EINVAL);
	assert_int_equal(vp_compare_runs((const struct vp_profile *const *)p, runs, 1, &o, &c, &err),
			 -EINVAL);
	for (int i = 0; i < 5; i++)
		vp_profile_free(p[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_outer_join_by_symbol),
		cmocka_unit_test(dso_joins_by_base_name_and_domain_splits),
		cmocka_unit_test(ranks_and_cuts_keep_every_row),
		cmocka_unit_test(keeps_events_and_relabels),
		cmocka_unit_test(rank_names_round_trip),
		cmocka_unit_test(sides_of_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
