/* The text of `perf report --stdio` (perf 6.1) read back into tables: the seed
 * pipeline's starting point. Columns are found from the dotted rule under the
 * column heads, so any --sort keys, --children, -n and --show-total-period
 * work; -g callchain blocks are skipped; a line that is none of these is an
 * error naming it. Unresolved addresses fold into [unknown] as vmprof's own
 * tables do. */
#include "formats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 12
/* Events of one group shown side by side (perf report --group, the default
 * for a file recorded with -e '{a,b}'): each numeric cell holds one value per
 * member. */
#define MAX_GROUP 16

struct col {
	size_t start, len;
	char title[32];
};

struct text {
	const char *path;
	size_t lineno;
	struct vp_profile *p;
	struct vp_event_table *t;
	uint64_t ev_samples, ev_count;	/* from the event's comment header */
	int samples_exact;
	struct col cols[MAX_COLS];
	size_t ncols;
	int c_overhead, c_samples, c_period, c_dso, c_sym;	/* column indexes, -1 absent */
	char header[1024];	/* the column-head line, waiting for its rule */
	uint64_t sum_samples, sum_period;
	/* group view: one table per member, sums per member */
	size_t ngroup;
	struct vp_event_table *gt[MAX_GROUP];
	uint64_t gsum_samples[MAX_GROUP], gsum_period[MAX_GROUP];
	int warned_group_period;
	struct vp_error *err;
};

static int fail(struct text *x, const char *what)
{
	return vp_errorf(x->err, -EINVAL, "'%s': line %zu: %s", x->path, x->lineno, what);
}

/* "472", "2K", "1M": perf abbreviates large sample counts by 1000s. */
static int parse_count(const char *s, uint64_t *v, int *exact)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || d < 0)
		return -1;
	*exact = 1;
	if (*end == 'K' || *end == 'M' || *end == 'G') {
		d *= *end == 'K' ? 1e3 : *end == 'M' ? 1e6 : 1e9;
		*exact = 0;
	}
	*v = (uint64_t)llround(d);
	return 0;
}

static int finish_event(struct text *x)
{
	struct vp_event_table *t = x->t;

	if (x->ngroup) {
		/* The event line counts the whole group: each member's totals are
		 * the sums of its rows. */
		for (size_t m = 0; m < x->ngroup; m++) {
			x->gt[m]->total_samples = x->gsum_samples[m];
			x->gt[m]->total_period = x->gsum_period[m];
		}
		x->ngroup = 0;
		x->t = NULL;
		x->ncols = 0;
		return 0;
	}
	if (!t)
		return 0;
	/* The event line's count is exact unless abbreviated (2K); rows cut by
	 * --percent-limit still count in it. */
	t->total_samples = x->samples_exact || x->c_samples < 0 ? x->ev_samples : x->sum_samples;
	t->total_period = x->ev_count ? x->ev_count : x->sum_period;
	if (t->total_samples < x->sum_samples)
		t->total_samples = x->sum_samples;
	if (t->total_period < x->sum_period)
		t->total_period = x->sum_period;
	x->t = NULL;
	x->ncols = 0;
	return 0;
}

static void trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s))
		(*s)++, (*n)--;
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* The rule line "# ........  ......" fixes the columns of the heads above it. */
static int set_columns(struct text *x, const char *rule, size_t n)
{
	size_t i = 0;

	x->ncols = 0;
	x->c_overhead = x->c_samples = x->c_period = x->c_dso = x->c_sym = -1;
	while (i < n) {
		if (rule[i] != '.') {
			i++;
			continue;
		}
		size_t s = i;
		while (i < n && rule[i] == '.')
			i++;
		if (x->ncols == MAX_COLS)
			return fail(x, "too many columns");
		struct col *c = &x->cols[x->ncols];
		c->start = s;
		c->len = i - s;
		const char *h = x->header + (s < strlen(x->header) ? s : strlen(x->header));
		size_t hn = strnlen(h, c->len);
		trim(&h, &hn);
		snprintf(c->title, sizeof(c->title), "%.*s", (int)hn, h);
		int k = (int)x->ncols++;
		if (!strcmp(c->title, "Self") || (!strcmp(c->title, "Overhead") && x->c_overhead < 0))
			x->c_overhead = k;
		else if (!strcmp(c->title, "Samples"))
			x->c_samples = k;
		else if (!strcmp(c->title, "Period"))
			x->c_period = k;
		else if (!strcmp(c->title, "Shared Object"))
			x->c_dso = k;
		else if (!strcmp(c->title, "Symbol"))
			x->c_sym = k;
	}
	/* --children puts Children first and Self second: Self is the table */
	for (size_t k = 0; k < x->ncols; k++)
		if (!strcmp(x->cols[k].title, "Self"))
			x->c_overhead = (int)k;
	if (x->c_overhead < 0 || x->c_sym < 0)
		return fail(x, "no Overhead and Symbol columns (perf report --sort must include sym)");
	if (x->c_sym != (int)x->ncols - 1)
		return fail(x, "the Symbol column is not the last one");
	return 0;
}

/* A cell of a data line, or "" past its end. */
static void cell(const struct text *x, const char *line, size_t n, size_t k, const char **s,
		 size_t *len)
{
	const struct col *c = &x->cols[k];

	if (c->start >= n) {
		*s = line + n;
		*len = 0;
		return;
	}
	*s = line + c->start;
	*len = k + 1 == x->ncols ? n - c->start : (c->start + c->len <= n ? c->len : n - c->start);
	trim(s, len);
}

static int is_hex_addr(const char *s, size_t n)
{
	if (n < 3 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (size_t i = 2; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* The m-th whitespace-separated token of a cell. */
static int token(const char *s, size_t len, size_t m, char *buf, size_t size)
{
	size_t i = 0;

	for (;;) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		size_t b = i;
		while (i < len && !isspace((unsigned char)s[i]))
			i++;
		if (b == i)
			return -1;
		if (m-- == 0) {
			snprintf(buf, size, "%.*s", (int)(i - b < size - 1 ? i - b : size - 1), s + b);
			return 0;
		}
	}
}

static int key_cells(struct text *x, const char *line, size_t n, struct vp_row *row)
{
	const char *s;
	size_t len;

	if (x->c_dso >= 0) {
		cell(x, line, n, (size_t)x->c_dso, &s, &len);
		row->dso = vp_strpool_intern_n(x->p->pool, s, len);
	} else {
		row->dso = vp_profile_intern(x->p, "");
	}
	cell(x, line, n, (size_t)x->c_sym, &s, &len);
	if (len < 4 || s[0] != '[' || s[2] != ']' || !vp_domain_valid(s[1]) || s[3] != ' ')
		return fail(x, "the symbol does not start with a domain like '[.] '");
	row->domain = s[1];
	s += 4;
	len -= 4;
	trim(&s, &len);
	row->symbol = is_hex_addr(s, len) ? vp_profile_intern(x->p, "[unknown]")
					  : vp_strpool_intern_n(x->p->pool, s, len);
	if (!row->dso || !row->symbol)
		return vp_errorf(x->err, -ENOMEM, "out of memory");
	return 0;
}

static int group_entry(struct text *x, const char *line, size_t n)
{
	struct vp_row key = { .pid = -1 };
	const char *s;
	size_t len;
	char buf[64];
	int exact, r;

	if (x->c_samples < 0)
		return fail(x, "a group view (events side by side) needs perf report -n: "
			       "each event's sample counts are not in the percentages");
	if ((r = key_cells(x, line, n, &key)) < 0)
		return r;
	for (size_t m = 0; m < x->ngroup; m++) {
		struct vp_row row = key;
		char *end;
		cell(x, line, n, (size_t)x->c_overhead, &s, &len);
		if (token(s, len, m, buf, sizeof(buf)) < 0 || strtod(buf, &end) < 0 || end == buf ||
		    strcmp(end, "%"))
			return fail(x, "not a perf report entry (bad overhead in a group view)");
		cell(x, line, n, (size_t)x->c_samples, &s, &len);
		if (token(s, len, m, buf, sizeof(buf)) < 0 ||
		    parse_count(buf, &row.samples, &exact) < 0 || !exact)
			return fail(x, "bad sample count");
		if (x->c_period >= 0) {
			cell(x, line, n, (size_t)x->c_period, &s, &len);
			if (token(s, len, m, buf, sizeof(buf)) < 0 ||
			    parse_count(buf, &row.period, &exact) < 0 || !exact)
				return fail(x, "bad period");
		} else {
			row.period = row.samples;
		}
		if (!row.samples && !row.period)
			continue;
		if (vp_table_add(x->gt[m], &row) < 0)
			return vp_errorf(x->err, -ENOMEM, "out of memory");
		x->gsum_samples[m] += row.samples;
		x->gsum_period[m] += row.period;
	}
	if (x->c_period < 0 && !x->warned_group_period) {
		x->warned_group_period = 1;
		vp_warn("'%s': a group view without --show-total-period has no periods: each "
			"event's period is its sample count", x->path);
	}
	return 0;
}

static int entry(struct text *x, const char *line, size_t n)
{
	const char *s;
	size_t len;
	char buf[64];
	double pct;
	char *end;
	struct vp_row row = { .pid = -1 };
	int exact;

	cell(x, line, n, (size_t)x->c_overhead, &s, &len);
	snprintf(buf, sizeof(buf), "%.*s", (int)(len < 60 ? len : 60), s);
	pct = strtod(buf, &end);
	if (end == buf || strcmp(end, "%") || pct < 0 || pct > 100.0001)
		return fail(x, "not a perf report entry (bad overhead)");
	if (x->c_samples >= 0) {
		cell(x, line, n, (size_t)x->c_samples, &s, &len);
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < 60 ? len : 60), s);
		if (parse_count(buf, &row.samples, &exact) < 0 || !exact)
			return fail(x, "bad sample count");
	} else {
		row.samples = (uint64_t)llround(pct / 100.0 * (double)x->ev_samples);
	}
	if (x->c_period >= 0) {
		cell(x, line, n, (size_t)x->c_period, &s, &len);
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < 60 ? len : 60), s);
		if (parse_count(buf, &row.period, &exact) < 0 || !exact)
			return fail(x, "bad period");
	} else {
		row.period = (uint64_t)llround(pct / 100.0 * (double)x->ev_count);
	}
	/* --children lists callers that have no samples of their own */
	if (!row.samples && !row.period)
		return 0;
	int r = key_cells(x, line, n, &row);
	if (r < 0)
		return r;
	if (vp_table_add(x->t, &row) < 0)
		return vp_errorf(x->err, -ENOMEM, "out of memory");
	x->sum_samples += row.samples;
	x->sum_period += row.period;
	return 0;
}

/* "# Samples: 271  of events 'anon group { cpu-clock, page-faults }'": one
 * table per member, named as the member. */
static int group_line(struct text *x, const char *line, size_t n, const char *q)
{
	const char *end = line + n, *open = memchr(q, '{', (size_t)(end - q)), *close;
	char name[512];

	finish_event(x);
	close = open ? memchr(open, '}', (size_t)(end - open)) : NULL;
	if (!close)
		return fail(x, "bad group event line (no '{ ... }' member list)");
	x->ngroup = 0;
	for (const char *p = open + 1; p < close;) {
		const char *c = memchr(p, ',', (size_t)(close - p));
		const char *e = c ? c : close;
		size_t len = (size_t)(e - p);
		trim(&p, &len);
		if (!len || len >= sizeof(name))
			return fail(x, "bad group member name");
		if (x->ngroup == MAX_GROUP)
			return fail(x, "too many events in a group");
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (vp_profile_find(x->p, name))
			return fail(x, "the same event twice");
		x->gt[x->ngroup] = vp_profile_table(x->p, name, VP_KEY_DEFAULT);
		if (!x->gt[x->ngroup])
			return vp_errorf(x->err, -ENOMEM, "out of memory");
		x->gsum_samples[x->ngroup] = x->gsum_period[x->ngroup] = 0;
		x->ngroup++;
		p = c ? c + 1 : close;
	}
	if (!x->ngroup)
		return fail(x, "a group of no events");
	x->t = x->gt[0];	/* rows follow */
	return 0;
}

static int comment(struct text *x, const char *line, size_t n)
{
	char name[512];
	const char *q;

	if (n >= 11 && !strncmp(line, "# Samples: ", 11) && (q = memmem(line, n, "of events '", 11)))
		return group_line(x, line, n, q + 11);
	if (n >= 11 && !strncmp(line, "# Samples: ", 11) && (q = memmem(line, n, "of event '", 10))) {
		const char *e = memchr(q + 10, '\'', n - (size_t)(q + 10 - line));
		/* names may hold quotes ('{a,b}' groups): the last quote ends it */
		for (const char *p = e; p && p < line + n; p = memchr(p + 1, '\'', n - (size_t)(p + 1 - line)))
			e = p;
		if (!e || e == q + 10 || e - (q + 10) >= (ptrdiff_t)sizeof(name))
			return fail(x, "bad event line");
		finish_event(x);
		snprintf(name, sizeof(name), "%.*s", (int)(e - (q + 10)), q + 10);
		if (vp_profile_find(x->p, name))
			return fail(x, "the same event twice");
		x->t = vp_profile_table(x->p, name, VP_KEY_DEFAULT);
		if (!x->t)
			return vp_errorf(x->err, -ENOMEM, "out of memory");
		/* the line is not NUL-terminated: parse a bounded copy */
		snprintf(name, sizeof(name), "%.*s", (int)(n - 11 < 64 ? n - 11 : 64), line + 11);
		if (parse_count(name, &x->ev_samples, &x->samples_exact) < 0)
			return fail(x, "bad sample count in the event line");
		x->ev_count = 0;
		x->sum_samples = x->sum_period = 0;
		return 0;
	}
	if (n >= 25 && !strncmp(line, "# Event count (approx.): ", 25)) {
		int exact;
		snprintf(name, sizeof(name), "%.*s", (int)(n - 25 < 64 ? n - 25 : 64), line + 25);
		if (parse_count(name, &x->ev_count, &exact) < 0)
			return fail(x, "bad event count");
		return 0;
	}
	if (n > 2 && line[1] == ' ' && line[2] == '.' && x->header[0]) {
		int r = set_columns(x, line, n);
		x->header[0] = '\0';
		return r;
	}
	/* Remember what may be the column heads: the rule line follows it. */
	snprintf(x->header, sizeof(x->header), "%.*s", (int)(n < sizeof(x->header) ? n : sizeof(x->header) - 1), line);
	return 0;
}

int vp_profile_read_perf_text(const char *path, const char *data, size_t len,
			      struct vp_profile **out, struct vp_error *err)
{
	struct text x = { .path = path, .err = err };
	const char *p = data, *end = data + len;
	int r = 0;

	*out = NULL;
	if (!(x.p = vp_profile_new()))
		return vp_errorf(err, -ENOMEM, "out of memory");
	char *lbuf = NULL;	/* the line, NUL-terminated: the parsers use C strings */
	size_t lcap = 0;
	while (p < end && r >= 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = nl ? nl + 1 : end;
		x.lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		if (n + 1 > lcap) {
			char *nb = realloc(lbuf, n + 1);
			if (!nb) {
				r = vp_errorf(err, -ENOMEM, "out of memory");
				break;
			}
			lbuf = nb;
			lcap = n + 1;
		}
		if (memchr(p, '\0', n)) {
			r = fail(&x, "a NUL byte: not text");
			break;
		}
		memcpy(lbuf, p, n);
		lbuf[n] = '\0';
		p = lbuf;
		if (n && p[0] == '#')
			r = comment(&x, p, n);
		else if (n && x.ncols && x.t) {
			const char *s;
			size_t cl;
			cell(&x, p, n, (size_t)x.c_overhead, &s, &cl);
			if (cl && s[cl - 1] == '%' && isdigit((unsigned char)s[0])) {
				r = x.ngroup ? group_entry(&x, p, n) : entry(&x, p, n);
			} else {
				/* -g callchain lines leave the first column blank */
				cell(&x, p, n, 0, &s, &cl);
				if (cl)
					r = fail(&x, "not a perf report entry or callchain line");
			}
		} else if (n) {
			const char *s = p;
			size_t cl = n;
			trim(&s, &cl);
			if (cl)
				r = fail(&x, "text outside an event's table (is this perf report --stdio output?)");
		}
		p = next;
	}
	free(lbuf);
	if (r >= 0)
		finish_event(&x);
	if (r >= 0 && !x.p->ntables)
		r = vp_errorf(err, -EINVAL, "'%s': no event tables in this perf report text", path);
	if (r < 0) {
		vp_profile_free(x.p);
		return r;
	}
	x.p->meta.source = vp_profile_intern(x.p, path);
	*out = x.p;
	return 0;
}
