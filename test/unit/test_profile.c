/* Profile tables: keys, totals, ranking, regrouping. */
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/profile/profile.h"

static struct vp_row row(struct vp_profile *p, const char *sym, const char *dso, char dom,
			 uint64_t samples, uint64_t period)
{
	return (struct vp_row){ vp_profile_intern(p, sym), vp_profile_intern(p, dso), NULL, -1, dom,
				samples, period };
}

static void test_add_merges_equal_keys_and_keeps_totals(void **state)
{
	(void)state;
	struct vp_profile *p = vp_profile_new();
	struct vp_event_table *t = vp_profile_table(p, "cpu-clock", VP_KEY_DEFAULT);
	struct vp_row r;

	r = row(p, "f", "a.out", '.', 1, 10);
	assert_true(vp_table_add(t, &r) >= 0);
	r = row(p, "f", "a.out", '.', 2, 20);
	assert_true(vp_table_add(t, &r) >= 0);
	r = row(p, "f", "libc.so.6", '.', 1, 5);	/* same name, other dso: own row */
	assert_int_equal(vp_table_add(t, &r), 1);	/* the row's index */
	assert_int_equal(t->nrows, 2);
	assert_int_equal(t->total_samples, 4);
	assert_int_equal(t->total_period, 35);
	r = row(p, "f", "a.out", '.', 0, 0);
	struct vp_row *found = vp_table_lookup(t, &r);
	assert_non_null(found);
	assert_int_equal(found->samples, 3);
	assert_int_equal(found->period, 30);
	vp_profile_free(p);
}

static void test_many_rows_survive_index_growth(void **state)
{
	(void)state;
	struct vp_profile *p = vp_profile_new();
	struct vp_event_table *t = vp_profile_table(p, "e", VP_KEY_SYM);
	char name[32];

	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 5000; i++) {
			snprintf(name, sizeof(name), "sym%d", i);
			struct vp_row r = row(p, name, "x", '.', 1, (uint64_t)i);
			assert_true(vp_table_add(t, &r) >= 0);
		}
	assert_int_equal(t->nrows, 5000);
	struct vp_row k = row(p, "sym4321", "x", '.', 0, 0);
	assert_int_equal(vp_table_lookup(t, &k)->samples, 2);
	assert_int_equal(vp_table_lookup(t, &k)->period, 2 * 4321);
	vp_profile_free(p);
}

static void test_sort_is_by_value_then_name_and_truncate_keeps_totals(void **state)
{
	(void)state;
	struct vp_profile *p = vp_profile_new();
	struct vp_event_table *t = vp_profile_table(p, "e", VP_KEY_DEFAULT);
	struct vp_row r;

	r = row(p, "b", "x", '.', 5, 50);
	vp_table_add(t, &r);
	r = row(p, "a", "x", '.', 5, 50);
	vp_table_add(t, &r);
	r = row(p, "c", "x", '.', 9, 10);
	vp_table_add(t, &r);
	vp_table_sort(t, VP_VALUE_PERIOD);
	assert_string_equal(t->rows[0].symbol, "a");
	assert_string_equal(t->rows[1].symbol, "b");
	assert_string_equal(t->rows[2].symbol, "c");
	vp_table_sort(t, VP_VALUE_SAMPLES);
	assert_string_equal(t->rows[0].symbol, "c");
	vp_table_truncate(t, 1);
	assert_int_equal(t->nrows, 1);
	assert_int_equal(t->total_samples, 19);
	/* the index follows the cut: a dropped row is not found */
	r = row(p, "a", "x", '.', 0, 0);
	assert_null(vp_table_lookup(t, &r));
	vp_profile_free(p);
}

static void test_regroup_by_symbol_merges_dsos(void **state)
{
	(void)state;
	struct vp_profile *p = vp_profile_new(), *q = vp_profile_new();
	struct vp_event_table *t = vp_profile_table(p, "e", VP_KEY_DEFAULT), *g;
	struct vp_row r;

	r = row(p, "memcpy", "/lib/libc.so.6", '.', 3, 3);
	vp_table_add(t, &r);
	r = row(p, "memcpy", "[kernel.kallsyms]", 'k', 4, 4);
	vp_table_add(t, &r);
	g = vp_table_regroup(q, t, VP_KEY_SYM);
	assert_non_null(g);
	assert_int_equal(g->nrows, 1);
	assert_int_equal(g->rows[0].samples, 7);
	assert_null(g->rows[0].dso);
	assert_ptr_equal(vp_profile_find(q, "e"), g);
	vp_profile_free(p);
	vp_profile_free(q);
}

static void test_key_parse_and_short_names(void **state)
{
	(void)state;
	unsigned k;

	assert_int_equal(vp_key_parse("sym,dso", &k), 0);
	assert_int_equal(k, VP_KEY_SYM | VP_KEY_DSO);
	assert_int_equal(vp_key_parse("sym,dso,domain", &k), 0);
	assert_int_equal(k, VP_KEY_DEFAULT);
	assert_true(vp_key_parse("sym,bogus", &k) < 0);
	assert_true(vp_key_parse("", &k) < 0);
	assert_string_equal(vp_dso_short_name("/usr/lib/x86_64-linux-gnu/libc.so.6"), "libc.so.6");
	assert_string_equal(vp_dso_short_name("[kernel.kallsyms]"), "[kernel.kallsyms]");
	assert_int_equal(vp_domain_from_cpumode(1), 'k');
	assert_int_equal(vp_domain_from_cpumode(2), '.');
	assert_int_equal(vp_domain_from_cpumode(4), 'g');
	assert_int_equal(vp_domain_from_cpumode(5), 'u');
	assert_int_equal(vp_domain_from_cpumode(3), 'H');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_merges_equal_keys_and_keeps_totals),
		cmocka_unit_test(test_many_rows_survive_index_growth),
		cmocka_unit_test(test_sort_is_by_value_then_name_and_truncate_keeps_totals),
		cmocka_unit_test(test_regroup_by_symbol_merges_dsos),
		cmocka_unit_test(test_key_parse_and_short_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
