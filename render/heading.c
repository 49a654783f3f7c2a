/* What every chart says on top: the event, the workload and the sides in the
 * title; in the subtitle how much of each side the chart shows and how it is
 * ranked; a line on the statistics (runs per side, where the intervals come
 * from, the A/A noise floor); the machines (hypervisor, steal time) when the
 * recordings know them. */
#include "render_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *vp_value_name(const struct vp_comparison *cmp)
{
	return cmp->value == VP_VALUE_SAMPLES ? "samples" : "period";
}

const char *vp_event_value_name(const struct vp_comparison *cmp, const struct vp_cmp_event *e)
{
	return vp_value_is_time(cmp, e) ? "time" : vp_value_name(cmp);
}

const char *vp_chart_workload(const struct vp_comparison *cmp)
{
	const char *w = NULL;

	for (size_t s = 0; s < cmp->nsides; s++) {
		const char *ws = vp_meta_workload(&cmp->meta[s]);
		if (ws && w && strcmp(ws, w))
			return NULL;	/* the sides ran different commands */
		w = w ? w : ws;
	}
	return w;
}

void vp_chart_title(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		    const struct vp_chart_opts *o, char *buf, size_t size)
{
	const char *w = vp_chart_workload(cmp);
	size_t n = 0;

	if (o->title) {
		snprintf(buf, size, "%s", o->title);
		return;
	}
	n = (size_t)snprintf(buf, size, w ? "%s of %s: " : "%s: ", e->name, w);
	for (size_t s = 0; s < cmp->nsides && n < size; s++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", s ? " vs " : "", cmp->label[s]);
}

static int side_has_machine(const struct vp_profile_meta *m)
{
	return (m->hypervisor && *m->hypervisor) || m->steal_time >= 0;
}

static int has_machines(const struct vp_comparison *cmp)
{
	for (size_t s = 0; s < cmp->nsides; s++)
		if (side_has_machine(&cmp->meta[s]))
			return 1;
	return 0;
}

double vp_heading_bottom(const struct vp_comparison *cmp)
{
	return 64 + (has_machines(cmp) ? 16 : 0) + 24;
}

/* "top 10 of 243 functions (82% of host, 78% of guest), ranked by max" and,
 * when the sides' events have different names, which each is. */
static void subtitle(const struct vp_comparison *cmp, const struct vp_cmp_event *e, char *sub,
		     size_t size)
{
	size_t n = (size_t)snprintf(sub, size, "top %zu of %zu functions (", e->nrows, e->total_rows);
	int differ = 0;

	for (size_t s = 0; s < cmp->nsides && n < size; s++) {
		double cover = 0;
		for (size_t i = 0; i < e->nrows; i++)
			cover += vp_cmp_share(e, &e->rows[i], s, cmp->value);
		n += (size_t)snprintf(sub + n, size - n, "%s%.0f%% of %s", s ? ", " : "", 100 * cover,
				      cmp->label[s]);
		differ |= e->side_name[s] && e->side_name[0] && strcmp(e->side_name[s], e->side_name[0]);
	}
	if (n < size)
		n += (size_t)snprintf(sub + n, size - n, "), ranked by %s", vp_rank_name(cmp->rank));
	/* labels come from the files: the first part may already fill sub */
	for (size_t s = 0; differ && s < cmp->nsides && n < size; s++)
		if (e->side_name[s])
			n += (size_t)snprintf(sub + n, size - n, "%s %s %s", s ? "," : "; events differ:",
					      cmp->label[s], e->side_name[s]);
}

/* "5 runs per side; 95% intervals across runs; A/A noise floor: 0 rows
 * flagged (host's runs split in halves)". A comparison with a side of one
 * run has intervals from sampling noise alone, and the line says so. */
static void stats_line(const struct vp_comparison *cmp, const struct vp_cmp_event *e, char *out,
		       size_t size)
{
	size_t n = 0, single = 0, same = 1;

	for (size_t s = 0; s < cmp->nsides; s++) {
		single += e->present[s] && e->nruns[s] == 1;
		same &= e->nruns[s] == e->nruns[0];
	}
	if (same && e->nruns[0] == 1)
		n = (size_t)snprintf(out, size, "one run per side");
	else if (same)
		n = (size_t)snprintf(out, size, "%zu runs per side", e->nruns[0]);
	else
		for (size_t s = 0; s < cmp->nsides && n < size; s++)
			n += (size_t)snprintf(out + n, size - n, "%s%s %zu", s ? ", " : "runs per side: ",
					      cmp->label[s], e->nruns[s]);
	if (n < size)
		n += (size_t)snprintf(out + n, size - n, "; %g%% intervals ", 100 * (1 - cmp->alpha));
	if (n < size && !single) {
		n += (size_t)snprintf(out + n, size - n, "across runs");
	} else if (n < size && (e->nruns[0] == 1 || single == cmp->nsides)) {
		n += (size_t)snprintf(out + n, size - n, "from sampling noise alone (run-to-run "
				      "variation unmeasured)");
	} else if (n < size) {
		n += (size_t)snprintf(out + n, size - n, "across runs; from sampling noise alone for");
		for (size_t s = 1, k = 0; s < cmp->nsides && n < size; s++)
			if (e->present[s] && e->nruns[s] == 1)
				n += (size_t)snprintf(out + n, size - n, "%s %s", k++ ? "," : "", cmp->label[s]);
		if (n < size)
			n += (size_t)snprintf(out + n, size - n, " (one run)");
	}
	if (n < size && e->noise_floor >= 0)
		snprintf(out + n, size - n, "; A/A noise floor: %ld row%s flagged (%s's runs split in halves)",
			 e->noise_floor, e->noise_floor == 1 ? "" : "s", cmp->label[0]);
}

/* The machines, when known: the hypervisor and what the host took away. One
 * line; when the sides do not fit, each is cut within its share of the line
 * so that none loses its label. */
static void machines_line(struct canvas *c, const struct vp_comparison *cmp, double y)
{
	cairo_t *cr = c->cr;
	size_t K = cmp->nsides, nside = 0, cap = 512;
	char *side = calloc(K, cap), *line = malloc(K * (cap + 2) + 1), *fit = malloc(K * (cap + 2) + 1);
	double avail = c->w - 32;

	if (!side || !line || !fit)
		goto out;
	for (size_t s = 0; s < K; s++) {
		const struct vp_profile_meta *m = &cmp->meta[s];
		int hv = m->hypervisor && *m->hypervisor, st = m->steal_time >= 0;
		char *p = side + s * cap;
		size_t k = 0;

		if (!side_has_machine(m))
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
	for (int cut = 0; cut < 2; cut++) {
		double part = (avail - (double)(nside - 1) * vp_text_width(cr, "; ")) / (double)nside;
		size_t n = 0;

		line[0] = '\0';
		for (size_t s = 0; s < K; s++) {
			char *p = side + s * cap;
			if (!*p)
				continue;
			if (cut)
				vp_fit(cr, p, part, fit, cap);
			n += (size_t)sprintf(line + n, "%s%s", n ? "; " : "", cut ? fit : p);
		}
		if (nside < 2 || vp_text_width(cr, line) <= avail)
			break;
	}
	vp_fit(cr, line, avail, fit, K * (cap + 2) + 1);
	vp_text(c, fit, 16, y, 0);
out:
	free(side);
	free(line);
	free(fit);
}

double vp_draw_heading(struct canvas *c, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		       const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	char buf[1024], fit[1024];
	double y = 64;

	vp_chart_title(cmp, e, o, buf, sizeof(buf));
	vp_font(cr, 17, 1);
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_fit(cr, buf, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, 28, 0);

	vp_font(cr, 11, 0);
	subtitle(cmp, e, buf, sizeof(buf));
	vp_fit(cr, buf, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, 48, 0);
	stats_line(cmp, e, buf, sizeof(buf));
	vp_fit(cr, buf, c->w - 32, fit, sizeof(fit));
	vp_text(c, fit, 16, y, 0);
	if (has_machines(cmp)) {
		y += 16;
		machines_line(c, cmp, y);
	}
	return y + 24;
}
