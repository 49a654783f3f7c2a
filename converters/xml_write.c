/* vmprof's XML tables and comparisons written through libxml2's writer. The
 * shapes are fixed by schema/vmprof-profile.xsd and
 * schema/vmprof-comparison.xsd (xml_read.c reads them back). Text that XML
 * cannot carry (control characters, invalid UTF-8) is written as U+FFFD. */
#include "formats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

/* s made fit for an XML 1.0 attribute: valid UTF-8, no C0 controls but tab,
 * newline and carriage return (which libxml2 escapes). Caller frees. */
static char *xml_safe(const char *s, size_t n)
{
	char *out = malloc(n * 3 + 1), *o = out;
	size_t i = 0;

	if (!out)
		return NULL;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		int len = xmlUTF8Size((const xmlChar *)s + i);
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			len = 0;
		} else if (c >= 0x80) {
			int cl = 0, cp = -1;
			if (len > 1 && (size_t)len <= n - i)
				cp = xmlGetUTF8Char((const xmlChar *)s + i, &len);
			/* libxml2 takes overlong forms (C0 9B) and surrogates; XML does not */
			if (cp >= 0 && !(len == 2 && cp < 0x80) && !(len == 3 && cp < 0x800) &&
			    !(len == 4 && cp < 0x10000) && !(cp >= 0xd800 && cp <= 0xdfff) &&
			    cp != 0xfffe && cp != 0xffff && cp <= 0x10ffff)
				cl = len;
			len = cl;
		} else {
			len = 1;
		}
		if (len <= 0) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
			continue;
		}
		memcpy(o, s + i, (size_t)len);
		o += len;
		i += (size_t)len;
	}
	*o = '\0';
	return out;
}

static int attr_n(xmlTextWriterPtr w, const char *name, const char *v, size_t n)
{
	char *safe = xml_safe(v, n);
	int r;

	if (!safe)
		return -1;
	r = xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST safe);
	free(safe);
	return r;
}

static int attr(xmlTextWriterPtr w, const char *name, const char *v)
{
	return v ? attr_n(w, name, v, strlen(v)) : 0;
}

static int attr_u64(xmlTextWriterPtr w, const char *name, uint64_t v)
{
	return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%" PRIu64, v);
}

static int attr_f(xmlTextWriterPtr w, const char *name, const char *fmt, double v)
{
	return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, fmt, v);
}

static void write_meta(xmlTextWriterPtr w, const struct vp_profile_meta *m)
{
	xmlTextWriterStartElement(w, BAD_CAST "meta");
	attr(w, "label", m->label);
	attr(w, "source", m->source);
	attr(w, "hostname", m->hostname);
	attr(w, "osrelease", m->osrelease);
	attr(w, "arch", m->arch);
	attr(w, "cpudesc", m->cpudesc);
	attr(w, "cmdline", m->cmdline);
	attr(w, "perf-version", m->perf_version);
	attr(w, "vmprof-version", m->vmprof_version);
	attr(w, "hypervisor", m->hypervisor);
	if (m->nr_cpus >= 0)
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "nr-cpus", "%d", m->nr_cpus);
	if (m->start_time >= 0)
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "start-time", "%" PRId64, m->start_time);
	if (m->duration >= 0)
		attr_f(w, "duration", "%.6f", m->duration);
	if (m->cpu_time >= 0)
		attr_f(w, "cpu-time", "%.6f", m->cpu_time);
	if (m->steal_time >= 0)
		attr_f(w, "steal-time", "%.6f", m->steal_time);
	attr_u64(w, "lost-samples", m->lost_samples);
	xmlTextWriterEndElement(w);
}

static void write_symbol(xmlTextWriterPtr w, const char *sym, int full)
{
	if (sym)
		attr_n(w, "symbol", sym, full ? strlen(sym) : vp_symbol_display_len(sym));
}

static char dom(char d)
{
	return d ? d : '.';
}

/* Run the writer into memory, then copy to f: libxml2 reports its own
 * failures, stdio reports the disk's. */
struct xml_out {
	xmlBufferPtr buf;
	xmlTextWriterPtr w;
};

static int xml_begin(struct xml_out *x, const char *root, const char *version)
{
	x->buf = xmlBufferCreate();
	x->w = x->buf ? xmlNewTextWriterMemory(x->buf, 0) : NULL;
	if (!x->w) {
		xmlBufferFree(x->buf);
		return -ENOMEM;
	}
	xmlTextWriterSetIndent(x->w, 1);
	xmlTextWriterSetIndentString(x->w, BAD_CAST "  ");
	xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL);
	xmlTextWriterStartElement(x->w, BAD_CAST root);
	xmlTextWriterWriteAttribute(x->w, BAD_CAST "version", BAD_CAST version);
	return 0;
}

static int xml_end(struct xml_out *x, FILE *f)
{
	int r = xmlTextWriterEndDocument(x->w);

	size_t len = r >= 0 ? (size_t)xmlBufferLength(x->buf) : 0;

	xmlFreeTextWriter(x->w);
	errno = 0;
	/* one large write bypasses the stream's buffer: its errno is the cause */
	if (r >= 0 && fwrite(xmlBufferContent(x->buf), 1, len, f) != len)
		r = errno ? -errno : -EIO;
	else if (r < 0)
		r = -ENOMEM;
	xmlBufferFree(x->buf);
	return r < 0 ? r : ferror(f) ? -EIO : 0;
}

int vp_profile_write_xml(FILE *f, const struct vp_profile *p, const struct vp_out_opts *o)
{
	struct xml_out x;

	if (xml_begin(&x, "vmprof-profile", "1") < 0)
		return -ENOMEM;
	attr(x.w, "value", o->value == VP_VALUE_SAMPLES ? "samples" : "period");
	write_meta(x.w, &p->meta);
	for (size_t e = 0; e < p->ntables; e++) {
		const struct vp_event_table *t = p->tables[e];
		size_t rows = o->top && o->top < t->nrows ? o->top : t->nrows;
		if (o->event && strcmp(o->event, t->name))
			continue;
		xmlTextWriterStartElement(x.w, BAD_CAST "event");
		attr(x.w, "name", t->name);
		attr_u64(x.w, "samples", t->total_samples);
		attr_u64(x.w, "period", t->total_period);
		attr_u64(x.w, "lost", t->lost_samples);
		attr(x.w, "weight", t->weight);
		attr(x.w, "group", t->group);
		for (size_t i = 0; i < rows; i++) {
			const struct vp_row *r = &t->rows[i];
			char d[2] = { dom(r->domain), 0 };
			xmlTextWriterStartElement(x.w, BAD_CAST "row");
			write_symbol(x.w, r->symbol, o->full_names);
			attr(x.w, "dso", r->dso ? r->dso : "");
			attr(x.w, "domain", d);
			attr_u64(x.w, "samples", r->samples);
			attr_u64(x.w, "period", r->period);
			attr_f(x.w, "share", "%.9f", vp_row_share(t, r, o->value));
			xmlTextWriterEndElement(x.w);
		}
		xmlTextWriterEndElement(x.w);
	}
	return xml_end(&x, f);
}

/* n numbers as an XML list ("3 0 7"). */
static int attr_list(xmlTextWriterPtr w, const char *name, const uint64_t *v, size_t n)
{
	char *buf = malloc(n * 21 + 1), *p = buf;
	int r;

	if (!buf)
		return -1;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, i ? " %" PRIu64 : "%" PRIu64, v[i]);
	r = xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST buf);
	free(buf);
	return r;
}

static const char *side_role(const struct vp_comparison *c, size_t s)
{
	if (c->nsides == 2)
		return s ? "guest" : "host";
	return s ? "side" : "base";
}

static void write_sides(xmlTextWriterPtr w, const struct vp_comparison *c)
{
	for (size_t s = 0; s < c->nsides; s++) {
		xmlTextWriterStartElement(w, BAD_CAST "side");
		attr(w, "which", side_role(c, s));
		attr_u64(w, "index", s);
		attr(w, "label", c->label[s] ? c->label[s] : side_role(c, s));
		attr_u64(w, "runs", vp_cmp_side_runs(c, s));
		for (size_t k = c->first_run[s]; k < c->first_run[s + 1]; k++) {
			xmlTextWriterStartElement(w, BAD_CAST "run");
			attr_u64(w, "index", k);
			write_meta(w, &c->run_meta[k]);
			xmlTextWriterEndElement(w);
		}
		xmlTextWriterEndElement(w);
	}
}

/* An event's totals: per side (sums over its runs) and per run. */
static void write_totals(xmlTextWriterPtr w, const struct vp_comparison *c, const struct vp_cmp_event *ev)
{
	for (size_t s = 0; s < c->nsides; s++) {
		if (!ev->present[s])
			continue;
		xmlTextWriterStartElement(w, BAD_CAST "side");
		attr_u64(w, "index", s);
		attr(w, "name", ev->side_name[s] ? ev->side_name[s] : ev->name);
		attr_u64(w, "runs", ev->nruns[s]);
		attr_u64(w, "samples", ev->total_samples[s]);
		attr_u64(w, "period", ev->total_period[s]);
		xmlTextWriterEndElement(w);
	}
	for (size_t k = 0; k < c->nruns; k++) {
		if (!ev->run_present[k])
			continue;
		xmlTextWriterStartElement(w, BAD_CAST "run");
		attr_u64(w, "index", k);
		attr_u64(w, "samples", ev->run_total_samples[k]);
		attr_u64(w, "period", ev->run_total_period[k]);
		xmlTextWriterEndElement(w);
	}
}

static void write_ratio(xmlTextWriterPtr w, const struct vp_comparison *c, const struct vp_cmp_event *ev,
			const struct vp_cmp_row *r, size_t s)
{
	enum vp_ratio_kind k;
	double ratio = vp_cmp_ratio(ev, r, s, c->value, &k);

	if (k == VP_RATIO_BOTH)
		attr_f(w, "ratio", "%.6f", ratio);
	else if (c->nsides == 2)
		attr(w, "only", k == VP_RATIO_ONLY_HOST ? "host" : "guest");
	else
		attr(w, "only", k == VP_RATIO_ONLY_HOST ? "base" : "side");
	attr_f(w, "delta", "%.6f", vp_cmp_delta_pp(ev, r, s, c->value));
}

/* A statistic in full; XML Schema spells infinity INF. */
static int attr_stat(xmlTextWriterPtr w, const char *name, double v)
{
	if (isinf(v))
		return attr(w, name, v > 0 ? "INF" : "-INF");
	return attr_f(w, name, "%.12g", v);
}

/* Side s's statistics: the four of CSV's two-side columns, or (all) every one. */
static void write_stats(xmlTextWriterPtr w, const struct vp_cmp_event *ev, const struct vp_cmp_row *r,
			size_t s, int all)
{
	const struct vp_stat_result *st = vp_cmp_stat(ev, r, s);

	if (!st)
		return;
	attr_stat(w, "ratio-low", st->ratio_lo);
	attr_stat(w, "ratio-high", st->ratio_hi);
	if (all) {
		attr_stat(w, "delta-low", st->delta_lo);
		attr_stat(w, "delta-high", st->delta_hi);
		attr_stat(w, "p-value", st->p);
	}
	attr_stat(w, "q-value", st->q);
	attr(w, "significant", st->significant ? "1" : "0");
	if (all)
		attr(w, "basis", st->basis == VP_STAT_RUNS ? "runs" : "sampling");
}

static void write_row(xmlTextWriterPtr w, const struct vp_comparison *c, const struct vp_cmp_event *ev,
		      const struct vp_cmp_row *r, int full)
{
	char d[2] = { dom(r->domain), 0 };

	xmlTextWriterStartElement(w, BAD_CAST "row");
	write_symbol(w, r->symbol, full);
	attr(w, "dso", r->dso ? r->dso : "");
	attr(w, "domain", d);
	if (c->nsides == 2) {	/* the two sides' columns as before runs */
		attr_u64(w, "host-samples", r->samples[0]);
		attr_u64(w, "host-period", r->period[0]);
		attr_u64(w, "guest-samples", r->samples[1]);
		attr_u64(w, "guest-period", r->period[1]);
		write_ratio(w, c, ev, r, VP_GUEST);
		write_stats(w, ev, r, VP_GUEST, 0);
	}
	attr_list(w, "run-samples", r->run_samples, c->nruns);
	attr_list(w, "run-period", r->run_period, c->nruns);
	for (size_t s = 0; s < c->nsides; s++) {
		xmlTextWriterStartElement(w, BAD_CAST "side");
		attr_u64(w, "index", s);
		attr_u64(w, "samples", r->samples[s]);
		attr_u64(w, "period", r->period[s]);
		attr_f(w, "share", "%.9f", vp_cmp_share(ev, r, s, c->value));
		if (s) {
			write_ratio(w, c, ev, r, s);
			write_stats(w, ev, r, s, 1);
		}
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
}

static int write_cmp(FILE *f, const struct vp_comparison *c, const struct vp_out_opts *o, int all)
{
	struct xml_out x;
	char key[32] = "sym";

	if (xml_begin(&x, "vmprof-comparison", "2") < 0)
		return -ENOMEM;
	if (c->key & VP_KEY_DSO)
		strcat(key, ",dso");
	if (c->key & VP_KEY_DOMAIN)
		strcat(key, ",domain");
	attr(x.w, "key", key);
	attr(x.w, "value", c->value == VP_VALUE_SAMPLES ? "samples" : "period");
	attr(x.w, "rank", vp_rank_name(c->rank));
	attr_f(x.w, "alpha", "%.12g", c->alpha);
	write_sides(x.w, c);
	for (size_t e = 0; e < c->nevents; e++) {
		const struct vp_cmp_event *ev = &c->events[e];
		size_t rows = all ? ev->total_rows : ev->nrows;
		if (o && o->event && strcmp(o->event, ev->name))
			continue;
		xmlTextWriterStartElement(x.w, BAD_CAST "event");
		attr(x.w, "name", ev->name);
		if (c->nsides == 2) {	/* the two sides' totals as before runs */
			for (size_t s = 0; s < 2; s++) {
				char a[32];
				const char *role = side_role(c, s);
				if (!ev->present[s])
					continue;
				snprintf(a, sizeof(a), "%s-name", role);
				attr(x.w, a, ev->side_name[s] ? ev->side_name[s] : ev->name);
				snprintf(a, sizeof(a), "%s-samples", role);
				attr_u64(x.w, a, ev->total_samples[s]);
				snprintf(a, sizeof(a), "%s-period", role);
				attr_u64(x.w, a, ev->total_period[s]);
			}
		}
		attr_u64(x.w, "rows", ev->total_rows);
		if (ev->noise_floor >= 0)
			attr_u64(x.w, "noise-floor", (uint64_t)ev->noise_floor);
		write_totals(x.w, c, ev);
		for (size_t i = 0; i < rows; i++)
			/* a saved comparison keeps names whole: the chart shortens them */
			write_row(x.w, c, ev, &ev->rows[i], all || (o && o->full_names));
		xmlTextWriterEndElement(x.w);
	}
	return xml_end(&x, f);
}

int vp_cmp_write_xml(FILE *f, const struct vp_comparison *c, const struct vp_out_opts *o)
{
	return write_cmp(f, c, o, 0);
}

int vp_cmp_save_xml(FILE *f, const struct vp_comparison *c)
{
	return write_cmp(f, c, NULL, 1);
}
