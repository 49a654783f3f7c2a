/* vmprof's XML tables and comparisons through libxml2. The shapes are fixed by
 * schema/vmprof-profile.xsd and schema/vmprof-comparison.xsd. Text that XML
 * cannot carry (control characters, invalid UTF-8) is written as U+FFFD. */
#include "formats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

/* ---- writing ---- */

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

/* ---- reading ---- */

struct xin {
	const char *path;
	struct vp_error *err;
};

static int bad(struct xin *x, xmlNodePtr n, const char *what, const char *name)
{
	return vp_errorf(x->err, -EINVAL, "'%s': line %ld: %s%s%s%s", x->path, n ? xmlGetLineNo(n) : 0,
			 what, name ? " '" : "", name ? name : "", name ? "'" : "");
}

/* The attribute's value (caller xmlFree()s), or NULL. */
static char *get(xmlNodePtr n, const char *name)
{
	return (char *)xmlGetProp(n, BAD_CAST name);
}

static int get_u64(struct xin *x, xmlNodePtr n, const char *name, uint64_t *v, int required)
{
	char *s = get(n, name), *end;
	int r = 0;

	if (!s) {
		*v = 0;
		return required ? bad(x, n, "missing attribute", name) : 0;
	}
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (!*s || *s == '-' || errno || *end)
		r = bad(x, n, "not a count in attribute", name);
	xmlFree(s);
	return r;
}

static int get_double(struct xin *x, xmlNodePtr n, const char *name, double *v)
{
	char *s = get(n, name), *end;
	int r = 0;

	if (!s)
		return 0;
	*v = strtod(s, &end);
	if (!*s || *end)
		r = bad(x, n, "not a number in attribute", name);
	xmlFree(s);
	return r;
}

static const char *get_str(struct vp_strpool *pool, xmlNodePtr n, const char *name, int *oom)
{
	char *s = get(n, name);
	const char *r = NULL;

	if (s) {
		r = vp_strpool_intern(pool, s);
		if (!r)
			*oom = 1;
		xmlFree(s);
	}
	return r;
}

static int get_domain(struct xin *x, xmlNodePtr n, char *d)
{
	char *s = get(n, "domain");
	int r = 0;

	if (!s)
		return bad(x, n, "missing attribute", "domain");
	if (strlen(s) != 1 || !vp_domain_valid(s[0]))
		r = bad(x, n, "not a domain (one of . k u g H):", s);
	else
		*d = s[0];
	xmlFree(s);
	return r;
}

static int is(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, BAD_CAST name);
}

static int read_meta(struct xin *x, xmlNodePtr n, struct vp_profile_meta *m, struct vp_strpool *pool)
{
	int oom = 0;
	double d;
	uint64_t u;

	vp_profile_meta_init(m);
	m->label = get_str(pool, n, "label", &oom);
	m->source = get_str(pool, n, "source", &oom);
	m->hostname = get_str(pool, n, "hostname", &oom);
	m->osrelease = get_str(pool, n, "osrelease", &oom);
	m->arch = get_str(pool, n, "arch", &oom);
	m->cpudesc = get_str(pool, n, "cpudesc", &oom);
	m->cmdline = get_str(pool, n, "cmdline", &oom);
	m->perf_version = get_str(pool, n, "perf-version", &oom);
	m->vmprof_version = get_str(pool, n, "vmprof-version", &oom);
	m->hypervisor = get_str(pool, n, "hypervisor", &oom);
	if (oom)
		return vp_errorf(x->err, -ENOMEM, "out of memory");
	if (get_u64(x, n, "nr-cpus", &u, 0) < 0)
		return -EINVAL;
	m->nr_cpus = u > 1u << 20 ? -1 : xmlHasProp(n, BAD_CAST "nr-cpus") ? (int)u : -1;
	if (get_u64(x, n, "start-time", &u, 0) < 0)
		return -EINVAL;
	m->start_time = xmlHasProp(n, BAD_CAST "start-time") && u < INT64_MAX ? (int64_t)u : -1;
	d = -1;
	if (get_double(x, n, "duration", &d) < 0)
		return -EINVAL;
	m->duration = d;
	d = -1;
	if (get_double(x, n, "cpu-time", &d) < 0)
		return -EINVAL;
	m->cpu_time = d;
	d = -1;
	if (get_double(x, n, "steal-time", &d) < 0)
		return -EINVAL;
	m->steal_time = d;
	return get_u64(x, n, "lost-samples", &m->lost_samples, 0);
}

static xmlDocPtr parse(struct xin *x, const char *data, size_t len, const char *root)
{
	xmlDocPtr doc;
	xmlNodePtr top;

	if (len > INT32_MAX) {
		vp_errorf(x->err, -EFBIG, "'%s': too large for an XML table", x->path);
		return NULL;
	}
	/* No network, no entity expansion into the tree, no DTD loading. */
	doc = xmlReadMemory(data, (int)len, x->path, NULL,
			    XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING);
	if (!doc) {
		const xmlError *e = xmlGetLastError();
		vp_errorf(x->err, -EINVAL, "'%s': line %d: not well-formed XML: %s", x->path,
			  e ? e->line : 0, e && e->message ? e->message : "parse error");
		/* libxml2's messages end in a newline */
		size_t n = strlen(x->err->msg);
		if (n && x->err->msg[n - 1] == '\n')
			x->err->msg[n - 1] = '\0';
		return NULL;
	}
	top = xmlDocGetRootElement(doc);
	if (!top || !is(top, root)) {
		bad(x, top, "the root element is not", root);
		xmlFreeDoc(doc);
		return NULL;
	}
	return doc;
}

int vp_profile_read_xml(const char *path, const char *data, size_t len, struct vp_profile **out,
			struct vp_error *err)
{
	struct xin x = { path, err };
	struct vp_profile *p = NULL;
	xmlDocPtr doc = parse(&x, data, len, "vmprof-profile");
	int r = 0, oom = 0;

	*out = NULL;
	if (!doc)
		return -EINVAL;
	if (!(p = vp_profile_new())) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n && r >= 0; n = n->next) {
		if (is(n, "meta")) {
			r = read_meta(&x, n, &p->meta, p->pool);
			continue;
		}
		if (!is(n, "event"))
			continue;
		const char *name = get_str(p->pool, n, "name", &oom);
		if (!name) {
			r = oom ? vp_errorf(err, -ENOMEM, "out of memory") : bad(&x, n, "event without", "name");
			break;
		}
		struct vp_event_table *t = vp_profile_table(p, name, VP_KEY_DEFAULT);
		if (!t) {
			r = vp_errorf(err, -ENOMEM, "out of memory");
			break;
		}
		t->weight = get_str(p->pool, n, "weight", &oom);
		t->group = get_str(p->pool, n, "group", &oom);
		uint64_t ts, tp, lost;
		if ((r = get_u64(&x, n, "samples", &ts, 1)) < 0 || (r = get_u64(&x, n, "period", &tp, 1)) < 0 ||
		    (r = get_u64(&x, n, "lost", &lost, 0)) < 0)
			break;
		for (xmlNodePtr c = n->children; c && r >= 0; c = c->next) {
			struct vp_row row = { .pid = -1 };
			if (!is(c, "row"))
				continue;
			row.symbol = get_str(p->pool, c, "symbol", &oom);
			row.dso = get_str(p->pool, c, "dso", &oom);
			if (oom)
				r = vp_errorf(err, -ENOMEM, "out of memory");
			else if (!row.symbol)
				r = bad(&x, c, "row without", "symbol");
			else if ((r = get_domain(&x, c, &row.domain)) >= 0 &&
				 (r = get_u64(&x, c, "samples", &row.samples, 1)) >= 0 &&
				 (r = get_u64(&x, c, "period", &row.period, 1)) >= 0 &&
				 vp_table_add(t, &row) < 0)
				r = vp_errorf(err, -ENOMEM, "out of memory");
		}
		/* the stated totals cover rows cut by --top too */
		if (r >= 0 && (ts < t->total_samples || tp < t->total_period))
			r = bad(&x, n, "the event's totals are smaller than its rows' sum:", name);
		t->total_samples = ts;
		t->total_period = tp;
		t->lost_samples = lost;
	}
	if (r >= 0 && !p->meta.source)
		p->meta.source = vp_profile_intern(p, path);
out:
	xmlFreeDoc(doc);
	if (r < 0) {
		vp_profile_free(p);
		return r;
	}
	*out = p;
	return 0;
}

static int read_cmp_event(struct xin *x, struct vp_comparison *c, xmlNodePtr n)
{
	static const char *const side[2] = { "host", "guest" };
	int oom = 0, r = 0, at;
	char *name = get(n, "name");
	size_t nrows = 0;

	if (!name)
		return bad(x, n, "event without", "name");
	at = vp_comparison_add_event(c, name);
	xmlFree(name);
	if (at < 0)
		return vp_errorf(x->err, -ENOMEM, "out of memory");
	struct vp_cmp_event *e = &c->events[at];
	for (int s = 0; s < 2 && r >= 0; s++) {
		char a[32];
		snprintf(a, sizeof(a), "%s-name", side[s]);
		e->side_name[s] = get_str(c->pool, n, a, &oom);
		e->present[s] = e->side_name[s] != NULL;
		snprintf(a, sizeof(a), "%s-samples", side[s]);
		if ((r = get_u64(x, n, a, &e->total_samples[s], e->present[s])) < 0)
			break;
		snprintf(a, sizeof(a), "%s-period", side[s]);
		r = get_u64(x, n, a, &e->total_period[s], e->present[s]);
	}
	for (xmlNodePtr k = n->children; k; k = k->next)
		nrows += is(k, "row");
	if (r >= 0 && !(e->rows = calloc(nrows ? nrows : 1, sizeof(*e->rows))))
		r = vp_errorf(x->err, -ENOMEM, "out of memory");
	for (xmlNodePtr k = n->children; k && r >= 0; k = k->next) {
		if (!is(k, "row"))
			continue;
		struct vp_cmp_row *row = &e->rows[e->total_rows];
		row->symbol = get_str(c->pool, k, "symbol", &oom);
		row->dso = get_str(c->pool, k, "dso", &oom);
		if (oom)
			return vp_errorf(x->err, -ENOMEM, "out of memory");
		if (!row->symbol)
			return bad(x, k, "row without", "symbol");
		if ((r = get_domain(x, k, &row->domain)) < 0 ||
		    (r = get_u64(x, k, "host-samples", &row->samples[0], 1)) < 0 ||
		    (r = get_u64(x, k, "host-period", &row->period[0], 1)) < 0 ||
		    (r = get_u64(x, k, "guest-samples", &row->samples[1], 1)) < 0 ||
		    (r = get_u64(x, k, "guest-period", &row->period[1], 1)) < 0)
			break;
		for (int s = 0; s < 2; s++)
			if (row->samples[s] > e->total_samples[s] || row->period[s] > e->total_period[s])
				return bad(x, k, "a row is larger than its event's total:", row->symbol);
		e->total_rows++;
	}
	e->nrows = e->total_rows;
	return r;
}

int vp_cmp_read_xml(const char *path, const char *data, size_t len, struct vp_comparison **out,
		    struct vp_error *err)
{
	struct xin x = { path, err };
	struct vp_comparison *c = NULL;
	xmlDocPtr doc = parse(&x, data, len, "vmprof-comparison");
	xmlNodePtr top;
	int r = 0, oom = 0;
	char *s;

	*out = NULL;
	if (!doc)
		return -EINVAL;
	if (!(c = vp_comparison_new())) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	top = xmlDocGetRootElement(doc);
	c->key = VP_KEY_SYM;
	if ((s = get(top, "key"))) {
		if (vp_key_parse(s, &c->key) < 0 || !(c->key & VP_KEY_SYM))
			r = bad(&x, top, "unknown join key", s);
		xmlFree(s);
	}
	if (r >= 0 && (s = get(top, "value"))) {
		if (!strcmp(s, "samples"))
			c->value = VP_VALUE_SAMPLES;
		else if (strcmp(s, "period"))
			r = bad(&x, top, "value is 'period' or 'samples', not", s);
		xmlFree(s);
	}
	if (r >= 0 && (s = get(top, "rank"))) {
		if (vp_rank_parse(s, &c->rank) < 0)
			r = bad(&x, top, "unknown rank", s);
		xmlFree(s);
	}
	for (xmlNodePtr n = top->children; n && r >= 0; n = n->next) {
		if (is(n, "side")) {
			char *w = get(n, "which");
			int sd = w && !strcmp(w, "host") ? 0 : w && !strcmp(w, "guest") ? 1 : -1;
			xmlFree(w);
			if (sd < 0) {
				r = bad(&x, n, "side is not 'host' or 'guest'", NULL);
				break;
			}
			c->label[sd] = get_str(c->pool, n, "label", &oom);
			for (xmlNodePtr m = n->children; m && r >= 0; m = m->next)
				if (is(m, "meta"))
					r = read_meta(&x, m, &c->meta[sd], c->pool);
		} else if (is(n, "event")) {
			r = read_cmp_event(&x, c, n);
		}
	}
	if (r >= 0 && oom)
		r = vp_errorf(err, -ENOMEM, "out of memory");
	for (int sd = 0; sd < 2 && r >= 0; sd++)
		if (!c->label[sd])
			c->label[sd] = vp_strpool_intern(c->pool, sd ? "guest" : "host");
out:
	xmlFreeDoc(doc);
	if (r < 0) {
		vp_comparison_free(c);
		return r;
	}
	*out = c;
	return 0;
}
