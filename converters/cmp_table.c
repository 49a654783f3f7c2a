/* A comparison's text table for a terminal, what compare prints by default:
 * a heading naming the sides and their inputs, then per event its sides'
 * totals, how its statistics were made (basis, runs, alpha, noise floor) and
 * the joined rows: per side its samples, period and share (means per run when
 * it has several), and for every side after the baseline its ratio and
 * difference of shares with their intervals and a mark when significant.
 * Names from files are escaped (text.h); column widths are those of what is
 * written. Each part of an event (its heading, its column heads, a row) is
 * one function, so a new column or heading line has one place to go. */
#include "formats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* The widths of one side's columns in an event. */
struct side_cols {
	int sw, pw;	/* samples, period */
	int rw, dw;	/* ratio and delta with their intervals (sides after the baseline) */
};

/* An interval bound: 2 decimals, "inf" when unbounded. */
static void bound(char *buf, size_t n, double x, const char *fmt)
{
	if (isinf(x))
		snprintf(buf, n, "inf");
	else
		snprintf(buf, n, fmt, x);
}

static const char *only_text(const struct vp_comparison *c, enum vp_ratio_kind k)
{
	if (k == VP_RATIO_ONLY_HOST)
		return c->nsides == 2 ? "only host" : "only base";
	return k == VP_RATIO_ONLY_GUEST ? (c->nsides == 2 ? "only guest" : "only side") : "-";
}

/* "1.52x [1.41, 1.64]"; without statistics the ratio alone. */
static void ratio_text(char *buf, size_t n, const struct vp_comparison *c, const struct vp_cmp_event *e,
		       const struct vp_cmp_row *r, size_t s)
{
	const struct vp_stat_result *st = vp_cmp_stat(e, r, s);
	enum vp_ratio_kind k;
	double x = vp_cmp_ratio(e, r, s, c->value, &k);
	char lo[32], hi[32];

	if (k == VP_RATIO_BOTH)
		snprintf(buf, n, "%.2fx", x);
	else
		snprintf(buf, n, "%s", only_text(c, k));
	if (!st || k == VP_RATIO_NONE)
		return;
	bound(lo, sizeof(lo), st->ratio_lo, "%.2f");
	bound(hi, sizeof(hi), st->ratio_hi, "%.2f");
	size_t len = strlen(buf);
	snprintf(buf + len, n - len, " [%s, %s]", lo, hi);
}

/* "+1.23 [+0.50, +1.96]" percentage points; without statistics the delta alone. */
static void delta_text(char *buf, size_t n, const struct vp_comparison *c, const struct vp_cmp_event *e,
		       const struct vp_cmp_row *r, size_t s)
{
	const struct vp_stat_result *st = vp_cmp_stat(e, r, s);

	if (st)
		snprintf(buf, n, "%+.2f [%+.2f, %+.2f]", vp_cmp_delta_pp(e, r, s, c->value), st->delta_lo,
			 st->delta_hi);
	else
		snprintf(buf, n, "%+.2f", vp_cmp_delta_pp(e, r, s, c->value));
}

/* A side's samples and period: its one run's, or its mean per run. */
static int samples_text(char *buf, size_t n, const struct vp_cmp_event *e, const struct vp_cmp_row *r,
			size_t s)
{
	if (e->nruns[s] <= 1)
		return snprintf(buf, n, "%" PRIu64, r->samples[s]);
	return snprintf(buf, n, "%.1f", vp_cmp_mean(e, r, s, VP_VALUE_SAMPLES));
}

static int period_text(char *buf, size_t n, const struct vp_cmp_event *e, const struct vp_cmp_row *r,
		       size_t s)
{
	if (e->nruns[s] <= 1)
		return snprintf(buf, n, "%" PRIu64, r->period[s]);
	return snprintf(buf, n, "%.0f", vp_cmp_mean(e, r, s, VP_VALUE_PERIOD));
}

static void widths(const struct vp_comparison *c, const struct vp_cmp_event *e, struct side_cols *w)
{
	char buf[128];

	for (size_t s = 0; s < c->nsides; s++) {
		w[s] = (struct side_cols){ 7, 6, 5, 8 };
		for (size_t i = 0; i < e->nrows; i++) {
			int n;
			if ((n = samples_text(buf, sizeof(buf), e, &e->rows[i], s)) > w[s].sw)
				w[s].sw = n;
			if ((n = period_text(buf, sizeof(buf), e, &e->rows[i], s)) > w[s].pw)
				w[s].pw = n;
			if (s == 0)
				continue;
			ratio_text(buf, sizeof(buf), c, e, &e->rows[i], s);
			if ((int)strlen(buf) > w[s].rw)
				w[s].rw = (int)strlen(buf);
			delta_text(buf, sizeof(buf), c, e, &e->rows[i], s);
			if ((int)strlen(buf) > w[s].dw)
				w[s].dw = (int)strlen(buf);
		}
	}
}

/* The role of a side in the event heading: host and guest for two. */
static void role(char *buf, size_t n, const struct vp_comparison *c, size_t s)
{
	if (c->nsides == 2)
		snprintf(buf, n, "%s", s ? "guest" : "host");
	else if (s == 0)
		snprintf(buf, n, "base");
	else
		snprintf(buf, n, "side %zu", s + 1);
}

/* How the event's statistics were made: per side after the baseline the
 * basis of its intervals, then what the mark means, then the noise floor. */
static void stats_heading(FILE *f, const struct vp_comparison *c, const struct vp_cmp_event *e)
{
	size_t judged = 0, marked = 0;

	for (size_t s = 1; s < c->nsides; s++) {
		if (!e->stat_ok[s] || !e->total_rows)
			continue;
		judged++;
		for (size_t i = 0; i < e->total_rows; i++)
			marked += e->rows[i].stat[s].significant != 0;
		fprintf(f, "# ");
		vp_text_puts(f, c->label[s]);
		fprintf(f, " vs ");
		vp_text_puts(f, c->label[0]);
		if (e->nruns[0] >= 2 && e->nruns[s] >= 2)
			fprintf(f, ": intervals at %g%% from the variation between runs (%zu and %zu runs)\n",
				100 * (1 - c->alpha), e->nruns[s], e->nruns[0]);
		else
			fprintf(f, ": intervals at %g%% from sampling noise alone (%zu and %zu run%s): "
				"run-to-run variation unmeasured\n", 100 * (1 - c->alpha), e->nruns[s],
				e->nruns[0], e->nruns[0] == 1 ? "" : "s");
	}
	if (judged)
		fprintf(f, "# Significant (*): q < %g, Benjamini-Hochberg over the event's %zu rows: %zu "
			"row%s of %zu compared\n", c->alpha, e->total_rows, marked, marked == 1 ? "" : "s",
			judged * e->total_rows);
	if (e->noise_floor >= 0) {
		fprintf(f, "# Noise floor: ");
		vp_text_puts(f, c->label[0]);
		fprintf(f, "'s runs split %zu against %zu flag %ld of %zu rows%s\n", e->nruns[0] / 2,
			e->nruns[0] - e->nruns[0] / 2, e->noise_floor, e->total_rows,
			e->noise_floor ? ": differences of that many rows may be noise" : "");
	}
}

static void event_heading(FILE *f, const struct vp_comparison *c, const struct vp_cmp_event *e)
{
	char r[32];
	size_t only = 0, present = 0;

	fprintf(f, "# Event '");
	vp_text_puts(f, e->name);
	fprintf(f, "'");
	for (size_t s = 0; s < c->nsides; s++)
		if (e->present[s]) {
			present++;
			only = s;
		}
	if (present == 1) {
		fprintf(f, ": only in ");
		vp_text_puts(f, c->label[only]);
	}
	fprintf(f, "\n");
	for (size_t s = 0; s < c->nsides; s++) {
		if (!e->present[s])
			continue;
		role(r, sizeof(r), c, s);
		fprintf(f, "# %-6s ", r);
		vp_text_puts(f, c->label[s]);
		if (e->nruns[s] <= 1)
			fprintf(f, ": %" PRIu64 " samples, period %" PRIu64 "\n", e->total_samples[s],
				e->total_period[s]);
		else
			fprintf(f, ": %zu runs, per run %.1f samples, period %.0f\n", e->nruns[s],
				vp_cmp_mean_total(e, s, VP_VALUE_SAMPLES),
				vp_cmp_mean_total(e, s, VP_VALUE_PERIOD));
	}
	stats_heading(f, c, e);
	fprintf(f, "# Rows: %zu of %zu, ranked by %s %s\n#\n", e->nrows, e->total_rows,
		vp_rank_name(c->rank), c->value == VP_VALUE_SAMPLES ? "samples" : "period");
}

/* Width of a side's block: samples, period, share; then its ratio, delta and mark. */
static int block_width(const struct side_cols *w, size_t s)
{
	return w[s].sw + w[s].pw + 7 + 4 + (s ? 2 + w[s].rw + 2 + w[s].dw + 2 : 0);
}

static void column_heads(FILE *f, const struct vp_comparison *c, const struct side_cols *w)
{
	/* the side labels over their blocks; the last side's over its values only */
	for (size_t s = 0; s < c->nsides; s++) {
		int last = s + 1 == c->nsides;
		fprintf(f, "%s", s ? "  " : "# ");
		vp_text_fit(f, c->label[s], last ? w[s].sw + w[s].pw + 7 + 4 : block_width(w, s));
	}
	fprintf(f, "\n# ");
	for (size_t s = 0; s < c->nsides; s++) {
		fprintf(f, "%s%*s  %*s  %7s", s ? "  " : "", w[s].sw, "Samples", w[s].pw, "Period", "Share");
		if (s)
			fprintf(f, "  %*s  %*s  ", w[s].rw, "Ratio", w[s].dw, "Delta pp");
	}
	fprintf(f, "  Symbol\n");
}

static void row_line(FILE *f, const struct vp_comparison *c, const struct vp_cmp_event *e,
		     const struct vp_cmp_row *r, const struct side_cols *w, int full)
{
	char buf[128];
	int n;

	fprintf(f, "  ");
	for (size_t s = 0; s < c->nsides; s++) {
		fprintf(f, "%s", s ? "  " : "");
		samples_text(buf, sizeof(buf), e, r, s);
		fprintf(f, "%*s  ", w[s].sw, buf);
		period_text(buf, sizeof(buf), e, r, s);
		fprintf(f, "%*s  %6.2f%%", w[s].pw, buf, 100.0 * vp_cmp_share(e, r, s, c->value));
		if (s) {
			const struct vp_stat_result *st = vp_cmp_stat(e, r, s);
			ratio_text(buf, sizeof(buf), c, e, r, s);
			fprintf(f, "  %*s  ", w[s].rw, buf);
			delta_text(buf, sizeof(buf), c, e, r, s);
			fprintf(f, "%*s %c", w[s].dw, buf, st && st->significant ? '*' : ' ');
		}
	}
	n = full ? (int)strlen(r->symbol) : (int)vp_symbol_display_len(r->symbol);
	fprintf(f, "  [%c] ", r->domain ? r->domain : '.');
	vp_text_write(f, r->symbol, (size_t)n);
	if (c->key & VP_KEY_DSO) {
		fprintf(f, "  (");
		vp_text_puts(f, r->dso ? vp_dso_short_name(r->dso) : "");
		fprintf(f, ")");
	}
	fprintf(f, "\n");
}

static int write_event(FILE *f, const struct vp_comparison *c, const struct vp_cmp_event *e, int full)
{
	struct side_cols *w = calloc(c->nsides, sizeof(*w));

	if (!w)
		return -ENOMEM;
	widths(c, e, w);
	event_heading(f, c, e);
	column_heads(f, c, w);
	for (size_t i = 0; i < e->nrows; i++)
		row_line(f, c, e, &e->rows[i], w, full);
	fprintf(f, "\n");
	free(w);
	return 0;
}

/* "# vmprof compare: A = 'in', B = 'in' (5 runs)" */
static void heading(FILE *f, const struct vp_comparison *c, const char *const *inputs)
{
	fprintf(f, "# vmprof compare: ");
	for (size_t s = 0; s < c->nsides; s++) {
		size_t runs = vp_cmp_side_runs(c, s);
		fprintf(f, "%s", s ? ", " : "");
		vp_text_puts(f, c->label[s]);
		fprintf(f, " = '");
		vp_text_puts(f, inputs[s]);
		fprintf(f, runs > 1 ? "' (%zu runs)" : "'", runs);
	}
	fprintf(f, "\n#\n");
}

int vp_cmp_write_table(FILE *f, const struct vp_comparison *c, const char *const *inputs,
		       const struct vp_out_opts *o)
{
	heading(f, c, inputs);
	for (size_t e = 0; e < c->nevents; e++)
		if (write_event(f, c, &c->events[e], o->full_names) < 0)
			return -ENOMEM;
	return ferror(f) ? -EIO : 0;
}
