/* The join of two profiles: per event, a full outer join of the two tables by
 * key (symbol, and optionally dso short name and domain), then ranking. The
 * comparison owns copies of its strings, so the profiles may go away. */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/namelist.h"

void vp_compare_opts_init(struct vp_compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->key = VP_KEY_SYM;
	o->value = VP_VALUE_PERIOD;
	o->rank = VP_RANK_MAX;
	o->top = 10;
}

/* One side's row, before the join. */
struct entry {
	const char *symbol, *dso, *short_dso;
	char domain;
	int side;
	uint64_t samples, period;
};

static int strcmp_null(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

static int key_cmp(const struct entry *a, const struct entry *b, unsigned join_key)
{
	int c;

	if ((join_key & VP_KEY_SYM) && (c = strcmp_null(a->symbol, b->symbol)))
		return c;
	if ((join_key & VP_KEY_DSO) && (c = strcmp_null(a->short_dso, b->short_dso)))
		return c;
	if ((join_key & VP_KEY_DOMAIN) && a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	return 0;
}

/* Key first, then everything else, so the representative of a group and the
 * order of the sum do not depend on the input order. */
static int entry_cmp(const void *pa, const void *pb, void *key)
{
	const struct entry *a = pa, *b = pb;
	int c = key_cmp(a, b, *(const unsigned *)key);

	if (c)
		return c;
	if ((c = strcmp_null(a->symbol, b->symbol)) || (c = strcmp_null(a->dso, b->dso)))
		return c;
	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	return a->side - b->side;
}

static const char *copy(struct vp_comparison *c, const char *s, int *oom)
{
	const char *r;

	if (!s)
		return NULL;
	r = vp_strpool_intern(c->pool, s);
	if (!r)
		*oom = 1;
	return r;
}

static int add_entries(struct entry **v, size_t *n, size_t *cap, const struct vp_event_table *t,
		       int side)
{
	if (!t)
		return 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct vp_row *r = &t->rows[i];
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 256;
			struct entry *nv = realloc(*v, nc * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			*v = nv;
			*cap = nc;
		}
		(*v)[(*n)++] = (struct entry){ r->symbol, r->dso, r->dso ? vp_dso_short_name(r->dso) : NULL,
					       r->domain, side, r->samples, r->period };
	}
	return 0;
}

static int join_event(struct vp_comparison *c, struct vp_cmp_event *e, const struct vp_event_table *th,
		      const struct vp_event_table *tg, unsigned key)
{
	struct entry *v = NULL;
	size_t n = 0, cap = 0;
	int oom = 0;

	if (add_entries(&v, &n, &cap, th, VP_HOST) < 0 || add_entries(&v, &n, &cap, tg, VP_GUEST) < 0) {
		free(v);
		return -ENOMEM;
	}
	if (n > 1)	/* v is NULL when neither side kept a sample (filters) */
		qsort_r(v, n, sizeof(*v), entry_cmp, &key);
	e->rows = calloc(n ? n : 1, sizeof(*e->rows));
	if (!e->rows) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n;) {
		struct vp_cmp_row *r = &e->rows[e->total_rows++];
		const struct entry *rep = &v[i];
		size_t j = i;
		for (; j < n && key_cmp(&v[i], &v[j], key) == 0; j++) {
			r->samples[v[j].side] += v[j].samples;
			r->period[v[j].side] += v[j].period;
			/* the heaviest contributor names the fields outside the key */
			if (v[j].period > rep->period)
				rep = &v[j];
		}
		r->symbol = copy(c, rep->symbol, &oom);
		r->dso = copy(c, rep->dso, &oom);
		r->domain = rep->domain;
		i = j;
	}
	free(v);
	e->nrows = e->total_rows;
	return oom ? -ENOMEM : 0;
}

static void copy_meta(struct vp_comparison *c, struct vp_profile_meta *d,
		      const struct vp_profile_meta *s, int *oom)
{
	*d = *s;
	d->label = copy(c, s->label, oom);
	d->source = copy(c, s->source, oom);
	d->hostname = copy(c, s->hostname, oom);
	d->osrelease = copy(c, s->osrelease, oom);
	d->arch = copy(c, s->arch, oom);
	d->cpudesc = copy(c, s->cpudesc, oom);
	d->cmdline = copy(c, s->cmdline, oom);
	d->perf_version = copy(c, s->perf_version, oom);
	d->vmprof_version = copy(c, s->vmprof_version, oom);
	d->hypervisor = copy(c, s->hypervisor, oom);
}

struct vp_comparison *vp_comparison_new(void)
{
	struct vp_comparison *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->pool = vp_strpool_new();
	if (!c->pool) {
		free(c);
		return NULL;
	}
	vp_profile_meta_init(&c->meta[0]);
	vp_profile_meta_init(&c->meta[1]);
	return c;
}

int vp_comparison_add_event(struct vp_comparison *c, const char *name)
{
	struct vp_cmp_event *ev = realloc(c->events, (c->nevents + 1) * sizeof(*ev));
	int oom = 0;

	if (!ev)
		return -ENOMEM;
	c->events = ev;
	ev = &c->events[c->nevents];
	memset(ev, 0, sizeof(*ev));
	ev->name = copy(c, name, &oom);
	if (oom)
		return -ENOMEM;
	return (int)c->nevents++;
}

static const char *default_label(const struct vp_profile_meta *m, enum vp_side s)
{
	if (m->label)
		return m->label;
	if (m->source) {
		const char *slash = strrchr(m->source, '/');
		return slash ? slash + 1 : m->source;
	}
	return s == VP_HOST ? "host" : "guest";
}

int vp_compare(const struct vp_profile *host, const struct vp_profile *guest,
	       const struct vp_compare_opts *opts, struct vp_comparison **out, struct vp_error *err)
{
	const struct vp_profile *side[2] = { host, guest };
	struct vp_compare_opts defaults;
	struct vp_comparison *c;
	int oom = 0;

	*out = NULL;
	if (!opts) {
		vp_compare_opts_init(&defaults);
		opts = &defaults;
	}
	if (!(c = vp_comparison_new()))
		return vp_errorf(err, -ENOMEM, "out of memory");
	c->key = opts->key ? opts->key : VP_KEY_SYM;
	c->value = opts->value;
	c->rank = opts->rank;
	for (int s = 0; s < 2; s++) {
		copy_meta(c, &c->meta[s], &side[s]->meta, &oom);
		c->label[s] = copy(c, opts->label[s] ? opts->label[s] : default_label(&side[s]->meta, s), &oom);
	}
	/* Events in the host's order, then the guest's own. */
	for (int s = 0; s < 2 && !oom; s++) {
		for (size_t i = 0; i < side[s]->ntables; i++) {
			const struct vp_event_table *t = side[s]->tables[i];
			if (!vp_names_want(opts->events, t->name) || (s == VP_GUEST && vp_profile_find(host, t->name)))
				continue;
			const struct vp_event_table *th = vp_profile_find(host, t->name);
			const struct vp_event_table *tg = vp_profile_find(guest, t->name);
			int at = vp_comparison_add_event(c, t->name);
			if (at < 0) {
				oom = 1;
				break;
			}
			struct vp_cmp_event *e = &c->events[at];
			const struct vp_event_table *ts[2] = { th, tg };
			for (int k = 0; k < 2; k++) {
				if (!ts[k])
					continue;
				e->present[k] = 1;
				e->side_name[k] = copy(c, ts[k]->name, &oom);
				e->total_samples[k] = ts[k]->total_samples;
				e->total_period[k] = ts[k]->total_period;
			}
			if (join_event(c, e, th, tg, c->key) < 0)
				oom = 1;
		}
	}
	if (oom) {
		vp_comparison_free(c);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	vp_comparison_rank(c, c->rank, opts->top);
	*out = c;
	return 0;
}

void vp_comparison_free(struct vp_comparison *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nevents; i++)
		free(c->events[i].rows);
	free(c->events);
	vp_strpool_free(c->pool);
	free(c);
}

uint64_t vp_cmp_value(const struct vp_cmp_row *r, enum vp_side s, enum vp_value v)
{
	return v == VP_VALUE_SAMPLES ? r->samples[s] : r->period[s];
}

uint64_t vp_cmp_total(const struct vp_cmp_event *e, enum vp_side s, enum vp_value v)
{
	return v == VP_VALUE_SAMPLES ? e->total_samples[s] : e->total_period[s];
}

double vp_cmp_share(const struct vp_cmp_event *e, const struct vp_cmp_row *r, enum vp_side s,
		    enum vp_value v)
{
	uint64_t t = vp_cmp_total(e, s, v);

	return t ? (double)vp_cmp_value(r, s, v) / (double)t : 0.0;
}

double vp_cmp_ratio(const struct vp_cmp_row *r, enum vp_value v, enum vp_ratio_kind *kind)
{
	uint64_t h = vp_cmp_value(r, VP_HOST, v), g = vp_cmp_value(r, VP_GUEST, v);

	if (h && g) {
		*kind = VP_RATIO_BOTH;
		return (double)g / (double)h;
	}
	*kind = h ? VP_RATIO_ONLY_HOST : g ? VP_RATIO_ONLY_GUEST : VP_RATIO_NONE;
	return 0.0;
}

double vp_cmp_delta_pp(const struct vp_cmp_event *e, const struct vp_cmp_row *r, enum vp_value v)
{
	return 100.0 * (vp_cmp_share(e, r, VP_GUEST, v) - vp_cmp_share(e, r, VP_HOST, v));
}

struct rank_ctx {
	const struct vp_cmp_event *e;
	enum vp_rank rank;
	enum vp_value value;
};

static uint64_t max_value(const struct vp_cmp_row *r, enum vp_value v)
{
	uint64_t h = vp_cmp_value(r, VP_HOST, v), g = vp_cmp_value(r, VP_GUEST, v);
	return h > g ? h : g;
}

static int cmp_double_desc(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int rank_cmp(const void *pa, const void *pb, void *arg)
{
	const struct rank_ctx *x = arg;
	const struct vp_cmp_row *a = pa, *b = pb;
	enum vp_value v = x->value;
	int c = 0;

	switch (x->rank) {
	case VP_RANK_MAX:
		c = cmp_u64_desc(max_value(a, v), max_value(b, v));
		break;
	case VP_RANK_HOST:
		c = cmp_u64_desc(vp_cmp_value(a, VP_HOST, v), vp_cmp_value(b, VP_HOST, v));
		break;
	case VP_RANK_GUEST:
		c = cmp_u64_desc(vp_cmp_value(a, VP_GUEST, v), vp_cmp_value(b, VP_GUEST, v));
		break;
	case VP_RANK_RATIO: {
		enum vp_ratio_kind ka, kb;
		double ra = vp_cmp_ratio(a, v, &ka), rb = vp_cmp_ratio(b, v, &kb);
		/* finite ratios first; one-sided rows after them, by their value */
		if ((ka == VP_RATIO_BOTH) != (kb == VP_RATIO_BOTH))
			return ka == VP_RATIO_BOTH ? -1 : 1;
		c = ka == VP_RATIO_BOTH ? cmp_double_desc(ra, rb) : 0;
		break;
	}
	case VP_RANK_DELTA:
		c = cmp_double_desc(vp_cmp_delta_pp(x->e, a, v), vp_cmp_delta_pp(x->e, b, v));
		break;
	case VP_RANK_ABSDELTA:
		c = cmp_double_desc(fabs(vp_cmp_delta_pp(x->e, a, v)), fabs(vp_cmp_delta_pp(x->e, b, v)));
		break;
	}
	if (c)
		return c;
	if ((c = cmp_u64_desc(max_value(a, v), max_value(b, v))))
		return c;
	if ((c = strcmp_null(a->symbol, b->symbol)) || (c = strcmp_null(a->dso, b->dso)))
		return c;
	return a->domain - b->domain;
}

void vp_comparison_rank(struct vp_comparison *c, enum vp_rank rank, size_t top)
{
	c->rank = rank;
	for (size_t i = 0; i < c->nevents; i++) {
		struct vp_cmp_event *e = &c->events[i];
		struct rank_ctx x = { e, rank, c->value };
		qsort_r(e->rows, e->total_rows, sizeof(*e->rows), rank_cmp, &x);
		e->nrows = top && top < e->total_rows ? top : e->total_rows;
	}
}

int vp_comparison_keep_events(struct vp_comparison *c, const char *const *names,
			      struct vp_error *err)
{
	size_t kept = 0;

	if (!names)
		return 0;
	for (size_t i = 0; i < c->nevents; i++) {
		if (vp_names_want(names, c->events[i].name))
			c->events[kept++] = c->events[i];
		else
			free(c->events[i].rows);
	}
	c->nevents = kept;
	for (size_t k = 0; names[k]; k++) {
		size_t i = 0;
		while (i < c->nevents && strcmp(names[k], c->events[i].name))
			i++;
		if (i == c->nevents)
			return vp_errorf(err, -ENOENT, "no event '%s' in the comparison", names[k]);
	}
	return 0;
}

int vp_comparison_relabel(struct vp_comparison *c, const char *host, const char *guest)
{
	const char *h = vp_strpool_intern(c->pool, host), *g = vp_strpool_intern(c->pool, guest);

	if (!h || !g)
		return -ENOMEM;
	c->label[VP_HOST] = h;
	c->label[VP_GUEST] = g;
	return 0;
}

static const char *const rank_names[] = {
	[VP_RANK_MAX] = "max", [VP_RANK_HOST] = "host", [VP_RANK_GUEST] = "guest",
	[VP_RANK_RATIO] = "ratio", [VP_RANK_DELTA] = "delta", [VP_RANK_ABSDELTA] = "absdelta",
};

int vp_rank_parse(const char *s, enum vp_rank *rank)
{
	for (size_t i = 0; i < sizeof(rank_names) / sizeof(*rank_names); i++)
		if (!strcmp(s, rank_names[i])) {
			*rank = (enum vp_rank)i;
			return 0;
		}
	return -EINVAL;
}

const char *vp_rank_name(enum vp_rank rank)
{
	return (unsigned)rank < sizeof(rank_names) / sizeof(*rank_names) ? rank_names[rank] : "?";
}
