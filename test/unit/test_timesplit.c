/* The wall-time gap split (lib/time/split.c) on made-up runs whose parts are
 * known, and the difference-of-means interval it uses (stats.c's
 * vp_stat_mean_diff) against numbers computed with scipy:
 *   a = [1, 2, 3], b = [4, 6, 8, 9.5]; Welch df 4.2163;
 *   stats.t.ppf(0.975, df) * sqrt(var_a/3 + var_b/4) around 4.875:
 *   [1.2592051173669438, 8.490794882633056]. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "lib/compare/stats.h"
#include "lib/time/split.h"

static void mean_diff_is_welch(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 6, 8, 9.5 };
	struct vp_stat_diff d;
	(void)state;

	assert_int_equal(vp_stat_mean_diff(a, 3, b, 4, 0.05, &d), 0);
	assert_true(fabs(d.delta - 4.875) < 1e-12);
	assert_true(fabs(d.lo - 1.2592051173669438) < 1e-9);
	assert_true(fabs(d.hi - 8.490794882633056) < 1e-9);
	assert_int_equal(vp_stat_mean_diff(a, 1, b, 4, 0.05, &d), 0);
	assert_true(isnan(d.lo) && isnan(d.hi));	/* one run: no interval */
	assert_true(fabs(d.delta - (6.875 - 1)) < 1e-12);
	assert_int_equal(vp_stat_mean_diff(a, 0, b, 4, 0.05, &d), -EINVAL);
}

static struct vp_profile_meta run(double wall, double user, double sys, double steal, double wait,
				  double blocked)
{
	struct vp_profile_meta m;

	vp_profile_meta_init(&m);
	m.source = "run.data";
	m.wall_time = wall;
	m.user_time = user;
	m.system_time = sys;
	m.steal_time = steal;
	m.wall_waiting = wait;
	m.wall_blocked = blocked;
	return m;
}

static void parts_and_remainder(void **state)
{
	/* the side: 0.3 s more user CPU, 0.2 s more blocked, 0.05 s unexplained */
	struct vp_profile_meta b[2] = { run(1.0, 0.5, 0.1, 0, 0.1, 0.3), run(1.2, 0.6, 0.1, 0, 0.1, 0.4) };
	struct vp_profile_meta s[2] = { run(1.6, 0.85, 0.1, 0, 0.1, 0.55), run(1.7, 0.85, 0.1, 0, 0.1, 0.6) };
	const struct vp_profile_meta *bp[2] = { &b[0], &b[1] }, *sp[2] = { &s[0], &s[1] };
	struct vp_time_split t;
	struct vp_error err = { 0 };
	(void)state;

	assert_int_equal(vp_time_split(bp, 2, sp, 2, &t, &err), 0);
	assert_true(fabs(t.wall.delta - 0.55) < 1e-12);
	assert_true(fabs(t.ratio - 1.65 / 1.1) < 1e-12);
	assert_true(fabs(t.part[VP_TIME_USER].delta - 0.3) < 1e-12);
	assert_true(fabs(t.part[VP_TIME_BLOCKED].delta - 0.225) < 1e-12);
	assert_true(fabs(t.part[VP_TIME_REMAINDER].delta - 0.025) < 1e-12);
	assert_string_equal(vp_time_part_name(&t, VP_TIME_REMAINDER), "remainder");
	assert_true(fabs(vp_time_part_percent(&t, VP_TIME_USER) - 100 * 0.3 / 0.55) < 1e-9);
	/* two runs a side: intervals, around the difference */
	assert_false(isnan(t.wall.lo));
	assert_true(t.part[VP_TIME_USER].lo <= 0.3 && t.part[VP_TIME_USER].hi >= 0.3);
	/* no spread in system time: the interval is the point */
	assert_true(t.part[VP_TIME_SYSTEM].lo == t.part[VP_TIME_SYSTEM].delta);
	/* the sum of the parts and the remainder is the gap */
	double sum = 0;
	for (int p = 0; p < VP_TIME_NPARTS; p++)
		sum += t.part[p].delta;
	assert_true(fabs(sum - t.wall.delta) < 1e-12);
}

static void unmeasured_parts_go_to_the_remainder(void **state)
{
	struct vp_profile_meta b = run(1.0, 0.5, 0.1, 0, 0.1, 0.3), s = run(2.0, 0.9, 0.1, 0, 0.1, 0.3);
	const struct vp_profile_meta *bp = &b, *sp = &s;
	struct vp_time_split t;
	struct vp_error err = { 0 };
	(void)state;

	s.wall_blocked = -1;	/* a file that did not follow the scheduler */
	s.wall_waiting = -1;
	assert_int_equal(vp_time_split(&bp, 1, &sp, 1, &t, &err), 0);
	assert_false(t.part[VP_TIME_BLOCKED].known);
	assert_false(t.part[VP_TIME_WAITING].known);
	assert_true(fabs(t.part[VP_TIME_REMAINDER].delta - 0.6) < 1e-12);
	assert_string_equal(vp_time_part_name(&t, VP_TIME_REMAINDER),
			    "remainder (runnable waiting, blocked, not measured)");
	assert_true(isnan(t.part[VP_TIME_USER].lo));
	s.wall_time = -1;	/* perf's file: no wall time at all */
	assert_int_equal(vp_time_split(&bp, 1, &sp, 1, &t, &err), -ENODATA);
	assert_non_null(strstr(err.msg, "'run.data': no wall time"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mean_diff_is_welch),
		cmocka_unit_test(parts_and_remainder),
		cmocka_unit_test(unmeasured_parts_go_to_the_remainder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
