/* Maps: lookups and perf's overlap rule (new maps cut older ones). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/maps.h"

static struct vp_dso *A = (struct vp_dso *)1, *B = (struct vp_dso *)2;

static void test_find_returns_the_map_holding_the_address(void **state)
{
	(void)state;
	struct vp_maps m = { 0 };
	struct vp_map a = { 0x1000, 0x2000, 0, A }, b = { 0x3000, 0x4000, 0x100, B };

	assert_int_equal(vp_maps_insert(&m, &b), 0);
	assert_int_equal(vp_maps_insert(&m, &a), 0);
	assert_null(vp_maps_find(&m, 0xfff));
	assert_ptr_equal(vp_maps_find(&m, 0x1000)->dso, A);
	assert_ptr_equal(vp_maps_find(&m, 0x1fff)->dso, A);
	assert_null(vp_maps_find(&m, 0x2000));
	assert_ptr_equal(vp_maps_find(&m, 0x3fff)->dso, B);
	assert_null(vp_maps_find(&m, 0x4000));
	vp_maps_clear(&m);
}

static void test_new_map_splits_an_older_one_around_it(void **state)
{
	(void)state;
	struct vp_maps m = { 0 };
	struct vp_map big = { 0x1000, 0x9000, 0x500, A }, mid = { 0x3000, 0x4000, 0, B };

	vp_maps_insert(&m, &big);
	vp_maps_insert(&m, &mid);
	assert_int_equal(m.n, 3);
	const struct vp_map *lo = vp_maps_find(&m, 0x2fff), *in = vp_maps_find(&m, 0x3000),
			    *hi = vp_maps_find(&m, 0x4000);
	assert_ptr_equal(lo->dso, A);
	assert_int_equal(lo->end, 0x3000);
	assert_ptr_equal(in->dso, B);
	assert_ptr_equal(hi->dso, A);
	/* the tail keeps file offsets right: pgoff moves with its start */
	assert_int_equal(hi->start, 0x4000);
	assert_int_equal(hi->pgoff, 0x500 + 0x3000);
	vp_maps_clear(&m);
}

static void test_new_map_replaces_several_and_trims_edges(void **state)
{
	(void)state;
	struct vp_maps m = { 0 };
	struct vp_map m1 = { 0x1000, 0x3000, 0, A }, m2 = { 0x3000, 0x4000, 0, A },
		      m3 = { 0x4000, 0x6000, 0, A }, n = { 0x2000, 0x5000, 0, B };

	vp_maps_insert(&m, &m1);
	vp_maps_insert(&m, &m2);
	vp_maps_insert(&m, &m3);
	vp_maps_insert(&m, &n);
	assert_int_equal(m.n, 3);
	assert_int_equal(m.v[0].start, 0x1000);
	assert_int_equal(m.v[0].end, 0x2000);
	assert_int_equal(m.v[1].start, 0x2000);
	assert_ptr_equal(m.v[1].dso, B);
	assert_int_equal(m.v[2].start, 0x5000);
	assert_int_equal(m.v[2].end, 0x6000);
	assert_int_equal(m.v[2].pgoff, 0x1000);
	for (size_t i = 1; i < m.n; i++)
		assert_true(m.v[i - 1].end <= m.v[i].start);
	vp_maps_clear(&m);
}

static void test_exact_replacement_and_copy(void **state)
{
	(void)state;
	struct vp_maps m = { 0 }, c = { 0 };
	struct vp_map a = { 0x1000, 0x2000, 0, A }, b = { 0x1000, 0x2000, 0, B };

	vp_maps_insert(&m, &a);
	vp_maps_insert(&m, &b);
	assert_int_equal(m.n, 1);
	assert_ptr_equal(m.v[0].dso, B);
	assert_int_equal(vp_maps_copy(&c, &m), 0);
	vp_maps_insert(&m, &a);
	assert_ptr_equal(vp_maps_find(&c, 0x1800)->dso, B);	/* copies are independent */
	vp_maps_clear(&m);
	vp_maps_clear(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_returns_the_map_holding_the_address),
		cmocka_unit_test(test_new_map_splits_an_older_one_around_it),
		cmocka_unit_test(test_new_map_replaces_several_and_trims_edges),
		cmocka_unit_test(test_exact_replacement_and_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
