/* A comparison's text table for a terminal, what compare prints by default:
 * a heading naming the sides and their inputs, then per event its sides'
 * totals and the joined rows: per side its samples, period and share (means
 * per run when it has several), and for every side after the baseline its
 * ratio and difference of shares. Names from files are escaped (text.h);
 * column widths are those of what is written. Each part of an event (its
 * heading, its column heads, a row) is one function, so a new column or
 * heading line has one place to go. */
#include "formats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* The widths of one side's columns in an event. */
struct side_cols {
	int sw, pw;	/* samples, period */
	int rw;		/* ratio (sides after the baseline) */
};

static const char *only_text(const struct vp_comparison *c, enum vp_ratio_kind k)
{
	if (k == VP_RATIO_ONLY_HOST)
		return c->nsides == 2 ? "only host" : "only base";
	return k == VP_RATIO_ONLY_GUEST ? (c->nsides == 2 ? "only guest" : "only side") : "-";
}

static void ratio_text(char *buf, size_t n, const struct vp_comparison *c, const struct vp_cmp_event *e,
		       const struct vp_cmp_row *r, size_t s)
{
	enum vp_ratio_kind k;
	double x = vp_cmp_ratio(e, r, s, c->value, &k);

	if (k == VP_RATIO_BOTH)
		snprintf(buf, n, "%.2fx", x);
	else
		snprintf(buf, n, "%s", only_text(c, k));
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
	char buf[64];

	for (size_t s = 0; s < c->nsides; s++) {
		w[s] = (struct side_cols){ 7, 6, 5 };
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
	fprintf(f, "# Rows: %zu of %zu, ranked by %s %s\n#\n", e->nrows, e->total_rows,
		vp_rank_name(c->rank), c->value == VP_VALUE_SAMPLES ? "samples" : "period");
}

/* Width of a side's block: samples, period, share; then its ratio and delta. */
static int block_width(const struct side_cols *w, size_t s)
{
	return w[s].sw + w[s].pw + 7 + 4 + (s ? 2 + w[s].rw + 2 + 8 : 0);
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
			fprintf(f, "  %*s  %8s", w[s].rw, "Ratio", "Delta pp");
	}
	fprintf(f, "  Symbol\n");
}

static void row_line(FILE *f, const struct vp_comparison *c, const struct vp_cmp_event *e,
		     const struct vp_cmp_row *r, const struct side_cols *w, int full)
{
	char buf[64];
	int n;

	fprintf(f, "  ");
	for (size_t s = 0; s < c->nsides; s++) {
		fprintf(f, "%s", s ? "  " : "");
		samples_text(buf, sizeof(buf), e, r, s);
		fprintf(f, "%*s  ", w[s].sw, buf);
		period_text(buf, sizeof(buf), e, r, s);
		fprintf(f, "%*s  %6.2f%%", w[s].pw, buf, 100.0 * vp_cmp_share(e, r, s, c->value));
		if (s) {
			ratio_text(buf, sizeof(buf), c, e, r, s);
			fprintf(f, "  %*s  %+8.2f", w[s].rw, buf, vp_cmp_delta_pp(e, r, s, c->value));
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
