/* The scheduler accounting (lib/record/schedacct.c) on event sequences made
 * up so that every interval is known: a thread blocked from its switch out
 * (not preempted) to its wakeup, runnable from the wakeup or a preemption to
 * its switch in; the command blocked only when every thread is. The real
 * kernel's numbers are checked against schedstat in
 * test/integration/record_time_sources.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/record/schedacct.h"

struct seen {
	struct vp_blocked b[16];
	uint64_t stack0[16];
	size_t n;
};

static int on_blocked(void *ctx, const struct vp_blocked *b)
{
	struct seen *s = ctx;

	assert_true(s->n < 16);
	s->b[s->n] = *b;
	s->stack0[s->n] = b->stack && b->nstack ? b->stack[0] : 0;
	s->b[s->n++].stack = NULL;
	return 0;
}

static void ev(struct vp_schedacct *a, struct seen *s, uint64_t t, unsigned kind, uint32_t tid,
	       int preempt)
{
	static uint64_t seq;
	struct vp_sev e = { t, seq++, 100, tid, 1, (uint8_t)kind, (uint8_t)preempt, 0, NULL };

	assert_int_equal(vp_schedacct_event(a, &e, on_blocked, s), 0);
}

static void stack(struct vp_schedacct *a, struct seen *s, uint64_t t, uint32_t tid, uint64_t top)
{
	struct vp_sev e = { t, 0, 100, tid, 1, VP_SEV_STACK, 0, 2, malloc(16) };

	e.stack[0] = top;
	e.stack[1] = top + 1;
	assert_int_equal(vp_schedacct_event(a, &e, on_blocked, s), 0);
}

static void one_thread(void **state)
{
	struct vp_schedacct *a = vp_schedacct_new();
	struct vp_schedacct_totals t;
	struct seen s = { 0 };
	(void)state;

	ev(a, &s, 1000, VP_SEV_IN, 7, 0);		/* first seen: running */
	stack(a, &s, 1100, 7, 0xaaa);
	ev(a, &s, 1101, VP_SEV_OUT, 7, 0);		/* blocks at 0xaaa */
	ev(a, &s, 1151, VP_SEV_WAKE, 7, 0);		/* 50 blocked */
	ev(a, &s, 1161, VP_SEV_IN, 7, 0);		/* 10 waiting */
	ev(a, &s, 1200, VP_SEV_OUT, 7, 1);		/* preempted */
	ev(a, &s, 1230, VP_SEV_IN, 7, 0);		/* 30 waiting */
	ev(a, &s, 1300, VP_SEV_WAKE, 7, 0);		/* running: no effect */
	ev(a, &s, 1400, VP_SEV_OUT, 7, 0);		/* no stack this time */
	ev(a, &s, 1500, VP_SEV_IN, 7, 0);		/* no wakeup seen: 100 blocked */
	vp_schedacct_totals(a, &t);
	assert_int_equal(t.wait_ns, 40);
	assert_int_equal(t.blocked_ns, 150);
	assert_int_equal(t.switches_out, 3);
	assert_int_equal(t.blocked_intervals, 2);
	assert_int_equal(t.wakeups, 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.b[0].start, 1101);
	assert_int_equal(s.b[0].end, 1151);
	assert_int_equal(s.b[0].tid, 7);
	assert_int_equal(s.b[0].nstack, 2);
	assert_int_equal(s.stack0[0], 0xaaa);
	assert_int_equal(s.b[1].end - s.b[1].start, 100);
	assert_int_equal(s.b[1].nstack, 0);
	/* one thread: the command's time is the thread's */
	assert_int_equal(t.waiting_wall_ns, 40);
	assert_int_equal(t.blocked_wall_ns, 150);
	assert_int_equal(t.running_wall_ns, 500 - 190);
	/* on CPU 1 (ev's): 1000-1101, 1161-1200, 1230-1400 */
	assert_int_equal(vp_schedacct_ran_on(a, 1), 101 + 39 + 170);
	assert_int_equal(vp_schedacct_ran_on(a, 0), 0);
	vp_schedacct_free(a);
}

/* A preemption's stack is not a blocked stack: the next blocked interval
 * without a sched_switch sample has none. */
static void preempted_stack_is_dropped(void **state)
{
	struct vp_schedacct *a = vp_schedacct_new();
	struct seen s = { 0 };
	(void)state;

	ev(a, &s, 10, VP_SEV_IN, 7, 0);
	stack(a, &s, 20, 7, 0xbbb);
	ev(a, &s, 21, VP_SEV_OUT, 7, 1);
	ev(a, &s, 30, VP_SEV_IN, 7, 0);
	ev(a, &s, 40, VP_SEV_OUT, 7, 0);
	ev(a, &s, 50, VP_SEV_WAKE, 7, 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.b[0].nstack, 0);
	vp_schedacct_free(a);
}

static void threads_fork_exit_and_strangers(void **state)
{
	struct vp_schedacct *a = vp_schedacct_new();
	struct vp_schedacct_totals t;
	struct seen s = { 0 };
	(void)state;

	ev(a, &s, 100, VP_SEV_IN, 1, 0);
	ev(a, &s, 110, VP_SEV_FORK, 2, 0);		/* new, not runnable yet */
	ev(a, &s, 115, VP_SEV_WAKE, 99, 0);		/* not ours */
	ev(a, &s, 120, VP_SEV_WAKE, 2, 0);		/* wakeup_new */
	ev(a, &s, 125, VP_SEV_OUT, 1, 0);		/* 1 blocks (join) */
	ev(a, &s, 135, VP_SEV_IN, 2, 0);		/* 2 waited 15 */
	ev(a, &s, 200, VP_SEV_EXIT, 2, 0);
	ev(a, &s, 201, VP_SEV_OUT, 2, 0);		/* its last switch: not blocking */
	ev(a, &s, 210, VP_SEV_WAKE, 1, 0);		/* 1 blocked 85 */
	ev(a, &s, 212, VP_SEV_IN, 1, 0);
	ev(a, &s, 300, VP_SEV_OUT, 1, 0);		/* cut at the end: 50 */
	assert_int_equal(vp_schedacct_end(a, 350, on_blocked, &s), 0);
	vp_schedacct_totals(a, &t);
	assert_int_equal(t.wait_ns, 15 + 2);
	assert_int_equal(t.blocked_ns, 85 + 50);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.b[1].end, 350);
	/* the command: running 100-125 and 135-200; 125-135 waiting (1 blocked,
	 * 2 runnable); 200-210 blocked (2 gone); 210-212 waiting; 212-300
	 * running; 300-350 blocked */
	assert_int_equal(t.running_wall_ns, 25 + 65 + 88);
	assert_int_equal(t.waiting_wall_ns, 10 + 2);
	assert_int_equal(t.blocked_wall_ns, 10 + 50);
	vp_schedacct_free(a);
}

/* A switch from one of the threads straight to another (sched_switch's
 * next_pid) is the CPU switching, in some thread's CPU time: running. A
 * switch out to anyone else, back to the same thread, was waiting. */
static void direct_switches_run(void **state)
{
	struct vp_schedacct *a = vp_schedacct_new();
	struct vp_schedacct_totals t;
	struct seen s = { 0 };
	struct vp_sev to_b = { 100, 0, 100, 7, 1, VP_SEV_STACK, 0, 0, NULL, 8 };
	(void)state;

	ev(a, &s, 10, VP_SEV_IN, 7, 0);
	ev(a, &s, 20, VP_SEV_FORK, 8, 0);
	ev(a, &s, 30, VP_SEV_WAKE, 8, 0);
	assert_int_equal(vp_schedacct_event(a, &to_b, on_blocked, &s), 0);
	ev(a, &s, 101, VP_SEV_OUT, 7, 0);	/* 7 blocks, the CPU goes to 8 */
	ev(a, &s, 106, VP_SEV_IN, 8, 0);	/* 5 of switching: running */
	ev(a, &s, 200, VP_SEV_OUT, 8, 1);	/* preempted by someone else */
	ev(a, &s, 230, VP_SEV_IN, 8, 0);	/* 30 waiting */
	vp_schedacct_totals(a, &t);
	assert_int_equal(t.waiting_wall_ns, 30);
	assert_int_equal(t.running_wall_ns, 230 - 10 - 30);
	assert_int_equal(t.wait_ns, 106 - 30 + 30);	/* the threads' own: 8 waited from its wakeup */
	vp_schedacct_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_thread),
		cmocka_unit_test(preempted_stack_is_dropped),
		cmocka_unit_test(threads_fork_exit_and_strangers),
		cmocka_unit_test(direct_switches_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
