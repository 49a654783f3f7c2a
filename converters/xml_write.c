/* vmprof's XML tables and comparisons written through libxml2's writer. The
 * shapes are fixed by schema/vmprof-profile.xsd and
 * schema/vmprof-comparison.xsd (xml_read.c reads them back). Text that XML
 * cannot carry (control characters, invalid UTF-8) is written as U+FFFD. */
#include "formats.h"
#include "timesplit.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "lib/util/fmtmemo.h"

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

/* 1 when s (n bytes, a NUL after them) needs no xml_safe: printable ASCII. */
static int plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x80)
			return 0;
	return s[n] == '\0';
}

static int attr_n(xmlTextWriterPtr w, const char *name, const char *v, size_t n)
{
	char *safe;
	int r;

	if (plain(v, n))
		return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST v);
	if (!(safe = xml_safe(v, n)))
		return -1;
	r = xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST safe);
	free(safe);
	return r;
}

static int attr(xmlTextWriterPtr w, const char *name, const char *v)
{
	return v ? attr_n(w, name, v, strlen(v)) : 0;
}

/* v's digits, ending just before end: where they start. */
static char *u64_digits(char *end, uint64_t v)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

/* Numbers are formatted here rather than by
 * xmlTextWriterWriteFormatAttribute, which allocates a buffer for each: a
 * comparison's row has about 35 (a 943-row comparison saved in 12-23 ms, of
 * which a tenth was malloc and free and a fifth printf). */
static int attr_u64(xmlTextWriterPtr w, const char *name, uint64_t v)
{
	char buf[24], *end = buf + sizeof(buf) - 1;

	*end = '\0';
	return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST u64_digits(end, v));
}

/* The document being written's numbers (fmtmemo.h), on the thread writing it.
 * In initial-exec TLS (glibc keeps room for a dlopen'd module's few bytes),
 * not as dynamic TLS of vmprof-formats.so: gcc 12's sanitizer runtime takes
 * a dynamic TLS block that starts 16 bytes into a page for glibc 2.19's
 * layout and reads its start and size from the 16 bytes before it, here
 * another heap chunk's. LeakSanitizer's exit scan then read that range
 * ({0x193, 0x800001102}) and crashed (report_threads.sh, compare of runs). */
static _Thread_local struct vp_fmt_memo *numbers __attribute__((tls_model("initial-exec")));

static int attr_f(xmlTextWriterPtr w, const char *name, const char *fmt, double v)
{
	char buf[64];
	const char *t = vp_fmt_double(numbers, fmt, v, buf, sizeof(buf));

	if (!t)	/* a value of hundreds of digits */
		return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, fmt, v);
	return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST t);
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
	/* where the command's time went (vmprof-record(1) Time) */
	for (size_t i = 0; i < VP_META_NTIMES; i++)
		if (*vp_meta_time_c(m, i) >= 0)
			attr_f(w, vp_meta_times[i].key, "%.6f", *vp_meta_time_c(m, i));
	attr(w, "clocksource", m->clocksource);
	attr(w, "sched-method", m->sched_method);
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
	/* doubling: by default libxml2 grows it by what each write needs, a
	 * realloc every few attributes (3% of writing a comparison) */
	if (x->buf)
		xmlBufferSetAllocationScheme(x->buf, XML_BUFFER_ALLOC_DOUBLEIT);
	x->w = x->buf ? xmlNewTextWriterMemory(x->buf, 0) : NULL;
	if (!x->w) {
		xmlBufferFree(x->buf);
		return -ENOMEM;
	}
	numbers = vp_fmt_memo_new();	/* without it, each number is formatted */
	xmlTextWriterSetIndent(x->w, 1);
	xmlTextWriterSetIndentString(x->w, BAD_CAST "  ");
	xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL);
	xmlTextWriterStartElement(x->w, BAD_CAST root);
	xmlTextWriterWriteAttribute(x->w, BAD_CAST "version", BAD_CAST version);
	return 0;
}

/* The writer and the document's numbers done with; the buffer stays. */
static void xml_close(struct xml_out *x)
{
	xmlFreeTextWriter(x->w);
	vp_fmt_memo_free(numbers);
	numbers = NULL;
}

static int xml_end(struct xml_out *x, FILE *f)
{
	int r = xmlTextWriterEndDocument(x->w);

	size_t len = r >= 0 ? (size_t)xmlBufferLength(x->buf) : 0;

	xml_close(x);
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

/* n numbers as an XML list ("3 0 7"), written from the last: a stack's
 * frame has two lists of a number per run, and sprintf was half of the
 * save of a comparison of 2 x 10 -g runs (4.6 MB of XML). */
static int attr_list(xmlTextWriterPtr w, const char *name, const uint64_t *v, size_t n)
{
	char *buf = malloc(n * 21 + 1), *p;
	int r;

	if (!buf)
		return -1;
	p = buf + n * 21;
	*p = '\0';
	for (size_t i = n; i-- > 0;) {
		p = u64_digits(p, v[i]);
		if (i)
			*--p = ' ';
	}
	r = xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST p);
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
	if (ev->children) {
		attr_list(w, "run-children-samples", r->run_children_samples, c->nruns);
		attr_list(w, "run-children-period", r->run_children_period, c->nruns);
	}
	for (size_t s = 0; s < c->nsides; s++) {
		xmlTextWriterStartElement(w, BAD_CAST "side");
		attr_u64(w, "index", s);
		attr_u64(w, "samples", r->samples[s]);
		attr_u64(w, "period", r->period[s]);
		attr_f(w, "share", "%.9f", vp_cmp_share(ev, r, s, vp_value_self(c->value)));
		if (ev->children) {
			attr_u64(w, "children-samples", r->children_samples[s]);
			attr_u64(w, "children-period", r->children_period[s]);
			attr_f(w, "children-share", "%.9f",
			       vp_cmp_share(ev, r, s, vp_value_children(c->value)));
		}
		if (s) {
			write_ratio(w, c, ev, r, s);
			write_stats(w, ev, r, s, 1);
		}
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
}

/* Where the time went, for each side whose recordings say (timesplit.h). */
static void write_time_split(xmlTextWriterPtr w, const struct vp_comparison *c, size_t side)
{
	struct vp_time_split s;
	struct vp_error err = { 0 };

	if (vp_cmp_time_split(c, side, &s, &err) < 0)
		return;
	xmlTextWriterStartElement(w, BAD_CAST "time-split");
	attr_u64(w, "side-index", side);
	attr(w, "baseline", c->label[0]);
	attr(w, "side", c->label[side]);
	attr_u64(w, "baseline-runs", s.nruns[0]);
	attr_u64(w, "side-runs", s.nruns[1]);
	attr_f(w, "ratio", "%.6f", s.ratio);
	for (int p = -1; p < VP_TIME_NPARTS; p++) {
		const struct vp_time_value *v = p < 0 ? &s.wall : &s.part[p];
		double share = p < 0 ? NAN : vp_time_part_percent(&s, p) / 100;
		xmlTextWriterStartElement(w, BAD_CAST "part");
		attr(w, "key", p < 0 ? "wall" : vp_time_part_key(p));
		attr(w, "name", p < 0 ? "wall time" : vp_time_part_name(&s, p));
		attr(w, "measured", v->known ? "1" : "0");
		if (v->known) {
			attr_f(w, "baseline", "%.6f", v->base);
			attr_f(w, "value", "%.6f", v->side);
			attr_f(w, "delta", "%.6f", v->delta);
			if (!isnan(v->lo)) {
				attr_f(w, "delta-lo", "%.6f", v->lo);
				attr_f(w, "delta-hi", "%.6f", v->hi);
			}
		}
		if (!isnan(share))
			attr_f(w, "gap-share", "%.6f", share);
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
}

/* The event's call stacks: a <frame> per node but the root, parents first
 * (parent: the number of an earlier frame, 1 the first; 0 the root), each
 * with every run's inclusive samples and period; the root's on <stacks>. */
static int write_stacks(xmlTextWriterPtr w, const struct vp_comparison *c, const struct vp_stack_tree *t)
{
	size_t n = vp_stack_tree_count(t), k = 0, *number = calloc(n, sizeof(*number));
	uint64_t *samples = calloc(c->nruns ? c->nruns : 1, sizeof(*samples));
	uint64_t *period = calloc(c->nruns ? c->nruns : 1, sizeof(*period));
	uint32_t *todo = malloc(n * sizeof(*todo));
	size_t ntodo = 0;
	int r = 0;

	if (!number || !samples || !period || !todo) {
		r = -ENOMEM;
		goto out;
	}
	xmlTextWriterStartElement(w, BAD_CAST "stacks");
	for (size_t run = 0; run < c->nruns; run++) {
		samples[run] = vp_stack_tree_value(t, 0, run)->samples;
		period[run] = vp_stack_tree_value(t, 0, run)->period;
	}
	attr_list(w, "run-samples", samples, c->nruns);
	attr_list(w, "run-period", period, c->nruns);
	/* depth first, children in the tree's order (name order): the same
	 * tree is the same text */
	for (uint32_t ch = vp_stack_tree_node(t, 0)->child; ch; ch = vp_stack_tree_node(t, ch)->next)
		todo[ntodo++] = ch;
	for (size_t a = 0, b = ntodo - (ntodo > 0); ntodo && a < b; a++, b--) {
		uint32_t x = todo[a];
		todo[a] = todo[b];
		todo[b] = x;
	}
	while (ntodo) {
		uint32_t i = todo[--ntodo];
		const struct vp_stack_node *nd = vp_stack_tree_node(t, i);
		char d[2] = { dom(nd->domain), 0 };
		size_t first = ntodo;

		number[i] = ++k;
		xmlTextWriterStartElement(w, BAD_CAST "frame");
		attr_u64(w, "parent", nd->parent ? number[nd->parent] : 0);
		attr(w, "name", nd->name);
		if (nd->dso) {
			attr(w, "dso", nd->dso);
			attr(w, "domain", d);
		}
		for (size_t run = 0; run < c->nruns; run++) {
			samples[run] = vp_stack_tree_value(t, i, run)->samples;
			period[run] = vp_stack_tree_value(t, i, run)->period;
		}
		attr_list(w, "run-samples", samples, c->nruns);
		attr_list(w, "run-period", period, c->nruns);
		xmlTextWriterEndElement(w);
		for (uint32_t ch = nd->child; ch; ch = vp_stack_tree_node(t, ch)->next)
			todo[ntodo++] = ch;
		for (size_t a = first, b = ntodo - (ntodo > first); ntodo > first && a < b; a++, b--) {
			uint32_t x = todo[a];
			todo[a] = todo[b];
			todo[b] = x;
		}
	}
	xmlTextWriterEndElement(w);
out:
	free(number);
	free(samples);
	free(period);
	free(todo);
	return r;
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
	attr(x.w, "value", vp_value_word(c->value));
	attr(x.w, "rank", vp_rank_name(c->rank));
	attr_f(x.w, "alpha", "%.12g", c->alpha);
	write_sides(x.w, c);
	for (size_t side = 1; side < c->nsides; side++)
		write_time_split(x.w, c, side);
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
		if (ev->children)
			attr(x.w, "children", "true");
		write_totals(x.w, c, ev);
		for (size_t i = 0; i < rows; i++)
			/* a saved comparison keeps names whole: the chart shortens them */
			write_row(x.w, c, ev, &ev->rows[i], all || (o && o->full_names));
		/* the saved comparison keeps the call stacks, for the flame graph */
		if (all && ev->stacks && write_stacks(x.w, c, ev->stacks) < 0) {
			xml_close(&x);
			xmlBufferFree(x.buf);
			return -ENOMEM;
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
