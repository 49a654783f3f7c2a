/* The walk in pieces against the ordered walk (ordered.c, perf's order):
 * every sample gets the mark the ordered walk gives it (how many records
 * that are not samples come before it), the replay gives those records in
 * the ordered walk's order, and the counts agree; on perf's own files and on
 * files whose rounds reorder records as perf's do (CPUs drained late, equal
 * times, records without time), cut into pieces from a few bytes up, so
 * that nearly every piece starts by the resync rule. And report's tables
 * from the walk in pieces equal the ordered walk's, with 1 and 3 threads,
 * on a file whose processes remap, fork and exit while they are sampled. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fixtures.h"
#include "lib/perfdata/internal.h"
#include "lib/perfdata/pieces.h"
#include "lib/perfdata/write.h"
#include "lib/profile/report.h"
#include "lib/symbols/session.h"
#include "lib/symbols/symbols.h"
#include "lib/util/u64map.h"

#define VP_SRCDIR "."

static char dir[64];

/* ---- a file whose rounds reorder records as perf's do ---- */

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#define NCPU 4
struct cpubuf {
	uint8_t *b;
	size_t n, cap;
};
static struct cpubuf cpu[NCPU];

static void put(int c, const void *rec, size_t len)
{
	struct cpubuf *b = &cpu[c];
	if (b->n + len > b->cap) {
		b->cap = (b->n + len) * 2;
		b->b = realloc(b->b, b->cap);
		assert_non_null(b->b);
	}
	memcpy(b->b + b->n, rec, len);
	b->n += len;
}

/* a record with the sample_id_all trailer (pid/tid, time, cpu) */
static void put_rec(int c, uint32_t type, uint16_t misc, const void *body, size_t blen,
		    uint32_t pid, uint64_t time)
{
	uint8_t rec[512];
	size_t len = 8 + ((blen + 7) & ~7u) + 24;
	struct perf_event_header h = { type, misc, (uint16_t)len };
	uint32_t tr[6] = { pid, pid, 0, 0, (uint32_t)c, 0 };

	memcpy(&tr[2], &time, 8);
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &h, 8);
	memcpy(rec + 8, body, blen);
	memcpy(rec + len - 24, tr, 24);
	put(c, rec, len);
}

static void put_mmap(int c, uint16_t misc, uint32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *file, uint64_t time)
{
	uint8_t body[256] = { 0 };
	uint32_t u[2] = { pid, pid }, prot = 5;
	uint64_t v[3] = { start, len, pgoff };

	memcpy(body, u, 8);
	memcpy(body + 8, v, 24);
	memcpy(body + 56, &prot, 4);
	strcpy((char *)body + 64, file);
	put_rec(c, PERF_RECORD_MMAP2, misc, body, 64 + strlen(file) + 1, pid, time);
}

static void put_task(int c, uint32_t type, uint32_t pid, uint32_t ppid, uint64_t time)
{
	uint32_t u[4] = { pid, ppid, pid, ppid };
	uint8_t body[24];

	memcpy(body, u, 16);
	memcpy(body + 16, &time, 8);
	put_rec(c, type, 0, body, 24, pid, time);
}

static void put_comm(int c, uint32_t pid, const char *comm, uint64_t time)
{
	uint8_t body[32] = { 0 };
	uint32_t u[2] = { pid, pid };

	memcpy(body, u, 8);
	strcpy((char *)body + 8, comm);
	put_rec(c, PERF_RECORD_COMM, 0, body, 8 + strlen(comm) + 1, pid, time);
}

static void put_sample(int c, uint16_t misc, uint64_t ip, uint32_t pid, uint64_t time)
{
	uint8_t s[64];

	put(c, s, vp_test_sample(s, misc, ip, time, pid, (uint32_t)c, 1000 + rnd() % 7));
}

#define KBASE 0xffffffff81000000ull
#define NPROC 24

/* The three objects the files map (vp_test_fixture's buffer is
 * overwritten by the next call: each is copied). */
static void fixture_objects(char objs[3][512])
{
	snprintf(objs[0], 512, "%s", vp_test_fixture("libfix.so"));
	snprintf(objs[1], 512, "%s", vp_test_fixture("libshift.so"));
	snprintf(objs[2], 512, "%s", vp_test_fixture("fix-nopie"));
}

/* Samples of processes that map, remap (another object at the same
 * address), fork, exec and exit as they go, on NCPU CPUs whose buffers are
 * drained round by round, some of them a round late; a few records carry no
 * time, many share one. */
static void make_file(const char *path, size_t steps, int unfinished)
{
	char objs[3][512];
	fixture_objects(objs);
	uint64_t ids[1] = { 7 }, clock[NCPU] = { 0 };
	uint32_t pids[NPROC];
	size_t npids = 4;
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	struct vp_pdw *w;
	struct vp_error err = { 0 };

	vp_test_cpu_clock_attr(&ev.attr);
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	for (int c = 0; c < NCPU; c++)
		cpu[c].n = 0;
	/* what existed before: no times */
	put_mmap(0, PERF_RECORD_MISC_KERNEL, UINT32_MAX, KBASE, 0x1000000, KBASE,
		 "[kernel.kallsyms]_text", 0);
	for (size_t i = 0; i < npids; i++) {
		pids[i] = 1000 + (uint32_t)i;
		put_comm(0, pids[i], "synth", 0);
		put_mmap(0, 0, pids[i], 0x400000, 0x10000, 0, objs[i % 3], 0);
	}
	for (size_t step = 0; step < steps; step++) {
		int c = (int)(rnd() % NCPU);
		clock[c] += rnd() % 4 ? rnd() % 3 : rnd() % 2000;	/* equal times are common */
		uint64_t t = rnd() % 300 ? clock[c] + 1 : 0;		/* a few without a time */
		uint32_t pid = pids[rnd() % npids];
		unsigned what = (unsigned)(rnd() % 1000);

		if (what < 6) {		/* another object where this one was */
			put_mmap(c, 0, pid, 0x400000 + (rnd() % 2) * 0x1000, 0x10000 - (rnd() % 2) * 0x1000,
				 0, objs[rnd() % 3], t);
		} else if (what < 9 && npids < NPROC) {	/* a new process, its parent's maps */
			pids[npids] = 1000 + (uint32_t)npids;
			put_task(c, PERF_RECORD_FORK, pids[npids], pid, t);
			npids++;
		} else if (what < 11) {
			put_comm(c, pid, rnd() % 2 ? "renamed" : "other", t);
		} else if (what < 12) {
			put_task(c, PERF_RECORD_EXIT, pid, pid, t);
		} else if (what < 13) {	/* a module comes and goes: the kernel's maps change */
			put_mmap(c, PERF_RECORD_MISC_KERNEL, UINT32_MAX, KBASE + 0x800000 + (rnd() % 4) * 0x1000,
				 0x4000, 0, "/lib/modules/x/kernel/fs/xfs.ko", t);
		} else if (what < 14) {
			uint64_t lost[2] = { 7, 1 + rnd() % 5 };
			put_rec(c, PERF_RECORD_LOST, 0, lost, 16, pid, t);
		} else if (what < 130) {
			put_sample(c, PERF_RECORD_MISC_KERNEL, KBASE + rnd() % 0x3000, pid, t);
		} else if (what < 160) {	/* in the module, where it is mapped */
			put_sample(c, PERF_RECORD_MISC_KERNEL, KBASE + 0x800000 + rnd() % 0x6000, pid, t);
		} else if (what < 170) {
			put_sample(c, PERF_RECORD_MISC_HYPERVISOR, rnd(), pid, t);
		} else {
			put_sample(c, PERF_RECORD_MISC_USER, 0x400000 + 0x1000 + rnd() % 0x600, pid, t);
		}
		if (rnd() % 64 == 0) {	/* a round: each CPU's buffer, some left for later */
			for (int k = 0; k < NCPU; k++)
				if (rnd() % 5 || step + 1 == steps) {
					assert_int_equal(vp_pdw_write(w, cpu[k].b, cpu[k].n), 0);
					cpu[k].n = 0;
				}
			assert_int_equal(vp_pdw_finished_round(w), 0);
		}
	}
	for (int k = 0; k < NCPU; k++) {
		if (cpu[k].n)
			assert_int_equal(vp_pdw_write(w, cpu[k].b, cpu[k].n), 0);
		cpu[k].n = 0;
	}
	if (unfinished) {	/* a recorder killed in the middle of a record */
		uint8_t half[20] = { PERF_RECORD_SAMPLE, 0, 0, 0, 0, 0, 48, 0 };
		assert_int_equal(vp_pdw_write(w, half, sizeof(half)), 0);
		assert_int_equal(vp_pdw_flush(w), 0);
		vp_pdw_close(w);
		return;
	}
	/* perf record's table of the objects with samples: the report reads
	 * them beside the scan (one with no samples, one that is no object
	 * and the kernel's entry only go along) */
	uint8_t bids[6 * 512];
	size_t nb = 0;
	static const char *const unread[] = { "//anon", "[kernel.kallsyms]" };
	for (size_t i = 0; i < 3; i++) {
		struct vp_elf *e;
		uint8_t id[20];
		size_t idn = 0;
		assert_int_equal(vp_elf_open(objs[i], NULL, 0, NULL, &e, &err), 0);
		assert_int_equal(vp_elf_build_id(e, id, &idn), 0);
		vp_elf_close(e);
		nb += vp_pd_build_id_record(bids + nb, sizeof(bids) - nb, 0, PERF_RECORD_MISC_USER, -1,
					    id, idn, objs[i]);
	}
	for (size_t i = 0; i < 2; i++)
		nb += vp_pd_build_id_record(bids + nb, sizeof(bids) - nb, 0,
					    i ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, -1,
					    (const uint8_t *)"0123456789abcdefghij", 20, unread[i]);
	struct vp_pdw_features f = { .hostname = "test", .osrelease = "6.1.0-test",
				     .build_ids = bids, .build_ids_size = nb };
	assert_int_equal(vp_pdw_finish(w, &f, &err), 0);
}

/* ---- what each walk delivers ---- */

struct seen {
	uint64_t *order;	/* digests of the records that are not samples, in order */
	size_t n, cap;
	struct vp_u64map mark;	/* sample offset -> mark + 1 */
	uint64_t samples;
};

static void push(struct seen *s, uint64_t v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->order = realloc(s->order, s->cap * sizeof(*s->order));
		assert_non_null(s->order);
	}
	s->order[s->n++] = v;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

static int o_mmap(void *ctx, const struct vp_mmap_event *m)
{
	uint64_t h = mix(mix(mix(1, m->start), m->pid), m->time);
	for (const char *p = m->filename; *p; p++)
		h = mix(h, (unsigned char)*p);
	push(ctx, h);
	return 0;
}

static int o_comm(void *ctx, const struct vp_comm_event *c)
{
	push(ctx, mix(mix(mix(2, c->pid), c->time), (unsigned char)c->comm[0]));
	return 0;
}

static int o_fork(void *ctx, const struct vp_task_event *e)
{
	push(ctx, mix(mix(mix(3, e->pid), e->ppid), e->time));
	return 0;
}

static int o_exit(void *ctx, const struct vp_task_event *e)
{
	push(ctx, mix(mix(4, e->pid), e->time));
	return 0;
}

static int o_lost(void *ctx, const struct vp_lost_event *l)
{
	push(ctx, mix(5, l->lost));
	return 0;
}

static int o_sample(void *ctx, const struct vp_sample *s)
{
	struct seen *sn = ctx;
	assert_int_equal(vp_u64map_put(&sn->mark, s->offset, (void *)(uintptr_t)(sn->n + 1)), 0);
	sn->samples++;
	return 0;
}

static const struct vp_perf_tool oracle = {
	.sample = o_sample, .mmap = o_mmap, .comm = o_comm, .fork = o_fork, .exit = o_exit,
	.lost = o_lost,
};

struct pworker {
	uint64_t *off, *mark;
	size_t n, cap;
};

static int p_sample(void *wctx, const struct vp_sample *s, const struct vp_pieces_pos *pos,
		    struct vp_error *err)
{
	struct pworker *w = wctx;
	(void)err;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 1024;
		w->off = realloc(w->off, w->cap * 8);
		w->mark = realloc(w->mark, w->cap * 8);
		assert_true(w->off && w->mark);
	}
	w->off[w->n] = s->offset;
	w->mark[w->n++] = pos->mark;
	return 0;
}

static void free_seen(struct seen *s)
{
	free(s->order);
	vp_u64map_free(&s->mark);
	memset(s, 0, sizeof(*s));
}

/* The walk in pieces of path (pieces of piece_bytes, counted in chunks of
 * chunk_bytes, on threads) gives what the ordered walk gives. */
/* Pieces split off at the scan's end, and pieces the join read again, in
 * the tests so far. */
static size_t splits, rereads;

static void same_as_ordered(const char *path, unsigned threads, uint64_t piece_bytes,
			    uint64_t chunk_bytes)
{
	struct vp_perfdata *pd;
	struct vp_pieces *p;
	struct vp_error err = { 0 };
	struct seen ord = { 0 }, rep = { 0 };
	struct vp_perfdata_stats so, sp;

	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	assert_int_equal(vp_perfdata_walk(pd, &oracle, &ord, &err), 0);
	so = *vp_perfdata_stats(pd);
	vp_perfdata_close(pd);

	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	assert_int_equal(vp_pd_pieces_open(pd, threads, piece_bytes, chunk_bytes, NULL, &p, &err), 0);
	assert_non_null(p);
	splits += vp_pd_pieces_split(p);
	rereads += vp_pd_pieces_reread(p);
	struct vp_perf_tool t = oracle;
	t.sample = NULL;
	assert_int_equal(vp_pieces_replay(p, &t, &rep, NULL, NULL, &err), 0);
	assert_int_equal(rep.n, ord.n);
	assert_memory_equal(rep.order, ord.order, ord.n * sizeof(*ord.order));
	/* replayed twice: the same again, the lost counts once */
	rep.n = 0;
	assert_int_equal(vp_pieces_replay(p, &t, &rep, NULL, NULL, &err), 0);
	assert_memory_equal(rep.order, ord.order, ord.n * sizeof(*ord.order));

	struct pworker w[4] = { { 0 } };
	void *wctx[4] = { &w[0], &w[1], &w[2], &w[3] };
	assert_true(vp_pieces_threads(p) <= 4);
	assert_int_equal(vp_pieces_samples(p, p_sample, wctx, &err), 0);
	uint64_t n = 0;
	for (int i = 0; i < 4; i++) {
		for (size_t j = 0; j < w[i].n; j++) {
			uintptr_t m = (uintptr_t)vp_u64map_get(&ord.mark, w[i].off[j]);
			assert_true(m != 0);
			if (m - 1 != w[i].mark[j])
				fail_msg("%s: sample at %llu: mark %llu, ordered walk %llu", path,
					 (unsigned long long)w[i].off[j], (unsigned long long)w[i].mark[j],
					 (unsigned long long)(m - 1));
		}
		n += w[i].n;
		free(w[i].off);
		free(w[i].mark);
	}
	assert_int_equal(n, ord.samples);
	vp_pieces_close(p, 1);
	sp = *vp_perfdata_stats(pd);
	vp_perfdata_close(pd);
	assert_int_equal(sp.records, so.records);
	assert_int_equal(sp.samples, so.samples);
	assert_int_equal(sp.unknown_id, so.unknown_id);
	assert_int_equal(sp.lost_events, so.lost_events);
	assert_int_equal(sp.lost_samples, so.lost_samples);
	assert_int_equal(sp.skipped_records, so.skipped_records);
	assert_int_equal(sp.out_of_order, so.out_of_order);
	assert_int_equal(sp.recovered, so.recovered);
	assert_int_equal(sp.dropped_bytes, so.dropped_bytes);
	free_seen(&ord);
	free_seen(&rep);
}

/* ---- the count in the scan ---- */

struct eworker {
	size_t piece;
	uint64_t next;		/* the mark at() must give next in this piece */
	size_t *pc;
	uint64_t *off, *mark, *when;
	size_t n, cap;
};

static void e_push(struct eworker *w, size_t piece, uint64_t off, const struct vp_pieces_pos *pos)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 1024;
		w->pc = realloc(w->pc, w->cap * sizeof(*w->pc));
		w->off = realloc(w->off, w->cap * 8);
		w->mark = realloc(w->mark, w->cap * 8);
		w->when = realloc(w->when, w->cap * 8);
		assert_true(w->pc && w->off && w->mark && w->when);
	}
	w->pc[w->n] = piece;
	w->off[w->n] = off;
	w->mark[w->n] = pos->mark;
	w->when[w->n++] = pos->when;
}

static int e_sample(void *wctx, const struct vp_sample *s, const struct vp_pieces_pos *pos,
		    struct vp_error *err)
{
	struct eworker *w = wctx;
	(void)err;
	e_push(w, w->piece, s->offset, pos);
	return 0;
}

static int e_begin(void *wctx, size_t piece)
{
	((struct eworker *)wctx)->piece = piece;
	((struct eworker *)wctx)->next = 0;
	return 0;
}

/* The piece's own records come in its own order, each once: marks 0, 1... */
static int e_at(void *wctx, uint64_t mark)
{
	struct eworker *w = wctx;
	assert_true(mark >= w->next);
	w->next = mark + 1;
	return 0;
}

static int e_mmap(void *wctx, const struct vp_mmap_event *m)
{
	(void)m;
	assert_true(((struct eworker *)wctx)->next > 0);
	return 0;
}

static int e_task(void *wctx, const struct vp_task_event *e)
{
	(void)e;
	assert_true(((struct eworker *)wctx)->next > 0);
	return 0;
}

static void e_free(struct eworker *w)
{
	free(w->pc);
	free(w->off);
	free(w->mark);
	free(w->when);
	memset(w, 0, sizeof(*w));
}

/* The count in the scan gives each sample it keeps the place (mark and
 * when) the plan gives it, and with the rest from vp_pieces_samples every
 * sample once, with the same counts. Returns how many the scan kept. */
static uint64_t early_as_planned(const char *path, unsigned threads, uint64_t piece_bytes,
				 uint64_t chunk_bytes)
{
	struct vp_perfdata *pd;
	struct vp_pieces *p;
	struct vp_error err = { 0 };
	struct eworker w[4] = { { 0 } }, plan = { 0 };
	void *wctx[4] = { &w[0], &w[1], &w[2], &w[3] }, *pctx[4] = { &plan, &plan, &plan, &plan };
	struct vp_u64map at = { 0 }, seen = { 0 };
	struct vp_perfdata_stats sp, se;
	uint64_t kept = 0, total = 0, mb, wb;

	/* the plan's places, threads 1 */
	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	assert_int_equal(vp_pd_pieces_open(pd, 1, piece_bytes, chunk_bytes, NULL, &p, &err), 0);
	assert_non_null(p);
	assert_int_equal(vp_pieces_samples(p, e_sample, pctx, &err), 0);
	vp_pieces_close(p, 1);
	sp = *vp_perfdata_stats(pd);
	vp_perfdata_close(pd);
	for (size_t i = 0; i < plan.n; i++)
		assert_int_equal(vp_u64map_put(&at, plan.off[i], (void *)(uintptr_t)(i + 1)), 0);

	const struct vp_perf_tool t = { .mmap = e_mmap, .fork = e_task, .exit = e_task };
	const struct vp_pieces_early e = { .wctx = wctx, .begin = e_begin, .tool = &t, .at = e_at,
					   .sample = e_sample };
	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	assert_int_equal(vp_pd_pieces_open(pd, threads, piece_bytes, chunk_bytes, &e, &p, &err), 0);
	assert_non_null(p);
	splits += vp_pd_pieces_split(p);
	rereads += vp_pd_pieces_reread(p);
	for (unsigned k = 0; k < threads; k++) {
		struct eworker *x = &w[k];
		for (size_t i = 0; i < x->n; i++) {
			if (!vp_pieces_early_piece(p, x->pc[i], &mb, &wb))
				continue;
			uintptr_t j = (uintptr_t)vp_u64map_get(&at, x->off[i]);
			assert_true(j != 0);
			if (x->mark[i] + mb != plan.mark[j - 1] || x->when[i] + wb != plan.when[j - 1])
				fail_msg("%s: sample at %llu (piece %zu): mark %llu when %llu, planned %llu %llu",
					 path, (unsigned long long)x->off[i], x->pc[i],
					 (unsigned long long)(x->mark[i] + mb), (unsigned long long)(x->when[i] + wb),
					 (unsigned long long)plan.mark[j - 1], (unsigned long long)plan.when[j - 1]);
			assert_null(vp_u64map_get(&seen, x->off[i]));
			assert_int_equal(vp_u64map_put(&seen, x->off[i], (void *)1), 0);
			kept++;
		}
		e_free(x);
	}
	assert_int_equal(vp_pieces_samples(p, e_sample, wctx, &err), 0);
	for (unsigned k = 0; k < threads; k++) {
		struct eworker *x = &w[k];
		for (size_t i = 0; i < x->n; i++) {
			uintptr_t j = (uintptr_t)vp_u64map_get(&at, x->off[i]);
			assert_true(j != 0);
			assert_int_equal(x->mark[i], plan.mark[j - 1]);
			assert_int_equal(x->when[i], plan.when[j - 1]);
			assert_null(vp_u64map_get(&seen, x->off[i]));
			assert_int_equal(vp_u64map_put(&seen, x->off[i], (void *)1), 0);
		}
		total += x->n;
		e_free(x);
	}
	assert_int_equal(total + kept, plan.n);
	vp_pieces_close(p, 1);
	se = *vp_perfdata_stats(pd);
	vp_perfdata_close(pd);
	assert_int_equal(se.samples, sp.samples);
	assert_int_equal(se.unknown_id, sp.unknown_id);
	assert_int_equal(se.out_of_order, sp.out_of_order);
	assert_int_equal(se.lost_events, sp.lost_events);
	assert_int_equal(se.records, sp.records);
	e_free(&plan);
	vp_u64map_free(&at);
	vp_u64map_free(&seen);
	return kept;
}

static const uint64_t piece_sizes[] = { 8, 64, 200, 1000, 4096, 65536, 0 };
/* the count's chunks, each size with a piece size above: a chunk that
 * starts mid-piece must know the piece's rounds before it */
static const uint64_t chunk_sizes[] = { 0, 8, 64, 4096, 200, 1000, 2048 };

static void perf_files_in_pieces(void **state)
{
	const char *files[] = { "weights.data", "callchain.data", "cxx.data", "multi.data",
				"tracepoints.data" };
	char path[512];
	(void)state;

	for (size_t f = 0; f < sizeof(files) / sizeof(*files); f++)
		for (size_t s = 0; s < sizeof(piece_sizes) / sizeof(*piece_sizes); s++) {
			snprintf(path, sizeof(path), "%s/test/fixtures/%s", VP_SRCDIR, files[f]);
			same_as_ordered(path, s % 2 ? 3 : 1, piece_sizes[s], chunk_sizes[s]);
		}
}

static void reordered_rounds_in_pieces(void **state)
{
	char path[128];
	(void)state;

	snprintf(path, sizeof(path), "%s/reordered.data", dir);
	make_file(path, 20000, 0);
	for (size_t s = 0; s < sizeof(piece_sizes) / sizeof(*piece_sizes); s++)
		same_as_ordered(path, s % 2 ? 4 : 2, piece_sizes[s], chunk_sizes[s]);
	snprintf(path, sizeof(path), "%s/unfinished.data", dir);
	make_file(path, 5000, 1);
	for (size_t s = 0; s < sizeof(piece_sizes) / sizeof(*piece_sizes); s++)
		same_as_ordered(path, 3, piece_sizes[s], chunk_sizes[s]);
}

/* Pieces of many rounds: most samples counted in the scan, each where the
 * plan puts it. */
static void counted_in_the_scan(void **state)
{
	static const uint64_t sizes[] = { 4096, 16384, 65536, 200000, 0 };
	char path[128];
	uint64_t kept = 0;
	(void)state;

	snprintf(path, sizeof(path), "%s/early.data", dir);
	make_file(path, 40000, 0);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
		for (unsigned threads = 1; threads <= 4; threads += 3)
			kept += early_as_planned(path, threads, sizes[s], s % 2 ? 4096 : 0);
	assert_true(kept > 0);
	fprintf(stderr, "counted in the scan: %llu\n", (unsigned long long)kept);
	snprintf(path, sizeof(path), "%s/early-unfinished.data", dir);
	make_file(path, 20000, 1);
	early_as_planned(path, 3, 16384, 0);
	for (size_t f = 0; f < 3; f++) {
		const char *files[] = { "weights.data", "callchain.data", "multi.data" };
		snprintf(path, sizeof(path), "%s/test/fixtures/%s", VP_SRCDIR, files[f]);
		early_as_planned(path, 3, 4096, 0);
	}
}

/* Threads that find no piece left split the pieces still read (here when
 * 512 bytes are left on each side): the records, their places and the
 * samples counted in the scan are the ordered walk's all the same, and
 * the pieces are put back in file order, where the join need not read
 * them again (it would, slowly, were they not). One
 * piece for the whole file and more threads than pieces, so that a thread
 * has nothing but splitting to do from the start. */
static void split_at_the_end(void **state)
{
	static const uint64_t sizes[] = { 0, 200000, 65536 };
	uint64_t keep = vp_pd_steal_min;
	char path[128];
	(void)state;

	snprintf(path, sizeof(path), "%s/split.data", dir);
	make_file(path, 40000, 0);
	vp_pd_steal_min = 512;
	splits = rereads = 0;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
		for (unsigned threads = 2; threads <= 4; threads += 2) {
			uint64_t piece = sizes[s] ? sizes[s] : 1ull << 40;	/* 0: one piece */
			same_as_ordered(path, threads, piece, s % 2 ? 4096 : 0);
			early_as_planned(path, threads, piece, s % 2 ? 4096 : 0);
		}
	snprintf(path, sizeof(path), "%s/split-unfinished.data", dir);
	make_file(path, 20000, 1);
	same_as_ordered(path, 3, 1ull << 40, 0);
	early_as_planned(path, 3, 1ull << 40, 0);
	vp_pd_steal_min = keep;
	fprintf(stderr, "pieces split off: %zu, read again: %zu\n", splits, rereads);
	assert_true(splits > 0);
	/* split pieces back in file order: the join meets each where it
	 * begins (a reader that runs past a cut before it sees it is rare) */
	assert_true(rereads * 4 < splits);
}

/* A pipe, and files with damage the ordered walk must name, are not taken. */
static void left_to_the_ordered_walk(void **state)
{
	char path[512];
	struct vp_perfdata *pd;
	struct vp_pieces *p = (void *)1;
	struct vp_error err = { 0 };
	(void)state;

	snprintf(path, sizeof(path), "%s/test/fixtures/pipe.data", VP_SRCDIR);
	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	assert_int_equal(vp_pieces_open(pd, 2, &p, &err), 0);
	assert_null(p);
	vp_perfdata_close(pd);

	/* a record whose size points into the middle of the next one */
	char cmd[2048];
	snprintf(path, sizeof(path), "%s/damaged.data", dir);
	snprintf(cmd, sizeof(cmd), "cp %s/test/fixtures/weights.data %s && python3 -c \"\n"
		 "import struct,sys\nf=open(sys.argv[1],'r+b');d=f.read()\n"
		 "off,size=struct.unpack_from('<QQ',d,40)\nn=0\n"
		 "while n<40 or struct.unpack_from('<I',d,off)[0]!=9:\n"
		 " off+=struct.unpack_from('<H',d,off+6)[0]; n+=1\n"
		 "f.seek(off+6);f.write(struct.pack('<H',12))\n\" %s", VP_SRCDIR, path, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	assert_int_equal(vp_pieces_open(pd, 2, &p, &err), 0);
	assert_null(p);
	struct seen ord = { 0 };
	assert_int_not_equal(vp_perfdata_walk(pd, &oracle, &ord, &err), 0);
	free_seen(&ord);
	vp_perfdata_close(pd);
}

/* ---- report's tables ---- */

static char *dump(const struct vp_profile *prof)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	for (size_t e = 0; e < prof->ntables; e++) {
		struct vp_event_table *t = prof->tables[e];
		vp_table_sort(t, VP_VALUE_PERIOD);
		fprintf(f, "%s %llu %llu %llu\n", t->name, (unsigned long long)t->total_samples,
			(unsigned long long)t->total_period, (unsigned long long)t->lost_samples);
		for (size_t i = 0; i < t->nrows; i++)
			fprintf(f, "%s %s %c %llu %llu\n", t->rows[i].symbol, t->rows[i].dso,
				t->rows[i].domain, (unsigned long long)t->rows[i].samples,
				(unsigned long long)t->rows[i].period);
	}
	fclose(f);
	return buf;
}

static char *report_in(const char *path, int ordered, unsigned threads, const char *kallsyms,
		       uint64_t piece_bytes)
{
	struct vp_load_opts lo;
	struct vp_profile *prof;
	struct vp_error err = { 0 };

	vp_load_opts_init(&lo);
	lo.ordered = ordered;
	lo.threads = threads;
	lo.kallsyms = kallsyms;
	lo.piece_bytes = piece_bytes;
	assert_int_equal(vp_profile_from_perfdata(path, &lo, &prof, &err), 0);
	char *d = dump(prof);
	vp_profile_free(prof);
	return d;
}

static char *report(const char *path, int ordered, unsigned threads, const char *kallsyms)
{
	return report_in(path, ordered, threads, kallsyms, 0);
}

static void report_tables_as_ordered(void **state)
{
	char path[128], ks[128];
	(void)state;

	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	vp_test_write_file(ks, "ffffffff81000000 T _text\nffffffff81000000 T k_one\n"
			   "ffffffff81001000 T k_two\nffffffff81002000 t k_three\n"
			   "ffffffff81003000 T _etext\n"
			   "ffffffff81800000 t xfs_a\t[xfs]\nffffffff81801800 t xfs_b\t[xfs]\n");
	snprintf(path, sizeof(path), "%s/remaps.data", dir);
	make_file(path, 90000, 0);	/* over 4 MB: pieces for 3 threads */
	vp_warn_mute(1);	/* the lost records, said each time */
	char *ord = report(path, 1, 0, ks);
	if (getenv("VP_TEST_SHOW"))
		fputs(ord, stderr);
	for (unsigned threads = 1; threads <= 3; threads += 2) {
		size_t early = vp_session_early_reads;
		char *pcs = report(path, 0, threads, ks);
		assert_string_equal(pcs, ord);
		free(pcs);
		/* the three objects the file lists, read beside the scan */
		assert_int_equal(vp_session_early_reads - early, 3);
	}
	/* many pieces, each counted mostly in the scan by its own states:
	 * processes fork, remap and exit, and modules come and go, inside them */
	static const uint64_t sizes[] = { 8192, 32768, 131072, 524288 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
		char *pcs = report_in(path, 0, 1 + s % 3, ks, sizes[s]);
		assert_string_equal(pcs, ord);
		free(pcs);
	}
	vp_warn_mute(0);
	assert_non_null(strstr(ord, "libfix.so"));	/* it resolves user space */
	assert_non_null(strstr(ord, "k_two"));		/* and the kernel */
	assert_non_null(strstr(ord, "xfs_b [xfs]"));	/* and its modules */
	free(ord);
}

/* A file without perf's table of objects: the count reads each object it
 * meets, once. One process maps two objects 512 KiB apart, another a third
 * where the first one is: the workers remember the maps they have seen to,
 * and a map taken for a neighbour's, or another process's, leaves an
 * object unread. */
static void objects_read_by_the_count(void **state)
{
	char path[128], ks[128], objs[3][512];
	uint64_t ids[1] = { 7 }, t = 0;
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	struct vp_pdw *w;
	struct vp_error err = { 0 };
	(void)state;

	fixture_objects(objs);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	vp_test_write_file(ks, "ffffffff81000000 T _text\nffffffff81001000 T k_one\n");
	snprintf(path, sizeof(path), "%s/unlisted.data", dir);
	vp_test_cpu_clock_attr(&ev.attr);
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	put_comm(0, 1000, "two", 0);
	put_mmap(0, 0, 1000, 0x400000, 0x10000, 0, objs[0], 0);
	put_mmap(0, 0, 1000, 0x480000, 0x10000, 0, objs[1], 0);
	put_comm(0, 1001, "one", 0);
	put_mmap(0, 0, 1001, 0x400000, 0x10000, 0, objs[2], 0);
	for (int round = 0; round < 40; round++) {
		for (int i = 0; i < 300; i++) {
			uint64_t off = 0x1000 + rnd() % 0x600;
			put_sample(0, PERF_RECORD_MISC_USER, (i % 3 == 1 ? 0x480000 : 0x400000) + off,
				   i % 3 == 2 ? 1001 : 1000, ++t);
		}
		assert_int_equal(vp_pdw_write(w, cpu[0].b, cpu[0].n), 0);
		cpu[0].n = 0;
		assert_int_equal(vp_pdw_finished_round(w), 0);
	}
	struct vp_pdw_features f = { .hostname = "test", .osrelease = "6.1.0-test" };
	assert_int_equal(vp_pdw_finish(w, &f, &err), 0);

	vp_warn_mute(1);
	char *ord = report(path, 1, 0, ks);
	for (unsigned threads = 1; threads <= 3; threads++) {
		size_t early = vp_session_early_reads;
		char *pcs = report_in(path, 0, threads, ks, 16384);
		assert_string_equal(pcs, ord);
		free(pcs);
		assert_int_equal(vp_session_early_reads - early, 3);
	}
	vp_warn_mute(0);
	for (int i = 0; i < 3; i++)	/* all three resolve */
		assert_non_null(strstr(ord, strrchr(objs[i], '/') + 1));
	free(ord);
}

/* ---- memory: the mapping's pages are given back ---- */

/* Resident kB of path's mappings in this process (/proc/self/smaps). */
static long mapped_kb(const char *path)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[4096];
	long kb = 0, v;
	int ours = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line), m = strlen(path);
		if (strchr(line, '-') && strchr(line, '-') < strchr(line, ' ') && line[0] != ' ')
			ours = n > m && !strncmp(line + n - m - 1, path, m);	/* "... PATH\n" */
		else if (ours && sscanf(line, "Rss: %ld kB", &v) == 1)
			kb += v;
	}
	fclose(f);
	return kb;
}

struct rss_watch {
	const char *path;
	uint64_t n;
	long max_kb, max_anon_kb;
};

static long anon_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "RssAnon: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static int watch_sample(void *wctx, const struct vp_sample *s, const struct vp_pieces_pos *pos,
			struct vp_error *err)
{
	struct rss_watch *w = wctx;
	(void)s;
	(void)pos;
	(void)err;
	if (w->n++ % 4096 == 0) {
		long kb = mapped_kb(w->path), anon = anon_kb();
		if (kb > w->max_kb)
			w->max_kb = kb;
		if (anon > w->max_anon_kb)
			w->max_anon_kb = anon;
	}
	return 0;
}

/* A 24 MB file with header records spread through it, read in pieces
 * that start mid-stride on 2 threads: both passes read it into one buffer
 * per reader (the plan keeps copies of the few records it needs), so no
 * page of the file is mapped and memory grows by those buffers, not with
 * the file. */
static void memory_flat_in_pieces(void **state)
{
	char path[128];
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = (uint64_t[]){ 7 }, .nids = 1 };
	struct vp_pdw *w;
	struct vp_error err = { 0 };
	struct vp_perfdata *pd;
	struct vp_pieces *p;
	uint8_t rec[64];
	(void)state;

	snprintf(path, sizeof(path), "%s/big.data", dir);
	vp_test_cpu_clock_attr(&ev.attr);
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	for (uint64_t i = 0; i < 500000; i++) {
		size_t n = vp_test_sample(rec, PERF_RECORD_MISC_USER, 0x400000 + i % 64, i + 1,
					  1000, 0, 1000);
		assert_int_equal(vp_pdw_write(w, rec, n), 0);
		if (i % 5000 == 4999) {	/* a header record the scan sets aside */
			struct perf_event_header h = { 82 /* FINISHED_INIT */, 0, 8 };
			assert_int_equal(vp_pdw_write(w, &h, sizeof(h)), 0);
			assert_int_equal(vp_pdw_finished_round(w), 0);
		}
	}
	struct vp_pdw_features f = { .hostname = "test", .osrelease = "6.1.0-test" };
	assert_int_equal(vp_pdw_finish(w, &f, &err), 0);

	assert_int_equal(vp_perfdata_open(path, &pd, &err), 0);
	/* the watch sees a mapping of the file when there is one */
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	volatile uint8_t *m = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(m != MAP_FAILED);
	(void)m[0];
	assert_true(mapped_kb(path) > 0);
	munmap((void *)m, 8192);
	close(fd);

	long anon0 = anon_kb();
	assert_int_equal(vp_pd_pieces_open(pd, 2, 3000000 + 8, 0, NULL, &p, &err), 0);
	assert_non_null(p);
	long scanned = mapped_kb(path);
	struct rss_watch rw[2] = { { path, 0, 0, 0 }, { path, 0, 0, 0 } };
	void *wctx[2] = { &rw[0], &rw[1] };
	assert_int_equal(vp_pieces_samples(p, watch_sample, wctx, &err), 0);
	assert_int_equal(rw[0].n + rw[1].n, 500000);
	long during = rw[0].max_kb > rw[1].max_kb ? rw[0].max_kb : rw[1].max_kb;
	long anon = rw[0].max_anon_kb > rw[1].max_anon_kb ? rw[0].max_anon_kb : rw[1].max_anon_kb;
	long after = mapped_kb(path);
	vp_pieces_close(p, 1);
	vp_perfdata_close(pd);
	if (getenv("VP_TEST_SHOW"))
		fprintf(stderr, "mapped after the scan %ld kB, while counting %ld kB, after %ld kB; "
			"anonymous memory %ld -> %ld kB\n", scanned, during, after, anon0, anon);
	if (scanned > 0 || during > 0 || after > 0)
		fail_msg("mapped after the scan %ld kB, while counting %ld kB, after %ld kB (want 0)",
			 scanned, during, after);
	/* a buffer of 2 MiB per reader, and a few MiB for the plan */
	if (anon - anon0 > 2 * 2048 + 4096)
		fail_msg("anonymous memory grew by %ld kB while scanning and counting", anon - anon0);
}

/* The scan's cut: pieces back to back over the data section, each
 * nonempty, every boundary on a stride by default (where the page cache's
 * large folios begin), and enough pieces per
 * thread that the last one taken ends the scan soon after the others. */
static void check_cut(uint64_t start, uint64_t end, unsigned threads, uint64_t bytes,
		      size_t min_n)
{
	size_t n = vp_pd_piece_cut(start, end, threads, &bytes);
	uint64_t at = start;

	assert_true(n >= min_n);
	assert_int_equal(bytes % 8, 0);
	assert_int_equal(vp_pd_piece_begin(start, bytes, 0), start);
	for (size_t k = 1; k < n; k++) {
		uint64_t b = vp_pd_piece_begin(start, bytes, k);
		assert_true(b > at);
		assert_true(b < end);
		assert_int_equal(b % bytes, 0);
		at = b;
	}
	assert_true(end - at <= bytes);
}

static void pieces_cut_on_strides(void **state)
{
	(void)state;
	uint64_t bytes = 0;
	size_t n = vp_pd_piece_cut(424, 424 + 338509400ull, 2, &bytes);

	assert_int_equal(bytes % VP_PD_STRIDE, 0);
	assert_true(n >= 12 && n <= 13);
	check_cut(424, 424 + 338509400ull, 2, 0, 12);
	check_cut(424, 424 + 338509400ull, 64, 0, 64 * 2);
	check_cut(4096, 4096 + 100, 8, 0, 1);			/* one stride: one piece */
	check_cut(424, 3u << 20, 64, 0, 2);			/* pieces of a stride */
	check_cut(424, 424 + 5000000, 3, 3000008, 2);		/* the tests' own sizes */
	check_cut(104, 104 + 100000, 3, 64, 1000);
	bytes = 0;
	assert_int_equal(vp_pd_piece_cut(4096, 8u << 20, 1, &bytes), 4);
	assert_int_equal(bytes, VP_PD_STRIDE);
}

/* The reader's view gives the file's bytes wherever it is asked, as a scan
 * asks (on, now and then back within what it holds, a record across the
 * buffer's end), with buffers smaller and larger than its read step; the
 * oracle is the pattern the file was written with. */
static uint8_t pattern(uint64_t off)
{
	return (uint8_t)((off * 2654435761u) >> 13);
}

static void check_view(int fd, uint64_t size, size_t cap)
{
	struct vp_pd_view v;
	uint64_t off = 0;
	const uint8_t *at;

	vp_pd_view_init(&v, fd, size, cap);
	while (off < size) {
		size_t n = 1 + (size_t)(rnd() % (rnd() % 8 ? 4096 : cap));
		if (n > size - off)
			n = (size_t)(size - off);
		at = vp_pd_view_at(&v, off, n);
		assert_non_null(at);
		for (size_t i = 0; i < n; i += 1 + i % 61)
			if (at[i] != pattern(off + i))
				fail_msg("cap %zu: byte %llu is %u, the file's %u", cap,
					 (unsigned long long)(off + i), at[i], pattern(off + i));
		assert_int_equal(at[n - 1], pattern(off + n - 1));
		/* mostly on, sometimes back to what the buffer still holds */
		if (rnd() % 5 == 0 && off > v.lo)
			off = v.lo + rnd() % (off - v.lo);
		else
			off += 1 + rnd() % (2 * n);
	}
	assert_null(vp_pd_view_at(&v, size - 8, 16));	/* past the end */
	assert_null(vp_pd_view_at(&v, 0, cap + 1));	/* over the buffer */
	assert_non_null(vp_pd_view_at(&v, 0, cap));
	vp_pd_view_free(&v);
}

static void view_gives_the_file(void **state)
{
	(void)state;
	char path[128];
	uint64_t size = (5u << 20) + 4099;
	uint8_t *b = malloc(size);
	int fd;

	assert_non_null(b);
	for (uint64_t i = 0; i < size; i++)
		b[i] = pattern(i);
	snprintf(path, sizeof(path), "%s/view", dir);
	assert_true((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) >= 0);
	assert_int_equal(write(fd, b, size), (ssize_t)size);
	free(b);
	check_view(fd, size, VP_PD_PMD);
	check_view(fd, size, 100000);
	check_view(fd, size, 4096);
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	return vp_test_mkdtemp(dir, "pieces");
}

static int teardown(void **state)
{
	(void)state;
	for (int c = 0; c < NCPU; c++)
		free(cpu[c].b);
	return vp_test_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perf_files_in_pieces),
		cmocka_unit_test(reordered_rounds_in_pieces),
		cmocka_unit_test(counted_in_the_scan),
		cmocka_unit_test(split_at_the_end),
		cmocka_unit_test(left_to_the_ordered_walk),
		cmocka_unit_test(report_tables_as_ordered),
		cmocka_unit_test(objects_read_by_the_count),
		cmocka_unit_test(memory_flat_in_pieces),
		cmocka_unit_test(pieces_cut_on_strides),
		cmocka_unit_test(view_gives_the_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
