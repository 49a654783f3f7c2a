/* Every row of a comparison judged by the statistics (stats.h): per event and
 * per side after the baseline, the runs of both that recorded the event are
 * handed over as one family (intervals, p, Benjamini-Hochberg q across the
 * event's rows, significance at alpha), and the baseline's runs split in
 * halves give the event's A/A noise floor. Nothing here computes a
 * statistic: it only arranges the runs' numbers for stats.c. */
#include "compare.h"

#include <errno.h>
#include <stdlib.h>

/* One side's present runs of one event, laid out as vp_stat_runs wants. */
struct runs_matrix {
	struct vp_stat_runs m;
	double *buf;
};

static int matrix(const struct vp_comparison *c, const struct vp_cmp_event *e, size_t s,
		  struct runs_matrix *out)
{
	size_t n = e->nruns[s], rows = e->total_rows, j = 0;
	double *value, *samples, *total, *total_samples;

	out->buf = malloc((2 * rows * n + 2 * n) * sizeof(double) + 1);
	if (!out->buf)
		return -ENOMEM;
	value = out->buf;
	samples = value + rows * n;
	total = samples + rows * n;
	total_samples = total + n;
	for (size_t k = c->first_run[s]; k < c->first_run[s + 1]; k++) {
		if (!e->run_present[k])
			continue;
		/* inclusive values are judged by the samples that carry them */
		enum vp_value count = VP_VALUE_IS_CHILDREN(c->value) ? VP_VALUE_CHILDREN_SAMPLES
								     : VP_VALUE_SAMPLES;
		total[j] = (double)vp_cmp_run_total(e, k, c->value);
		total_samples[j] = (double)e->run_total_samples[k];
		for (size_t r = 0; r < rows; r++) {
			const struct vp_cmp_row *row = &e->rows[r];
			value[r * n + j] = (double)vp_cmp_run_value(row, k, c->value);
			samples[r * n + j] = (double)vp_cmp_run_value(row, k, count);
		}
		j++;
	}
	out->m = (struct vp_stat_runs){ rows, n, n, value, samples, total, total_samples };
	return 0;
}

static int judge_event(struct vp_comparison *c, struct vp_cmp_event *e)
{
	struct runs_matrix base, side;
	struct vp_stat_result *res = NULL;
	size_t flagged;
	int r;

	for (size_t s = 0; s < c->nsides; s++)
		e->stat_ok[s] = 0;
	e->noise_floor = -1;
	if (!e->nruns[0])
		return 0;
	if ((r = matrix(c, e, 0, &base)) < 0)
		return r;
	if (e->total_rows && !(res = malloc(e->total_rows * sizeof(*res)))) {
		free(base.buf);
		return -ENOMEM;
	}
	for (size_t s = 1; s < c->nsides && r == 0; s++) {
		if (!e->nruns[s] || !e->total_rows)
			continue;
		if ((r = matrix(c, e, s, &side)) < 0)
			break;
		r = vp_stat_event(&base.m, &side.m, c->alpha, c->threads, res);
		free(side.buf);
		if (r == -EINVAL) {
			/* numbers the method cannot take (a value without samples, from
			 * a hand-made table): no statistics for this side, said once */
			vp_warn("event '%s': no statistics for side '%s': a row has a value but no samples",
				e->name, c->label[s]);
			r = 0;
			continue;
		}
		for (size_t i = 0; r == 0 && i < e->total_rows; i++)
			e->rows[i].stat[s] = res[i];
		e->stat_ok[s] = r == 0;
	}
	if (r == 0 && e->nruns[0] >= 4) {
		r = vp_stat_aa_floor(&base.m, c->alpha, c->threads, &flagged);
		if (r == 0)
			e->noise_floor = (long)flagged;
		r = r == -EINVAL ? 0 : r;
	}
	free(res);
	free(base.buf);
	return r;
}

int vp_comparison_judge(struct vp_comparison *c, double alpha, struct vp_error *err)
{
	int r;

	if (!(alpha > 0 && alpha < 1))
		return vp_errorf(err, -EINVAL, "alpha %g is not between 0 and 1", alpha);
	c->alpha = alpha;
	for (size_t i = 0; i < c->nevents; i++)
		if ((r = judge_event(c, &c->events[i])) < 0)
			return vp_errorf(err, r, "out of memory");
	return 0;
}
