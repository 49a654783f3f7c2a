/* A row's statistics as the charts show them: which bars are coloured (a
 * significant finding) and which pale, the interval each bar's whisker
 * stands for, and the same numbers in words: the tooltips and the chart's
 * <desc>. The numbers are the model's (vp_cmp_*); nothing is judged here. */
#include "render_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int vp_row_significant(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_cmp_row *r, size_t s)
{
	const struct vp_stat_result *st;

	if (s == 0) {
		for (size_t j = 1; j < cmp->nsides; j++)
			if (vp_row_significant(cmp, e, r, j))
				return 1;
		return 0;
	}
	st = vp_cmp_stat(e, r, s);
	return st && st->significant;
}

int vp_row_whisker(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		   const struct vp_cmp_row *r, size_t s, double *lo, double *hi, int *ratio)
{
	const struct vp_stat_result *st = s ? vp_cmp_stat(e, r, s) : NULL;
	double base = vp_cmp_mean(e, r, 0, cmp->value);

	/* The ratio's interval carries both sides' noise and is what the verdict
	 * is on; drawn at the baseline's mean it shows where the side's bar could
	 * end. Without a baseline mean it says nothing in the bar's units. */
	*ratio = 0;
	if (st && base > 0 && !isnan(st->ratio)) {
		*lo = base * st->ratio_lo;
		*hi = base * st->ratio_hi;
		*ratio = 1;
		return 0;
	}
	if (!e->nruns[s])
		return -EINVAL;
	return vp_cmp_mean_interval(e, r, s, cmp->value, cmp->alpha, lo, hi);
}

/* Exact enough for a reader, and never "1e+06": counts, periods, their means. */
static void put_num(FILE *f, double v)
{
	if (isinf(v))
		fputs("\u221e", f);
	else if (v == floor(v) && fabs(v) < 1e18)
		fprintf(f, "%.0f", v);
	else if (fabs(v) >= 100)
		fprintf(f, "%.1f", v);
	else
		fprintf(f, "%.4g", v);
}

static void put_interval(FILE *f, double lo, double hi)
{
	fputc('[', f);
	put_num(f, lo);
	fputs(", ", f);
	put_num(f, hi);
	fputc(']', f);
}

static void put_conf(FILE *f, const struct vp_comparison *cmp)
{
	fprintf(f, "%g%%", 100 * (1 - cmp->alpha));
}

/* "host: 5 runs, mean 12.4 samples, period 12400 (3.100% of its cpu-clock
 * period); 95% interval of the mean [..]" and how a side's whisker is made. */
static void side_line(FILE *f, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		      const struct vp_cmp_row *r, size_t s)
{
	char vals[160];
	double lo, hi;
	int ratio;

	vp_format_side_values(e, r, s, vals, sizeof(vals));
	fprintf(f, "\n%s: %s (%.3f%% of its %s %s)", cmp->label[s], vals,
		100 * vp_cmp_share(e, r, s, cmp->value), e->name, vp_event_value_name(cmp, e));
	if (!e->present[s]) {
		fputs("; the event was not recorded", f);
		return;
	}
	if (vp_row_whisker(cmp, e, r, s, &lo, &hi, &ratio) < 0)
		return;
	fputs("; whisker ", f);
	put_conf(f, cmp);
	fputc(' ', f);
	put_interval(f, lo, hi);
	if (ratio)
		fprintf(f, ": %s's mean times the ratio's interval", cmp->label[0]);
	else
		fputs(": the interval of its mean", f);
}

/* "guest/host: 1.52× [1.41, 1.64], share +2.10 pp [..], p .., q ..: significant at q < 0.05" */
static void ratio_line(FILE *f, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_cmp_row *r, size_t s)
{
	const struct vp_stat_result *st = vp_cmp_stat(e, r, s);
	char buf[64];

	fprintf(f, "\n%s/%s: ", cmp->label[s], cmp->label[0]);
	if (!st) {
		vp_format_ratio(cmp, e, r, s, buf, sizeof(buf));
		fprintf(f, "%s (no statistics: the event is missing on a side)", buf);
		return;
	}
	if (isnan(st->ratio))
		fputs("\u2013 ", f);
	else if (isinf(st->ratio))
		fprintf(f, "only %s ", cmp->label[s]);
	else
		fprintf(f, "%.4g\u00d7 ", st->ratio);
	put_interval(f, st->ratio_lo, st->ratio_hi);
	fprintf(f, ", share %+.3f pp [%+.3f, %+.3f], p %.3g, q %.3g: %s at q < %g (", st->delta_pp,
		st->delta_lo, st->delta_hi, st->p, st->q, st->significant ? "significant" : "not significant",
		cmp->alpha);
	put_conf(f, cmp);
	fputs(st->basis == VP_STAT_RUNS ? " intervals across runs)"
					: " intervals from sampling noise alone: a side has one run)", f);
}

char *vp_row_tooltip(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		     const struct vp_cmp_row *r, size_t s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	fprintf(f, "%s\n%s [%c]", r->symbol ? r->symbol : "[unknown]", r->dso ? r->dso : "?",
		r->domain ? r->domain : '.');
	side_line(f, cmp, e, r, s);
	for (size_t j = 0; j < cmp->nsides; j++)
		if (j != s)
			side_line(f, cmp, e, r, j);
	for (size_t j = 1; j < cmp->nsides; j++)
		ratio_line(f, cmp, e, r, j);
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

char *vp_chart_describe(const struct vp_comparison *cmp, const struct vp_cmp_event *e)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	/* a time event's exact values are nanoseconds */
	fprintf(f, "%s %s per function%s, ", e->name, vp_event_value_name(cmp, e),
		vp_value_is_time(cmp, e) ? " (ns)" : "");
	for (size_t s = 0; s < cmp->nsides; s++)
		fprintf(f, "%s%s", s ? " vs " : "", cmp->label[s]);
	fprintf(f, ": top %zu of %zu functions. Runs:", e->nrows, e->total_rows);
	for (size_t s = 0; s < cmp->nsides; s++)
		fprintf(f, "%s %s %zu", s ? "," : "", cmp->label[s], e->nruns[s]);
	/* with several runs a side's numbers are its means per run */
	fputs(". Totals per run:", f);
	for (size_t s = 0; s < cmp->nsides; s++) {
		fprintf(f, "%s %s ", s ? "," : "", cmp->label[s]);
		put_num(f, vp_cmp_mean_total(e, s, cmp->value));
	}
	fputc('.', f);
	if (e->noise_floor >= 0)
		fprintf(f, " A/A noise floor: %ld rows significant between halves of %s's runs.",
			e->noise_floor, cmp->label[0]);
	for (size_t i = 0; i < e->nrows; i++) {
		const struct vp_cmp_row *r = &e->rows[i];

		fprintf(f, "\n%s [%c]:", r->symbol ? r->symbol : "[unknown]", r->domain ? r->domain : '.');
		for (size_t s = 0; s < cmp->nsides; s++) {
			fprintf(f, "%s %s ", s ? "," : "", cmp->label[s]);
			put_num(f, vp_cmp_mean(e, r, s, cmp->value));
			fprintf(f, " (%.2f%%)", 100 * vp_cmp_share(e, r, s, cmp->value));
		}
		for (size_t s = 1; s < cmp->nsides; s++) {
			const struct vp_stat_result *st = vp_cmp_stat(e, r, s);
			char ratio[64];

			vp_format_ratio(cmp, e, r, s, ratio, sizeof(ratio));
			fprintf(f, "; %s/%s %s", cmp->label[s], cmp->label[0], ratio);
			if (st) {
				fputc(' ', f);
				put_interval(f, st->ratio_lo, st->ratio_hi);
				fprintf(f, " q %.3g %s", st->q, st->significant ? "significant" : "not significant");
			}
		}
		fputc('.', f);
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}
