/* perf.data (file and pipe format) through the whole report pipeline:
 * reader, ordering, sessions, symbol tables (ELF objects of the fixtures
 * under their symfs, a kallsyms copy for host and guest kernels),
 * tracepoint decoding, report --io's pairing of syscalls, callchains into
 * inclusive counts and stack trees; and the walk in pieces, sample by
 * sample, against the ordered walk. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "lib/profile/io.h"
#include "lib/perfdata/internal.h"
#include "lib/profile/report.h"
#include "lib/util/u64map.h"

/* ---- the walk in pieces against the ordered walk ---- */

struct ordered {
	uint64_t records;		/* not samples, delivered so far */
	struct vp_u64map mark;		/* sample offset -> mark + 1 */
	uint64_t samples;
};

static int o_record(struct ordered *o)
{
	o->records++;
	return 0;
}
static int o_mmap(void *c, const struct vp_mmap_event *m) { (void)m; return o_record(c); }
static int o_comm(void *c, const struct vp_comm_event *e) { (void)e; return o_record(c); }
static int o_task(void *c, const struct vp_task_event *e) { (void)e; return o_record(c); }
static int o_lost(void *c, const struct vp_lost_event *e) { (void)e; return o_record(c); }
static int o_sample(void *c, const struct vp_sample *s)
{
	struct ordered *o = c;
	o->samples++;
	return vp_u64map_put(&o->mark, s->offset, (void *)(uintptr_t)(o->records + 1));
}

static int p_sample(void *wctx, const struct vp_sample *s, const struct vp_pieces_pos *pos,
		    struct vp_error *err)
{
	struct ordered *o = wctx;
	(void)err;
	if ((uintptr_t)vp_u64map_get(&o->mark, s->offset) != pos->mark + 1)
		abort();	/* the walk in pieces put a sample elsewhere than perf does */
	__atomic_add_fetch(&o->samples, 1, __ATOMIC_RELAXED);
	return 0;
}

/* The count in the scan: each piece's samples with their marks in the
 * piece, kept where the plan says they stand. */
struct early {
	size_t piece;
	uint64_t n, cap;
	size_t *pc;
	uint64_t *off, *mark;
};

static int e_begin(void *wctx, size_t piece)
{
	((struct early *)wctx)->piece = piece;
	return 0;
}

static int e_sample(void *wctx, const struct vp_sample *s, const struct vp_pieces_pos *pos,
		    struct vp_error *err)
{
	struct early *e = wctx;
	(void)err;
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 256;
		if (!(e->pc = realloc(e->pc, e->cap * sizeof(*e->pc))) ||
		    !(e->off = realloc(e->off, e->cap * 8)) || !(e->mark = realloc(e->mark, e->cap * 8)))
			abort();
	}
	e->pc[e->n] = e->piece;
	e->off[e->n] = s->offset;
	e->mark[e->n++] = pos->mark;
	return 0;
}

/* With the count in the scan (pieces of 4 KiB, split at the scan's end
 * down to 256 bytes a side): the samples it keeps have the ordered walk's
 * marks, and with the rest every sample is counted once. */
static void early_as_ordered(const char *path, struct ordered *o)
{
	static const struct vp_perf_tool none = { 0 };
	struct early e[3] = { { 0 } };
	void *w[3] = { &e[0], &e[1], &e[2] };
	const struct vp_pieces_early ea = { .wctx = w, .begin = e_begin, .tool = &none,
					    .sample = e_sample };
	struct ordered q = { .mark = o->mark };
	struct vp_perfdata *pd = NULL;
	struct vp_pieces *p = NULL;
	struct vp_error err = { 0 };
	uint64_t kept = 0, mb, wb;

	if (vp_perfdata_open(path, &pd, &err) < 0)
		return;
	vp_pd_steal_min = 256;
	if (vp_pd_pieces_open(pd, 3, 4096, 0, &ea, &p, &err) == 0 && p) {
		for (int t = 0; t < 3; t++)
			for (uint64_t i = 0; i < e[t].n; i++)
				if (vp_pieces_early_piece(p, e[t].pc[i], &mb, &wb)) {
					if ((uintptr_t)vp_u64map_get(&o->mark, e[t].off[i]) != e[t].mark[i] + mb + 1)
						abort();
					kept++;
				}
		void *qw[3] = { &q, &q, &q };
		if (vp_pieces_samples(p, p_sample, qw, &err) == 0 && q.samples + kept != o->samples)
			abort();
		vp_pieces_close(p, 0);
	}
	for (int t = 0; t < 3; t++) {
		free(e[t].pc);
		free(e[t].off);
		free(e[t].mark);
	}
	vp_perfdata_close(pd);
}

/* Pieces of 64 bytes on 3 threads (nearly every start found by resync):
 * where the walk in pieces takes the file, each sample's mark is the
 * ordered walk's and the sample counts agree. */
static void pieces_as_ordered(const char *path)
{
	static const struct vp_perf_tool tool = {
		.sample = o_sample, .mmap = o_mmap, .comm = o_comm, .fork = o_task, .exit = o_task,
		.lost = o_lost,
	};
	struct ordered o = { 0 }, q = { 0 };
	struct vp_perfdata *pd = NULL;
	struct vp_pieces *p = NULL;
	struct vp_error err = { 0 };

	if (vp_perfdata_open(path, &pd, &err) < 0)
		return;
	int r = vp_perfdata_walk(pd, &tool, &o, &err);
	vp_perfdata_close(pd);
	if (r < 0 || vp_perfdata_open(path, &pd, &err) < 0)
		goto out;
	if (vp_pd_pieces_open(pd, 3, 64, 256, NULL, &p, &err) == 0 && p) {
		q.mark = o.mark;
		void *w[3] = { &q, &q, &q };
		if (vp_pieces_samples(p, p_sample, w, &err) == 0 && q.samples != o.samples)
			abort();
		vp_pieces_close(p, 0);
	}
	vp_perfdata_close(pd);
	early_as_ordered(path, &o);
out:
	vp_u64map_free(&o.mark);
}

/* A failure must say what is wrong with which file: an empty or anonymous
 * message is a bug the fuzzer should find like a crash. */
static void check_error(const char *path, const struct vp_error *err)
{
	if (!err->msg[0] || !strstr(err->msg, path))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_load_opts lo;
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };

	vp_fuzz_quiet();
	vp_load_opts_init(&lo);
	lo.threads = 2;	/* the threaded walks whatever the machine (not every CPU given) */
	lo.symfs = VP_SRCDIR "/test/fixtures/symfs";
	lo.kallsyms = VP_SRCDIR "/test/fuzz/corpus/kallsyms/kallsyms";
	lo.guest_kallsyms = lo.kallsyms;
	/* the input's last byte picks the row key and caller attribution, or
	 * inclusive counts and call-stack trees (every callchain walked) */
	if (size && data[size - 1] & 1) {
		lo.key = VP_KEY_SYM | VP_KEY_COMM | VP_KEY_PID;
		lo.caller = 1;
	} else {
		lo.children = 1;
		lo.stacks = 1;
		lo.children_key = size && data[size - 1] & 4 ? VP_KEY_SYM : 0;
	}
	const char *path = vp_fuzz_file(data, size);
	pieces_as_ordered(path);
	if (vp_profile_from_perfdata(path, &lo, &p, &err) == 0)
		vp_profile_free(p);
	else
		check_error(path, &err);
	/* and once more as tables of a tracepoint field, when the file has one */
	if (size && data[size - 1] & 2)
		lo.group_by = "prev_state";
	else
		lo.weight = "ret";
	p = NULL;
	err.msg[0] = '\0';
	if (vp_profile_from_perfdata(path, &lo, &p, &err) == 0)
		vp_profile_free(p);
	else if (!strstr(err.msg, "no tracepoint") && !strstr(err.msg, "field"))
		check_error(path, &err);
	/* and as report --io's table of the syscall tracepoints */
	struct vp_io_table *io = NULL;
	err.msg[0] = '\0';
	if (vp_io_from_perfdata(path, &lo, &io, &err) == 0)
		vp_io_free(io);
	else
		check_error(path, &err);
	return 0;
}
