/* perf.data -> pprof's profile.proto, gzipped, one profile per event: the
 * stacks of lib/profile/stacks.h as locations (leaf first), functions named as
 * perf report names them (the parameter list kept as the system name, where
 * vmprof's joins look), mappings with file names and build-ids, and pid, tid,
 * comm and domain labels on samples of like stacks. */
#include "formats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gzip.h"
#include "pprof.h"
#include "profile.pb-c.h"
#include "lib/profile/stacks.h"
#include "lib/util/u64map.h"

struct mapping {
	const char *dso;
	uint64_t start, end, pgoff;
	const char *build_id;	/* hex, interned; NULL when unknown */
};

struct function {
	const char *symbol;	/* full name, interned */
	const char *dso;
};

struct location {
	uint32_t mapping;	/* index + 1, 0 for none */
	uint32_t function;	/* index + 1, 0 for an unresolved address */
	const char *dso;
	uint64_t ip;
};

struct sample {
	size_t locs;		/* offset into loc_ids */
	uint32_t nlocs, pid, tid;
	const char *comm;
	char domain;
	uint64_t count, period;
};

/* A growing vector with a hash index over its entries' keys. */
struct vec {
	void *v;
	size_t n, cap, size;
	struct vp_u64map index;	/* key hash -> entry index + 1 */
};

struct event {
	const struct vp_evsel *evsel;	/* while walking */
	const char *name;		/* interned */
	int freq;			/* attr.freq, attr.sample_period */
	uint64_t sample_period;
	struct vec mappings, functions, locations, samples;
	uint32_t *loc_ids;	/* location indices of every sample, leaf first */
	size_t nloc_ids, cap_loc_ids;
	uint64_t total_samples, total_period;
};

struct vp_pprof {
	struct vp_strpool *pool;	/* every name, interned */
	struct vp_profile_meta meta;
	int full_names;
	struct event *ev;
	size_t nev;
};

struct writer {
	struct vp_pprof *p;
	struct vp_session *session;
	struct event **by_evsel;	/* NULL: not exported */
	size_t nevsel;
	uint32_t *stack;		/* one sample's location indices */
	struct vp_error *err;
};

void vp_pprof_opts_init(struct vp_pprof_opts *o)
{
	memset(o, 0, sizeof(*o));
}

static void *vec_at(const struct vec *v, size_t i)
{
	return (char *)v->v + i * v->size;
}

/* Find the entry whose key equals (eq), or make room for it at v->n:
 * returns the index, *added telling which; -ENOMEM. */
static long vec_find(struct vec *v, uint64_t h, int (*eq)(const void *entry, const void *key),
		     const void *key, int *added)
{
	uintptr_t at;

	/* equal hashes of unequal keys: the next hash in the chain */
	for (;; h = vp_hash_u64(h + 1)) {
		if (!(at = (uintptr_t)vp_u64map_get(&v->index, h)))
			break;
		if (eq(vec_at(v, at - 1), key)) {
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
	const struct mapping *a = e, *b = k;
	return a->dso == b->dso && a->start == b->start && a->end == b->end && a->pgoff == b->pgoff;
}

static int function_eq(const void *e, const void *k)
{
	const struct function *a = e, *b = k;
	return a->symbol == b->symbol && a->dso == b->dso;
}

static int location_eq(const void *e, const void *k)
{
	const struct location *a = e, *b = k;
	return a->ip == b->ip && a->dso == b->dso && a->mapping == b->mapping &&
	       a->function == b->function;
}

struct sample_key {
	const struct sample *s;
	const uint32_t *locs;
	const uint32_t *all;	/* the event's loc_ids */
};

static int sample_eq(const void *e, const void *k)
{
	const struct sample *a = e;
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

static long add_mapping(struct writer *w, struct event *e, uint32_t pid, const struct vp_frame *f)
{
	struct vp_map_info mi;
	struct mapping m = { f->r.dso, 0, 0, 0, NULL };
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
		*(struct mapping *)vec_at(&e->mappings, (size_t)at) = m;
	}
	return at + 1;
}

static long add_location(struct writer *w, struct event *e, uint32_t pid, const struct vp_frame *f)
{
	struct location l = { 0, 0, f->r.dso, f->ip };
	long m = add_mapping(w, e, pid, f), at;
	int added;

	if (m < 0)
		return m;
	l.mapping = (uint32_t)m;
	if (strcmp(f->r.symbol, "[unknown]")) {
		struct function fn = { f->r.symbol, f->r.dso };
		uint64_t h = mix(mix(2, (uintptr_t)fn.symbol), (uintptr_t)fn.dso);
		if ((at = vec_find(&e->functions, h, function_eq, &fn, &added)) < 0)
			return at;
		if (added)
			*(struct function *)vec_at(&e->functions, (size_t)at) = fn;
		l.function = (uint32_t)at + 1;
	}
	uint64_t h = mix(mix(mix(mix(3, l.ip), (uintptr_t)l.dso), l.mapping), l.function);
	if ((at = vec_find(&e->locations, h, location_eq, &l, &added)) < 0)
		return at;
	if (added)
		*(struct location *)vec_at(&e->locations, (size_t)at) = l;
	return at;
}

static int on_stack(void *ctx, const struct vp_stack *st)
{
	struct writer *w = ctx;
	const struct vp_sample *s = st->s;
	struct event *e = s->evsel->index < w->nevsel ? w->by_evsel[s->evsel->index] : NULL;
	struct sample smp = { 0, (uint32_t)st->n, s->pid, s->tid, st->comm,
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
		*(struct sample *)vec_at(&e->samples, (size_t)at) = smp;
	} else {
		struct sample *old = vec_at(&e->samples, (size_t)at);
		old->count++;
		old->period = sat_add(old->period, s->period);
	}
	e->total_samples++;
	e->total_period = sat_add(e->total_period, s->period);
	return 0;
oom:
	return vp_errorf(w->err, -ENOMEM, "out of memory");
}

static void event_free(struct event *e)
{
	struct vec *v[] = { &e->mappings, &e->functions, &e->locations, &e->samples };

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
	    !(w.stack = malloc(VP_STACKS_MAX_FRAMES * sizeof(*w.stack)))) {
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
		struct event *e = &w.p->ev[w.p->nev];
		if (one && ev != one)
			continue;
		e->evsel = ev;
		e->mappings.size = sizeof(struct mapping);
		e->functions.size = sizeof(struct function);
		e->locations.size = sizeof(struct location);
		e->samples.size = sizeof(struct sample);
		w.by_evsel[ev->index < w.nevsel ? ev->index : w.nevsel] = e;
		w.p->nev++;
	}
	w.session = vp_stacks_session(st);
	if ((r = vp_stacks_walk(st, one, on_stack, &w, err)) < 0)
		goto out;
	vp_perfdata_meta(pd, &w.p->meta, w.p->pool);
	/* the evsels go with the file: keep what packing needs */
	for (size_t i = 0; i < w.p->nev; i++) {
		struct event *e = &w.p->ev[i];
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

/* ---- packing ---- */

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/* The string table: each interned string once, "" first. */
struct strings {
	const char **v;
	size_t n, cap;
	struct vp_u64map index;	/* pointer -> index + 1 */
	int oom;
};

static int64_t sid(struct strings *t, const char *s)
{
	uintptr_t at;

	if (!s || !*s)
		return 0;
	if ((at = (uintptr_t)vp_u64map_get(&t->index, (uintptr_t)s)))
		return (int64_t)at - 1;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		const char **v = realloc(t->v, cap * sizeof(*v));
		if (!v) {
			t->oom = 1;
			return 0;
		}
		t->v = v;
		t->cap = cap;
	}
	if (vp_u64map_put(&t->index, (uintptr_t)s, (void *)(uintptr_t)(t->n + 1)) < 0) {
		t->oom = 1;
		return 0;
	}
	t->v[t->n] = s;
	return (int64_t)t->n++;
}

/* Intern then index (for strings made here). */
static int64_t sid_new(struct strings *t, struct vp_strpool *pool, const char *s)
{
	const char *in = vp_strpool_intern(pool, s);

	if (!in)
		t->oom = 1;
	return in ? sid(t, in) : 0;
}

struct comments {
	struct strings *t;
	struct vp_strpool *pool;
	int64_t *v;
	size_t n;
};

static int add_comment(void *ctx, const char *line)
{
	struct comments *c = ctx;

	c->v[c->n++] = sid_new(c->t, c->pool, line);
	return 0;
}

/* pprof's sample types: cpu-clock and task-clock (with modifiers) are cpu
 * time, offcpu-time blocked time, both in nanoseconds; other events count. */
static void value_type(const char *event, const char **type, const char **unit)
{
	size_t n = strcspn(event, ":");
	int mods = event[n] == ':' && event[n + 1 + strspn(event + n + 1, "ukhGHpPS")] == '\0';

	*type = event;
	*unit = "count";
	if (mods || !event[n]) {
		if ((n == 9 && !strncmp(event, "cpu-clock", 9)) ||
		    (n == 10 && !strncmp(event, "task-clock", 10))) {
			*type = "cpu";
			*unit = "nanoseconds";
		} else if (n == 11 && !strncmp(event, "offcpu-time", 11)) {
			*type = "offcpu-time";
			*unit = "nanoseconds";
		}
	}
}

/* Everything a packed Profile points into, freed in one place. */
struct pack {
	Profile pb;
	ValueType vt[2], period_type, *vtp[2];
	Mapping *m, **mp;
	Function *f, **fp;
	Location *l, **lp;
	Line *ln, **lnp;
	Sample *s, **sp;
	Label *lab, **labp;
	uint64_t *ids;
	int64_t *values, *comments;
	struct strings t;
};

static void pack_free(struct pack *k)
{
	free(k->m);
	free(k->mp);
	free(k->f);
	free(k->fp);
	free(k->l);
	free(k->lp);
	free(k->ln);
	free(k->lnp);
	free(k->s);
	free(k->sp);
	free(k->lab);
	free(k->labp);
	free(k->ids);
	free(k->values);
	free(k->comments);
	free(k->t.v);
	vp_u64map_free(&k->t.index);
}

/* A shared library by its name, as pprof tells them from programs. */
static int is_library(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	for (const char *p = strstr(base, ".so"); p; p = strstr(p + 1, ".so"))
		if (!p[3] || ((p[3] == '.' || p[3] == '_') && p[4] >= '0' && p[4] <= '9'))
			return 1;
	return 0;
}

/* pprof shows mapping 1 as the profile's program ("File:"): the program
 * file most samples end in. */
static size_t main_mapping(const struct event *e)
{
	uint64_t *leaf = calloc(e->mappings.n + 1, sizeof(*leaf)), best = 0;
	size_t main_m = 0;

	if (!leaf)
		return 0;
	for (size_t i = 0; i < e->samples.n; i++) {
		const struct sample *s = vec_at(&e->samples, i);
		const struct location *l = s->nlocs ? vec_at(&e->locations, e->loc_ids[s->locs]) : NULL;
		if (l && l->mapping)
			leaf[l->mapping - 1] += s->count;
	}
	for (size_t i = 0; i < e->mappings.n; i++) {
		const struct mapping *m = vec_at(&e->mappings, i);
		if (leaf[i] > best && m->dso[0] != '[' && !is_library(m->dso)) {
			best = leaf[i];
			main_m = i;
		}
	}
	free(leaf);
	return main_m;
}

/* Mapping ids in first-seen order, but for the program's, which is 1. */
static uint64_t mapping_id(size_t i, size_t main_m)
{
	return i == main_m ? 1 : i < main_m ? i + 2 : i + 1;
}

static int build(const struct vp_pprof *p, const struct event *e, struct pack *k)
{
	struct vp_strpool *pool = p->pool;
	struct strings *t = &k->t;
	const char *type, *unit;
	size_t nm = e->mappings.n, nf = e->functions.n, nl = e->locations.n, ns = e->samples.n;
	size_t nlab = 0;

	perftools__profiles__profile__init(&k->pb);
	/* string 0 is "", which sid() gives without storing */
	if (!(t->v = malloc(256 * sizeof(*t->v))))
		return -ENOMEM;
	t->v[t->n++] = "";
	t->cap = 256;
	k->m = calloc(nm + 1, sizeof(*k->m));
	k->mp = calloc(nm + 1, sizeof(*k->mp));
	k->f = calloc(nf + 1, sizeof(*k->f));
	k->fp = calloc(nf + 1, sizeof(*k->fp));
	k->l = calloc(nl + 1, sizeof(*k->l));
	k->lp = calloc(nl + 1, sizeof(*k->lp));
	k->ln = calloc(nl + 1, sizeof(*k->ln));
	k->lnp = calloc(nl + 1, sizeof(*k->lnp));
	k->s = calloc(ns + 1, sizeof(*k->s));
	k->sp = calloc(ns + 1, sizeof(*k->sp));
	k->lab = calloc(4 * ns + 1, sizeof(*k->lab));
	k->labp = calloc(4 * ns + 1, sizeof(*k->labp));
	k->ids = calloc(e->nloc_ids + 1, sizeof(*k->ids));
	k->values = calloc(2 * ns + 1, sizeof(*k->values));
	k->comments = calloc(32, sizeof(*k->comments));
	if (!k->m || !k->mp || !k->f || !k->fp || !k->l || !k->lp || !k->ln || !k->lnp || !k->s ||
	    !k->sp || !k->lab || !k->labp || !k->ids || !k->values || !k->comments)
		return -ENOMEM;

	value_type(e->name, &type, &unit);
	for (size_t i = 0; i < 2; i++) {
		perftools__profiles__value_type__init(&k->vt[i]);
		k->vtp[i] = &k->vt[i];
	}
	k->vt[0].type = sid_new(t, pool, "samples");
	k->vt[0].unit = sid_new(t, pool, "count");
	k->vt[1].type = sid_new(t, pool, type);
	k->vt[1].unit = sid_new(t, pool, unit);
	k->pb.n_sample_type = 2;
	k->pb.sample_type = k->vtp;
	/* the event's own name: what vmprof's reader names the table */
	perftools__profiles__value_type__init(&k->period_type);
	k->period_type.type = sid(t, e->name);
	k->period_type.unit = k->vt[1].unit;
	k->pb.period_type = &k->period_type;
	k->pb.period = (int64_t)(e->freq ? (e->total_samples ? e->total_period / e->total_samples : 0)
					 : e->sample_period);

	size_t main_m = main_mapping(e);
	for (size_t i = 0; i < nm; i++) {
		const struct mapping *m = vec_at(&e->mappings, i);
		Mapping *pm = &k->m[i];
		perftools__profiles__mapping__init(pm);
		pm->id = mapping_id(i, main_m);
		pm->memory_start = m->start;
		pm->memory_limit = m->end;
		pm->file_offset = m->pgoff;
		pm->filename = sid(t, m->dso);
		pm->build_id = sid(t, m->build_id);
		/* names are final: pprof must not look for binaries to name them again */
		pm->has_functions = 1;
		k->mp[pm->id - 1] = pm;
	}
	for (size_t i = 0; i < nf; i++) {
		const struct function *f = vec_at(&e->functions, i);
		size_t shown = p->full_names ? strlen(f->symbol) : vp_symbol_display_len(f->symbol);
		Function *pf = &k->f[i];
		perftools__profiles__function__init(pf);
		pf->id = i + 1;
		pf->system_name = sid(t, f->symbol);
		if (shown == strlen(f->symbol)) {
			pf->name = pf->system_name;
		} else {
			const char *s = vp_strpool_intern_n(pool, f->symbol, shown);
			pf->name = s ? sid(t, s) : 0;
			t->oom |= !s;
		}
		k->fp[i] = pf;
	}
	for (size_t i = 0; i < nl; i++) {
		const struct location *l = vec_at(&e->locations, i);
		Location *pl = &k->l[i];
		perftools__profiles__location__init(pl);
		pl->id = i + 1;
		pl->mapping_id = l->mapping ? mapping_id(l->mapping - 1, main_m) : 0;
		pl->address = l->ip;
		if (l->function) {
			perftools__profiles__line__init(&k->ln[i]);
			k->ln[i].function_id = l->function;
			k->lnp[i] = &k->ln[i];
			pl->n_line = 1;
			pl->line = &k->lnp[i];
		}
		k->lp[i] = pl;
	}
	int64_t pid_key = sid_new(t, pool, VP_PPROF_LABEL_PID);
	int64_t tid_key = sid_new(t, pool, VP_PPROF_LABEL_TID);
	int64_t comm_key = sid_new(t, pool, VP_PPROF_LABEL_COMM);
	int64_t dom_key = sid_new(t, pool, VP_PPROF_LABEL_DOMAIN);
	for (size_t i = 0; i < ns; i++) {
		const struct sample *s = vec_at(&e->samples, i);
		Sample *ps = &k->s[i];
		char dom[4] = { '[', s->domain, ']', 0 };
		perftools__profiles__sample__init(ps);
		for (size_t j = 0; j < s->nlocs; j++)
			k->ids[s->locs + j] = (uint64_t)e->loc_ids[s->locs + j] + 1;
		ps->n_location_id = s->nlocs;
		ps->location_id = k->ids + s->locs;
		k->values[2 * i] = (int64_t)s->count;
		k->values[2 * i + 1] = (int64_t)s->period;
		ps->n_value = 2;
		ps->value = k->values + 2 * i;
		ps->label = k->labp + nlab;
		Label *lab = k->lab + nlab;
		for (size_t j = 0; j < 4; j++)
			perftools__profiles__label__init(&lab[j]);
		lab[0].key = pid_key;
		lab[0].num = s->pid;
		lab[1].key = tid_key;
		lab[1].num = s->tid;
		lab[2].key = dom_key;
		lab[2].str = sid_new(t, pool, dom);
		lab[3].key = comm_key;
		lab[3].str = sid(t, s->comm);
		ps->n_label = s->comm && *s->comm ? 4 : 3;
		for (size_t j = 0; j < ps->n_label; j++)
			k->labp[nlab++] = &lab[j];
		k->sp[i] = ps;
	}
	struct comments c = { t, pool, k->comments, 0 };
	vp_pprof_meta_comments(&p->meta, add_comment, &c);
	k->pb.n_comment = c.n;
	k->pb.comment = k->comments;
	if (p->meta.start_time > 0)
		k->pb.time_nanos = p->meta.start_time * 1000000000;
	if (p->meta.duration > 0)
		k->pb.duration_nanos = (int64_t)(p->meta.duration * 1e9);
	k->pb.n_mapping = nm;
	k->pb.mapping = k->mp;
	k->pb.n_function = nf;
	k->pb.function = k->fp;
	k->pb.n_location = nl;
	k->pb.location = k->lp;
	k->pb.n_sample = ns;
	k->pb.sample = k->sp;
	k->pb.n_string_table = t->n;
	k->pb.string_table = (char **)t->v;
	return t->oom ? -ENOMEM : 0;
}

int vp_pprof_write(FILE *f, const struct vp_pprof *p, size_t i)
{
	struct pack k = { 0 };
	uint8_t *buf = NULL;
	int r;

	if ((r = build(p, &p->ev[i], &k)) == 0) {
		size_t len = perftools__profiles__profile__get_packed_size(&k.pb);
		if (!(buf = malloc(len ? len : 1)))
			r = -ENOMEM;
		else if (perftools__profiles__profile__pack(&k.pb, buf) != len)
			r = -EIO;
		else
			r = vp_gzip_write(f, buf, len);
	}
	free(buf);
	pack_free(&k);
	return r < 0 ? r : ferror(f) ? -EIO : 0;
}
