/* vmprof's XML tables and saved comparisons read through libxml2's tree
 * parser, checked against the shapes of schema/ (xml_write.c writes them):
 * a damaged file is refused with its line, never half read. */
#include "formats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

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

/* A list attribute of exactly n counts ("3 0 7"). */
static int get_list(struct xin *x, xmlNodePtr n, const char *name, uint64_t *v, size_t count)
{
	char *s = get(n, name), *p, *end;
	size_t i = 0;
	int r = 0;

	if (!s)
		return bad(x, n, "missing attribute", name);
	for (p = s; r == 0; p = end) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		errno = 0;
		if (*p == '-' || i == count)
			r = bad(x, n, i == count ? "more counts than runs in attribute" : "not a count in attribute",
				name);
		else if ((v[i++] = strtoull(p, &end, 10), errno) || end == p ||
			 (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r'))
			r = bad(x, n, "not a count in attribute", name);
	}
	if (r == 0 && i != count)
		r = bad(x, n, "fewer counts than runs in attribute", name);
	xmlFree(s);
	return r;
}

/* An index attribute below limit. */
static int get_index(struct xin *x, xmlNodePtr n, size_t limit, size_t *i)
{
	uint64_t v;
	int r = get_u64(x, n, "index", &v, 1);

	if (r == 0 && v >= limit)
		r = bad(x, n, "index out of range in", (const char *)n->name);
	*i = (size_t)v;
	return r;
}

/* Version 1: two sides of one run, their values in the row's attributes. */
static int read_row_v1(struct xin *x, struct vp_cmp_event *e, struct vp_cmp_row *row, xmlNodePtr k)
{
	int r;

	if ((r = get_u64(x, k, "host-samples", &row->run_samples[0], 1)) < 0 ||
	    (r = get_u64(x, k, "host-period", &row->run_period[0], 1)) < 0 ||
	    (r = get_u64(x, k, "guest-samples", &row->run_samples[1], 1)) < 0 ||
	    (r = get_u64(x, k, "guest-period", &row->run_period[1], 1)) < 0)
		return r;
	for (int s = 0; s < 2; s++)
		if (row->run_samples[s] > e->run_total_samples[s] || row->run_period[s] > e->run_total_period[s])
			return bad(x, k, "a row is larger than its event's total:", row->symbol);
	return 0;
}

static int read_totals_v1(struct xin *x, struct vp_comparison *c, struct vp_cmp_event *e, xmlNodePtr n)
{
	static const char *const side[2] = { "host", "guest" };
	int oom = 0, r = 0;

	for (int s = 0; s < 2 && r >= 0; s++) {
		char a[32];
		snprintf(a, sizeof(a), "%s-name", side[s]);
		e->side_name[s] = get_str(c->pool, n, a, &oom);
		e->run_present[s] = e->side_name[s] != NULL;
		snprintf(a, sizeof(a), "%s-samples", side[s]);
		if ((r = get_u64(x, n, a, &e->run_total_samples[s], e->run_present[s])) < 0)
			break;
		snprintf(a, sizeof(a), "%s-period", side[s]);
		r = get_u64(x, n, a, &e->run_total_period[s], e->run_present[s]);
	}
	return oom ? vp_errorf(x->err, -ENOMEM, "out of memory") : r;
}

/* Version 2: per side its event name, per run that recorded it its totals. */
static int read_totals(struct xin *x, struct vp_comparison *c, struct vp_cmp_event *e, xmlNodePtr n)
{
	int oom = 0, r = 0;
	size_t i;

	for (xmlNodePtr k = n->children; k && r >= 0; k = k->next) {
		if (is(k, "side") && (r = get_index(x, k, c->nsides, &i)) == 0)
			e->side_name[i] = get_str(c->pool, k, "name", &oom);
		else if (is(k, "run") && (r = get_index(x, k, c->nruns, &i)) == 0) {
			if (e->run_present[i])
				r = bad(x, k, "a run's totals given twice in event", e->name);
			else if ((r = get_u64(x, k, "samples", &e->run_total_samples[i], 1)) == 0)
				r = get_u64(x, k, "period", &e->run_total_period[i], 1);
			e->run_present[i] = 1;
		}
	}
	return oom ? vp_errorf(x->err, -ENOMEM, "out of memory") : r;
}

static int read_cmp_event(struct xin *x, struct vp_comparison *c, xmlNodePtr n, int version)
{
	int oom = 0, r = 0, at;
	char *name = get(n, "name");

	if (!name)
		return bad(x, n, "event without", "name");
	at = vp_comparison_add_event(c, name);
	xmlFree(name);
	if (at < 0)
		return vp_errorf(x->err, -ENOMEM, "out of memory");
	struct vp_cmp_event *e = &c->events[at];
	r = version == 1 ? read_totals_v1(x, c, e, n) : read_totals(x, c, e, n);
	for (xmlNodePtr k = n->children; k && r >= 0; k = k->next) {
		if (!is(k, "row"))
			continue;
		struct vp_cmp_row *row = vp_cmp_event_add_row(c, e);
		if (!row)
			return vp_errorf(x->err, -ENOMEM, "out of memory");
		row->symbol = get_str(c->pool, k, "symbol", &oom);
		row->dso = get_str(c->pool, k, "dso", &oom);
		if (oom)
			return vp_errorf(x->err, -ENOMEM, "out of memory");
		if (!row->symbol)
			return bad(x, k, "row without", "symbol");
		if ((r = get_domain(x, k, &row->domain)) < 0)
			break;
		if (version == 1)
			r = read_row_v1(x, e, row, k);
		else if ((r = get_list(x, k, "run-samples", row->run_samples, c->nruns)) == 0)
			r = get_list(x, k, "run-period", row->run_period, c->nruns);
	}
	return r;
}

/* The sides and their runs: counted first, so the comparison is made to size. */
static struct vp_comparison *read_sides(struct xin *x, xmlNodePtr top, int version, int *r)
{
	size_t nsides = 0, *runs = NULL, s;
	struct vp_comparison *c = NULL;
	int oom = 0;

	for (xmlNodePtr n = top->children; n; n = n->next)
		nsides += is(n, "side");
	if (nsides < 2 || (version == 1 && nsides != 2)) {
		*r = bad(x, top, version == 1 ? "a comparison has two sides: host and guest" :
			 "a comparison has two sides or more", NULL);
		return NULL;
	}
	if (!(runs = calloc(nsides, sizeof(*runs)))) {
		*r = vp_errorf(x->err, -ENOMEM, "out of memory");
		return NULL;
	}
	for (xmlNodePtr n = top->children; n && *r >= 0; n = n->next) {
		if (!is(n, "side"))
			continue;
		if (version == 1) {
			char *w = get(n, "which");
			int sd = w && !strcmp(w, "host") ? 0 : w && !strcmp(w, "guest") ? 1 : -1;
			xmlFree(w);
			if (sd < 0)
				*r = bad(x, n, "side is not 'host' or 'guest'", NULL);
			else if (runs[sd]++)
				*r = bad(x, n, "side given twice:", sd ? "guest" : "host");
			continue;
		}
		if ((*r = get_index(x, n, nsides, &s)) < 0)
			break;
		if (runs[s])
			*r = bad(x, n, "side given twice", NULL);
		for (xmlNodePtr m = n->children; m; m = m->next)
			runs[s] += is(m, "run");
		if (*r >= 0 && !runs[s])
			*r = bad(x, n, "side without runs", NULL);
	}
	if (*r >= 0 && !(c = vp_comparison_new(nsides, runs)))
		*r = vp_errorf(x->err, -ENOMEM, "out of memory");
	for (xmlNodePtr n = top->children; n && *r >= 0; n = n->next) {
		if (!is(n, "side"))
			continue;
		char *w = version == 1 ? get(n, "which") : NULL;
		if (version == 1)
			s = !strcmp(w, "guest");
		else
			get_index(x, n, nsides, &s);
		xmlFree(w);
		c->label[s] = get_str(c->pool, n, "label", &oom);
		size_t k = c->first_run[s];
		for (xmlNodePtr m = n->children; m && *r >= 0; m = m->next) {
			xmlNodePtr meta = NULL;
			if (version == 1 && is(m, "meta"))
				meta = m;
			for (xmlNodePtr mm = version == 2 && is(m, "run") ? m->children : NULL; mm; mm = mm->next)
				if (is(mm, "meta"))
					meta = mm;
			if (meta)
				*r = read_meta(x, meta, &c->run_meta[k], c->pool);
			k += version == 2 && is(m, "run");
		}
		if (*r >= 0 && !c->label[s] &&
		    !(c->label[s] = vp_strpool_intern(c->pool, s == 0 ? "host" : s == 1 ? "guest" : "side")))
			oom = 1;
	}
	if (*r >= 0 && oom)
		*r = vp_errorf(x->err, -ENOMEM, "out of memory");
	free(runs);
	if (*r < 0) {
		vp_comparison_free(c);
		return NULL;
	}
	return c;
}

int vp_cmp_read_xml(const char *path, const char *data, size_t len, struct vp_comparison **out,
		    struct vp_error *err)
{
	struct xin x = { path, err };
	struct vp_comparison *c = NULL;
	xmlDocPtr doc = parse(&x, data, len, "vmprof-comparison");
	xmlNodePtr top;
	int r = 0, version = 1;
	char *s;

	*out = NULL;
	if (!doc)
		return -EINVAL;
	top = xmlDocGetRootElement(doc);
	if ((s = get(top, "version"))) {
		version = !strcmp(s, "1") ? 1 : !strcmp(s, "2") ? 2 : 0;
		if (!version)
			r = bad(&x, top, "unknown version (1 and 2 are read):", s);
		xmlFree(s);
	}
	if (r < 0 || !(c = read_sides(&x, top, version, &r)))
		goto out;
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
	if (r >= 0 && (r = get_double(&x, top, "alpha", &c->alpha)) >= 0 &&
	    !(c->alpha > 0 && c->alpha < 1))
		r = bad(&x, top, "alpha is not between 0 and 1", NULL);
	for (xmlNodePtr n = top->children; n && r >= 0; n = n->next)
		if (is(n, "event"))
			r = read_cmp_event(&x, c, n, version);
	if (r >= 0 && (r = vp_comparison_finish(c, err)) < 0)
		vp_error_prefix(err, "'%s'", path);
out:
	xmlFreeDoc(doc);
	if (r < 0) {
		vp_comparison_free(c);
		return r;
	}
	*out = c;
	return 0;
}
