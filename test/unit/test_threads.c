/* A CPU is spare (threads.c) when it runs none of the process's workers:
 * the caller, and the threads vp_run_threads has running. The test sets the
 * process's affinity itself, to one CPU and to two of those it was given,
 * and restores it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#include "lib/util/threads.h"

static cpu_set_t given;

static int setup(void **state)
{
	(void)state;
	return sched_getaffinity(0, sizeof(given), &given);
}

static int teardown(void **state)
{
	(void)state;
	return sched_setaffinity(0, sizeof(given), &given);
}

/* the first n CPUs of the mask the test was given; 0 when it has fewer */
static int use_cpus(int n)
{
	cpu_set_t set;
	int have = 0;

	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE && have < n; c++)
		if (CPU_ISSET(c, &given)) {
			CPU_SET(c, &set);
			have++;
		}
	return have == n && sched_setaffinity(0, sizeof(set), &set) == 0;
}

struct seen {
	int spare[4];
	pthread_barrier_t all_in;	/* no thread's fn returns before all have looked */
};

static void seen_init(struct seen *s, unsigned threads)
{
	for (int i = 0; i < 4; i++)
		s->spare[i] = -1;
	assert_int_equal(pthread_barrier_init(&s->all_in, NULL, threads), 0);
}

static void record_spare(void *ctx, unsigned i)
{
	struct seen *s = ctx;

	s->spare[i] = vp_cpu_spare();
	pthread_barrier_wait(&s->all_in);
}

/* The caller's fn returns at once; the other thread looks until the
 * caller, waiting for it, leaves a CPU spare (5 s at most). */
static void caller_leaves(void *ctx, unsigned i)
{
	struct seen *s = ctx;
	struct timespec t0, t;

	if (i == 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if ((s->spare[i] = vp_cpu_spare()))
			break;
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 5);
}

static void one_cpu_is_never_spare(void **state)
{
	struct seen s;

	(void)state;
	seen_init(&s, 2);
	assert_true(use_cpus(1));
	assert_int_equal(vp_cpus_available(), 1);
	assert_int_equal(vp_cpu_spare(), 0);
	assert_int_equal(vp_run_threads(2, record_spare, &s), 2);
	assert_int_equal(s.spare[0], 0);
	assert_int_equal(s.spare[1], 0);
}

static void two_cpus_spare_until_a_pool_holds_both(void **state)
{
	struct seen two, one, late;

	(void)state;
	seen_init(&one, 1);
	seen_init(&two, 2);
	seen_init(&late, 2);
	if (!use_cpus(2)) {
		printf("SKIP: this process was given one CPU: no second to be spare\n");
		skip();
	}
	assert_int_equal(vp_cpus_available(), 2);
	assert_int_equal(vp_cpu_spare(), 1);
	/* the caller alone works: the other CPU is free */
	assert_int_equal(vp_run_threads(1, record_spare, &one), 1);
	assert_int_equal(one.spare[0], 1);
	/* two workers hold both, seen from either of them */
	assert_int_equal(vp_run_threads(2, record_spare, &two), 2);
	assert_int_equal(two.spare[0], 0);
	assert_int_equal(two.spare[1], 0);
	/* and give it back when joined */
	assert_int_equal(vp_cpu_spare(), 1);
	/* a caller whose share is done waits: its CPU is free */
	assert_int_equal(vp_run_threads(2, caller_leaves, &late), 2);
	assert_int_equal(late.spare[1], 1);
	assert_int_equal(vp_cpu_spare(), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_cpu_is_never_spare),
		cmocka_unit_test(two_cpus_spare_until_a_pool_holds_both),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
