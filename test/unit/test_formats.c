/* Machine formats: a saved comparison reads back whole (every row, both sides'
 * metadata and labels) whatever top-N was printed; CSV and XML tables round
 * trip names with commas, quotes, newlines and formula-looking starts; the
 * join's edge cases (empty table, disjoint events) stay finite. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "converters/formats.h"

static const char *const tricky[] = {
	"std::map<int, int>::find(int const&)",
	"say \"hi\", twice",
	"two\nlines",
	"=HYPERLINK(\"http://x\")",
	"'quoted already",
	"''=both",
	"-negative",
	"a & b < c > d",
};
#define NTRICKY (sizeof(tricky) / sizeof(tricky[0]))

static void add(struct vp_profile *p, const char *ev, const char *sym, const char *dso, char dom,
		uint64_t samples, uint64_t period)
{
	struct vp_event_table *t = vp_profile_table(p, ev, VP_KEY_DEFAULT);
	struct vp_row r = { vp_profile_intern(p, sym), vp_profile_intern(p, dso), NULL, -1, dom,
			    samples, period };
	assert_non_null(t);
	assert_true(vp_table_add(t, &r) >= 0);
}

/* Run a writer into memory. */
static char *written(int (*fn)(FILE *, const void *, const void *), const void *a, const void *b,
		     size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(fn(f, a, b), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static int w_cmp_save(FILE *f, const void *c, const void *o)
{
	(void)o;
	return vp_cmp_save_xml(f, c);
}

static int w_cmp_csv(FILE *f, const void *c, const void *o)
{
	return vp_cmp_write_csv(f, c, o);
}

static int w_prof_csv(FILE *f, const void *p, const void *o)
{
	return vp_profile_write_csv(f, p, o);
}

static int w_prof_xml(FILE *f, const void *p, const void *o)
{
	return vp_profile_write_xml(f, p, o);
}

static void make_sides(struct vp_profile **h, struct vp_profile **g)
{
	*h = vp_profile_new();
	*g = vp_profile_new();
	for (size_t i = 0; i < NTRICKY; i++) {
		add(*h, "cpu-clock", tricky[i], "/usr/bin/a b", '.', 10 + i, 100 + 10 * i);
		if (i % 3)	/* some on both sides, some host only */
			add(*g, "cpu-clock", tricky[i], "/opt/a b", '.', 20 + i, 300 + i);
	}
	add(*g, "cpu-clock", "guest_only", "/opt/a b", '.', 7, 70);
	add(*h, "dTLB-store-misses", "walk", "[kernel.kallsyms]", 'k', 3, 3000);
	add(*g, "page-faults", "touch", "/opt/a b", '.', 5, 5);
	(*h)->meta.label = vp_profile_intern(*h, "bare metal");
	(*h)->meta.hostname = vp_profile_intern(*h, "host, \"one\"");
	(*h)->meta.duration = 1.5;
	(*h)->meta.nr_cpus = 8;
	(*g)->meta.source = vp_profile_intern(*g, "/tmp/guest.data");
	(*g)->meta.hypervisor = vp_profile_intern(*g, "KVM");
	(*g)->meta.steal_time = 0.25;
}

static const struct vp_cmp_event *event(const struct vp_comparison *c, const char *name)
{
	for (size_t i = 0; i < c->nevents; i++)
		if (!strcmp(c->events[i].name, name))
			return &c->events[i];
	return NULL;
}

static const struct vp_cmp_row *find_row(const struct vp_cmp_event *e, const struct vp_cmp_row *r)
{
	for (size_t i = 0; i < e->total_rows; i++)
		if (!strcmp(e->rows[i].symbol, r->symbol) && e->rows[i].domain == r->domain)
			return &e->rows[i];
	return NULL;
}

/* Every row of a's full join is in b with the same values, and b has no others. */
static void same_rows(const struct vp_comparison *a, const struct vp_comparison *b, int totals)
{
	for (size_t i = 0; i < a->nevents; i++) {
		const struct vp_cmp_event *ea = &a->events[i], *eb = event(b, ea->name);
		if (!ea->total_rows && !totals)
			continue;	/* a CSV has no line for an event without rows */
		assert_non_null(eb);
		assert_int_equal(eb->total_rows, ea->total_rows);
		for (int s = 0; s < 2 && totals; s++) {
			assert_int_equal(eb->present[s], ea->present[s]);
			assert_int_equal(eb->total_samples[s], ea->total_samples[s]);
			assert_int_equal(eb->total_period[s], ea->total_period[s]);
		}
		for (size_t r = 0; r < ea->total_rows; r++) {
			const struct vp_cmp_row *ra = &ea->rows[r], *rb = find_row(eb, ra);
			assert_non_null(rb);
			assert_string_equal(rb->dso, ra->dso);
			for (int s = 0; s < 2; s++) {
				assert_int_equal(rb->samples[s], ra->samples[s]);
				assert_int_equal(rb->period[s], ra->period[s]);
			}
		}
	}
}

static void saved_comparison_reads_back_whole_with_metadata(void **state)
{
	struct vp_profile *h, *g;
	struct vp_comparison *c, *back;
	struct vp_compare_opts o;
	struct vp_error err = { 0 };
	size_t len;
	(void)state;

	make_sides(&h, &g);
	vp_compare_opts_init(&o);
	o.top = 2;	/* what a table printed: the saved file keeps every row anyway */
	o.rank = VP_RANK_ABSDELTA;
	o.value = VP_VALUE_SAMPLES;
	assert_int_equal(vp_compare(h, g, &o, &c, &err), 0);
	assert_int_equal(event(c, "cpu-clock")->nrows, 2);
	char *xml = written(w_cmp_save, c, NULL, &len);
	assert_int_equal(vp_cmp_read_xml("t.xml", xml, len, &back, &err), 0);

	same_rows(c, back, 1);
	assert_int_equal(back->nevents, 3);
	assert_int_equal(event(back, "cpu-clock")->nrows, NTRICKY + 1);	/* untruncated */
	assert_false(event(back, "page-faults")->present[VP_HOST]);
	assert_false(event(back, "dTLB-store-misses")->present[VP_GUEST]);
	assert_int_equal(back->value, VP_VALUE_SAMPLES);
	assert_int_equal(back->rank, VP_RANK_ABSDELTA);
	assert_int_equal(back->key, VP_KEY_SYM);
	/* labels: stored label, else the file's base name */
	assert_string_equal(back->label[VP_HOST], "bare metal");
	assert_string_equal(back->label[VP_GUEST], "guest.data");
	assert_string_equal(back->meta[VP_HOST].hostname, "host, \"one\"");
	assert_true(fabs(back->meta[VP_HOST].duration - 1.5) < 1e-9);
	assert_int_equal(back->meta[VP_HOST].nr_cpus, 8);
	assert_string_equal(back->meta[VP_GUEST].hypervisor, "KVM");
	assert_true(fabs(back->meta[VP_GUEST].steal_time - 0.25) < 1e-9);
	assert_null(back->meta[VP_GUEST].hostname);
	assert_int_equal(back->meta[VP_GUEST].nr_cpus, -1);

	/* the chart re-ranks and cuts what it loaded */
	vp_comparison_rank(back, VP_RANK_GUEST, 3);
	const struct vp_cmp_event *e = event(back, "cpu-clock");
	assert_int_equal(e->nrows, 3);
	assert_true(e->rows[0].samples[VP_GUEST] >= e->rows[1].samples[VP_GUEST]);
	assert_true(e->rows[1].samples[VP_GUEST] >= e->rows[2].samples[VP_GUEST]);

	free(xml);
	vp_comparison_free(back);
	vp_comparison_free(c);
	vp_profile_free(h);
	vp_profile_free(g);
}

static void comparison_csv_reads_back_the_same_rows(void **state)
{
	struct vp_profile *h, *g;
	struct vp_comparison *c, *back;
	struct vp_compare_opts o;
	struct vp_out_opts oo;
	struct vp_error err = { 0 };
	size_t len;
	(void)state;

	make_sides(&h, &g);
	vp_compare_opts_init(&o);
	o.top = 0;
	assert_int_equal(vp_compare(h, g, &o, &c, &err), 0);
	vp_out_opts_init(&oo);
	oo.full_names = 1;
	char *csv = written(w_cmp_csv, c, &oo, &len);
	assert_int_equal(strncmp(csv, VP_CSV_CMP_HEADER VP_CSV_CMP_STATS "\r\n",
				 strlen(VP_CSV_CMP_HEADER VP_CSV_CMP_STATS) + 2), 0);	/* RFC 4180 */
	assert_non_null(strstr(csv, "\"'=HYPERLINK(\"\"http://x\"\")\""));	/* guarded, quoted */
	assert_null(strstr(csv, "nan"));	/* (an unbounded ratio_high is "inf" by design) */
	assert_int_equal(vp_cmp_read_csv("t.csv", csv, len, &back, &err), 0);
	same_rows(c, back, 0);
	assert_false(event(back, "page-faults")->present[VP_HOST]);
	assert_true(event(back, "page-faults")->present[VP_GUEST]);
	assert_false(event(back, "dTLB-store-misses")->present[VP_GUEST]);
	free(csv);
	vp_comparison_free(back);
	vp_comparison_free(c);
	vp_profile_free(h);
	vp_profile_free(g);
}

static void profile_tables_round_trip_through_csv_and_xml(void **state)
{
	struct vp_profile *p = vp_profile_new(), *back;
	struct vp_out_opts oo;
	struct vp_error err = { 0 };
	size_t len;
	(void)state;

	for (size_t i = 0; i < NTRICKY; i++)
		add(p, i % 2 ? "cpu-clock" : "sched:sched_switch", tricky[i], "/usr/lib/x, \"y\".so",
		    i % 2 ? '.' : 'k', i + 1, 1000 * (i + 1));
	vp_out_opts_init(&oo);
	oo.full_names = 1;
	for (int fmt = 0; fmt < 2; fmt++) {
		char *buf = written(fmt ? w_prof_xml : w_prof_csv, p, &oo, &len);
		int r = fmt ? vp_profile_read_xml("t.xml", buf, len, &back, &err)
			    : vp_profile_read_csv("t.csv", buf, len, &back, &err);
		assert_int_equal(r, 0);
		assert_int_equal(back->ntables, p->ntables);
		for (size_t t = 0; t < p->ntables; t++) {
			struct vp_event_table *a = p->tables[t], *b = vp_profile_find(back, a->name);
			assert_non_null(b);
			assert_int_equal(b->nrows, a->nrows);
			for (size_t i = 0; i < a->nrows; i++) {
				struct vp_row key = a->rows[i];
				key.symbol = vp_profile_intern(back, key.symbol);
				key.dso = vp_profile_intern(back, key.dso);
				struct vp_row *r2 = vp_table_lookup(b, &key);
				assert_non_null(r2);	/* the same name, byte for byte */
				assert_int_equal(r2->samples, a->rows[i].samples);
				assert_int_equal(r2->period, a->rows[i].period);
			}
		}
		vp_profile_free(back);
		free(buf);
	}
	/* without the guard a formula starts its cell */
	oo.csv_safe = 0;
	char *raw = written(w_prof_csv, p, &oo, &len);
	assert_non_null(strstr(raw, ",\"=HYPERLINK"));
	free(raw);
	vp_profile_free(p);
}

/* Names XML cannot carry (a C0 control, invalid UTF-8, an overlong form) read back from the XML table as U+FFFD in their
 * place, tab and newline as they were, and the numbers as written, to the
 * largest. */
static void xml_names_it_cannot_carry_become_fffd(void **state)
{
	static const char *const in[] = { "a\x01" "b", "c\xff" "d", "e\xc0\x9b" "f", "t\tn\nr" };
	static const char *const out[] = { "a\xef\xbf\xbd" "b", "c\xef\xbf\xbd" "d",
					   "e\xef\xbf\xbd\xef\xbf\xbd" "f", "t\tn\nr" };
	struct vp_profile *p = vp_profile_new(), *back;
	struct vp_out_opts oo;
	struct vp_error err = { 0 };
	size_t len;
	(void)state;

	for (size_t i = 0; i < 4; i++)
		add(p, "cpu-clock", in[i], "/bin/x", '.', UINT64_MAX - i, UINT64_MAX - 7 * i);
	vp_out_opts_init(&oo);
	oo.full_names = 1;
	char *buf = written(w_prof_xml, p, &oo, &len);
	assert_int_equal(vp_profile_read_xml("t.xml", buf, len, &back, &err), 0);
	struct vp_event_table *b = vp_profile_find(back, "cpu-clock");
	assert_non_null(b);
	assert_int_equal(b->nrows, 4);
	for (size_t i = 0; i < 4; i++) {
		struct vp_row key = { vp_profile_intern(back, out[i]), vp_profile_intern(back, "/bin/x"),
				      NULL, -1, '.', 0, 0 };
		struct vp_row *r = vp_table_lookup(b, &key);
		assert_non_null(r);
		assert_true(r->samples == UINT64_MAX - i && r->period == UINT64_MAX - 7 * i);
	}
	vp_profile_free(back);
	free(buf);
	vp_profile_free(p);
}

static void empty_table_and_disjoint_events_stay_finite(void **state)
{
	struct vp_profile *h = vp_profile_new(), *g = vp_profile_new();
	struct vp_comparison *c;
	struct vp_compare_opts o;
	struct vp_error err = { 0 };
	enum vp_ratio_kind k;
	(void)state;

	add(h, "cpu-clock", "f", "/bin/x", '.', 4, 40);
	assert_non_null(vp_profile_table(g, "cpu-clock", VP_KEY_DEFAULT));	/* empty */
	add(h, "task-clock", "f", "/bin/x", '.', 1, 1);
	add(g, "page-faults", "g", "/bin/x", '.', 2, 2);
	vp_compare_opts_init(&o);
	assert_int_equal(vp_compare(h, g, &o, &c, &err), 0);
	assert_int_equal(c->nevents, 3);
	const struct vp_cmp_event *e = event(c, "cpu-clock");
	assert_true(e->present[VP_HOST] && e->present[VP_GUEST]);
	assert_int_equal(e->total_rows, 1);
	double ratio = vp_cmp_ratio(e, &e->rows[0], VP_GUEST, VP_VALUE_PERIOD, &k);
	assert_int_equal(k, VP_RATIO_ONLY_HOST);
	assert_true(isfinite(ratio));
	assert_true(vp_cmp_share(e, &e->rows[0], VP_GUEST, VP_VALUE_PERIOD) == 0.0);
	assert_true(fabs(vp_cmp_delta_pp(e, &e->rows[0], VP_GUEST, VP_VALUE_PERIOD) + 100.0) < 1e-9);
	e = event(c, "task-clock");
	assert_true(e->present[VP_HOST] && !e->present[VP_GUEST]);
	e = event(c, "page-faults");
	assert_true(!e->present[VP_HOST] && e->present[VP_GUEST]);
	for (enum vp_rank r = VP_RANK_MAX; r <= VP_RANK_EFFECT; r++) {
		vp_comparison_rank(c, r, 0);	/* nothing to divide by zero */
		for (size_t i = 0; i < c->nevents; i++)
			for (size_t j = 0; j < c->events[i].nrows; j++)
				assert_true(isfinite(vp_cmp_delta_pp(&c->events[i], &c->events[i].rows[j],
								     VP_GUEST, VP_VALUE_PERIOD)));
	}
	vp_comparison_free(c);
	vp_profile_free(h);
	vp_profile_free(g);
}

static void malformed_saved_comparisons_are_refused(void **state)
{
#define V1 "<vmprof-comparison version=\"1\" key=\"sym\" value=\"period\" rank=\"max\">"
#define SIDES1 "<side which=\"host\" label=\"h\"><meta/></side><side which=\"guest\" label=\"g\"><meta/></side>"
#define V2 "<vmprof-comparison version=\"2\" key=\"sym\" value=\"period\" rank=\"max\" alpha=\"0.05\">"
#define SIDES2 "<side which=\"host\" index=\"0\" label=\"h\" runs=\"1\"><run index=\"0\"><meta/></run></side>" \
	"<side which=\"guest\" index=\"1\" label=\"g\" runs=\"2\"><run index=\"1\"><meta/></run>" \
	"<run index=\"2\"><meta/></run></side>"
#define EV2 "<event name=\"e\" rows=\"1\"><run index=\"0\" samples=\"5\" period=\"5\"/>" \
	"<run index=\"1\" samples=\"5\" period=\"5\"/>"
	static const char *const bad[] = {
		V1 "<event",
		"<vmprof-profile version=\"1\"/>",
		"<vmprof-comparison version=\"1\" key=\"sideways\" value=\"period\" rank=\"max\">" SIDES1
		"</vmprof-comparison>",
		/* version 1: a row above its event's total; a bad domain; one side */
		V1 SIDES1 "<event name=\"e\" host-name=\"e\" host-samples=\"1\" host-period=\"1\" rows=\"1\">"
		"<row symbol=\"f\" dso=\"\" domain=\".\" host-samples=\"9\" host-period=\"1\" "
		"guest-samples=\"0\" guest-period=\"0\" delta=\"0\"/></event></vmprof-comparison>",
		V1 SIDES1 "<event name=\"e\" host-name=\"e\" host-samples=\"1\" host-period=\"1\" rows=\"1\">"
		"<row symbol=\"f\" dso=\"\" domain=\"Z\" host-samples=\"1\" host-period=\"1\" "
		"guest-samples=\"0\" guest-period=\"0\" delta=\"0\"/></event></vmprof-comparison>",
		V1 "<side which=\"host\" label=\"h\"><meta/></side></vmprof-comparison>",
		/* version 2: a run list too short, too long, not counts; a row above its
		 * run's total; values in a run without the event; an index out of
		 * range; a side without runs; an unknown version; alpha out of range */
		V2 SIDES2 EV2 "<row symbol=\"f\" dso=\"\" domain=\".\" run-samples=\"1 1\" run-period=\"1 1 0\"/>"
		"</event></vmprof-comparison>",
		V2 SIDES2 EV2 "<row symbol=\"f\" dso=\"\" domain=\".\" run-samples=\"1 1 0 0\" run-period=\"1 1 0\"/>"
		"</event></vmprof-comparison>",
		V2 SIDES2 EV2 "<row symbol=\"f\" dso=\"\" domain=\".\" run-samples=\"1 -1 0\" run-period=\"1 1 0\"/>"
		"</event></vmprof-comparison>",
		V2 SIDES2 EV2 "<row symbol=\"f\" dso=\"\" domain=\".\" run-samples=\"1 x 0\" run-period=\"1 1 0\"/>"
		"</event></vmprof-comparison>",
		V2 SIDES2 EV2 "<row symbol=\"f\" dso=\"\" domain=\".\" run-samples=\"6 1 0\" run-period=\"1 1 0\"/>"
		"</event></vmprof-comparison>",
		V2 SIDES2 EV2 "<row symbol=\"f\" dso=\"\" domain=\".\" run-samples=\"1 1 1\" run-period=\"1 1 1\"/>"
		"</event></vmprof-comparison>",
		V2 SIDES2 "<event name=\"e\" rows=\"0\"><run index=\"3\" samples=\"5\" period=\"5\"/></event>"
		"</vmprof-comparison>",
		V2 "<side which=\"host\" index=\"0\" label=\"h\" runs=\"1\"><run index=\"0\"><meta/></run></side>"
		"<side which=\"guest\" index=\"1\" label=\"g\" runs=\"1\"/></vmprof-comparison>",
		"<vmprof-comparison version=\"3\" key=\"sym\" value=\"period\" rank=\"max\">" SIDES2
		"</vmprof-comparison>",
		"<vmprof-comparison version=\"2\" key=\"sym\" value=\"period\" rank=\"max\" alpha=\"1.5\">" SIDES2
		"</vmprof-comparison>",
	};
	struct vp_comparison *c;
	struct vp_error err;
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_true(vp_cmp_read_xml("bad.xml", bad[i], strlen(bad[i]), &c, &err) < 0);
		assert_null(c);
		assert_non_null(strstr(err.msg, "'bad.xml'"));
	}
	static const char csv[] = VP_CSV_CMP_HEADER "\n\"e\",\"f\",\"\",\".\",1,x,0,0,0,0,,0\n";
	memset(&err, 0, sizeof(err));
	assert_true(vp_cmp_read_csv("bad.csv", csv, strlen(csv), &c, &err) < 0);
	assert_non_null(strstr(err.msg, "'bad.csv': record 2"));
}

static int w_cmp_xml(FILE *f, const void *c, const void *o)
{
	return vp_cmp_write_xml(f, c, o);
}

static int w_cmp_table(FILE *f, const void *c, const void *o)
{
	static const char *const inputs[] = { "a", "b", "c" };
	return vp_cmp_write_table(f, c, inputs, o);
}

/* A comparison of sides with several runs (one run lacking an event, rows
 * absent in some runs), saved and read back, writes the same table, CSV and
 * XML as the one built: the saved file carries every run's values, and the
 * statistics made again from them are the same bytes. Two and three sides. */
static void saved_runs_read_back_the_same(void **state)
{
	struct vp_profile *p[8];
	static const size_t two[2] = { 4, 4 }, three[3] = { 3, 3, 2 };
	struct vp_compare_opts co;
	struct vp_out_opts o;
	struct vp_error err = { 0 };
	(void)state;

	for (int i = 0; i < 8; i++) {
		p[i] = vp_profile_new();
		for (int k = 0; k < 12; k++) {
			char sym[16];
			snprintf(sym, sizeof(sym), "f%d", k);
			if ((k + i) % 5 == 0)
				continue;	/* absent in this run */
			add(p[i], "cpu-clock", sym, "/bin/app", '.', (uint64_t)(3 + k * k + (i * 7 + k) % 5),
			    (uint64_t)(3 + k * k + (i * 7 + k) % 5) * (1000 + (uint64_t)i));
		}
		if (i != 2)
			add(p[i], "page-faults", "touch", "/bin/app", '.', 3 + (uint64_t)i, 3 + (uint64_t)i);
	}
	vp_compare_opts_init(&co);
	co.top = 0;
	vp_out_opts_init(&o);
	for (int k = 0; k < 2; k++) {
		struct vp_comparison *c, *back;
		char *xml, *a, *b;
		size_t len, la, lb;
		assert_int_equal(vp_compare_runs((const struct vp_profile *const *)p, k ? three : two, k ? 3 : 2,
						 &co, &c, &err), 0);
		xml = written(w_cmp_save, c, NULL, &len);
		assert_int_equal(vp_cmp_read_xml("t.xml", xml, len, &back, &err), 0);
		assert_int_equal(back->nsides, c->nsides);
		assert_int_equal(back->nruns, 8);
		vp_comparison_rank(back, c->rank, 0);
		int (*const writers[])(FILE *, const void *, const void *) = { w_cmp_csv, w_cmp_xml, w_cmp_table };
		for (size_t w = 0; w < 3; w++) {
			a = written(writers[w], c, &o, &la);
			b = written(writers[w], back, &o, &lb);
			assert_int_equal(la, lb);
			assert_memory_equal(a, b, la);
			free(a);
			free(b);
		}
		/* and the statistics are there: the event run 2 lacks has the
		 * baseline's runs counted without it (runs 0-3, or 0-2 of 3 sides) */
		const struct vp_cmp_event *pf = event(back, "page-faults");
		assert_int_equal(pf->nruns[0], k ? 2 : 3);
		assert_true(pf->stat_ok[1]);
		free(xml);
		vp_comparison_free(c);
		vp_comparison_free(back);
	}
	for (int i = 0; i < 8; i++)
		vp_profile_free(p[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(saved_comparison_reads_back_whole_with_metadata),
		cmocka_unit_test(comparison_csv_reads_back_the_same_rows),
		cmocka_unit_test(profile_tables_round_trip_through_csv_and_xml),
		cmocka_unit_test(xml_names_it_cannot_carry_become_fffd),
		cmocka_unit_test(empty_table_and_disjoint_events_stay_finite),
		cmocka_unit_test(malformed_saved_comparisons_are_refused),
		cmocka_unit_test(saved_runs_read_back_the_same),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
