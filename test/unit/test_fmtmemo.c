/* vp_fmt_double (lib/util/fmtmemo.c) against snprintf itself: values drawn
 * from a small pool so most are met again (and, the table being direct
 * mapped, some take each other's slots), in three formats, the special
 * values among them, and results too long for the caller's buffer;
 * vp_fmt_period against vp_format_period in the same memo, and a result
 * that stays what it was while the memo takes other values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/fmtmemo.h"
#include "lib/util/timefmt.h"

static const char *const formats[] = { "%.6f", "%.9f", "%.12g" };

/* got is want (n chars) when that fits in size bytes, else NULL. */
static void fits_or_null(const char *got, const char *want, int n, size_t size)
{
	assert_true(n > 0);
	if ((size_t)n >= size) {
		assert_null(got);
	} else {
		assert_non_null(got);
		assert_string_equal(got, want);
	}
}

static void check(struct vp_fmt_memo *m, const char *fmt, double v)
{
	char buf[64], want[512];
	int n = snprintf(want, sizeof(want), fmt, v);

	assert_true((size_t)n < sizeof(want));
	fits_or_null(vp_fmt_double(m, fmt, v, buf, sizeof(buf)), want, n, sizeof(buf));
}

static void test_each_value_as_snprintf_writes_it(void **state)
{
	(void)state;
	struct vp_fmt_memo *m = vp_fmt_memo_new();
	double pool[6000];
	uint64_t x = 0x9e3779b97f4a7c15ull;

	assert_non_null(m);
	for (size_t i = 0; i < sizeof(pool) / sizeof(*pool); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		switch (i % 6) {
		case 0: pool[i] = (double)(x % 1000000) / 1000000.0; break;	/* shares */
		case 1: pool[i] = (double)(x % 4096) / 64.0; break;		/* ratios */
		case 2: pool[i] = -(double)(x % 100000) / 7.0; break;		/* deltas */
		case 3: memcpy(&pool[i], &x, sizeof(x)); break;			/* any bits */
		case 4: pool[i] = ldexp((double)(x % 1000), -(int)(x % 1080)); break;	/* tiny */
		default: pool[i] = ldexp((double)(x % 1000), (int)(x % 1020)); break;	/* huge */
		}
	}
	static const double special[] = { 0.0, -0.0, 1.0, -1.0, 0.5, INFINITY, -INFINITY, NAN,
					  1e300, -1e300, 5e-324, 0.1 };
	for (size_t i = 0; i < sizeof(special) / sizeof(*special); i++)
		for (size_t f = 0; f < 3; f++) {
			check(m, formats[f], special[i]);
			check(m, formats[f], special[i]);	/* the second from the memo */
		}
	/* each value in every format, most of them several times */
	for (size_t i = 0; i < 60000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		check(m, formats[i % 3], pool[x % 6000]);
	}
	vp_fmt_memo_free(m);
	/* without a memo, as before */
	for (size_t f = 0; f < 3; f++)
		check(NULL, formats[f], 0.1234567890123);
}

static void check_period(struct vp_fmt_memo *m, uint64_t v, int time, size_t size)
{
	char buf[64], want[64];
	int n = vp_format_period(want, sizeof(want), v, time);

	assert_true((size_t)n < sizeof(want));
	fits_or_null(vp_fmt_period(m, v, time, buf, size), want, n, size);
}

static void test_periods_beside_doubles(void **state)
{
	(void)state;
	struct vp_fmt_memo *m = vp_fmt_memo_new();
	uint64_t pool[3000], x = 0x2545f4914f6cdd1dull;

	assert_non_null(m);
	for (size_t i = 0; i < sizeof(pool) / sizeof(*pool); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		pool[i] = i % 3 == 0 ? 20000 * (x % 5000)	/* a fixed period's sums */
			: i % 3 == 1 ? x % 1000000000000ull : x;
	}
	for (size_t i = 0; i < 60000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t v = pool[x % 3000];
		/* the same bits as a double and as both kinds of period */
		check_period(m, v, (int)(i & 1), i % 7 ? 64 : 8);
		double d;
		memcpy(&d, &v, sizeof(d));
		check(m, formats[i % 3], d);
	}
	check_period(m, 0, 1, 64);
	check_period(m, UINT64_MAX, 0, 64);
	check_period(m, UINT64_MAX, 0, 20);	/* 20 digits: no room for the NUL */

	/* a result is the caller's: later values do not change it, though they
	 * take its slot (the second call is the memo's) */
	static const char fmt[] = "%.6f";
	char keep[64], other[64], want[64];
	const char *got;
	snprintf(want, sizeof(want), fmt, 0.25);
	vp_fmt_double(m, fmt, 0.25, keep, sizeof(keep));
	got = vp_fmt_double(m, fmt, 0.25, keep, sizeof(keep));
	for (uint64_t v = 0; v < 20000; v++) {
		vp_fmt_period(m, v * 977, (int)(v & 1), other, sizeof(other));
		vp_fmt_double(m, fmt, (double)v / 3, other, sizeof(other));
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	vp_fmt_memo_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_value_as_snprintf_writes_it),
		cmocka_unit_test(test_periods_beside_doubles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
