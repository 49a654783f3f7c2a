/* Things loaded once per process (lib/util/shared.c): one load per key of a
 * kind while it is used, freed with its last use unless the loads are held,
 * then at the last release; a failed load is not kept; a value the table did
 * not give is freed at once; threads asking for one key at once load it
 * once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/shared.h"

static int loads, frees, fail_next;

static void thing_free(void *v)
{
	__atomic_add_fetch(&frees, 1, __ATOMIC_RELAXED);
	free(v);
}

static const struct vp_shared_kind kind_a = { thing_free }, kind_b = { thing_free };

/* A thing holding its key's text. */
static int thing_load(void *ctx, void **out, struct vp_error *err)
{
	__atomic_add_fetch(&loads, 1, __ATOMIC_RELAXED);
	if (fail_next) {
		fail_next = 0;
		return vp_errorf(err, -ENOENT, "'%s': no such thing", (const char *)ctx);
	}
	*out = strdup(ctx);
	return *out ? 0 : -ENOMEM;
}

static void *get(const struct vp_shared_kind *k, const char *key)
{
	struct vp_error err = { 0 };
	void *v = NULL;

	assert_int_equal(vp_shared_get(k, key, thing_load, (void *)key, &v, &err), 0);
	assert_non_null(v);
	assert_string_equal(v, key);
	return v;
}

static int reset(void **state)
{
	(void)state;
	loads = frees = fail_next = 0;
	return 0;
}

static void one_load_while_used(void **state)
{
	(void)state;
	void *a = get(&kind_a, "/proc/kallsyms"), *b = get(&kind_a, "/proc/kallsyms");
	assert_ptr_equal(a, b);
	assert_int_equal(loads, 1);
	void *other = get(&kind_b, "/proc/kallsyms");	/* another kind: its own */
	assert_ptr_not_equal(other, a);
	assert_int_equal(loads, 2);
	vp_shared_put(&kind_a, a);
	assert_int_equal(frees, 0);	/* still used */
	vp_shared_put(&kind_a, b);
	assert_int_equal(frees, 1);
	vp_shared_put(&kind_b, other);
	assert_int_equal(frees, 2);
	/* unused and not held: the next use loads again */
	a = get(&kind_a, "/proc/kallsyms");
	assert_int_equal(loads, 3);
	vp_shared_put(&kind_a, a);
	assert_int_equal(frees, 3);
}

static void held_loads_outlive_their_uses(void **state)
{
	(void)state;
	vp_shared_hold();
	vp_shared_hold();	/* holds nest */
	for (int run = 0; run < 10; run++) {	/* one file after another */
		void *v = get(&kind_a, "/usr/lib/libc.so.6");
		vp_shared_put(&kind_a, v);
	}
	assert_int_equal(loads, 1);
	assert_int_equal(frees, 0);
	void *used = get(&kind_a, "/bin/app");
	vp_shared_release();
	assert_int_equal(frees, 0);	/* one hold left */
	vp_shared_release();
	assert_int_equal(frees, 1);	/* the unused one; /bin/app is still used */
	vp_shared_put(&kind_a, used);
	assert_int_equal(frees, 2);
	vp_shared_release();		/* unmatched: no effect */
	assert_int_equal(frees, 2);
}

static void a_failed_load_is_not_kept(void **state)
{
	struct vp_error err = { 0 };
	void *v = (void *)1;
	(void)state;

	vp_shared_hold();
	fail_next = 1;
	assert_int_equal(vp_shared_get(&kind_a, "/gone", thing_load, "/gone", &v, &err), -ENOENT);
	assert_null(v);
	assert_non_null(strstr(err.msg, "'/gone': no such thing"));
	v = get(&kind_a, "/gone");	/* loaded again, now found */
	assert_int_equal(loads, 2);
	vp_shared_put(&kind_a, v);
	vp_shared_release();
	assert_int_equal(frees, 1);
}

static void a_value_not_shared_is_freed(void **state)
{
	(void)state;
	vp_shared_hold();
	vp_shared_put(&kind_a, strdup("loaded without a key"));
	assert_int_equal(frees, 1);
	vp_shared_put(&kind_a, NULL);
	assert_int_equal(frees, 1);
	vp_shared_release();
}

#define THREADS 8

static void *ask(void *arg)
{
	void **out = arg;
	struct vp_error err = { 0 };

	for (int i = 0; i < 200; i++) {
		void *v;
		if (vp_shared_get(&kind_a, "/usr/bin/perf", thing_load, "/usr/bin/perf", &v, &err) < 0)
			return NULL;
		vp_shared_put(&kind_a, v);
		*out = v;
	}
	return NULL;
}

static void threads_load_one_key_once(void **state)
{
	pthread_t t[THREADS];
	void *seen[THREADS] = { 0 };
	(void)state;

	vp_shared_hold();
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, ask, &seen[i]), 0);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(loads, 1);
	for (int i = 0; i < THREADS; i++)
		assert_ptr_equal(seen[i], seen[0]);
	assert_int_equal(frees, 0);
	vp_shared_release();
	assert_int_equal(frees, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(one_load_while_used, reset),
		cmocka_unit_test_setup(held_loads_outlive_their_uses, reset),
		cmocka_unit_test_setup(a_failed_load_is_not_kept, reset),
		cmocka_unit_test_setup(a_value_not_shared_is_freed, reset),
		cmocka_unit_test_setup(threads_load_one_key_once, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
