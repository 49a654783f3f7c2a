/* vp_runsort (lib/util/runsort.c) against an oracle: qsort of the same
 * elements with their first position as the last key, which is the one
 * stable order. Inputs of every shape the merges treat apart: sorted,
 * reversed, runs that overlap a little or wholly, all equal, random. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/runsort.h"

struct el {
	uint32_t key;
	uint32_t pos;		/* where it started: the stable tie-break */
	char pad[40];		/* the size of the records it sorts */
};

static int by_key(const void *a, const void *b)
{
	const struct el *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

static int by_key_pos(const void *a, const void *b)
{
	const struct el *x = a, *y = b;
	int c = by_key(a, b);
	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static uint64_t rng = 88172645463325252ull;
static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* keys made by shape; the elements sorted both ways and compared */
static void check(size_t n, uint32_t (*key)(size_t i, size_t n))
{
	struct el *a = calloc(n ? n : 1, sizeof(*a)), *o = calloc(n ? n : 1, sizeof(*o));
	assert_non_null(a);
	assert_non_null(o);
	for (size_t i = 0; i < n; i++) {
		a[i].key = key(i, n);
		a[i].pos = (uint32_t)i;
		memset(a[i].pad, (int)(i & 0xff), sizeof(a[i].pad));
	}
	memcpy(o, a, n * sizeof(*a));
	qsort(o, n, sizeof(*o), by_key_pos);
	assert_int_equal(vp_runsort(a, n, sizeof(*a), by_key), 0);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(a[i].key, o[i].key);
		assert_int_equal(a[i].pos, o[i].pos);
		assert_memory_equal(a[i].pad, o[i].pad, sizeof(a[i].pad));
	}
	free(a);
	free(o);
}

static uint32_t sorted(size_t i, size_t n) { (void)n; return (uint32_t)i; }
static uint32_t reversed(size_t i, size_t n) { return (uint32_t)(n - i); }
static uint32_t equal(size_t i, size_t n) { (void)i; (void)n; return 7; }
static uint32_t random_key(size_t i, size_t n) { (void)i; (void)n; return next_rand() % 1000; }
/* runs of 100 rising by 90: each overlaps the next by ten */
static uint32_t near(size_t i, size_t n) { (void)n; return (uint32_t)(i / 100 * 90 + i % 100); }
/* two interleaved rising runs (two CPUs' records in one round) */
static uint32_t halves(size_t i, size_t n) { return (uint32_t)(i < n / 2 ? 2 * i : 2 * (i - n / 2) + 1); }
/* three runs of a third, the last going first: a merged left run longer
 * than half of all */
static uint32_t thirds(size_t i, size_t n) { return (uint32_t)(i < 2 * n / 3 ? n + i % (n / 3 + 1) : i); }
/* a sawtooth of runs of 3, many equal keys across runs */
static uint32_t saw(size_t i, size_t n) { (void)n; return (uint32_t)(i % 3); }

static void test_shapes(void **state)
{
	uint32_t (*shapes[])(size_t, size_t) = { sorted, reversed, equal, random_key,
						 near, halves, thirds, saw };
	size_t sizes[] = { 0, 1, 2, 3, 5, 64, 1000, 4099 };
	(void)state;
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
			check(sizes[k], shapes[s]);
}

/* random inputs of random sizes, some with few distinct keys */
static void test_random(void **state)
{
	(void)state;
	for (int t = 0; t < 200; t++)
		check(next_rand() % 3000, t % 2 ? random_key : saw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
