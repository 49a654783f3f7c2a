/* The two-thread walk delivers exactly what the one-thread walk delivers, in
 * the same order, and a tool's error stops it with that error. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata.h"

/* Unit tests run from the top of the tree (make check-unit). */
#define VP_SRCDIR "."

/* A running digest of every callback and its arguments, and a count. */
struct trace {
	uint64_t h, n;
	uint64_t fail_at;	/* return an error from this call on; 0 = never */
};

static void mix(struct trace *t, uint64_t v)
{
	t->h = (t->h ^ v) * 0x100000001b3ull;
}

static void mix_str(struct trace *t, const char *s)
{
	while (*s)
		mix(t, (unsigned char)*s++);
}

static int step(struct trace *t, uint64_t kind)
{
	mix(t, kind);
	t->n++;
	return t->fail_at && t->n >= t->fail_at ? -EIO : 0;
}

static int on_sample(void *ctx, const struct vp_sample *s)
{
	struct trace *t = ctx;
	mix(t, s->ip);
	mix(t, s->time);
	mix(t, s->pid);
	mix(t, s->period);
	mix(t, s->evsel->index);
	for (uint64_t i = 0; i < s->nr_callchain; i++)
		mix(t, s->callchain[i]);
	if (s->raw)
		for (uint32_t i = 0; i < s->raw_size; i++)
			mix(t, ((const uint8_t *)s->raw)[i]);
	return step(t, 1);
}

static int on_mmap(void *ctx, const struct vp_mmap_event *m)
{
	struct trace *t = ctx;
	mix(t, m->start);
	mix(t, m->pid);
	mix_str(t, m->filename);
	return step(t, 2);
}

static int on_comm(void *ctx, const struct vp_comm_event *c)
{
	struct trace *t = ctx;
	mix(t, c->tid);
	mix_str(t, c->comm);
	return step(t, 3);
}

static int on_task(void *ctx, const struct vp_task_event *e)
{
	struct trace *t = ctx;
	mix(t, e->pid);
	mix(t, e->tid);
	mix(t, e->time);
	return step(t, 4);
}

static int on_lost(void *ctx, const struct vp_lost_event *l)
{
	struct trace *t = ctx;
	mix(t, l->lost);
	return step(t, 5);
}

static const struct vp_perf_tool tool = {
	.sample = on_sample, .mmap = on_mmap, .comm = on_comm, .fork = on_task, .exit = on_task,
	.lost = on_lost,
};

static char big[64];	/* fixtures grown past many batches of the threaded walk */

static int make_big(void **state)
{
	char cmd[256];
	(void)state;
	strcpy(big, "/tmp/vp-threaded-XXXXXX");
	int fd = mkstemp(big);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "python3 %s/scripts/perfdata-repeat.py %s/test/fixtures/callchain.data "
		 "%s 200 >/dev/null", VP_SRCDIR, VP_SRCDIR, big);
	return system(cmd) == 0 ? 0 : -1;
}

static int drop_big(void **state)
{
	(void)state;
	return unlink(big);
}

static int walk(const char *name, int threaded, struct trace *t, struct vp_error *err)
{
	char path[512];
	struct vp_perfdata *pd;
	int r;

	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/test/fixtures/%s", VP_SRCDIR, name);
	assert_int_equal(vp_perfdata_open(path, &pd, err), 0);
	r = threaded ? vp_perfdata_walk_threaded(pd, &tool, t, err) : vp_perfdata_walk(pd, &tool, t, err);
	vp_perfdata_close(pd);
	return r;
}

static void same_callbacks_in_the_same_order(void **state)
{
	const char *files[] = { big, "weights.data", "callchain.data", "cxx.data", "multi.data",
				"tracepoints.data", "pipe.data" };
	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		struct trace a = { 0xcbf29ce484222325ull, 0, 0 }, b = a;
		struct vp_error err = { 0 };
		assert_int_equal(walk(files[i], 0, &a, &err), 0);
		assert_int_equal(walk(files[i], 1, &b, &err), 0);
		assert_true(a.n > 10);	/* the fixtures are real recordings */
		if (i == 0)
			assert_true(a.n > 20000);	/* several batches */
		assert_int_equal(a.n, b.n);
		assert_true(a.h == b.h);
	}
}

static void a_tool_error_stops_the_walk_with_that_error(void **state)
{
	struct trace t = { 0, 0, 10000 };
	struct vp_error err = { 0 };
	(void)state;
	assert_int_equal(walk(big, 1, &t, &err), -EIO);
	assert_int_equal(t.n, 10000);	/* nothing delivered after the failing call */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_callbacks_in_the_same_order),
		cmocka_unit_test(a_tool_error_stops_the_walk_with_that_error),
	};
	return cmocka_run_group_tests(tests, make_big, drop_big);
}
