/* The sample filters' syntax (perf report's --pid, --tid, --comms, --time)
 * and where perf places percent ranges, to the nanosecond. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lib/perfdata/perfdata.h"
#include "lib/profile/filter.h"

static void test_id_lists_add_up_and_reject_non_numbers(void **state)
{
	(void)state;
	struct vp_filter f = { 0 };
	struct vp_error err = { 0 };

	assert_int_equal(vp_filter_add_pids(&f, "12,0,2147483647", &err), 0);
	assert_int_equal(vp_filter_add_pids(&f, "7", &err), 0);	/* options repeat */
	assert_int_equal(f.npids, 4);
	assert_int_equal(f.pids[0], 12);
	assert_int_equal(f.pids[2], 2147483647u);
	assert_int_equal(f.pids[3], 7);
	const char *bad[] = { "x", "", "1,,2", "1,", ",1", "-1", "+1", "1 ", "2147483648",
			      "99999999999999999999", "0x10" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		err.msg[0] = 0;
		assert_int_equal(vp_filter_add_tids(&f, bad[i], &err), -EINVAL);
		assert_true(err.msg[0]);
	}
	assert_non_null(strstr(err.msg, "'0x10' is not a thread id"));
	assert_int_equal(vp_filter_active(&f), 1);
	vp_filter_free(&f);
	assert_int_equal(vp_filter_active(&f), 0);
}

static void test_comm_lists(void **state)
{
	(void)state;
	struct vp_filter f = { 0 };
	struct vp_error err = { 0 };

	assert_int_equal(vp_filter_add_comms(&f, "sh,kworker/0:1", &err), 0);
	assert_int_equal(f.ncomms, 2);
	assert_string_equal(f.comms[1], "kworker/0:1");
	assert_int_equal(vp_filter_add_comms(&f, "a,", &err), -EINVAL);
	assert_int_equal(vp_filter_add_comms(&f, "", &err), -EINVAL);
	vp_filter_free(&f);
}

static void test_seconds_as_perf_parses_them(void **state)
{
	(void)state;
	struct vp_time_filter t = { 0 };
	struct vp_error err = { 0 };

	assert_int_equal(vp_time_filter_parse(&t, "4440.729333266,4441.5", &err), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.percent, 0);
	assert_int_equal(t.v[0].start, 4440729333266ull);
	assert_int_equal(t.v[0].end, 4441500000000ull);
	assert_int_equal(vp_time_filter_parse(&t, ",.5", &err), 0);
	assert_int_equal(t.v[0].start, 0);
	assert_int_equal(t.v[0].end, 500000000);
	assert_int_equal(vp_time_filter_parse(&t, "7,", &err), 0);
	assert_int_equal(t.v[0].end, 0);	/* open: to the end */
	assert_int_equal(vp_time_filter_parse(&t, "3,3", &err), 0);	/* one instant */
	assert_int_equal(vp_time_filter_parse(&t, "1.,", &err), 0);	/* as perf reads it */
	assert_int_equal(t.v[0].start, 1000000000ull);
	/* several ranges, separated by spaces, in order */
	assert_int_equal(vp_time_filter_parse(&t, ",1  2,3\t4,", &err), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.v[1].start, 2000000000ull);
	assert_int_equal(t.v[2].end, 0);
	const char *bad[] = { "5,3", "5", "1,2,3", "a,b", "1.1234567891,", "1,2 2,3", "3,4 1,2",
			      "1, 2,3", "1,2 ,3", "-1,2", "1e3,", " ", "", ".,", "1,2;" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		err.msg[0] = 0;
		assert_int_equal(vp_time_filter_parse(&t, bad[i], &err), -EINVAL);
		assert_true(err.msg[0]);
	}
	/* a failed parse keeps what was there */
	assert_int_equal(t.n, 3);
	vp_time_filter_free(&t);
}

static void test_percent_forms(void **state)
{
	(void)state;
	struct vp_time_filter t = { 0 };
	struct vp_error err = { 0 };

	assert_int_equal(vp_time_filter_parse(&t, "10%/2", &err), 0);
	assert_int_equal(t.percent, 1);
	assert_true(t.v[0].pstart == 0.1 * 1 && t.v[0].pend == 0.1 * 2);
	assert_int_equal(vp_time_filter_parse(&t, "0%-10%,30%-40%,50%,25%/4", &err), 0);
	assert_int_equal(t.n, 4);
	assert_true(t.v[1].pstart == 0.3 && t.v[1].pend == 0.4);
	assert_true(t.v[2].pstart == 0.0 && t.v[2].pend == 0.5);
	assert_true(t.v[3].pstart == 0.75 && t.v[3].pend == 1.0);
	const char *bad[] = { "120%", "0%/1", "10%/0", "10%/-1", "10%/11", "30%-10%", "-5%",
			      "nan%", "inf%-100%", "10%,1,2", "10", "%", "10%%", "10%/2x", "10%-",
			      "50%,", "a%" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		err.msg[0] = 0;
		assert_int_equal(vp_time_filter_parse(&t, bad[i], &err), -EINVAL);
		assert_true(err.msg[0]);
	}
	vp_time_filter_free(&t);
}

/* perf's set_percent_time: round, and a slice's end 1 ns short of the next
 * slice unless it is the recording's last sample. */
static void test_percent_placed_as_perf_places_it(void **state)
{
	(void)state;
	struct vp_time_range p = { 0 }, r;

	p.pstart = 0.1, p.pend = 0.2;
	vp_time_place(&p, 1000, 2000, &r);
	assert_int_equal(r.start, 1100);
	assert_int_equal(r.end, 1199);
	p.pstart = 0.5, p.pend = 1.0;
	vp_time_place(&p, 1000, 2000, &r);
	assert_int_equal(r.start, 1500);
	assert_int_equal(r.end, 2000);
	p.pstart = 0.0, p.pend = 0.0;
	vp_time_place(&p, 1000, 2000, &r);
	assert_int_equal(r.start, 1000);
	assert_int_equal(r.end, 1000);
	p.pstart = 1.0 / 3, p.pend = 2.0 / 3;	/* 333.33.. and 666.66..: rounded */
	vp_time_place(&p, 1000, 2000, &r);
	assert_int_equal(r.start, 1333);
	assert_int_equal(r.end, 1666);
	p.pstart = 0.0, p.pend = 1.0;		/* a span near 2^64 stays in it */
	vp_time_place(&p, 1, UINT64_MAX, &r);
	assert_int_equal(r.start, 1);
	assert_int_equal(r.end, UINT64_MAX);
}

static void test_keep_by_thread_and_time(void **state)
{
	(void)state;
	struct vp_filter f = { 0 };
	struct vp_error err = { 0 };
	struct vp_time_range ranges[2] = { { 100, 200, 0, 0 }, { 300, 0, 0, 0 } };
	struct vp_filter_run run = { .f = &f, .ranges = ranges, .nranges = 2, .active = 1 };
	struct vp_sample s = { 0 };

	assert_int_equal(vp_filter_add_pids(&f, "10", &err), 0);
	s.pid = 10, s.tid = 11;
	uint64_t kept[] = { 0, 100, 150, 200, 300, 5000 }, dropped[] = { 99, 201, 299 };
	for (size_t i = 0; i < sizeof(kept) / sizeof(*kept); i++) {
		s.time = kept[i];	/* 0: no time, passes as in perf */
		assert_int_equal(vp_filter_keep(&run, NULL, &s), 1);
	}
	for (size_t i = 0; i < sizeof(dropped) / sizeof(*dropped); i++) {
		s.time = dropped[i];
		assert_int_equal(vp_filter_keep(&run, NULL, &s), 0);
	}
	s.time = 150;
	s.pid = 11;
	assert_int_equal(vp_filter_keep(&run, NULL, &s), 0);
	assert_int_equal(vp_filter_add_tids(&f, "12", &err), 0);
	s.pid = 10;
	assert_int_equal(vp_filter_keep(&run, NULL, &s), 0);	/* both must hold */
	s.tid = 12;
	assert_int_equal(vp_filter_keep(&run, NULL, &s), 1);
	vp_filter_free(&f);
	run = (struct vp_filter_run){ 0 };	/* inactive: everything passes */
	assert_int_equal(vp_filter_keep(&run, NULL, &s), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_lists_add_up_and_reject_non_numbers),
		cmocka_unit_test(test_comm_lists),
		cmocka_unit_test(test_seconds_as_perf_parses_them),
		cmocka_unit_test(test_percent_forms),
		cmocka_unit_test(test_percent_placed_as_perf_places_it),
		cmocka_unit_test(test_keep_by_thread_and_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
