/* The walker delivers records in perf's order: queued by time, flushed at each
 * FINISHED_ROUND up to the previous round's newest time, records without a
 * time at once; samples keep read order among themselves; unordered tools
 * get stream order. Synthetic files pin it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/perfdata/perfdata.h"

struct buf {
	uint8_t *p;
	size_t n;
};

static void put(struct buf *b, const void *src, size_t n)
{
	b->p = realloc(b->p, b->n + n);
	memcpy(b->p + b->n, src, n);
	b->n += n;
}

static void put64(struct buf *b, uint64_t v) { put(b, &v, 8); }

static void rec_header(struct buf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { type, misc, size };
	put(b, &h, sizeof(h));
}

/* sample_type IP|TID|TIME|PERIOD; non-samples carry the TID|TIME trailer. */
static void sample(struct buf *b, uint64_t time, uint64_t ip)
{
	rec_header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 32);
	put64(b, ip);
	put64(b, 1 | (1ull << 32));
	put64(b, time);
	put64(b, 1000);
}

static void mmap2(struct buf *b, uint64_t time, uint64_t start)
{
	char name[16] = "/bin/x";
	rec_header(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 8 + 64 + 16 + 16);
	uint32_t pidtid[2] = { 1, 1 };
	put(b, pidtid, 8);
	put64(b, start);
	put64(b, 0x1000);
	put64(b, 0);
	uint8_t dev[24] = { 0 };
	put(b, dev, 24);
	uint32_t prot[2] = { 5, 2 };
	put(b, prot, 8);
	put(b, name, 16);
	put64(b, 1 | (1ull << 32));
	put64(b, time);
}

static void comm(struct buf *b, uint64_t time)
{
	char name[8] = "x";
	rec_header(b, PERF_RECORD_COMM, 0, 8 + 8 + 8 + 16);
	uint32_t pidtid[2] = { 1, 1 };
	put(b, pidtid, 8);
	put(b, name, 8);
	put64(b, 1 | (1ull << 32));
	put64(b, time);
}

static void round_end(struct buf *b) { rec_header(b, 68, 0, 8); }

/* A whole PERFILE2 file around the data records. */
static char *write_file(const struct buf *data)
{
	static char path[64];
	struct buf f = { 0 };
	struct perf_event_attr a = { 0 };
	uint64_t hdr[13] = { 0 };

	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	a.sample_id_all = 1;
	hdr[0] = 0x32454c4946524550ULL;
	hdr[1] = 104;
	hdr[2] = sizeof(a) + 16;
	hdr[3] = 104;			/* attrs.offset */
	hdr[4] = sizeof(a) + 16;	/* attrs.size */
	hdr[5] = 104 + sizeof(a) + 16;	/* data.offset */
	hdr[6] = data->n;
	put(&f, hdr, sizeof(hdr));
	put(&f, &a, sizeof(a));
	put64(&f, 0);			/* ids section: none */
	put64(&f, 0);
	put(&f, data->p, data->n);
	snprintf(path, sizeof(path), "/tmp/vp-walk-%d.data", (int)getpid());
	FILE *fp = fopen(path, "wb");
	fwrite(f.p, 1, f.n, fp);
	fclose(fp);
	free(f.p);
	return path;
}

struct trace {
	char s[256];
};

static void note(struct trace *t, char kind, uint64_t time)
{
	char one[32];
	snprintf(one, sizeof(one), "%s%c%llu", t->s[0] ? " " : "", kind, (unsigned long long)time);
	strcat(t->s, one);
}

static int on_sample(void *ctx, const struct vp_sample *s) { note(ctx, 'S', s->time); return 0; }
static int on_mmap(void *ctx, const struct vp_mmap_event *m) { note(ctx, 'M', m->time); return 0; }
static int on_comm(void *ctx, const struct vp_comm_event *c) { note(ctx, 'C', c->time); return 0; }

static void walk(const char *path, int unordered, struct trace *t)
{
	struct vp_error err = { 0 };
	struct vp_perfdata *pd;
	struct vp_perf_tool tool = { .sample = on_sample, .mmap = on_mmap, .comm = on_comm,
				     .unordered = unordered };

	memset(t, 0, sizeof(*t));
	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	assert_int_equal(vp_perfdata_walk(pd, &tool, t, &err), 0);
	vp_perfdata_close(pd);
}

static struct buf stream(void)
{
	struct buf b = { 0 };

	sample(&b, 200, 0x1010);
	mmap2(&b, 100, 0x1000);	/* read after a later sample: must be delivered before it */
	sample(&b, 50, 0x1010);
	round_end(&b);		/* first round: nothing is old enough to flush */
	sample(&b, 150, 0x1010);
	comm(&b, 300);
	round_end(&b);		/* flushes up to 200, the first round's newest time */
	sample(&b, 0, 0x1010);	/* no time: delivered as read */
	return b;
}

static void test_records_come_in_time_order_by_rounds(void **state)
{
	(void)state;
	struct buf b = stream();
	char *path = write_file(&b);
	struct trace t;

	walk(path, 0, &t);
	/* S50 before the map it follows in time, S200 and S150 after it; among
	 * themselves samples keep the order they were read in (their order cannot
	 * change a table), unlike perf which sorts them too. */
	assert_string_equal(t.s, "S50 M100 S200 S150 S0 C300");
	unlink(path);
	free(b.p);
}

static void test_unordered_tools_get_stream_order(void **state)
{
	(void)state;
	struct buf b = stream();
	char *path = write_file(&b);
	struct trace t;

	walk(path, 1, &t);
	assert_string_equal(t.s, "S200 M100 S50 S150 C300 S0");
	unlink(path);
	free(b.p);
}

static void test_samples_around_several_maps_keep_their_places(void **state)
{
	(void)state;
	struct buf b = { 0 };
	struct trace t;

	/* Many samples interleaved with maps in one window: each sample must come
	 * after every map older than it and before every newer one. */
	for (uint64_t k = 1; k <= 40; k++) {
		sample(&b, 1000 - 10 * k, 0x1010);
		if (k % 8 == 0)
			mmap2(&b, 1000 - 10 * k + 5, 0x1000);
	}
	round_end(&b);
	char *path = write_file(&b);
	walk(path, 0, &t);
	/* Delivered times must be non-decreasing across maps: check the maps split
	 * the samples correctly by scanning the trace. */
	uint64_t last_map = 0, time;
	char kind;
	int n = 0;
	for (char *p = t.s; sscanf(p, " %c%llu", &kind, (unsigned long long *)&time) == 2; n++) {
		if (kind == 'M')
			last_map = time;
		else
			assert_true(time > last_map);
		p = strchr(p + 1, ' ');
		if (!p)
			break;
	}
	assert_int_equal(n + 1, 45);
	unlink(path);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_come_in_time_order_by_rounds),
		cmocka_unit_test(test_unordered_tools_get_stream_order),
		cmocka_unit_test(test_samples_around_several_maps_keep_their_places),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
