/* The time split as compare's headline (see timesplit.h): both sides' wall
 * time, ratio and gap, then one line per part with its share of the gap.
 * Labels come from the files and are escaped (text.h). */
#include "timesplit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text.h"
#include "lib/util/timefmt.h"

/* A time with its sign when asked ("+16.50 ms"). */
static void cell(char *buf, size_t size, double s, int sign)
{
	char t[32];

	vp_format_time(t, sizeof(t), s * 1e9, 0);
	snprintf(buf, size, "%s%.31s", sign && s >= 0 ? "+" : "", t);
}

static void line(FILE *f, int nw, const char *name, const struct vp_time_value *x, const char *last,
		 int intervals)
{
	char b[40], v[40], d[40], lo[40], hi[40];

	cell(b, sizeof(b), x->base, 0);
	cell(v, sizeof(v), x->side, 0);
	cell(d, sizeof(d), x->delta, 1);
	fprintf(f, "#   %-*s  %10s  %10s  %10s  %10s", nw, name, b, v, d, last);
	if (intervals && !isnan(x->lo)) {
		cell(lo, sizeof(lo), x->lo, 1);
		cell(hi, sizeof(hi), x->hi, 1);
		fprintf(f, "  [%s, %s]", lo, hi);
	}
	fprintf(f, "\n");
}

int vp_cmp_write_time_table(FILE *f, const struct vp_comparison *c)
{
	struct vp_time_split s;
	struct vp_error err = { 0 };

	for (size_t side = 1; side < c->nsides; side++)
		if (vp_cmp_time_split(c, side, &s, &err) == 0)
			vp_time_write_table(f, &s, c->label[0], c->label[side]);
	return ferror(f) ? -EIO : 0;
}

/* A column head from a file's label, right-aligned over the numbers. */
static void head(FILE *f, const char *label)
{
	size_t n = vp_text_puts(NULL, label);

	fprintf(f, "  %*s", n < 10 ? (int)(10 - n) : 0, "");
	vp_text_fit(f, label, n < 10 ? (int)n : 10);
}

int vp_time_write_table(FILE *f, const struct vp_time_split *s, const char *base, const char *side)
{
	char last[32];
	int nw = 16, intervals = !isnan(s->wall.lo);

	for (int p = 0; p < VP_TIME_NPARTS; p++)
		if ((int)strlen(vp_time_part_name(s, p)) > nw)
			nw = (int)strlen(vp_time_part_name(s, p));
	fprintf(f, "# Where the time went: ");
	vp_text_puts(f, side);
	fprintf(f, " against ");
	vp_text_puts(f, base);
	fprintf(f, " (%zu run%s against %zu)\n#   %-*s", s->nruns[1], s->nruns[1] == 1 ? "" : "s",
		s->nruns[0], nw, "");
	head(f, base);
	head(f, side);
	fprintf(f, "  %10s  %10s%s\n", "difference", "of the gap",
		intervals ? "  95% interval of the difference" : "");
	if (s->ratio > 0)
		snprintf(last, sizeof(last), "%.2fx", s->ratio);
	else
		snprintf(last, sizeof(last), "-");
	line(f, nw, "wall time", &s->wall, last, intervals);
	for (int p = 0; p < VP_TIME_NPARTS; p++) {
		double share = vp_time_part_percent(s, p);
		if (!s->part[p].known)
			continue;
		if (isnan(share))
			snprintf(last, sizeof(last), "-");
		else
			snprintf(last, sizeof(last), "%.1f%%", share);
		line(f, nw, vp_time_part_name(s, p), &s->part[p], last, intervals);
	}
	if (!intervals)
		fprintf(f, "#   (a side has one run: no interval; run-to-run variation unmeasured)\n");
	fprintf(f, "#\n");
	return ferror(f) ? -EIO : 0;
}
