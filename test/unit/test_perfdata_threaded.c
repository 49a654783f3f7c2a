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

#include "lib/perfdata/perfdata.h"
#include "lib/perfdata/write.h"

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

/* The delivered stream with runs of like samples joined (count and period
 * summed): what merge_repeats may change and what it must keep. */
struct entry {
	uint64_t kind;	/* no padding: entries compare as bytes */
	uint64_t ev, misc, ip, pid, tid, addr, count, period;
};

struct seq {
	struct entry *v;
	size_t n, cap;
	uint64_t calls;
	struct vp_perfdata_stats stats;
};

static void append(struct seq *q, struct entry e)
{
	struct entry *last = q->n ? &q->v[q->n - 1] : NULL;

	q->calls++;
	if (last && e.kind == 1 && last->kind == 1 && last->ev == e.ev && last->misc == e.misc &&
	    last->ip == e.ip && last->pid == e.pid && last->tid == e.tid && last->addr == e.addr) {
		last->count += e.count;
		last->period += e.period;
		return;
	}
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 1024;
		q->v = realloc(q->v, q->cap * sizeof(*q->v));
		assert_non_null(q->v);
	}
	q->v[q->n++] = e;
}

static int seq_sample(void *ctx, const struct vp_sample *s)
{
	append(ctx, (struct entry){ 1, s->evsel->index, s->misc, s->ip, s->pid, s->tid, s->addr,
				    s->count, s->period });
	return 0;
}

static int seq_mmap(void *ctx, const struct vp_mmap_event *m)
{
	append(ctx, (struct entry){ .kind = 2, .ip = m->start, .pid = m->pid });
	return 0;
}

static int seq_comm(void *ctx, const struct vp_comm_event *c)
{
	append(ctx, (struct entry){ .kind = 3, .pid = c->pid, .tid = c->tid });
	return 0;
}

static int seq_task(void *ctx, const struct vp_task_event *e)
{
	append(ctx, (struct entry){ .kind = 4, .pid = e->pid, .tid = e->tid, .period = e->time });
	return 0;
}

static void walk_seq(const char *name, int threaded, int merge, struct seq *q)
{
	struct vp_perf_tool t = { .sample = seq_sample, .mmap = seq_mmap, .comm = seq_comm,
				  .fork = seq_task, .exit = seq_task, .merge_repeats = merge };
	char path[512];
	struct vp_perfdata *pd;
	struct vp_error err = { 0 };

	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/test/fixtures/%s", VP_SRCDIR, name);
	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	assert_int_equal(threaded ? vp_perfdata_walk_threaded(pd, &t, q, &err)
				  : vp_perfdata_walk(pd, &t, q, &err), 0);
	q->stats = *vp_perfdata_stats(pd);
	vp_perfdata_close(pd);
}

static void merged_repeats_keep_order_counts_and_periods(void **state)
{
	const char *files[] = { big, "weights.data", "callchain.data", "cxx.data", "multi.data",
				"tracepoints.data", "pipe.data" };
	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		struct seq plain = { 0 };
		walk_seq(files[i], 0, 0, &plain);
		for (int threaded = 0; threaded < 2; threaded++) {
			struct seq merged = { 0 };
			walk_seq(files[i], threaded, 1, &merged);
			assert_int_equal(merged.n, plain.n);
			assert_int_equal(merged.stats.samples, plain.stats.samples);
			assert_int_equal(merged.stats.unknown_id, plain.stats.unknown_id);
			assert_memory_equal(merged.v, plain.v, plain.n * sizeof(*plain.v));
			/* Samples without callchains repeat (busy loops); those with
			 * callchains are never joined. */
			if (!strcmp(files[i], "weights.data") || !strcmp(files[i], "cxx.data"))
				assert_true(merged.calls < plain.calls * 9 / 10);
			if (i == 0 || !strcmp(files[i], "callchain.data"))
				assert_int_equal(merged.calls, plain.calls);
			free(merged.v);
		}
		free(plain.v);
	}
}

/* Samples whose id names no event are counted as such, joined or not. */
static void merged_unknown_ids_are_all_counted(void **state)
{
	char path[64] = "/tmp/vp-unknown-XXXXXX";
	uint64_t ids_a[1] = { 1 }, ids_b[1] = { 2 };
	struct vp_pdw_event ev[2] = { { .name = "a", .ids = ids_a, .nids = 1 },
				      { .name = "b", .ids = ids_b, .nids = 1 } };
	struct vp_pdw_features feat = { .hostname = "h", .osrelease = "6.1.0", .nr_cpus_avail = 1,
					.nr_cpus_online = 1 };
	struct vp_error err = { 0 };
	struct vp_pdw *w;
	uint64_t sent[] = { 1, 1, 1, 9, 9, 9, 9, 2, 2, 9 };
	(void)state;

	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	for (int i = 0; i < 2; i++) {
		ev[i].attr.type = PERF_TYPE_SOFTWARE;
		ev[i].attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					 PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD;
	}
	assert_int_equal(vp_pdw_open(path, ev, 2, &w, &err), 0);
	for (size_t i = 0; i < sizeof(sent) / sizeof(*sent); i++) {
		struct {
			struct perf_event_header h;
			uint64_t ip;
			uint32_t pid, tid;
			uint64_t time, id, period;
		} r = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(r) }, 0x1000, 7, 7,
			100 + i, sent[i], 10 };
		assert_int_equal(vp_pdw_write(w, &r, sizeof(r)), 0);
	}
	assert_int_equal(vp_pdw_finished_round(w), 0);
	assert_int_equal(vp_pdw_finish(w, &feat, &err), 0);
	for (int threaded = 0; threaded < 2; threaded++) {
		struct seq q = { 0 };
		walk_seq(path, threaded, 1, &q);
		assert_int_equal(q.stats.samples, 5);
		assert_int_equal(q.stats.unknown_id, 5);
		assert_int_equal(q.n, 2);	/* a's three, then b's two */
		assert_int_equal(q.v[0].count, 3);
		assert_int_equal(q.v[1].count, 2);
		assert_int_equal(q.v[1].period, 20);
		free(q.v);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_callbacks_in_the_same_order),
		cmocka_unit_test(a_tool_error_stops_the_walk_with_that_error),
		cmocka_unit_test(merged_repeats_keep_order_counts_and_periods),
		cmocka_unit_test(merged_unknown_ids_are_all_counted),
	};
	return cmocka_run_group_tests(tests, make_big, drop_big);
}
