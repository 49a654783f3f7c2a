/* Maps: lookups and perf's overlap rule (new maps cut older ones). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/symbols/maps.h"

static struct vp_dso *A = (struct vp_dso *)1, *B = (struct vp_dso *)2;

/* The i-th map in address order. */
static const struct vp_map *at(const struct vp_maps *m, size_t i)
{
	const struct vp_map *x = vp_maps_first(m);

	while (x && i--)
		x = vp_maps_next(x);
	assert_non_null(x);
	return x;
}

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
	assert_int_equal(at(&m, 0)->start, 0x1000);
	assert_int_equal(at(&m, 0)->end, 0x2000);
	assert_int_equal(at(&m, 1)->start, 0x2000);
	assert_ptr_equal(at(&m, 1)->dso, B);
	assert_int_equal(at(&m, 2)->start, 0x5000);
	assert_int_equal(at(&m, 2)->end, 0x6000);
	assert_int_equal(at(&m, 2)->pgoff, 0x1000);
	for (size_t i = 1; i < m.n; i++)
		assert_true(at(&m, i - 1)->end <= at(&m, i)->start);
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
	assert_ptr_equal(at(&m, 0)->dso, B);
	assert_int_equal(vp_maps_copy(&c, &m), 0);
	assert_int_equal(c.n, 1);
	vp_maps_insert(&m, &a);
	assert_ptr_equal(vp_maps_find(&c, 0x1800)->dso, B);	/* copies are independent */
	vp_maps_clear(&m);
	vp_maps_clear(&c);
}

/* Against a model that keeps the owner of every page: random maps in random
 * order (downwards runs included), after each insert every page must resolve
 * as the model says, and the list must stay sorted and disjoint. */
#define PAGES 512
struct owner {
	struct vp_dso *dso;
	uint64_t base_pgoff;	/* pgoff the page's map would have at address 0 */
	int set;
};

static void check_against_model(const struct vp_maps *m, const struct owner *o)
{
	size_t count = 0;
	uint64_t last_end = 0;

	for (const struct vp_map *x = vp_maps_first(m); x; x = vp_maps_next(x), count++) {
		assert_true(x->start < x->end);
		assert_true(x->start >= last_end);
		last_end = x->end;
	}
	assert_int_equal(count, m->n);
	for (uint64_t pg = 0; pg < PAGES; pg++) {
		const struct vp_map *x = vp_maps_find(m, pg * 0x1000 + 0x800);
		if (!o[pg].set) {
			assert_null(x);
			continue;
		}
		assert_non_null(x);
		assert_ptr_equal(x->dso, o[pg].dso);
		assert_int_equal(x->pgoff - x->start, o[pg].base_pgoff);
	}
}

static void test_random_inserts_match_a_page_model(void **state)
{
	(void)state;
	struct vp_maps m = { 0 }, c = { 0 };
	struct owner o[PAGES] = { 0 };
	uint64_t r = 12345;

	for (int i = 0; i < 3000; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t first = (r >> 33) % PAGES, len = 1 + (r >> 20) % 24;
		if (i % 500 < 100)	/* a run going downwards */
			first = PAGES - 1 - (uint64_t)(i % 500) * 3 % PAGES;
		if (first + len > PAGES)
			len = PAGES - first;
		struct vp_dso *d = (struct vp_dso *)(uintptr_t)(1 + i % 7);
		uint64_t pgoff = (r >> 40) % 64 * 0x1000;
		struct vp_map x = { first * 0x1000, (first + len) * 0x1000, pgoff, d };
		assert_int_equal(vp_maps_insert(&m, &x), 0);
		for (uint64_t pg = first; pg < first + len; pg++)
			o[pg] = (struct owner){ d, pgoff - first * 0x1000, 1 };
		if (i % 97 == 0)
			check_against_model(&m, o);
	}
	check_against_model(&m, o);
	assert_int_equal(vp_maps_copy(&c, &m), 0);
	check_against_model(&c, o);
	vp_maps_clear(&m);
	vp_maps_clear(&c);
	assert_null(vp_maps_first(&m));
}

/* 200,000 maps inserted downwards: each lands at the front. */
static void test_many_maps_downwards(void **state)
{
	(void)state;
	struct vp_maps m = { 0 };
	const uint64_t n = 200000;

	for (uint64_t i = 0; i < n; i++) {
		struct vp_map x = { (n - i) * 0x2000, (n - i) * 0x2000 + 0x1000, 0, A };
		assert_int_equal(vp_maps_insert(&m, &x), 0);
	}
	assert_int_equal(m.n, n);
	assert_int_equal(vp_maps_find(&m, 0x2000)->start, 0x2000);
	assert_null(vp_maps_find(&m, 0x3000));
	assert_int_equal(vp_maps_find(&m, n * 0x2000 + 0xfff)->start, n * 0x2000);
	vp_maps_clear(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_returns_the_map_holding_the_address),
		cmocka_unit_test(test_new_map_splits_an_older_one_around_it),
		cmocka_unit_test(test_new_map_replaces_several_and_trims_edges),
		cmocka_unit_test(test_exact_replacement_and_copy),
		cmocka_unit_test(test_random_inserts_match_a_page_model),
		cmocka_unit_test(test_many_maps_downwards),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
