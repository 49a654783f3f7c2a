/* The join of the runs of K sides: per event, a full outer join of every
 * run's table by key (symbol, and optionally dso short name and domain). The
 * comparison owns copies of its strings, so the profiles may go away. */
#include "compare.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/grow.h"
#include "lib/util/namelist.h"

void vp_compare_opts_init(struct vp_compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->key = VP_KEY_SYM;
	o->value = VP_VALUE_PERIOD;
	o->rank = VP_RANK_MAX;
	o->top = 10;
	o->alpha = VP_ALPHA_DEFAULT;
}

/* One run's row, before the join. */
struct entry {
	const char *symbol, *dso, *short_dso;
	char domain;
	size_t run;
	uint64_t samples, period;
	uint64_t children_samples, children_period;
};

static int key_cmp(const struct entry *a, const struct entry *b, unsigned join_key)
{
	int c;

	if ((join_key & VP_KEY_SYM) && (c = vp_strcmp_null(a->symbol, b->symbol)))
		return c;
	if ((join_key & VP_KEY_DSO) && (c = vp_strcmp_null(a->short_dso, b->short_dso)))
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
	if ((c = vp_strcmp_null(a->symbol, b->symbol)) || (c = vp_strcmp_null(a->dso, b->dso)))
		return c;
	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
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
		       size_t run)
{
	if (!t)
		return 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct vp_row *r = &t->rows[i];
		if (vp_grow((void **)v, cap, *n, sizeof(**v), 256) < 0)
			return -ENOMEM;
		(*v)[(*n)++] = (struct entry){ r->symbol, r->dso, r->dso ? vp_dso_short_name(r->dso) : NULL,
					       r->domain, run, r->samples, r->period,
					       r->children_samples, r->children_period };
	}
	return 0;
}

/* Every run's table of event e (NULL where a run lacks it) joined by key. */
static int join_event(struct vp_comparison *c, struct vp_cmp_event *e,
		      const struct vp_event_table *const *t, unsigned key)
{
	struct entry *v = NULL;
	size_t n = 0, cap = 0;
	int oom = 0;

	for (size_t k = 0; k < c->nruns; k++)
		if (add_entries(&v, &n, &cap, t[k], k) < 0) {
			free(v);
			return -ENOMEM;
		}
	if (n > 1)	/* v is NULL when no run kept a sample of the event (filters) */
		qsort_r(v, n, sizeof(*v), entry_cmp, &key);
	for (size_t i = 0; i < n;) {
		struct vp_cmp_row *r = vp_cmp_event_add_row(c, e);
		const struct entry *rep = &v[i];
		size_t j = i;
		if (!r) {
			free(v);
			return -ENOMEM;
		}
		for (; j < n && key_cmp(&v[i], &v[j], key) == 0; j++) {
			r->run_samples[v[j].run] += v[j].samples;
			r->run_period[v[j].run] += v[j].period;
			/* rows of one key in one run (a coarser join key) are apart on a
			 * stack: their inclusive counts only bound the key's; the join keys
			 * inclusive counts when its key is the tables' own (sym) */
			r->run_children_samples[v[j].run] += v[j].children_samples;
			r->run_children_period[v[j].run] += v[j].children_period;
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
	d->clocksource = copy(c, s->clocksource, oom);
	d->sched_method = copy(c, s->sched_method, oom);
}

/* The runs' common stored label, else the first run's file name. */
static const char *default_label(const struct vp_comparison *c, size_t s)
{
	const struct vp_profile_meta *m = &c->run_meta[c->first_run[s]];
	int same = m->label != NULL;

	for (size_t k = c->first_run[s] + 1; k < c->first_run[s + 1] && same; k++)
		same = c->run_meta[k].label && !strcmp(c->run_meta[k].label, m->label);
	if (same)
		return m->label;
	if (m->source) {
		const char *slash = strrchr(m->source, '/');
		return slash ? slash + 1 : m->source;
	}
	return s == VP_HOST ? "host" : s == VP_GUEST ? "guest" : "side";
}

/* The event's inclusive counts and call stacks, from runs that have them:
 * counts when every run that recorded the event has them, stacks merged
 * with a column per run when any run recorded callchains (a run without
 * has an empty column). */
static int join_stacks(struct vp_comparison *c, struct vp_cmp_event *e,
		       const struct vp_event_table *const *t)
{
	int any = 0, all = 1;

	for (size_t k = 0; k < c->nruns; k++) {
		if (!t[k])
			continue;
		any |= t[k]->stacks && t[k]->callchains;
		all &= t[k]->children;
	}
	e->children = all;
	if (!all)
		for (size_t i = 0; i < e->total_rows; i++)
			for (size_t k = 0; k < c->nruns; k++)
				e->rows[i].run_children_samples[k] = e->rows[i].run_children_period[k] = 0;
	if (!any)
		return 0;
	if (!(e->stacks = vp_stack_tree_new(c->nruns, c->pool)))
		return -ENOMEM;
	for (size_t k = 0; k < c->nruns; k++)
		if (t[k] && t[k]->stacks && t[k]->callchains &&
		    vp_stack_tree_merge(e->stacks, k, t[k]->stacks, 0) < 0)
			return -ENOMEM;
	vp_stack_tree_sort(e->stacks);
	return 0;
}

/* Events in the order the runs list them: the baseline's first run's, then
 * each later run's own. */
static int join_events(struct vp_comparison *c, const struct vp_profile *const *runs,
		       const struct vp_compare_opts *opts)
{
	const struct vp_event_table **t = calloc(c->nruns ? c->nruns : 1, sizeof(*t));
	int r = 0;

	if (!t)
		return -ENOMEM;
	for (size_t k = 0; k < c->nruns && r == 0; k++) {
		for (size_t i = 0; i < runs[k]->ntables && r == 0; i++) {
			const char *name = runs[k]->tables[i]->name;
			size_t seen = 0;
			while (seen < k && !vp_profile_find(runs[seen], name))
				seen++;
			if (!vp_names_want(opts->events, name) || seen < k)
				continue;
			int at = vp_comparison_add_event(c, name);
			if (at < 0) {
				r = -ENOMEM;
				break;
			}
			struct vp_cmp_event *e = &c->events[at];
			int oom = 0;
			for (size_t j = 0; j < c->nruns; j++) {
				size_t s = vp_cmp_run_side(c, j);
				t[j] = vp_profile_find(runs[j], name);
				if (!t[j])
					continue;
				e->run_present[j] = 1;
				e->run_total_samples[j] = t[j]->total_samples;
				e->run_total_period[j] = t[j]->total_period;
				if (!e->side_name[s])
					e->side_name[s] = copy(c, t[j]->name, &oom);
			}
			if (oom || join_event(c, e, t, c->key) < 0 || join_stacks(c, e, t) < 0)
				r = -ENOMEM;
		}
	}
	free(t);
	return r;
}

int vp_compare_runs(const struct vp_profile *const *runs, const size_t *runs_per_side, size_t nsides,
		    const struct vp_compare_opts *opts, struct vp_comparison **out, struct vp_error *err)
{
	struct vp_compare_opts defaults;
	struct vp_comparison *c;
	int oom = 0, r;

	*out = NULL;
	if (!opts) {
		vp_compare_opts_init(&defaults);
		opts = &defaults;
	}
	for (size_t s = 0; s < nsides; s++)
		if (!runs_per_side[s])
			return vp_errorf(err, -EINVAL, "side %zu has no runs", s + 1);
	if (nsides < 2)
		return vp_errorf(err, -EINVAL, "a comparison needs two sides or more");
	if (!(c = vp_comparison_new(nsides, runs_per_side)))
		return vp_errorf(err, -ENOMEM, "out of memory");
	c->key = opts->key ? opts->key : VP_KEY_SYM;
	c->value = opts->value;
	c->rank = opts->rank;
	c->alpha = opts->alpha > 0 && opts->alpha < 1 ? opts->alpha : VP_ALPHA_DEFAULT;
	c->threads = opts->threads;
	for (size_t k = 0; k < c->nruns; k++)
		copy_meta(c, &c->run_meta[k], &runs[k]->meta, &oom);
	for (size_t s = 0; s < nsides; s++)
		c->label[s] = copy(c, opts->label && opts->label[s] ? opts->label[s] : default_label(c, s),
				   &oom);
	if (oom || join_events(c, runs, opts) < 0) {
		vp_comparison_free(c);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	if ((r = vp_comparison_finish(c, err)) < 0) {
		vp_comparison_free(c);
		return r;
	}
	vp_comparison_rank(c, c->rank, opts->top);
	*out = c;
	return 0;
}

int vp_compare(const struct vp_profile *host, const struct vp_profile *guest,
	       const struct vp_compare_opts *opts, struct vp_comparison **out, struct vp_error *err)
{
	const struct vp_profile *runs[2] = { host, guest };
	static const size_t one[2] = { 1, 1 };

	return vp_compare_runs(runs, one, 2, opts, out, err);
}
