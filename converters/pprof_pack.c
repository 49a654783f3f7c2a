/* The writer's collected profiles as pprof's profile.proto, gzipped:
 * samples/count and the period, functions named as perf report names them
 * (the parameter list kept as the system name, where vmprof's joins look),
 * mappings with file names and build-ids, labels, metadata as comments. */
#include "formats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gzip.h"
#include "pprof.h"
#include "profile.pb-c.h"

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
static size_t main_mapping(const struct pprof_event *e)
{
	uint64_t *leaf = calloc(e->mappings.n + 1, sizeof(*leaf)), best = 0;
	size_t main_m = 0;

	if (!leaf)
		return 0;
	for (size_t i = 0; i < e->samples.n; i++) {
		const struct pprof_sample *s = vp_pprof_vec_at(&e->samples, i);
		const struct pprof_location *l = s->nlocs ? vp_pprof_vec_at(&e->locations, e->loc_ids[s->locs]) : NULL;
		if (l && l->mapping)
			leaf[l->mapping - 1] += s->count;
	}
	for (size_t i = 0; i < e->mappings.n; i++) {
		const struct pprof_mapping *m = vp_pprof_vec_at(&e->mappings, i);
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

static int build(const struct vp_pprof *p, const struct pprof_event *e, struct pack *k)
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
		const struct pprof_mapping *m = vp_pprof_vec_at(&e->mappings, i);
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
		const struct pprof_function *f = vp_pprof_vec_at(&e->functions, i);
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
		const struct pprof_location *l = vp_pprof_vec_at(&e->locations, i);
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
		const struct pprof_sample *s = vp_pprof_vec_at(&e->samples, i);
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
