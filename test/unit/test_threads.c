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
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

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

/* ---- items on several processes ---- */

struct square {
	uint64_t item, square;
	pid_t pid;
};

/* item 0 holds its process until another one has done item 1: the items
 * must be on two processes at once, or the test fails (after 20 s). */
static void square_item(void *ctx, size_t item, void *result)
{
	volatile int *item1_done = ctx;
	struct square *sq = result;

	if (item == 0) {
		time_t end = time(NULL) + 20;
		while (!__atomic_load_n(item1_done, __ATOMIC_ACQUIRE) && time(NULL) < end)
			sched_yield();
	}
	*sq = (struct square){ item, item * item, getpid() };
	if (item == 1)
		__atomic_store_n(item1_done, 1, __ATOMIC_RELEASE);
}

static void items_on_processes(void **state)
{
	int *flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct vp_proc_results r;
	(void)state;

	assert_true(flag != MAP_FAILED);
	assert_int_equal(vp_run_procs(3, 40, sizeof(struct square), square_item, flag, &r), 0);
	assert_int_equal(*flag, 1);
	const struct square *sq = r.v;
	assert_int_equal(sq[0].square, 0);
	assert_true(sq[0].pid != sq[1].pid);	/* item 0 waited for item 1 */
	for (size_t i = 0; i < 40; i++) {
		assert_int_equal(r.done[i], 1);
		assert_int_equal(sq[i].item, i);
		assert_int_equal(sq[i].square, i * i);
	}
	vp_proc_results_free(&r);
	/* nothing to do, and more processes than items */
	assert_int_equal(vp_run_procs(4, 0, sizeof(struct square), square_item, flag, &r), 0);
	vp_proc_results_free(&r);
	*flag = 1;	/* item 0 need not wait: it may be alone */
	assert_int_equal(vp_run_procs(8, 1, sizeof(struct square), square_item, flag, &r), 0);
	assert_int_equal(r.done[0], 1);
	assert_int_equal(((const struct square *)r.v)[0].pid, getpid());	/* one item: no child */
	vp_proc_results_free(&r);
	munmap(flag, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_cpu_is_never_spare),
		cmocka_unit_test(two_cpus_spare_until_a_pool_holds_both),
		cmocka_unit_test(items_on_processes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
