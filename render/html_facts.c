/* The HTML report's first section: the sides' facts (what report --header
 * knows of each side's recordings: machine, kernel, hypervisor, CPUs,
 * command, runs, duration, steal, events) in one table, a column per side. */
#include "html_internal.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef void (*fact_fn)(xmlNodePtr td, const struct vp_comparison *c, size_t side);

static void unknown(xmlNodePtr td)
{
	vp_h_text(td, "span", "unknown", "unknown");
}

static void str_fact(xmlNodePtr td, const char *s)
{
	if (s && *s)
		vp_h_add(td, s);
	else
		unknown(td);
}

static void secs_fact(xmlNodePtr td, double v)
{
	if (v >= 0)
		vp_h_addf(td, "%.3f s", v);
	else
		unknown(td);
}

static void f_kernel(xmlNodePtr td, const struct vp_comparison *c, size_t s)
{
	const struct vp_profile_meta *m = vp_hm_meta(c, s);

	str_fact(td, m->osrelease);
	if (m->arch && *m->arch)
		vp_h_addf(td, " (%s)", m->arch);
}

static void f_cpus(xmlNodePtr td, const struct vp_comparison *c, size_t s)
{
	const struct vp_profile_meta *m = vp_hm_meta(c, s);

	if (m->nr_cpus >= 0)
		vp_h_addf(td, "%d online", m->nr_cpus);
	else
		unknown(td);
	if (m->cpudesc && *m->cpudesc && strcmp(m->cpudesc, "unknown"))
		vp_h_addf(td, ", %s", m->cpudesc);
}

static void f_cmd(xmlNodePtr td, const struct vp_comparison *c, size_t s)
{
	const char *cmd = vp_hm_meta(c, s)->cmdline;

	if (cmd && *cmd)
		vp_h_text(td, "code", NULL, cmd);
	else
		unknown(td);
}

static void f_when(xmlNodePtr td, const struct vp_comparison *c, size_t s)
{
	const struct vp_profile_meta *m = vp_hm_meta(c, s);
	char b[64];
	struct tm tm;
	time_t t = (time_t)m->start_time;

	/* UTC: the same page wherever it is written */
	if (m->start_time >= 0 && gmtime_r(&t, &tm) && strftime(b, sizeof(b), "%Y-%m-%d %H:%M:%S UTC", &tm))
		vp_h_add(td, b);
	else
		unknown(td);
}

static void f_runs(xmlNodePtr td, const struct vp_comparison *c, size_t s)
{
	vp_h_addf(td, "%zu", vp_hm_runs(c, s));
}

static void f_steal(xmlNodePtr td, const struct vp_comparison *c, size_t s)
{
	const struct vp_profile_meta *m = vp_hm_meta(c, s);

	secs_fact(td, m->steal_time);
	if (m->steal_time > 0 && m->cpu_time > 0)
		vp_h_addf(td, " (%.1f%% of its CPU time)", 100 * m->steal_time / m->cpu_time);
}

static void f_lost(xmlNodePtr td, const struct vp_comparison *c, size_t s)
{
	vp_h_addf(td, "%" PRIu64, vp_hm_meta(c, s)->lost_samples);
}

static void f_events(xmlNodePtr td, const struct vp_comparison *c, size_t s)
{
	xmlNodePtr ul = vp_h_el(td, "ul", "events");

	for (size_t i = 0; i < c->nevents; i++) {
		const struct vp_cmp_event *e = &c->events[i];
		const char *name = vp_hm_event_name(e, s);
		if (name)
			vp_h_textf(ul, "li", NULL, "%s: %" PRIu64 " samples", name, vp_hm_total_samples(e, s));
		else
			vp_h_textf(ul, "li", "unknown", "%s: not recorded", e->name);
	}
}

/* A fact is a string or a number of seconds of the side's metadata, or
 * drawn from it by fn. */
enum { F_STR, F_SECS, F_FN };
#define STR(name, field) { name, F_STR, offsetof(struct vp_profile_meta, field), NULL }
#define SECS(name, field) { name, F_SECS, offsetof(struct vp_profile_meta, field), NULL }
#define FN(name, fn) { name, F_FN, 0, fn }
static const struct fact {
	const char *name;
	int kind;
	size_t off;
	fact_fn fn;
} facts[] = {
	STR("Input", source), STR("Host name", hostname), FN("Kernel", f_kernel),
	STR("Hypervisor", hypervisor), FN("CPUs", f_cpus), FN("Command", f_cmd),
	STR("Recorded by", perf_version), FN("Recorded at", f_when), FN("Runs", f_runs),
	SECS("Duration (wall)", duration), SECS("CPU time of the command", cpu_time),
	FN("Steal time", f_steal), FN("Lost samples", f_lost), FN("Events", f_events),
};

static void fact(xmlNodePtr td, const struct fact *f, const struct vp_comparison *c, size_t s)
{
	const char *m = (const char *)vp_hm_meta(c, s);

	if (f->kind == F_STR)
		str_fact(td, *(const char *const *)(m + f->off));
	else if (f->kind == F_SECS)
		secs_fact(td, *(const double *)(m + f->off));
	else
		f->fn(td, c, s);
}

void vp_html_facts(xmlNodePtr main, const struct vp_comparison *c)
{
	xmlNodePtr sec = vp_h_el(main, "section", "facts"), table, tr;
	size_t k = vp_hm_nsides(c);

	vp_h_attr(sec, "id", "sides");
	vp_h_attr(sec, "aria-labelledby", "sides-h");
	vp_h_attr(vp_h_text(sec, "h2", NULL, "The sides"), "id", "sides-h");
	table = vp_h_el(vp_h_scroll(sec, "facts of each side, scrolls sideways"), "table", "facts");
	vp_h_textf(table, "caption", NULL, "What each side's recording says of itself; %s is the baseline.",
		   vp_hm_label(c, 0));
	tr = vp_h_el(vp_h_el(table, "thead", NULL), "tr", NULL);
	vp_h_attr(vp_h_text(tr, "th", NULL, "Fact"), "scope", "col");
	for (size_t s = 0; s < k; s++) {
		xmlNodePtr th = vp_h_el(tr, "th", NULL);
		vp_h_attr(th, "scope", "col");
		vp_h_attrf(vp_h_el(th, "span", "swatch"), "data-side", "%zu", s);
		vp_h_add(th, vp_hm_label(c, s));
	}
	xmlNodePtr tbody = vp_h_el(table, "tbody", NULL);
	for (size_t f = 0; f < sizeof(facts) / sizeof(*facts); f++) {
		tr = vp_h_el(tbody, "tr", NULL);
		vp_h_attr(vp_h_text(tr, "th", NULL, facts[f].name), "scope", "row");
		for (size_t s = 0; s < k; s++)
			fact(vp_h_el(tr, "td", NULL), &facts[f], c, s);
	}
}
