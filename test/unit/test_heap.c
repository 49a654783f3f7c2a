/* malloc's heap on huge pages (heap.c), judged by the kernel's own counts:
 * the page faults the process took (getrusage), the huge pages of the
 * mapping (/proc/self/smaps) and where the heap is (/proc/self/maps). The
 * advice is taken first thing in main, as vmprof's main does; a second run
 * of this program (--late) takes it after malloc made a heap, and one
 * (--limited) under a data limit: there it must leave malloc alone. Where
 * the kernel gives no huge pages the checks that need them say so; under
 * a sanitizer, whose malloc is not glibc's, the test checks that nothing
 * was advised. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util/bulk.h"
#include "lib/util/heap.h"
#include "lib/util/sanitizer.h"

#define MIB (1ul << 20)

static int advised;	/* what main's call left */
static const char *self;

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* The [heap] mapping's range from /proc/self/maps; 0 when there is none. */
static int heap_range(uintptr_t *lo, uintptr_t *hi)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[heap]")) {
			unsigned long a, b;
			if (sscanf(line, "%lx-%lx", &a, &b) == 2) {
				/* the advice splits the heap: the first piece's start, the last one's end */
				if (!found)
					*lo = a;
				*hi = b;
				found = 1;
			}
		}
	fclose(f);
	return found;
}

/* kB of huge pages in the mapping that holds p (/proc/self/smaps). */
static long huge_kb_at(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0;
	long kb = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)p >= a && (uintptr_t)p < b;
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* Huge pages the kernel wanted to give but had none of (/proc/vmstat). */
static long thp_fallbacks(void)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char line[256];
	long n = 0, v;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "thp_fault_fallback %ld", &v) == 1)
			n = v;
	fclose(f);
	return n;
}

static int thp_possible(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char buf[128] = "";

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] && !strstr(buf, "[never]");
}


/* 1 when the checks that need huge pages can run; else says why. */
static int huge_pages_expected(void)
{
	if (VP_ASAN || VP_TSAN)	/* its malloc is not glibc's: nothing is advised (checked) */
		return 0;
	if (!thp_possible()) {
		printf("SKIP part: this kernel gives no transparent huge pages\n");
		return 0;
	}
	/* the limits under which the heap is left alone on purpose (checked by --limited) */
	struct rlimit data, as;
	if (getrlimit(RLIMIT_DATA, &data) || getrlimit(RLIMIT_AS, &as) ||
	    data.rlim_cur != RLIM_INFINITY || as.rlim_cur != RLIM_INFINITY) {
		printf("SKIP part: a data or address-space limit is set (ulimit -d, -v)\n");
		return 0;
	}
	FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
	int strict = f && fgetc(f) == '2';
	if (f)
		fclose(f);
	if (strict) {
		printf("SKIP part: strict overcommit (vm.overcommit_memory=2)\n");
		return 0;
	}
	return 1;
}

static void main_call_advises_the_heap(void **state)
{
	(void)state;
	if (!huge_pages_expected()) {
		assert_int_equal(advised, 0);
		return;
	}
	assert_int_equal(advised, 1);
	/* 16 MiB of the heap touched: 4096 small pages, or 8 huge ones */
	long fb = thp_fallbacks(), before = minor_faults();
	char *p = malloc(16 * MIB);
	assert_non_null(p);
	memset(p, 1, 16 * MIB);
	long faults = minor_faults() - before;
	uintptr_t lo, hi;
	assert_true(heap_range(&lo, &hi));
	assert_true((uintptr_t)p >= lo && (uintptr_t)p + 16 * MIB <= hi);	/* from the heap */
	if (thp_fallbacks() != fb) {
		printf("SKIP part: the kernel had no free huge page (thp_fault_fallback rose)\n");
		free(p);
		return;
	}
	assert_true(huge_kb_at(p + 8 * MIB) >= 2048);
	assert_in_range(faults, 0, 64);
	free(p);
}

/* An array under 2 MiB from vp_bulk_alloc: from the advised heap, so
 * touching it costs no fault a page. */
static void bulk_arrays_come_from_the_heap(void **state)
{
	(void)state;
	if (!huge_pages_expected())
		return;
	enum { N = 8 };
	void *v[N];
	long fb = thp_fallbacks(), before = minor_faults();
	for (int i = 0; i < N; i++) {
		v[i] = vp_bulk_alloc(MIB);
		assert_non_null(v[i]);
		memset(v[i], 2, MIB);
	}
	long faults = minor_faults() - before;
	uintptr_t lo, hi;
	assert_true(heap_range(&lo, &hi));
	for (int i = 0; i < N; i++)
		assert_true((uintptr_t)v[i] >= lo && (uintptr_t)v[i] < hi);
	if (thp_fallbacks() == fb)
		assert_in_range(faults, 0, 64);	/* 2048 pages of 4 KiB otherwise */
	for (int i = 0; i < N; i++)
		vp_bulk_free(v[i], MIB);
}

static void *thread_alloc(void *arg)
{
	(void)arg;
	return malloc(MIB);
}

/* Every thread allocates from the advised heap (one arena). */
static void threads_share_the_heap(void **state)
{
	(void)state;
	if (!huge_pages_expected())
		return;
	pthread_t t;
	void *p;
	uintptr_t lo, hi;
	assert_int_equal(pthread_create(&t, NULL, thread_alloc, NULL), 0);
	assert_int_equal(pthread_join(t, &p), 0);
	assert_non_null(p);
	assert_true(heap_range(&lo, &hi));
	assert_true((uintptr_t)p >= lo && (uintptr_t)p < hi);
	free(p);
}

/* This program again with one argument; its exit status. */
static int run_self(const char *arg)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(self, self, arg, (char *)NULL);
		_exit(127);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* Called after malloc made its heap: nothing advised, malloc still works. */
static void late_call_leaves_the_heap(void **state)
{
	(void)state;
	assert_int_equal(run_self("--late"), 0);
}

/* Under a data limit (ulimit -d) the pad would count against it: nothing
 * is advised and malloc keeps glibc's settings (a 1 MiB block is a mapping
 * of its own, not the heap's), and allocations up to near the limit work. */
static void data_limit_leaves_malloc_alone(void **state)
{
	(void)state;
	if (VP_ASAN || VP_TSAN)	/* their shadow memory cannot live under a data limit */
		return;
	assert_int_equal(run_self("--limited"), 0);
}

static int late(void)
{
	char *first = malloc(100);	/* glibc makes its heap */
	if (!first)
		return 2;
	vp_heap_prefer_huge_pages();
	char *p = malloc(4 * MIB);
	if (!p)
		return 3;
	memset(p, 3, 4 * MIB);
	free(p);
	free(first);
	return vp_heap_on_huge_pages() ? 4 : 0;
}

static int limited(void)
{
	struct rlimit lim = { 48 * MIB, 48 * MIB };
	void *v[32];
	uintptr_t lo = 0, hi = 0;

	if (setrlimit(RLIMIT_DATA, &lim) != 0)
		return 2;
	vp_heap_prefer_huge_pages();
	if (vp_heap_on_huge_pages())
		return 3;
	for (int i = 0; i < 32; i++)	/* 32 MiB of the 48 */
		if (!(v[i] = malloc(MIB)))
			return 4;
	int in_heap = heap_range(&lo, &hi) && (uintptr_t)v[0] >= lo && (uintptr_t)v[0] < hi;
	for (int i = 0; i < 32; i++)
		free(v[i]);
	return in_heap ? 5 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--late"))
		return late();
	if (argc > 1 && !strcmp(argv[1], "--limited"))
		return limited();
	vp_heap_prefer_huge_pages();	/* first, as in vmprof's main */
	advised = vp_heap_on_huge_pages();
	self = "/proc/self/exe";
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(main_call_advises_the_heap),
		cmocka_unit_test(bulk_arrays_come_from_the_heap),
		cmocka_unit_test(threads_share_the_heap),
		cmocka_unit_test(late_call_leaves_the_heap),
		cmocka_unit_test(data_limit_leaves_malloc_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
