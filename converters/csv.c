/* vmprof's CSV tables through libcsv: fixed header rows, RFC 4180 quoting for
 * every text cell (C++ names with commas, quotes and newlines survive), an
 * optional guard against spreadsheet formula injection that the reader undoes. */
#include "formats.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void vp_out_opts_init(struct vp_out_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->value = VP_VALUE_PERIOD;
	o->csv_safe = 1;
}

static int risky(const char *s, size_t n)
{
	return n && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\'');
}

/* A quoted text cell; under csv_safe a leading = + - @ (and ', so the reader
 * can undo exactly what was added) gets a ' in front. */
static void text_cell(FILE *f, const char *s, size_t n, int safe)
{
	if (safe && risky(s, n)) {
		char *b = malloc(n + 1);
		if (b) {
			b[0] = '\'';
			memcpy(b + 1, s, n);
			csv_fwrite(f, b, n + 1);
			free(b);
			return;
		}
	}
	csv_fwrite(f, s, n);
}

static void symbol_cell(FILE *f, const char *sym, const struct vp_out_opts *o)
{
	if (!sym)
		sym = "";
	text_cell(f, sym, o->full_names ? strlen(sym) : vp_symbol_display_len(sym), o->csv_safe);
}

static void dom_cell(FILE *f, char d)
{
	char s[2] = { d ? d : '.', 0 };
	csv_fwrite(f, s, 1);
}

static int wanted(const struct vp_out_opts *o, const char *name)
{
	return !o->event || !strcmp(o->event, name);
}

/* event,symbol,dso,domain: the key cells every table's line starts with. */
static void key_cells(FILE *f, const char *event, const char *symbol, const char *dso, char domain,
		      const struct vp_out_opts *o)
{
	text_cell(f, event, strlen(event), o->csv_safe);
	fputc(',', f);
	symbol_cell(f, symbol, o);
	fputc(',', f);
	text_cell(f, dso ? dso : "", dso ? strlen(dso) : 0, o->csv_safe);
	fputc(',', f);
	dom_cell(f, domain);
}

int vp_profile_write_csv(FILE *f, const struct vp_profile *p, const struct vp_out_opts *o)
{
	fputs(VP_CSV_PROFILE_HEADER "\r\n", f);
	for (size_t e = 0; e < p->ntables; e++) {
		const struct vp_event_table *t = p->tables[e];
		size_t rows = o->top && o->top < t->nrows ? o->top : t->nrows;
		if (!wanted(o, t->name))
			continue;
		for (size_t i = 0; i < rows; i++) {
			const struct vp_row *r = &t->rows[i];
			key_cells(f, t->name, r->symbol, r->dso, r->domain, o);
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%.9f\r\n", r->samples, r->period,
				vp_row_share(t, r, o->value));
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* ",ratio,delta" of side s: "only host" ("only base" with K > 2 sides) and
 * "only guest" ("only side") when one of the two has no value. */
static void ratio_delta(FILE *f, const struct vp_comparison *c, const struct vp_cmp_event *e,
			const struct vp_cmp_row *r, size_t s)
{
	enum vp_ratio_kind k;
	double x = vp_cmp_ratio(e, r, s, c->value, &k);

	fputc(',', f);
	switch (k) {
	case VP_RATIO_BOTH: fprintf(f, "%.6f", x); break;
	case VP_RATIO_ONLY_HOST: fputs(c->nsides == 2 ? "only host" : "only base", f); break;
	case VP_RATIO_ONLY_GUEST: fputs(c->nsides == 2 ? "only guest" : "only side", f); break;
	case VP_RATIO_NONE: break;
	}
	fprintf(f, ",%.6f", vp_cmp_delta_pp(e, r, s, c->value));
}

/* A statistic in full (the oracle tests compare to 1e-9); "inf" when unbounded. */
static void stat_cell(FILE *f, double x)
{
	fprintf(f, ",%.12g", x);
}

/* The statistics of side s, empty cells without them: ratio_low,ratio_high,
 * then (all) delta_low,delta_high,p_value; then q_value,significant. */
static void stat_cells(FILE *f, const struct vp_cmp_event *ev, const struct vp_cmp_row *r, size_t s,
		       int all)
{
	const struct vp_stat_result *st = vp_cmp_stat(ev, r, s);

	if (!st) {
		fputs(all ? ",,,,,,," : ",,,,", f);
		return;
	}
	stat_cell(f, st->ratio_lo);
	stat_cell(f, st->ratio_hi);
	if (all) {
		stat_cell(f, st->delta_lo);
		stat_cell(f, st->delta_hi);
		stat_cell(f, st->p);
	}
	stat_cell(f, st->q);
	fprintf(f, ",%d", st->significant ? 1 : 0);
}

static void side_cells(FILE *f, const struct vp_comparison *c, const struct vp_cmp_event *ev,
		       const struct vp_cmp_row *r, size_t s)
{
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%.9f", r->samples[s], r->period[s],
		vp_cmp_share(ev, r, s, c->value));
}

int vp_cmp_write_csv(FILE *f, const struct vp_comparison *c, const struct vp_out_opts *o)
{
	fputs(c->nsides == 2 ? VP_CSV_CMP_HEADER VP_CSV_CMP_STATS "\r\n" : VP_CSV_CMP_SIDES_HEADER "\r\n", f);
	for (size_t e = 0; e < c->nevents; e++) {
		const struct vp_cmp_event *ev = &c->events[e];
		if (!wanted(o, ev->name))
			continue;
		for (size_t i = 0; i < ev->nrows; i++) {
			const struct vp_cmp_row *r = &ev->rows[i];
			if (c->nsides == 2) {
				key_cells(f, ev->name, r->symbol, r->dso, r->domain, o);
				side_cells(f, c, ev, r, 0);
				side_cells(f, c, ev, r, 1);
				ratio_delta(f, c, ev, r, VP_GUEST);
				stat_cells(f, ev, r, VP_GUEST, 0);
				fputs("\r\n", f);
				continue;
			}
			for (size_t s = 1; s < c->nsides; s++) {
				key_cells(f, ev->name, r->symbol, r->dso, r->domain, o);
				fputc(',', f);
				text_cell(f, c->label[s], strlen(c->label[s]), o->csv_safe);
				side_cells(f, c, ev, r, 0);
				side_cells(f, c, ev, r, s);
				ratio_delta(f, c, ev, r, s);
				stat_cells(f, ev, r, s, 1);
				fputs("\r\n", f);
			}
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- reading ---- */

#define MAX_FIELDS 16

struct reader {
	const char *path;
	size_t line;		/* record number, 1 = header */
	char *field[MAX_FIELDS];
	size_t nfield;
	size_t fields;		/* per record, as the header says */
	int too_many;
	int (*row)(struct reader *r);
	void *ctx;
	int rc;
	struct vp_error *err;
};

static void on_field(void *s, size_t len, void *data)
{
	struct reader *r = data;
	char *copy;

	if (r->nfield == MAX_FIELDS) {
		r->too_many = 1;
		return;
	}
	copy = malloc(len + 1);
	if (!copy) {
		r->rc = -ENOMEM;
		return;
	}
	memcpy(copy, s ? s : "", len);
	copy[len] = '\0';
	r->field[r->nfield++] = copy;
}

static void clear_fields(struct reader *r)
{
	for (size_t i = 0; i < r->nfield; i++)
		free(r->field[i]);
	r->nfield = 0;
	r->too_many = 0;
}

static void on_row(int c, void *data)
{
	struct reader *r = data;

	(void)c;
	r->line++;
	if (r->rc >= 0) {
		if (r->too_many)
			r->rc = vp_errorf(r->err, -EINVAL, "'%s': record %zu: more than %d fields",
					  r->path, r->line, MAX_FIELDS);
		else
			r->rc = r->row(r);
	}
	clear_fields(r);
}

static int read_csv(struct reader *r, const char *data, size_t len)
{
	struct csv_parser p;

	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	if (csv_parse(&p, data, len, on_field, on_row, r) != len && r->rc >= 0)
		r->rc = vp_errorf(r->err, -EINVAL, "'%s': record %zu: %s", r->path, r->line + 1,
				  csv_strerror(csv_error(&p)));
	if (r->rc >= 0 && csv_fini(&p, on_field, on_row, r) != 0 && r->rc >= 0)
		r->rc = vp_errorf(r->err, -EINVAL, "'%s': record %zu: %s", r->path, r->line + 1,
				  csv_strerror(csv_error(&p)));
	csv_free(&p);
	clear_fields(r);
	if (r->rc >= 0 && r->line == 0)
		r->rc = vp_errorf(r->err, -EINVAL, "'%s': empty CSV file", r->path);
	return r->rc;
}

/* Undo text_cell's guard. */
static const char *unguard(const char *s)
{
	return s[0] == '\'' && risky(s + 1, strlen(s + 1)) ? s + 1 : s;
}

static int header_is(struct reader *r, const char *want)
{
	char got[256] = "";
	size_t n = 0;

	/* a header longer than got is no header of ours: cut it there */
	for (size_t i = 0; i < r->nfield && n < sizeof(got); i++)
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s", i ? "," : "", r->field[i]);
	/* a UTF-8 byte order mark from a spreadsheet is not part of the name */
	const char *g = !strncmp(got, "\xef\xbb\xbf", 3) ? got + 3 : got;
	if (strcmp(g, want))
		return vp_errorf(r->err, -EINVAL, "'%s': line 1: not a vmprof table: the header is "
				 "'%.80s', expected '%s'", r->path, g, want);
	return 0;
}

static int parse_u64_cell(struct reader *r, size_t i, uint64_t *v)
{
	char *end;
	const char *s = r->field[i];

	errno = 0;
	if (!*s || *s == '-' || (*v = strtoull(s, &end, 10), errno) || *end)
		return vp_errorf(r->err, -EINVAL, "'%s': record %zu: field %zu ('%.40s') is not a "
				 "count", r->path, r->line, i + 1, s);
	return 0;
}

static int parse_domain_cell(struct reader *r, size_t i, char *d)
{
	const char *s = r->field[i];

	if (strlen(s) != 1 || !vp_domain_valid(s[0]))
		return vp_errorf(r->err, -EINVAL, "'%s': record %zu: '%.20s' is not a domain "
				 "(one of . k u g H)", r->path, r->line, s);
	*d = s[0];
	return 0;
}

static int profile_row(struct reader *r)
{
	struct vp_profile *p = r->ctx;
	struct vp_row row = { .pid = -1 };
	struct vp_event_table *t;

	if (r->line == 1)
		return header_is(r, VP_CSV_PROFILE_HEADER);
	if (r->nfield == 1 && !r->field[0][0])
		return 0;	/* blank line */
	if (r->nfield != 7)
		return vp_errorf(r->err, -EINVAL, "'%s': record %zu: %zu fields, expected 7", r->path,
				 r->line, r->nfield);
	if (parse_domain_cell(r, 3, &row.domain) < 0 || parse_u64_cell(r, 4, &row.samples) < 0 ||
	    parse_u64_cell(r, 5, &row.period) < 0)
		return -EINVAL;
	if (!*unguard(r->field[0]))
		return vp_errorf(r->err, -EINVAL, "'%s': record %zu: empty event name", r->path, r->line);
	t = vp_profile_table(p, unguard(r->field[0]), VP_KEY_DEFAULT);
	row.symbol = vp_profile_intern(p, unguard(r->field[1]));
	row.dso = vp_profile_intern(p, unguard(r->field[2]));
	if (!t || !row.symbol || !row.dso || vp_table_add(t, &row) < 0)
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	return 0;
}

int vp_profile_read_csv(const char *path, const char *data, size_t len, struct vp_profile **out,
			struct vp_error *err)
{
	struct vp_profile *p = vp_profile_new();
	struct reader r = { .path = path, .row = profile_row, .ctx = p, .err = err };

	*out = NULL;
	if (!p)
		return vp_errorf(err, -ENOMEM, "out of memory");
	if (read_csv(&r, data, len) < 0) {
		vp_profile_free(p);
		return r.rc;
	}
	p->meta.source = vp_profile_intern(p, path);
	*out = p;
	return 0;
}

static int cmp_row(struct reader *r)
{
	struct vp_comparison *c = r->ctx;
	struct vp_cmp_event *e = NULL;
	struct vp_cmp_row *row;
	uint64_t v[4];
	char domain;

	/* the statistics' columns are optional (older files), and read
	 * back from each side's sums again: a CSV keeps no runs */
	if (r->line == 1) {
		r->fields = r->nfield == 16 ? 16 : 12;
		return header_is(r, r->nfield == 16 ? VP_CSV_CMP_HEADER VP_CSV_CMP_STATS : VP_CSV_CMP_HEADER);
	}
	if (r->nfield == 1 && !r->field[0][0])
		return 0;
	if (r->nfield != r->fields)
		return vp_errorf(r->err, -EINVAL, "'%s': record %zu: %zu fields, expected %zu", r->path,
				 r->line, r->nfield, r->fields);
	if (parse_domain_cell(r, 3, &domain) < 0 || parse_u64_cell(r, 4, &v[0]) < 0 ||
	    parse_u64_cell(r, 5, &v[1]) < 0 || parse_u64_cell(r, 7, &v[2]) < 0 ||
	    parse_u64_cell(r, 8, &v[3]) < 0)
		return -EINVAL;
	const char *name = unguard(r->field[0]);
	if (c->nevents && !strcmp(c->events[c->nevents - 1].name, name)) {
		e = &c->events[c->nevents - 1];
	} else {
		for (size_t i = 0; i < c->nevents; i++)
			if (!strcmp(c->events[i].name, name))
				return vp_errorf(r->err, -EINVAL, "'%s': record %zu: rows of event '%s' "
						 "are not together", r->path, r->line, name);
		int at = vp_comparison_add_event(c, name);
		if (at < 0)
			return vp_errorf(r->err, -ENOMEM, "out of memory");
		e = &c->events[at];
	}
	if (!(row = vp_cmp_event_add_row(c, e)))
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	row->symbol = vp_strpool_intern(c->pool, unguard(r->field[1]));
	row->dso = vp_strpool_intern(c->pool, unguard(r->field[2]));
	row->domain = domain;
	if (!row->symbol || !row->dso)
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	/* A CSV holds each side's sums, one run each, and no totals: the
	 * rows' sums stand in for them. */
	for (int s = 0; s < 2; s++) {
		uint64_t ts = e->run_total_samples[s] + v[2 * s], tp = e->run_total_period[s] + v[2 * s + 1];
		if (ts < e->run_total_samples[s] || tp < e->run_total_period[s])
			return vp_errorf(r->err, -EINVAL, "'%s': record %zu: the event's sums overflow",
					 r->path, r->line);
		row->run_samples[s] = v[2 * s];
		row->run_period[s] = v[2 * s + 1];
		e->run_total_samples[s] = ts;
		e->run_total_period[s] = tp;
	}
	return 0;
}

int vp_cmp_read_csv(const char *path, const char *data, size_t len, struct vp_comparison **out,
		    struct vp_error *err)
{
	static const size_t one[2] = { 1, 1 };
	struct vp_comparison *c = vp_comparison_new(2, one);
	struct reader r = { .path = path, .row = cmp_row, .ctx = c, .err = err };

	*out = NULL;
	if (!c)
		return vp_errorf(err, -ENOMEM, "out of memory");
	c->key = VP_KEY_SYM;
	if (read_csv(&r, data, len) < 0) {
		vp_comparison_free(c);
		return r.rc;
	}
	/* An event with nothing on one side was on that side only. */
	for (size_t i = 0; i < c->nevents; i++)
		for (int s = 0; s < 2; s++)
			c->events[i].run_present[s] = c->events[i].run_total_samples[s] ||
						      c->events[i].run_total_period[s];
	c->label[0] = vp_strpool_intern(c->pool, "host");
	c->label[1] = vp_strpool_intern(c->pool, "guest");
	if (!c->label[0] || !c->label[1]) {
		vp_comparison_free(c);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	if ((r.rc = vp_comparison_finish(c, err)) < 0) {
		vp_error_prefix(err, "'%s'", path);
		vp_comparison_free(c);
		return r.rc;
	}
	*out = c;
	return 0;
}
