/* The comparison's storage and what a side says from its runs: sides, runs
 * and events allocated by their counts, rows whose per-side and per-run
 * arrays live in one block per event, the sums, means and shares of a side
 * (compare.h states them), and each side's metadata summary. */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/namelist.h"

struct vp_comparison *vp_comparison_new(size_t nsides, const size_t *runs_per_side)
{
	struct vp_comparison *c = calloc(1, sizeof(*c));
	size_t nruns = 0;

	if (!c)
		return NULL;
	for (size_t s = 0; s < nsides; s++)
		nruns += runs_per_side[s];
	c->nsides = nsides;
	c->nruns = nruns;
	c->alpha = VP_ALPHA_DEFAULT;
	c->pool = vp_strpool_new();
	c->first_run = calloc(nsides + 1, sizeof(*c->first_run));
	c->label = calloc(nsides ? nsides : 1, sizeof(*c->label));
	c->meta = calloc(nsides ? nsides : 1, sizeof(*c->meta));
	c->run_meta = calloc(nruns ? nruns : 1, sizeof(*c->run_meta));
	if (!c->pool || !c->first_run || !c->label || !c->meta || !c->run_meta) {
		vp_comparison_free(c);
		return NULL;
	}
	for (size_t s = 0; s < nsides; s++) {
		c->first_run[s + 1] = c->first_run[s] + runs_per_side[s];
		vp_profile_meta_init(&c->meta[s]);
	}
	for (size_t i = 0; i < nruns; i++)
		vp_profile_meta_init(&c->run_meta[i]);
	return c;
}

static void event_free(struct vp_cmp_event *e)
{
	free(e->rows);
	free(e->vals_);
	free(e->stats_);
	free(e->arrays_);
}

void vp_comparison_free(struct vp_comparison *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nevents; i++)
		event_free(&c->events[i]);
	free(c->events);
	free(c->first_run);
	free(c->label);
	free(c->meta);
	free(c->run_meta);
	vp_strpool_free(c->pool);
	free(c);
}

/* The event's per-side and per-run arrays, one allocation: pointers first,
 * then 8-byte numbers, then ints, so each part stays aligned. */
static int event_arrays(struct vp_cmp_event *e, size_t K, size_t R)
{
	size_t bytes = K * sizeof(const char *) + (2 * K + 2 * R) * sizeof(uint64_t) +
		       K * sizeof(size_t) + (2 * K + R) * sizeof(int);
	char *p = calloc(1, bytes ? bytes : 1);

	if (!p)
		return -ENOMEM;
	e->arrays_ = p;
	e->side_name = (const char **)p;
	p += K * sizeof(const char *);
	e->total_samples = (uint64_t *)p;
	e->total_period = e->total_samples + K;
	e->run_total_samples = e->total_period + K;
	e->run_total_period = e->run_total_samples + R;
	p = (char *)(e->run_total_period + R);
	e->nruns = (size_t *)p;
	p += K * sizeof(size_t);
	e->present = (int *)p;
	e->stat_ok = e->present + K;
	e->run_present = e->stat_ok + K;
	return 0;
}

int vp_comparison_add_event(struct vp_comparison *c, const char *name)
{
	struct vp_cmp_event *ev = realloc(c->events, (c->nevents + 1) * sizeof(*ev));

	if (!ev)
		return -ENOMEM;
	c->events = ev;
	ev = &c->events[c->nevents];
	memset(ev, 0, sizeof(*ev));
	ev->noise_floor = -1;
	ev->first_run_ = c->first_run;
	ev->nsides_ = c->nsides;
	ev->nruns_ = c->nruns;
	if (event_arrays(ev, c->nsides, c->nruns) < 0 || !(ev->name = vp_strpool_intern(c->pool, name))) {
		event_free(ev);
		return -ENOMEM;
	}
	return (int)c->nevents++;
}

/* Per row: samples and period per side, then per run. */
static size_t row_stride(const struct vp_cmp_event *e)
{
	return 2 * e->nsides_ + 2 * e->nruns_;
}

static void point_at(struct vp_cmp_event *e, uint64_t *vals, struct vp_stat_result *stats,
		     struct vp_cmp_row *r, size_t slot)
{
	uint64_t *v = vals + slot * row_stride(e);

	r->samples = v;
	r->period = v + e->nsides_;
	r->run_samples = v + 2 * e->nsides_;
	r->run_period = r->run_samples + e->nruns_;
	r->stat = stats + slot * e->nsides_;
}

struct vp_cmp_row *vp_cmp_event_add_row(struct vp_comparison *c, struct vp_cmp_event *e)
{
	size_t stride = row_stride(e);

	(void)c;
	if (e->total_rows == e->row_cap_) {
		size_t cap = e->row_cap_ ? 2 * e->row_cap_ : 16;
		struct vp_cmp_row *rows = realloc(e->rows, cap * sizeof(*rows));
		/* stride and nsides_ are never 0: K >= 2 sides of >= 1 run */
		uint64_t *vals = calloc(cap * stride, sizeof(*vals));
		struct vp_stat_result *stats = calloc(cap * e->nsides_, sizeof(*stats));

		if (rows)
			e->rows = rows;
		if (!rows || !vals || !stats) {
			free(vals);
			free(stats);
			return NULL;
		}
		if (e->row_cap_) {
			memcpy(vals, e->vals_, e->row_cap_ * stride * sizeof(*vals));
			memcpy(stats, e->stats_, e->row_cap_ * e->nsides_ * sizeof(*stats));
		}
		/* rows may be ranked already: each keeps its own slot */
		for (size_t i = 0; i < e->total_rows; i++)
			point_at(e, vals, stats, &e->rows[i],
				 (size_t)(e->rows[i].samples - e->vals_) / stride);
		free(e->vals_);
		free(e->stats_);
		e->vals_ = vals;
		e->stats_ = stats;
		e->row_cap_ = cap;
	}
	struct vp_cmp_row *r = &e->rows[e->total_rows];
	memset(r, 0, sizeof(*r));
	point_at(e, e->vals_, e->stats_, r, e->total_rows++);
	e->nrows = e->total_rows;
	return r;
}

size_t vp_cmp_run_side(const struct vp_comparison *c, size_t run)
{
	size_t s = 0;

	while (s + 1 < c->nsides && run >= c->first_run[s + 1])
		s++;
	return s;
}

size_t vp_cmp_side_runs(const struct vp_comparison *c, size_t side)
{
	return c->first_run[side + 1] - c->first_run[side];
}

/* The mean of the known values (>= 0) of a run's double, -1 when none is. */
static double mean_known(const struct vp_profile_meta *m, size_t n, size_t off)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double v = *(const double *)((const char *)&m[i] + off);
		if (v >= 0) {
			sum += v;
			k++;
		}
	}
	return k ? sum / (double)k : -1;
}

static void summarise(struct vp_comparison *c, size_t s)
{
	const struct vp_profile_meta *runs = &c->run_meta[c->first_run[s]];
	size_t n = vp_cmp_side_runs(c, s);
	struct vp_profile_meta *m = &c->meta[s];

	if (!n)
		return;
	*m = runs[0];
	if (n == 1)
		return;
	m->duration = mean_known(runs, n, offsetof(struct vp_profile_meta, duration));
	m->cpu_time = mean_known(runs, n, offsetof(struct vp_profile_meta, cpu_time));
	m->steal_time = mean_known(runs, n, offsetof(struct vp_profile_meta, steal_time));
	m->lost_samples = 0;
	for (size_t i = 0; i < n; i++)
		m->lost_samples += runs[i].lost_samples;
}

/* A side's sums from its runs; the event's per side from its runs' totals. */
static int sum_event(struct vp_comparison *c, struct vp_cmp_event *e, struct vp_error *err)
{
	for (size_t s = 0; s < c->nsides; s++) {
		e->total_samples[s] = e->total_period[s] = 0;
		e->nruns[s] = 0;
		for (size_t k = c->first_run[s]; k < c->first_run[s + 1]; k++) {
			if (!e->run_present[k])
				continue;
			e->nruns[s]++;
			e->total_samples[s] += e->run_total_samples[k];
			e->total_period[s] += e->run_total_period[k];
		}
		e->present[s] = e->nruns[s] > 0;
		if (!e->present[s])
			e->side_name[s] = NULL;
		else if (!e->side_name[s])
			e->side_name[s] = e->name;
	}
	for (size_t i = 0; i < e->total_rows; i++) {
		struct vp_cmp_row *r = &e->rows[i];
		for (size_t s = 0; s < c->nsides; s++) {
			r->samples[s] = r->period[s] = 0;
			for (size_t k = c->first_run[s]; k < c->first_run[s + 1]; k++) {
				if (!e->run_present[k] && (r->run_samples[k] || r->run_period[k]))
					return vp_errorf(err, -EINVAL, "event '%s': row '%s' has values in a "
							 "run without the event", e->name, r->symbol);
				if (r->run_samples[k] > e->run_total_samples[k] ||
				    r->run_period[k] > e->run_total_period[k])
					return vp_errorf(err, -EINVAL, "event '%s': row '%s' is larger "
							 "than its run's total", e->name, r->symbol);
				r->samples[s] += r->run_samples[k];
				r->period[s] += r->run_period[k];
			}
		}
	}
	e->nrows = e->total_rows;
	return 0;
}

int vp_comparison_finish(struct vp_comparison *c, struct vp_error *err)
{
	int r;

	for (size_t s = 0; s < c->nsides; s++)
		summarise(c, s);
	for (size_t i = 0; i < c->nevents; i++)
		if ((r = sum_event(c, &c->events[i], err)) < 0)
			return r;
	return vp_comparison_judge(c, c->alpha, err);
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
			event_free(&c->events[i]);
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

int vp_comparison_relabel(struct vp_comparison *c, const char *const *labels, size_t n)
{
	if (n != c->nsides)
		return -EINVAL;
	for (size_t s = 0; s < n; s++)
		if (!vp_strpool_intern(c->pool, labels[s]))
			return -ENOMEM;
	for (size_t s = 0; s < n; s++)
		c->label[s] = vp_strpool_intern(c->pool, labels[s]);
	return 0;
}

uint64_t vp_cmp_value(const struct vp_cmp_row *r, size_t s, enum vp_value v)
{
	return v == VP_VALUE_SAMPLES ? r->samples[s] : r->period[s];
}

uint64_t vp_cmp_total(const struct vp_cmp_event *e, size_t s, enum vp_value v)
{
	return v == VP_VALUE_SAMPLES ? e->total_samples[s] : e->total_period[s];
}

double vp_cmp_mean(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		   enum vp_value v)
{
	return e->nruns[s] ? (double)vp_cmp_value(r, s, v) / (double)e->nruns[s] : 0.0;
}

double vp_cmp_mean_total(const struct vp_cmp_event *e, size_t s, enum vp_value v)
{
	return e->nruns[s] ? (double)vp_cmp_total(e, s, v) / (double)e->nruns[s] : 0.0;
}

double vp_cmp_share(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		    enum vp_value v)
{
	double sum = 0;

	if (!e->nruns[s])
		return 0.0;
	for (size_t k = e->first_run_[s]; k < e->first_run_[s + 1]; k++) {
		uint64_t x = v == VP_VALUE_SAMPLES ? r->run_samples[k] : r->run_period[k];
		uint64_t t = v == VP_VALUE_SAMPLES ? e->run_total_samples[k] : e->run_total_period[k];
		if (e->run_present[k] && t)
			sum += (double)x / (double)t;
	}
	return sum / (double)e->nruns[s];
}

double vp_cmp_ratio(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		    enum vp_value v, enum vp_ratio_kind *kind)
{
	uint64_t h = vp_cmp_value(r, VP_HOST, v), g = vp_cmp_value(r, s, v);

	if (h && g) {
		*kind = VP_RATIO_BOTH;
		return vp_cmp_mean(e, r, s, v) / vp_cmp_mean(e, r, VP_HOST, v);
	}
	*kind = h ? VP_RATIO_ONLY_HOST : g ? VP_RATIO_ONLY_GUEST : VP_RATIO_NONE;
	return 0.0;
}

double vp_cmp_delta_pp(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		       enum vp_value v)
{
	return 100.0 * (vp_cmp_share(e, r, s, v) - vp_cmp_share(e, r, VP_HOST, v));
}

const struct vp_stat_result *vp_cmp_stat(const struct vp_cmp_event *e, const struct vp_cmp_row *r,
					 size_t s)
{
	return s > 0 && s < e->nsides_ && e->stat_ok[s] ? &r->stat[s] : NULL;
}
