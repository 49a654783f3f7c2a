/* What every chart says on top: the event and the workload in the title; in
 * the subtitle how much of each run the chart shows, how it is ranked, and
 * the machines (hypervisor, steal time) when the recordings know them. */
#include "render_internal.h"

#include <stdio.h>
#include <string.h>

const char *vp_value_name(const struct vp_comparison *cmp)
{
	return cmp->value == VP_VALUE_SAMPLES ? "samples" : "period";
}

void vp_chart_title(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		    const struct vp_chart_opts *o, char *buf, size_t size)
{
	const char *w0 = vp_meta_workload(&cmp->meta[0]), *w1 = vp_meta_workload(&cmp->meta[1]);
	const char *w = w0 && w1 && strcmp(w0, w1) ? NULL : w0 ? w0 : w1;

	if (o->title)
		snprintf(buf, size, "%s", o->title);
	else if (w)
		snprintf(buf, size, "%s of %s: %s vs %s", e->name, w, cmp->label[0], cmp->label[1]);
	else
		snprintf(buf, size, "%s: %s vs %s", e->name, cmp->label[0], cmp->label[1]);
}

double vp_draw_heading(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	char buf[1024], sub[1024], fit[1024];
	double cover[2] = { 0, 0 }, y = 48;
	size_t n = 0;

	vp_chart_title(cmp, e, o, buf, sizeof(buf));
	vp_font(cr, 17, 1);
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_fit(cr, buf, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, 28, 0);

	/* What is shown of what: top N of M, and how much of each run that is. */
	for (size_t i = 0; i < e->nrows; i++)
		for (int s = 0; s < 2; s++)
			cover[s] += vp_cmp_share(e, &e->rows[i], s, cmp->value);
	n += (size_t)snprintf(sub + n, sizeof(sub) - n, "top %zu of %zu functions (%.0f%% of %s, %.0f%% of %s), "
			      "ranked by %s", e->nrows, e->total_rows, 100 * cover[0], cmp->label[0],
			      100 * cover[1], cmp->label[1], vp_rank_name(cmp->rank));
	/* labels come from the files: the first part may already fill sub */
	if (n < sizeof(sub) && e->side_name[0] && e->side_name[1] &&
	    strcmp(e->side_name[0], e->side_name[1]))
		n += (size_t)snprintf(sub + n, sizeof(sub) - n, "; events differ: %s %s, %s %s",
				      cmp->label[0], e->side_name[0], cmp->label[1], e->side_name[1]);
	/* the charts draw two sides so far: say which when there are more */
	if (n < sizeof(sub) && cmp->nsides > 2)
		snprintf(sub + n, sizeof(sub) - n, "; showing the first 2 of %zu sides", cmp->nsides);
	vp_font(cr, 11, 0);
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_fit(cr, sub, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, y, 0);

	/* The machines, when known: the hypervisor and what the host took away.
	 * One line; when both sides do not fit, each is cut within its half so
	 * that neither loses its label. */
	char side[2][512];
	int nside = 0;
	for (int s = 0; s < 2; s++) {
		const struct vp_profile_meta *m = &cmp->meta[s];
		int hv = m->hypervisor && *m->hypervisor, st = m->steal_time >= 0;
		char *p = side[s];
		size_t k = 0, cap = sizeof(side[s]);
		p[0] = '\0';
		if (!hv && !st)
			continue;
		k += (size_t)snprintf(p + k, cap - k, "%s:", cmp->label[s]);
		if (hv && k < cap)
			k += (size_t)snprintf(p + k, cap - k, " hypervisor %s%s", m->hypervisor, st ? "," : "");
		if (st && k < cap) {
			k += (size_t)snprintf(p + k, cap - k, " steal time %.2f s", m->steal_time);
			if (m->cpu_time > 0 && m->steal_time > 0 && k < cap)
				snprintf(p + k, cap - k, " (%.1f%% of its CPU time)",
					 100 * m->steal_time / m->cpu_time);
		}
		nside++;
	}
	if (nside) {
		double avail = c->w - 32;
		char line[sizeof(side) + 8];
		snprintf(line, sizeof(line), "%s%s%s", side[0], side[0][0] && side[1][0] ? "; " : "", side[1]);
		if (nside == 2 && vp_text_width(cr, line) > avail) {
			double half = (avail - vp_text_width(cr, "; ")) / 2;
			char a[512], b[512];
			vp_fit(cr, side[0], half, a, sizeof(a));
			vp_fit(cr, side[1], half, b, sizeof(b));
			snprintf(line, sizeof(line), "%s; %s", a, b);
		}
		y += 16;
		vp_fit(cr, line, avail, fit, sizeof(fit));
		vp_text(c, fit, 16, y, 0);
	}
	return y + 24;
}
