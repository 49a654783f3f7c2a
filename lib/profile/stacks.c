/* perf.data -> resolved call stacks (see stacks.h). */
#include "stacks.h"
#include "lib/util/strpool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vp_stacks {
	struct vp_session_client sc;	/* first: the session forwarders' view */
	const char *path;
	struct vp_perfdata *pd;
	const struct vp_filter *filter;	/* the load options' --pid, --time...; NULL: none */
	/* during a walk */
	struct vp_filter_run run;
	const struct vp_evsel *want;
	int (*fn)(void *ctx, const struct vp_stack *stack);
	void *ctx;
	struct vp_frame frames[VP_STACKS_MAX_LEN];
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
	st->filter = lo ? &lo->filter : NULL;
	if (lo)
		so = (struct vp_session_opts){ lo->symfs, lo->kallsyms, lo->guest_kallsyms,
					       lo->guest_modules };
	if ((r = vp_perfdata_open(path, &st->pd, err)) < 0 ||
	    (r = vp_session_new(st->pd, &so, pool, &st->sc.session, err)) < 0) {
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
	vp_session_free(st->sc.session);
	vp_perfdata_close(st->pd);
	free(st);
}

struct vp_perfdata *vp_stacks_perfdata(const struct vp_stacks *st)
{
	return st->pd;
}

struct vp_session *vp_stacks_session(const struct vp_stacks *st)
{
	return st->sc.session;
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

const char *vp_frame_label(const struct vp_resolved *r, int full, char tmp[VP_FRAME_LABEL_MAX],
			   size_t *len)
{
	if (strcmp(r->symbol, "[unknown]") || !r->dso || !strcmp(r->dso, "[unknown]")) {
		*len = full ? strlen(r->symbol) : vp_symbol_display_len(r->symbol);
		return r->symbol;
	}
	const char *base = vp_dso_short_name(r->dso);
	int n = base[0] == '[' ? snprintf(tmp, VP_FRAME_LABEL_MAX, "%s", base)
			       : snprintf(tmp, VP_FRAME_LABEL_MAX, "[%s]", base);
	*len = n < 0 ? 0 : (size_t)n >= VP_FRAME_LABEL_MAX ? VP_FRAME_LABEL_MAX - 1 : (size_t)n;
	return tmp;
}

const char *vp_frame_label_interned(struct vp_label_cache *c, const struct vp_resolved *r)
{
	uint64_t h = vp_hash_u64((uint64_t)(uintptr_t)r->symbol ^ (uint64_t)(uintptr_t)r->dso << 17);
	struct vp_label_slot *sl = &c->slot[h & (VP_LABEL_CACHE_SIZE - 1)];
	char tmp[VP_FRAME_LABEL_MAX];
	size_t len;

	if (sl->label && sl->symbol == r->symbol && sl->dso == r->dso)
		return sl->label;
	const char *name = vp_frame_label(r, 0, tmp, &len);
	const char *label = vp_strpool_intern_n(c->pool, name, len);
	if (label) {
		sl->symbol = r->symbol;
		sl->dso = r->dso;
		sl->label = label;
	}
	return label;
}

void vp_stack_gens_add(struct vp_stack_gens *g, const uint32_t *genp, uint32_t gen)
{
	unsigned i = 0;

	while (i < g->n && g->genp[i] != genp)
		i++;
	if (!genp || (i == g->n && i == VP_STACK_GENS)) {
		g->kept = 0;
		return;
	}
	if (i == g->n) {
		g->genp[g->n] = genp;
		g->gen[g->n++] = gen;
	}
}

void vp_stack_resolve(struct vp_session *session, const struct vp_sample *s,
		      struct vp_frame *f, struct vp_stack *out, struct vp_stack_gens *gens)
{
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	size_t n = 0;
	int added = 0;

	size_t want = vp_stack_chain_len(s);
	for (size_t i = 0; i < want; i++) {
		uint64_t ip = s->callchain[i];
		if (vp_callchain_context(ip, &cpumode))
			continue;
		/* The chain starts at the sampled address (frame pointers); where
		 * it does not, that address is the leaf still (stacks.h). */
		if (n == 0 && ip != s->ip) {
			f[n++] = (struct vp_frame){ s->ip, s->misc & VP_MISC_CPUMODE_MASK };
			added = 1;
		}
		f[n++] = (struct vp_frame){ ip, cpumode };
	}
	if (n == 0) {
		f[n++] = (struct vp_frame){ s->ip, s->misc & VP_MISC_CPUMODE_MASK };
		added = want > 0;
	}
	if (gens) {
		const uint32_t *genp;
		uint32_t gen;
		*gens = (struct vp_stack_gens){ .kept = 1 };
		for (size_t i = 0; i < n; i++) {
			vp_session_resolve_gen(session, s->pid, f[i].cpumode, f[i].ip, &f[i].r, &genp,
					       &gen);
			vp_stack_gens_add(gens, genp, gen);
		}
	} else {
		for (size_t i = 0; i < n; i++)
			vp_session_resolve(session, s->pid, f[i].cpumode, f[i].ip, &f[i].r);
	}
	*out = (struct vp_stack){ s, vp_session_comm_of(session, s->pid, s->tid), f, n, added };
}

static int on_sample(void *ctx, const struct vp_sample *s)
{
	struct vp_stacks *st = ctx;
	struct vp_stack stack;

	if ((st->want && s->evsel != st->want) || !vp_filter_keep(&st->run, st->sc.session, s))
		return 0;
	vp_stack_resolve(st->sc.session, s, st->frames, &stack, NULL);
	return st->fn(st->ctx, &stack);
}

int vp_stacks_walk(struct vp_stacks *st, const struct vp_evsel *want,
		   int (*fn)(void *ctx, const struct vp_stack *stack), void *ctx, struct vp_error *err)
{
	struct vp_perf_tool tool = { .sample = on_sample };
	int r;

	vp_session_tool(&tool);
	st->want = want;
	st->fn = fn;
	st->ctx = ctx;
	st->sc.err = err;
	if ((r = vp_filter_start(&st->run, st->filter, st->pd, err)) == 0)
		r = vp_perfdata_walk(st->pd, &tool, st, err);
	vp_filter_end(&st->run, r == 0 ? st->path : NULL);
	return r;
}
