/* perf.data -> pprof profiles, one per event, collected: the stacks of
 * lib/profile/stacks.h as locations (leaf first) of functions and mappings,
 * one sample per distinct stack and pid, tid, comm and domain; pprof_pack.c
 * writes them as profile.proto. */
#include "formats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pprof.h"
#include "lib/profile/stacks.h"

struct writer {
	struct vp_pprof *p;
	struct vp_session *session;
	struct pprof_event **by_evsel;	/* NULL: not exported */
	size_t nevsel;
	uint32_t *stack;		/* one sample's location indices (VP_STACKS_MAX_LEN) */
	struct vp_error *err;
};

void vp_pprof_opts_init(struct vp_pprof_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* Find the entry whose key equals (eq), or make room for it at v->n:
 * returns the index, *added telling which; -ENOMEM. */
static long vec_find(struct pprof_vec *v, uint64_t h, int (*eq)(const void *entry, const void *key),
		     const void *key, int *added)
{
	uintptr_t at;

	/* equal hashes of unequal keys: the next hash in the chain */
	for (;; h = vp_hash_u64(h + 1)) {
		if (!(at = (uintptr_t)vp_u64map_get(&v->index, h)))
			break;
		if (eq(vp_pprof_vec_at(v, at - 1), key)) {
			*added = 0;
			return (long)at - 1;
		}
	}
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		void *nv = realloc(v->v, cap * v->size);
		if (!nv)
			return -ENOMEM;
		v->v = nv;
		v->cap = cap;
	}
	if (vp_u64map_put(&v->index, h, (void *)(uintptr_t)(v->n + 1)) < 0)
		return -ENOMEM;
	*added = 1;
	return (long)v->n++;
}

static int mapping_eq(const void *e, const void *k)
{
	const struct pprof_mapping *a = e, *b = k;
	return a->dso == b->dso && a->start == b->start && a->end == b->end && a->pgoff == b->pgoff;
}

static int function_eq(const void *e, const void *k)
{
	const struct pprof_function *a = e, *b = k;
	return a->symbol == b->symbol && a->dso == b->dso;
}

static int location_eq(const void *e, const void *k)
{
	const struct pprof_location *a = e, *b = k;
	return a->ip == b->ip && a->dso == b->dso && a->mapping == b->mapping &&
	       a->function == b->function;
}

struct sample_key {
	const struct pprof_sample *s;
	const uint32_t *locs;
	const uint32_t *all;	/* the event's loc_ids */
};

static int sample_eq(const void *e, const void *k)
{
	const struct pprof_sample *a = e;
	const struct sample_key *b = k;
	return a->pid == b->s->pid && a->tid == b->s->tid && a->comm == b->s->comm &&
	       a->domain == b->s->domain && a->nlocs == b->s->nlocs &&
	       !memcmp(b->all + a->locs, b->locs, a->nlocs * sizeof(*b->locs));
}

static uint64_t mix(uint64_t h, uint64_t x)
{
	return vp_hash_u64(h ^ x) + 0x9e3779b97f4a7c15ULL;
}

/* The mapping of a frame, index + 1, 0 when none: the name is the object
 * the frame resolved in (a kernel module found by address keeps its name),
 * the range the map's when the map is that object's. */
/* pprof's values are int64: a file's periods (a guest's file is untrusted)
 * stop at its largest rather than wrap negative. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a || a + b > INT64_MAX ? INT64_MAX : a + b;
}

static long add_mapping(struct writer *w, struct pprof_event *e, uint32_t pid, const struct vp_frame *f)
{
	struct vp_map_info mi;
	struct pprof_mapping m = { f->r.dso, 0, 0, 0, NULL };
	int added;
	long at;

	if (!f->r.dso || !strcmp(f->r.dso, "[unknown]"))
		return 0;
	if (vp_session_map_of(w->session, pid, f->cpumode, f->ip, &mi) == 0 && mi.dso == f->r.dso) {
		m.start = mi.start;
		m.end = mi.end;
		m.pgoff = mi.pgoff;
	}
	uint64_t h = mix(mix(mix(mix(1, (uintptr_t)m.dso), m.start), m.end), m.pgoff);
	if ((at = vec_find(&e->mappings, h, mapping_eq, &m, &added)) < 0)
		return at;
	if (added) {
		if (mi.build_id_size && mi.dso == f->r.dso) {
			char hex[41];
			for (unsigned i = 0; i < mi.build_id_size; i++)
				snprintf(hex + 2 * i, 3, "%02x", mi.build_id[i]);
			if (!(m.build_id = vp_strpool_intern(w->p->pool, hex)))
				return -ENOMEM;
		}
		*(struct pprof_mapping *)vp_pprof_vec_at(&e->mappings, (size_t)at) = m;
	}
	return at + 1;
}

static long add_location(struct writer *w, struct pprof_event *e, uint32_t pid, const struct vp_frame *f)
{
	struct pprof_location l = { 0, 0, f->r.dso, f->ip };
	long m = add_mapping(w, e, pid, f), at;
	int added;

	if (m < 0)
		return m;
	l.mapping = (uint32_t)m;
	if (strcmp(f->r.symbol, "[unknown]")) {
		struct pprof_function fn = { f->r.symbol, f->r.dso };
		uint64_t h = mix(mix(2, (uintptr_t)fn.symbol), (uintptr_t)fn.dso);
		if ((at = vec_find(&e->functions, h, function_eq, &fn, &added)) < 0)
			return at;
		if (added)
			*(struct pprof_function *)vp_pprof_vec_at(&e->functions, (size_t)at) = fn;
		l.function = (uint32_t)at + 1;
	}
	uint64_t h = mix(mix(mix(mix(3, l.ip), (uintptr_t)l.dso), l.mapping), l.function);
	if ((at = vec_find(&e->locations, h, location_eq, &l, &added)) < 0)
		return at;
	if (added)
		*(struct pprof_location *)vp_pprof_vec_at(&e->locations, (size_t)at) = l;
	return at;
}

static int on_stack(void *ctx, const struct vp_stack *st)
{
	struct writer *w = ctx;
	const struct vp_sample *s = st->s;
	struct pprof_event *e = s->evsel->index < w->nevsel ? w->by_evsel[s->evsel->index] : NULL;
	struct pprof_sample smp = { 0, (uint32_t)st->n, s->pid, s->tid, st->comm,
			      vp_domain_from_cpumode(s->misc), 1, sat_add(0, s->period) };
	struct sample_key key = { &smp, w->stack, NULL };
	uint64_t h = mix(mix(mix(mix(4, s->pid), s->tid), (uintptr_t)st->comm), (uint64_t)smp.domain);
	int added;
	long at;

	if (!e)
		return 0;
	for (size_t i = 0; i < st->n; i++) {
		if ((at = add_location(w, e, s->pid, &st->frames[i])) < 0)
			goto oom;
		w->stack[i] = (uint32_t)at;
		h = mix(h, (uint64_t)at);
	}
	key.all = e->loc_ids;
	if ((at = vec_find(&e->samples, h, sample_eq, &key, &added)) < 0)
		goto oom;
	if (added) {
		if (e->nloc_ids + st->n > e->cap_loc_ids) {
			size_t cap = e->cap_loc_ids ? e->cap_loc_ids : 1024;
			while (cap < e->nloc_ids + st->n)
				cap *= 2;
			uint32_t *v = realloc(e->loc_ids, cap * sizeof(*v));
			if (!v)
				goto oom;
			e->loc_ids = v;
			e->cap_loc_ids = cap;
		}
		memcpy(e->loc_ids + e->nloc_ids, w->stack, st->n * sizeof(*w->stack));
		smp.locs = e->nloc_ids;
		e->nloc_ids += st->n;
		*(struct pprof_sample *)vp_pprof_vec_at(&e->samples, (size_t)at) = smp;
	} else {
		struct pprof_sample *old = vp_pprof_vec_at(&e->samples, (size_t)at);
		old->count++;
		old->period = sat_add(old->period, s->period);
	}
	e->total_samples++;
	e->total_period = sat_add(e->total_period, s->period);
	return 0;
oom:
	return vp_errorf(w->err, -ENOMEM, "out of memory");
}

static void event_free(struct pprof_event *e)
{
	struct pprof_vec *v[] = { &e->mappings, &e->functions, &e->locations, &e->samples };

	for (size_t i = 0; i < 4; i++) {
		free(v[i]->v);
		vp_u64map_free(&v[i]->index);
	}
	free(e->loc_ids);
}

void vp_pprof_free(struct vp_pprof *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nev; i++)
		event_free(&p->ev[i]);
	free(p->ev);
	vp_strpool_free(p->pool);
	free(p);
}

/* Two attrs of one name (-e cpu-clock -e cpu-clock) stay apart as report's
 * tables do: "cpu-clock", "cpu-clock#2". */
static const char *unique_name(struct vp_pprof *p, size_t i, const char *name)
{
	const char *in = vp_strpool_intern(p->pool, name);
	char buf[512];

	for (int k = 2; in; k++) {
		size_t j = 0;
		while (j < i && p->ev[j].name != in)
			j++;
		if (j == i)
			break;
		snprintf(buf, sizeof(buf), "%s#%d", name, k);
		in = vp_strpool_intern(p->pool, buf);
	}
	return in;
}

int vp_pprof_from_perfdata(const char *path, const struct vp_load_opts *lo,
			   const struct vp_pprof_opts *o, struct vp_pprof **out, struct vp_error *err)
{
	struct writer w = { .err = err };
	struct vp_stacks *st = NULL;
	const struct vp_evsel *one = NULL;
	struct vp_perfdata *pd;
	int r;

	*out = NULL;
	if (!(w.p = calloc(1, sizeof(*w.p))) || !(w.p->pool = vp_strpool_new()) ||
	    !(w.stack = malloc(VP_STACKS_MAX_LEN * sizeof(*w.stack)))) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	w.p->full_names = o->full_names;
	vp_profile_meta_init(&w.p->meta);
	if ((r = vp_stacks_open(path, lo, w.p->pool, &st, err)) < 0)
		goto out;
	pd = vp_stacks_perfdata(st);
	if ((!o->all || o->event) && (r = vp_stacks_event(st, o->event, &one, err)) < 0)
		goto out;
	if (!o->all && !o->event && vp_perfdata_nevsel(pd) > 1)
		vp_warn("'%s' holds %zu events; converting '%s' (choose one with --event, or all "
			"with -o DIR)", path, vp_perfdata_nevsel(pd), one->name);
	w.nevsel = vp_perfdata_nevsel(pd);
	if (!(w.by_evsel = calloc(w.nevsel + 1, sizeof(*w.by_evsel))) ||
	    !(w.p->ev = calloc(w.nevsel + 1, sizeof(*w.p->ev)))) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < w.nevsel; i++) {
		const struct vp_evsel *ev = vp_perfdata_evsel(pd, i);
		struct pprof_event *e = &w.p->ev[w.p->nev];
		if (one && ev != one)
			continue;
		e->evsel = ev;
		e->mappings.size = sizeof(struct pprof_mapping);
		e->functions.size = sizeof(struct pprof_function);
		e->locations.size = sizeof(struct pprof_location);
		e->samples.size = sizeof(struct pprof_sample);
		w.by_evsel[ev->index < w.nevsel ? ev->index : w.nevsel] = e;
		w.p->nev++;
	}
	w.session = vp_stacks_session(st);
	if ((r = vp_stacks_walk(st, one, on_stack, &w, err)) < 0)
		goto out;
	vp_perfdata_meta(pd, &w.p->meta, w.p->pool);
	/* the evsels go with the file: keep what packing needs */
	for (size_t i = 0; i < w.p->nev; i++) {
		struct pprof_event *e = &w.p->ev[i];
		e->name = unique_name(w.p, i, e->evsel->name);
		e->freq = e->evsel->attr.freq;
		e->sample_period = e->evsel->attr.sample_period;
		e->evsel = NULL;
		if (!e->name) {
			r = vp_errorf(err, -ENOMEM, "out of memory");
			goto out;
		}
	}
	*out = w.p;
	w.p = NULL;
out:
	vp_stacks_close(st);
	vp_pprof_free(w.p);
	free(w.by_evsel);
	free(w.stack);
	return r < 0 ? r : 0;
}

size_t vp_pprof_count(const struct vp_pprof *p)
{
	return p->nev;
}

const char *vp_pprof_event(const struct vp_pprof *p, size_t i)
{
	return p->ev[i].name;
}
