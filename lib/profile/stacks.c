/* perf.data -> resolved call stacks (see stacks.h). */
#include "stacks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct vp_stacks {
	const char *path;
	struct vp_perfdata *pd;
	struct vp_session *session;
	/* during a walk */
	const struct vp_evsel *want;
	int (*fn)(void *ctx, const struct vp_stack *stack);
	void *ctx;
	struct vp_error *err;
	struct vp_frame frames[VP_STACKS_MAX_FRAMES + 1];	/* + the sampled address */
};

int vp_stacks_open(const char *path, const struct vp_load_opts *lo, struct vp_strpool *pool,
		   struct vp_stacks **out, struct vp_error *err)
{
	struct vp_session_opts so = { 0 };
	struct vp_stacks *st = calloc(1, sizeof(*st));
	int r;

	*out = NULL;
	if (!st)
		return vp_errorf(err, -ENOMEM, "out of memory");
	st->path = path;
	if (lo)
		so = (struct vp_session_opts){ lo->symfs, lo->kallsyms, lo->guest_kallsyms,
					       lo->guest_modules };
	if ((r = vp_perfdata_open(path, &st->pd, err)) < 0 ||
	    (r = vp_session_new(st->pd, &so, pool, &st->session, err)) < 0) {
		vp_stacks_close(st);
		return r;
	}
	*out = st;
	return 0;
}

void vp_stacks_close(struct vp_stacks *st)
{
	if (!st)
		return;
	vp_session_free(st->session);
	vp_perfdata_close(st->pd);
	free(st);
}

struct vp_perfdata *vp_stacks_perfdata(const struct vp_stacks *st)
{
	return st->pd;
}

struct vp_session *vp_stacks_session(const struct vp_stacks *st)
{
	return st->session;
}

int vp_stacks_event(const struct vp_stacks *st, const char *name, const struct vp_evsel **ev,
		    struct vp_error *err)
{
	*ev = NULL;
	for (size_t i = 0; i < vp_perfdata_nevsel(st->pd) && !*ev; i++) {
		const struct vp_evsel *e = vp_perfdata_evsel(st->pd, i);
		if (!name || !strcmp(e->name, name))
			*ev = e;
	}
	if (*ev)
		return 0;
	return name ? vp_errorf(err, -ENOENT, "'%s': no event '%s' in the file", st->path, name)
		    : vp_errorf(err, -EINVAL, "'%s': the file has no events", st->path);
}

static int on_sample(void *ctx, const struct vp_sample *s)
{
	struct vp_stacks *st = ctx;
	struct vp_frame *f = st->frames;
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	size_t n = 0;

	if (st->want && s->evsel != st->want)
		return 0;
	/* Context markers (PERF_CONTEXT_KERNEL, _USER, guest) say how the
	 * addresses after them are to be read. */
	size_t want = s->callchain ? s->nr_callchain < VP_STACKS_MAX_FRAMES ? (size_t)s->nr_callchain
									: VP_STACKS_MAX_FRAMES : 0;
	for (size_t i = 0; i < want; i++) {
		uint64_t ip = s->callchain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			cpumode = ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER
				: ip == PERF_CONTEXT_GUEST_USER ? PERF_RECORD_MISC_GUEST_USER
				: ip == PERF_CONTEXT_GUEST_KERNEL ? PERF_RECORD_MISC_GUEST_KERNEL
				: ip == PERF_CONTEXT_HV ? PERF_RECORD_MISC_HYPERVISOR
				: PERF_RECORD_MISC_KERNEL;
			continue;
		}
		/* The chain starts at the sampled address (frame pointers); where
		 * it does not (kernel frames only: --call-graph dwarf), that address
		 * is the leaf still, as perf report's self column counts it. */
		if (n == 0 && ip != s->ip)
			f[n++] = (struct vp_frame){ s->ip, s->misc & VP_MISC_CPUMODE_MASK };
		f[n++] = (struct vp_frame){ ip, cpumode };
	}
	if (n == 0)
		f[n++] = (struct vp_frame){ s->ip, s->misc & VP_MISC_CPUMODE_MASK };
	for (size_t i = 0; i < n; i++)
		vp_session_resolve(st->session, s->pid, f[i].cpumode, f[i].ip, &f[i].r);
	struct vp_stack stack = { s, vp_session_comm_of(st->session, s->pid, s->tid), f, n };
	return st->fn(st->ctx, &stack);
}

static int on_mmap(void *ctx, const struct vp_mmap_event *m)
{
	struct vp_stacks *st = ctx;
	return vp_session_mmap(st->session, m) < 0 ? vp_errorf(st->err, -ENOMEM, "out of memory") : 0;
}

static int on_comm(void *ctx, const struct vp_comm_event *c)
{
	struct vp_stacks *st = ctx;
	return vp_session_comm(st->session, c) < 0 ? vp_errorf(st->err, -ENOMEM, "out of memory") : 0;
}

static int on_fork(void *ctx, const struct vp_task_event *t)
{
	struct vp_stacks *st = ctx;
	return vp_session_fork(st->session, t) < 0 ? vp_errorf(st->err, -ENOMEM, "out of memory") : 0;
}

int vp_stacks_walk(struct vp_stacks *st, const struct vp_evsel *want,
		   int (*fn)(void *ctx, const struct vp_stack *stack), void *ctx, struct vp_error *err)
{
	struct vp_perf_tool tool = { .sample = on_sample, .mmap = on_mmap, .comm = on_comm,
				     .fork = on_fork };

	st->want = want;
	st->fn = fn;
	st->ctx = ctx;
	st->err = err;
	return vp_perfdata_walk(st->pd, &tool, st, err);
}
