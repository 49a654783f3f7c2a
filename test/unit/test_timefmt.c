/* Time events and how their periods read: the unit that leaves one to
 * three digits before the point (charts.md rule 15), about four significant
 * digits, values that would round up to 1000 of a unit moved to the next. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <linux/perf_event.h>

#include "lib/profile/profile.h"
#include "lib/util/timefmt.h"

static void formats(void **state)
{
	static const struct { double ns; const char *want; } cases[] = {
		{ 0, "0 s" },
		{ 999, "999 ns" },
		{ 1000, "1.000 us" },
		{ 95482, "95.48 us" },
		{ 250000, "250.0 us" },
		{ 16500000, "16.50 ms" },
		{ 102500000, "102.5 ms" },
		{ 999940000, "999.9 ms" },
		{ 999960000, "1.000 s" },
		{ 1308009781, "1.308 s" },
		{ 3725e9, "3725.0 s" },
		{ -16500000, "-16.50 ms" },
	};
	char buf[32];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		vp_format_time(buf, sizeof(buf), cases[i].ns, 0);
		assert_string_equal(buf, cases[i].want);
	}
	vp_format_time(buf, sizeof(buf), 95482, 1);
	assert_string_equal(buf, "95.48 \u00b5s");
}

static void time_events(void **state)
{
	(void)state;
	assert_true(vp_event_is_time("cpu-clock", ~0u, 0));
	assert_true(vp_event_is_time("cpu-clock:u", ~0u, 0));
	assert_true(vp_event_is_time("task-clock#2", ~0u, 0));
	assert_true(vp_event_is_time("offcpu-time", ~0u, 0));
	assert_true(vp_event_is_time("renamed", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK));
	assert_false(vp_event_is_time("cycles", ~0u, 0));
	assert_false(vp_event_is_time("cpu-clocks", ~0u, 0));
	assert_false(vp_event_is_time("page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS));
	const char *both[2] = { "cpu-clock", "cpu-clock:u" }, *mixed[2] = { "cycles", "cpu-clock" };
	const char *one[2] = { NULL, "offcpu-time" }, *none[2] = { NULL, NULL };
	assert_true(vp_event_names_are_time(both, 2));
	assert_false(vp_event_names_are_time(mixed, 2));
	assert_true(vp_event_names_are_time(one, 2));
	assert_false(vp_event_names_are_time(none, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(formats),
		cmocka_unit_test(time_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
