/* The count index (lib/util/search.c) against the plain binary search it
 * narrows: the same count for every key near every value, on sorted arrays
 * of every shape its buckets meet: dense and sparse runs, many equal
 * values, outliers far below and above the bulk (0 and UINT64_MAX among
 * them), and arrays too short for an index. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdlib.h>

#include "lib/util/search.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Every key at, just below and just above each value, and between. */
static void same_counts(const uint64_t *v, size_t n)
{
	struct vp_count_index x;

	assert_int_equal(vp_count_index_build(&x, v, n), 0);
	for (size_t i = 0; i < n; i++) {
		uint64_t keys[5] = { v[i], v[i] - 1, v[i] + 1, v[i] / 2 + (i ? v[i - 1] / 2 : 0), ~v[i] };
		for (int k = 0; k < 5; k++)
			assert_int_equal(vp_count_index_at_or_below(&x, v, n, keys[k]),
					 vp_count_at_or_below(v, n, sizeof(*v), 0, keys[k]));
	}
	assert_int_equal(vp_count_index_at_or_below(&x, v, n, 0), vp_count_at_or_below(v, n, 8, 0, 0));
	assert_int_equal(vp_count_index_at_or_below(&x, v, n, UINT64_MAX), n);
	vp_count_index_free(&x);
}

static void counts_agree_with_the_plain_search(void **state)
{
	uint64_t seed = 88172645463325252ull;

	(void)state;
	for (int round = 0; round < 60; round++) {
		size_t n = 1 + rnd(&seed) % (round % 3 ? 5000 : 300);
		uint64_t *v = malloc(n * sizeof(*v)), base = 0xffffffff81000000ull;
		assert_non_null(v);
		for (size_t i = 0; i < n; i++) {
			uint64_t r = rnd(&seed);
			switch (round % 4) {
			case 0: v[i] = base + r % (64u << 20); break;		/* a kernel's text */
			case 1: v[i] = r % 50; break;				/* many equal */
			case 2: v[i] = r; break;				/* all over */
			default: v[i] = i % 97 == 0 ? (r & 1 ? 0 : UINT64_MAX - r % 3)
						    : base + r % 4096; break;	/* outliers */
			}
		}
		qsort(v, n, sizeof(*v), cmp_u64);
		same_counts(v, n);
		free(v);
	}
}

/* An array with an index: the index is made (the test above would pass
 * without one), and a value past every bucket is still counted. */
static void long_arrays_are_indexed(void **state)
{
	enum { N = 4000 };
	static uint64_t v[N];
	struct vp_count_index x;

	(void)state;
	for (size_t i = 0; i < N; i++)
		v[i] = 0x400000 + 16 * i;
	v[N - 1] = UINT64_MAX;
	assert_int_equal(vp_count_index_build(&x, v, N), 0);
	assert_non_null(x.first);
	assert_int_equal(vp_count_index_at_or_below(&x, v, N, UINT64_MAX - 1), N - 1);
	assert_int_equal(vp_count_index_at_or_below(&x, v, N, 0x400000 + 16 * 100), 101);
	vp_count_index_free(&x);
	assert_null(x.first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_agree_with_the_plain_search),
		cmocka_unit_test(long_arrays_are_indexed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
