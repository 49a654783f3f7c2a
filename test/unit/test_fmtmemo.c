/* vp_fmt_double (lib/util/fmtmemo.c) against snprintf itself: values drawn
 * from a small pool so most are met again (and, the table being direct
 * mapped, some take each other's slots), in three formats, the special
 * values among them, and results too long for the caller's buffer. */
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

static const char *const formats[] = { "%.6f", "%.9f", "%.12g" };

static void check(struct vp_fmt_memo *m, const char *fmt, double v)
{
	char buf[64], want[512];
	int n = snprintf(want, sizeof(want), fmt, v);
	const char *got = vp_fmt_double(m, fmt, v, buf, sizeof(buf));

	assert_true(n > 0 && (size_t)n < sizeof(want));
	if ((size_t)n >= sizeof(buf)) {
		assert_null(got);
	} else {
		assert_non_null(got);
		assert_string_equal(got, want);
	}
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_value_as_snprintf_writes_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
