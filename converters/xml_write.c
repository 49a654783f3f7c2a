/* vmprof's XML tables and comparisons written through libxml2's writer. The
 * shapes are fixed by schema/vmprof-profile.xsd and
 * schema/vmprof-comparison.xsd (xml_read.c reads them back). Text that XML
 * cannot carry (control characters, invalid UTF-8) is written as U+FFFD. */
#include "formats.h"

#include <errno.h>
#include <inttypes.h>
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

static int xml_begin(struct xml_out *x, const char *root)
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
	xmlTextWriterWriteAttribute(x->w, BAD_CAST "version", BAD_CAST "1");
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

	if (xml_begin(&x, "vmprof-profile") < 0)
		return -ENOMEM;
	attr(x.w, "value", vp_value_self(o->value) == VP_VALUE_SAMPLES ? "samples" : "period");
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
		if (t->children)
			attr(x.w, "children", "true");
		for (size_t i = 0; i < rows; i++) {
			const struct vp_row *r = &t->rows[i];
			char d[2] = { dom(r->domain), 0 };
			xmlTextWriterStartElement(x.w, BAD_CAST "row");
			write_symbol(x.w, r->symbol, o->full_names);
			attr(x.w, "dso", r->dso ? r->dso : "");
			attr(x.w, "domain", d);
			attr_u64(x.w, "samples", r->samples);
			attr_u64(x.w, "period", r->period);
			attr_f(x.w, "share", "%.9f", vp_row_share(t, r, vp_value_self(o->value)));
			if (t->children) {
				attr_u64(x.w, "children-samples", r->children_samples);
				attr_u64(x.w, "children-period", r->children_period);
				attr_f(x.w, "children-share", "%.9f",
				       vp_row_share(t, r, vp_value_children(o->value)));
			}
			xmlTextWriterEndElement(x.w);
		}
		xmlTextWriterEndElement(x.w);
	}
	return xml_end(&x, f);
}

static int write_cmp(FILE *f, const struct vp_comparison *c, const struct vp_out_opts *o, int all)
{
	static const char *const side[2] = { "host", "guest" };
	struct xml_out x;
	char key[32] = "sym";

	if (xml_begin(&x, "vmprof-comparison") < 0)
		return -ENOMEM;
	if (c->key & VP_KEY_DSO)
		strcat(key, ",dso");
	if (c->key & VP_KEY_DOMAIN)
		strcat(key, ",domain");
	attr(x.w, "key", key);
	attr(x.w, "value", c->value == VP_VALUE_SAMPLES ? "samples" : "period");
	attr(x.w, "rank", vp_rank_name(c->rank));
	for (int s = 0; s < 2; s++) {
		xmlTextWriterStartElement(x.w, BAD_CAST "side");
		attr(x.w, "which", side[s]);
		attr(x.w, "label", c->label[s] ? c->label[s] : side[s]);
		write_meta(x.w, &c->meta[s]);
		xmlTextWriterEndElement(x.w);
	}
	for (size_t e = 0; e < c->nevents; e++) {
		const struct vp_cmp_event *ev = &c->events[e];
		size_t rows = all ? ev->total_rows : ev->nrows;
		if (o && o->event && strcmp(o->event, ev->name))
			continue;
		xmlTextWriterStartElement(x.w, BAD_CAST "event");
		attr(x.w, "name", ev->name);
		for (int s = 0; s < 2; s++) {
			char a[32];
			if (!ev->present[s])
				continue;
			snprintf(a, sizeof(a), "%s-name", side[s]);
			attr(x.w, a, ev->side_name[s] ? ev->side_name[s] : ev->name);
			snprintf(a, sizeof(a), "%s-samples", side[s]);
			attr_u64(x.w, a, ev->total_samples[s]);
			snprintf(a, sizeof(a), "%s-period", side[s]);
			attr_u64(x.w, a, ev->total_period[s]);
		}
		attr_u64(x.w, "rows", ev->total_rows);
		for (size_t i = 0; i < rows; i++) {
			const struct vp_cmp_row *r = &ev->rows[i];
			char d[2] = { dom(r->domain), 0 };
			enum vp_ratio_kind k;
			double ratio = vp_cmp_ratio(r, c->value, &k);
			xmlTextWriterStartElement(x.w, BAD_CAST "row");
			/* a saved comparison keeps names whole: the chart shortens them */
			write_symbol(x.w, r->symbol, all || (o && o->full_names));
			attr(x.w, "dso", r->dso ? r->dso : "");
			attr(x.w, "domain", d);
			attr_u64(x.w, "host-samples", r->samples[0]);
			attr_u64(x.w, "host-period", r->period[0]);
			attr_u64(x.w, "guest-samples", r->samples[1]);
			attr_u64(x.w, "guest-period", r->period[1]);
			if (k == VP_RATIO_BOTH)
				attr_f(x.w, "ratio", "%.6f", ratio);
			else
				attr(x.w, "only", k == VP_RATIO_ONLY_HOST ? "host" : "guest");
			attr_f(x.w, "delta", "%.6f", vp_cmp_delta_pp(ev, r, c->value));
			xmlTextWriterEndElement(x.w);
		}
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
