/* pprof's profile.proto in and out: a profile built here field by field reads
 * as the table pprof's rules give (flat time to line[0] of the leaf, the
 * count and period values, the domain label); every hostile change (string
 * indices, ids, value counts, negative or overflowing values, a gzip bomb, a
 * memory bomb) is a clean error naming the file; vmprof's exports of the
 * fixture recordings read back as the recordings' own tables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "converters/formats.h"
#include "converters/pprof.h"
#include "profile.pb-c.h"

/* tests run from the top of the tree */
#define VP_SRCDIR "."

typedef Perftools__Profiles__Profile Profile;

/* A small Go-like CPU profile: main.inner inlined into main.outer at one
 * location, main.other at another; mangled and parameter-list names too. */
enum { S_EMPTY, S_SAMPLES, S_COUNT, S_CPU, S_NS, S_APP, S_INNER, S_OUTER, S_OTHER, S_DOMAIN,
       S_K, S_SHORT, S_FULL, S_MANGLED, S_NTH };
static const char *strings[] = { "", "samples", "count", "cpu", "nanoseconds", "/bin/app",
				 "main.inner", "main.outer", "main.other", "domain", "[k]",
				 "ns::f", "ns::f(int)", "_ZN2ns1gEv" };

struct built {
	Profile pb;
	Perftools__Profiles__ValueType vt[2], *vtp[2], period_type;
	Perftools__Profiles__Mapping m, *mp[1];
	Perftools__Profiles__Function f[5], *fp[5];
	Perftools__Profiles__Location l[4], *lp[4];
	Perftools__Profiles__Line ln[5], *lnp[5];
	Perftools__Profiles__Sample s[3], *sp[3];
	Perftools__Profiles__Label lab, *labp[1];
	uint64_t ids[3][2];
	int64_t values[3][2];
};

static void build(struct built *b)
{
	memset(b, 0, sizeof(*b));
	perftools__profiles__profile__init(&b->pb);
	b->pb.n_string_table = S_NTH;
	b->pb.string_table = (char **)strings;
	for (int i = 0; i < 2; i++) {
		perftools__profiles__value_type__init(&b->vt[i]);
		b->vtp[i] = &b->vt[i];
	}
	b->vt[0] = b->vt[0];
	b->vt[0].type = S_SAMPLES;
	b->vt[0].unit = S_COUNT;
	b->vt[1].type = S_CPU;
	b->vt[1].unit = S_NS;
	b->pb.n_sample_type = 2;
	b->pb.sample_type = b->vtp;
	perftools__profiles__value_type__init(&b->period_type);
	b->period_type.type = S_CPU;
	b->period_type.unit = S_NS;
	b->pb.period_type = &b->period_type;
	perftools__profiles__mapping__init(&b->m);
	b->m.id = 7;
	b->m.filename = S_APP;
	b->mp[0] = &b->m;
	b->pb.n_mapping = 1;
	b->pb.mapping = b->mp;
	const int64_t fname[5][2] = { { S_INNER, S_INNER }, { S_OUTER, 0 }, { S_OTHER, S_OTHER },
				      { S_SHORT, S_FULL }, { 0, S_MANGLED } };
	for (int i = 0; i < 5; i++) {
		perftools__profiles__function__init(&b->f[i]);
		b->f[i].id = 100 + i;	/* sparse ids: the searched path */
		b->f[i].name = fname[i][0];
		b->f[i].system_name = fname[i][1];
		b->fp[i] = &b->f[i];
	}
	b->pb.n_function = 5;
	b->pb.function = b->fp;
	/* location 1: inner inlined into outer; 2: other; 3: ns::f; 4: _ZN2ns1gEv */
	const uint64_t lfun[5] = { 100, 101, 102, 103, 104 };
	for (int i = 0; i < 5; i++) {
		perftools__profiles__line__init(&b->ln[i]);
		b->ln[i].function_id = lfun[i];
		b->lnp[i] = &b->ln[i];
	}
	for (int i = 0; i < 4; i++) {
		perftools__profiles__location__init(&b->l[i]);
		b->l[i].id = i + 1;
		b->l[i].mapping_id = 7;
		b->l[i].address = 0x1000 + 16 * i;
		b->lp[i] = &b->l[i];
	}
	b->l[0].n_line = 2;
	b->l[0].line = &b->lnp[0];
	b->l[1].n_line = 1;
	b->l[1].line = &b->lnp[2];
	b->l[2].n_line = 1;
	b->l[2].line = &b->lnp[3];
	b->l[3].n_line = 1;
	b->l[3].line = &b->lnp[4];
	b->pb.n_location = 4;
	b->pb.location = b->lp;
	/* samples: [1] x3, [2 1] x5 (leaf other), [3] x2 in the kernel domain */
	const uint64_t stacks[3][2] = { { 1, 0 }, { 2, 1 }, { 3, 0 } };
	const size_t depth[3] = { 1, 2, 1 };
	const int64_t counts[3] = { 3, 5, 2 };
	for (int i = 0; i < 3; i++) {
		perftools__profiles__sample__init(&b->s[i]);
		memcpy(b->ids[i], stacks[i], sizeof(b->ids[i]));
		b->s[i].n_location_id = depth[i];
		b->s[i].location_id = b->ids[i];
		b->values[i][0] = counts[i];
		b->values[i][1] = counts[i] * 10000000;
		b->s[i].n_value = 2;
		b->s[i].value = b->values[i];
		b->sp[i] = &b->s[i];
	}
	perftools__profiles__label__init(&b->lab);
	b->lab.key = S_DOMAIN;
	b->lab.str = S_K;
	b->labp[0] = &b->lab;
	b->s[2].n_label = 1;
	b->s[2].label = b->labp;
	b->pb.n_sample = 3;
	b->pb.sample = b->sp;
}

static uint8_t *pack(const Profile *pb, size_t *len)
{
	uint8_t *buf;

	*len = perftools__profiles__profile__get_packed_size(pb);
	buf = malloc(*len + 1);
	assert_non_null(buf);
	assert_int_equal(perftools__profiles__profile__pack(pb, buf), *len);
	return buf;
}

static uint8_t *gzip(const uint8_t *in, size_t len, size_t *outlen)
{
	z_stream z = { 0 };
	size_t cap = len + len / 100 + 1024;
	uint8_t *out = malloc(cap);

	assert_non_null(out);
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (uint8_t *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*outlen = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

static const struct vp_row *row(struct vp_event_table *t, const char *sym)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].symbol, sym))
			return &t->rows[i];
	return NULL;
}

static void check_table(struct vp_profile *p)
{
	struct vp_event_table *t;
	const struct vp_row *r;

	assert_int_equal(p->ntables, 1);
	t = p->tables[0];
	assert_string_equal(t->name, "cpu");
	assert_int_equal(t->total_samples, 10);
	assert_int_equal(t->total_period, 100000000);
	/* the innermost inlined function takes the flat time, as in pprof */
	assert_non_null(r = row(t, "main.inner"));
	assert_int_equal(r->samples, 3);
	assert_int_equal(r->period, 30000000);
	assert_string_equal(r->dso, "/bin/app");
	assert_int_equal(r->domain, '.');
	assert_null(row(t, "main.outer"));
	assert_non_null(r = row(t, "main.other"));
	assert_int_equal(r->samples, 5);
	/* the parameter list in the system name keys the row; the label its domain */
	assert_non_null(r = row(t, "ns::f(int)"));
	assert_int_equal(r->samples, 2);
	assert_int_equal(r->domain, 'k');
}

static void reads_leaf_functions_values_and_domains(void **state)
{
	struct built b;
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	size_t len, glen;
	uint8_t *raw, *gz;

	(void)state;
	build(&b);
	raw = pack(&b.pb, &len);
	assert_int_equal(vp_profile_read_pprof("t.pb", (char *)raw, len, &p, &err), 0);
	check_table(p);
	assert_string_equal(p->meta.source, "t.pb");
	vp_profile_free(p);
	gz = gzip(raw, len, &glen);
	assert_int_equal(vp_input_detect((char *)gz, glen), VP_IN_PPROF);
	assert_int_equal(vp_input_detect((char *)raw, len), VP_IN_PPROF);
	assert_int_equal(vp_profile_read_pprof("t.pb.gz", (char *)gz, glen, &p, &err), 0);
	check_table(p);
	vp_profile_free(p);
	free(gz);
	free(raw);
}

static void mangled_system_names_are_demangled(void **state)
{
	struct built b;
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	size_t len;
	uint8_t *raw;

	(void)state;
	build(&b);
	b.ids[2][0] = 4;	/* the kernel sample now ends in _ZN2ns1gEv (no name) */
	raw = pack(&b.pb, &len);
	assert_int_equal(vp_profile_read_pprof("t.pb", (char *)raw, len, &p, &err), 0);
	assert_non_null(row(p->tables[0], "ns::g()"));
	vp_profile_free(p);
	free(raw);
}

static void expect_refused(const Profile *pb, const char *what)
{
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	size_t len;
	uint8_t *raw = pack(pb, &len);

	if (vp_profile_read_pprof("bad.pb", (char *)raw, len, &p, &err) >= 0)
		fail_msg("accepted: %s", what);
	assert_null(p);
	if (!strstr(err.msg, "'bad.pb'") || !strstr(err.msg, what))
		fail_msg("want '%s' in: %s", what, err.msg);
	free(raw);
}

static void hostile_indices_and_ids_are_refused(void **state)
{
	struct built b;
	const char *nonempty[] = { "x", "samples" };

	(void)state;
	build(&b);
	b.f[2].name = S_NTH;
	expect_refused(&b.pb, "string index 14 outside the string table");
	build(&b);
	b.lab.str = -1;
	expect_refused(&b.pb, "string index -1");
	build(&b);
	b.ids[1][1] = 99;
	expect_refused(&b.pb, "missing location, id 99");
	build(&b);
	b.ln[2].function_id = 5;
	expect_refused(&b.pb, "missing function, id 5");
	build(&b);
	b.l[1].mapping_id = 8;
	expect_refused(&b.pb, "missing mapping, id 8");
	build(&b);
	b.l[3].id = 2;
	expect_refused(&b.pb, "two locations with id 2");
	build(&b);
	b.f[4].id = 0;
	expect_refused(&b.pb, "function number 5 has id 0");
	build(&b);
	b.s[1].n_value = 1;
	expect_refused(&b.pb, "sample 2 has 1 values for 2 sample types");
	build(&b);
	b.values[0][1] = -5;
	expect_refused(&b.pb, "negative value");
	build(&b);
	b.values[0][0] = b.values[1][0] = INT64_MAX;
	b.values[2][0] = 2;
	expect_refused(&b.pb, "past 2^64");
	build(&b);
	b.lab.str = S_APP;
	expect_refused(&b.pb, "label domain '/bin/app'");
	build(&b);
	b.pb.n_sample_type = 0;
	b.s[0].n_value = b.s[1].n_value = b.s[2].n_value = 0;
	expect_refused(&b.pb, "no sample types");
	build(&b);
	b.pb.string_table = (char **)nonempty;
	b.pb.n_string_table = 2;
	b.f[0].name = b.f[0].system_name = 1;
	expect_refused(&b.pb, "does not start with the empty string");
}

static void gzip_bombs_and_memory_bombs_stop_cleanly(void **state)
{
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	struct built b;
	size_t len, glen, n = 1u << 20;
	uint8_t *raw, *gz, *bomb;

	(void)state;
	/* 8 MiB of one string after a real profile's head, capped at 4 MiB */
	build(&b);
	raw = pack(&b.pb, &len);
	bomb = malloc(len + 8 + (8u << 20));
	assert_non_null(bomb);
	memcpy(bomb, raw, len);
	size_t k = len;
	bomb[k++] = 0x32;	/* string_table, 8 MiB long */
	uint32_t sz = 8u << 20;
	while (sz >= 0x80) {
		bomb[k++] = (uint8_t)(sz | 0x80);
		sz >>= 7;
	}
	bomb[k++] = (uint8_t)sz;
	memset(bomb + k, 'a', 8u << 20);
	gz = gzip(bomb, k + (8u << 20), &glen);
	assert_true(glen < 64 * 1024);
	assert_int_equal(vp_input_detect((char *)gz, glen), VP_IN_PPROF);
	assert_int_equal(vp_profile_read_pprof_max("bomb.gz", (char *)gz, glen, 4u << 20, &p, &err),
			 -EFBIG);
	assert_non_null(strstr(err.msg, "'bomb.gz': decompresses to more than 4 MiB"));
	/* under the default cap it reads: one more (unused) string */
	assert_int_equal(vp_profile_read_pprof("bomb.gz", (char *)gz, glen, &p, &err), 0);
	vp_profile_free(p);
	/* cut short: a clean error */
	assert_true(vp_profile_read_pprof("cut.gz", (char *)gz, glen / 2, &p, &err) < 0);
	assert_non_null(strstr(err.msg, "'cut.gz': truncated gzip data"));
	free(gz);
	free(bomb);
	free(raw);

	/* a million empty locations: 2 bytes each on disk, ~80 unpacked */
	bomb = malloc(2 * n + 6);
	assert_non_null(bomb);
	memcpy(bomb, "\x0a\x04\x08\x01\x10\x02", 6);
	for (size_t i = 0; i < n; i++)
		memcpy(bomb + 6 + 2 * i, "\x22\x00", 2);
	assert_true(vp_profile_read_pprof("locs.pb", (char *)bomb, 2 * n + 6, &p, &err) < 0);
	assert_non_null(strstr(err.msg, "'locs.pb': the profile needs more than"));
	free(bomb);
}

static void malformed_protobuf_and_text_are_told_apart(void **state)
{
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	static const char *const text[] = { "hello world\n", "Hello", "event,symbol,dso\n",
					    "\n\n# comment\n", "\nabc", "" };

	(void)state;
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		assert_int_not_equal(vp_input_detect(text[i], strlen(text[i])), VP_IN_PPROF);
	/* a sample_type whose length runs past the end */
	assert_true(vp_profile_read_pprof("m.pb", "\x0a\x09\x08\x01", 4, &p, &err) < 0);
	assert_non_null(strstr(err.msg, "'m.pb': not a pprof profile: malformed protobuf"));
	assert_null(p);
}

static int collect(void *ctx, const char *line)
{
	char **lines = ctx;
	for (; *lines; lines++)
		;
	*lines = strdup(line);
	return 0;
}

static void metadata_comments_read_back(void **state)
{
	struct vp_strpool *pool = vp_strpool_new();
	struct vp_profile_meta m, back;
	char *lines[32] = { 0 };

	(void)state;
	vp_profile_meta_init(&m);
	vp_profile_meta_init(&back);
	m.hostname = "guest1";
	m.osrelease = "6.1.0-13-amd64";
	m.hypervisor = "kvm";
	m.steal_time = 0.25;
	m.duration = 10.5;
	m.nr_cpus = 4;
	m.lost_samples = 3;
	assert_int_equal(vp_pprof_meta_comments(&m, collect, lines), 0);
	for (size_t i = 0; lines[i]; i++) {
		vp_pprof_meta_parse(lines[i], &back, pool);
		free(lines[i]);
	}
	assert_string_equal(back.hostname, "guest1");
	assert_string_equal(back.osrelease, "6.1.0-13-amd64");
	assert_string_equal(back.hypervisor, "kvm");
	assert_true(back.steal_time == 0.25 && back.duration == 10.5);
	assert_int_equal(back.nr_cpus, 4);
	assert_int_equal(back.lost_samples, 3);
	assert_null(back.cmdline);
	/* hostile values leave the field unknown */
	vp_pprof_meta_parse("steal: nan s", &back, pool);
	vp_pprof_meta_parse("cpus: 99999999999", &back, pool);
	vp_pprof_meta_parse("duration: -1 s", &back, pool);
	assert_true(back.steal_time == 0.25 && back.duration == 10.5);
	assert_int_equal(back.nr_cpus, 4);
	vp_strpool_free(pool);
}

/* ---- vmprof's exports of the fixture recordings ---- */

static int write_to(FILE *f, const struct vp_pprof *pp, size_t i)
{
	return vp_pprof_write(f, pp, i);
}

static void exports_read_back_as_the_recordings_tables(void **state)
{
	static const char *const files[] = { "weights.data", "callchain.data", "cxx.data",
					     "multi.data" };
	struct vp_load_opts lo;
	struct vp_pprof_opts po;

	(void)state;
	vp_load_opts_init(&lo);
	lo.symfs = VP_SRCDIR "/test/fixtures/symfs";
	lo.kallsyms = "/dev/null";	/* kernel rows [unknown] alike in both, whatever runs here */
	vp_pprof_opts_init(&po);
	po.all = 1;
	for (size_t fi = 0; fi < sizeof(files) / sizeof(files[0]); fi++) {
		char path[512];
		struct vp_profile *want = NULL;
		struct vp_pprof *pp = NULL;
		struct vp_error err = { 0 };

		snprintf(path, sizeof(path), "%s/test/fixtures/%s", VP_SRCDIR, files[fi]);
		assert_int_equal(vp_profile_from_perfdata(path, &lo, &want, &err), 0);
		assert_int_equal(vp_pprof_from_perfdata(path, &lo, &po, &pp, &err), 0);
		assert_int_equal(vp_pprof_count(pp), want->ntables);
		for (size_t e = 0; e < vp_pprof_count(pp); e++) {
			char *buf = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);
			struct vp_profile *got = NULL;
			assert_int_equal(write_to(f, pp, e), 0);
			fclose(f);
			assert_int_equal(vp_profile_read_pprof("x.pb.gz", buf, len, &got, &err), 0);
			struct vp_event_table *gt = got->tables[0], *wt = vp_profile_find(want, gt->name);
			if (!wt)
				fail_msg("%s: no event '%s' in the recording's tables", files[fi], gt->name);
			assert_int_equal(gt->total_samples, wt->total_samples);
			assert_int_equal(gt->total_period, wt->total_period);
			assert_int_equal(gt->nrows, wt->nrows);
			for (size_t i = 0; i < wt->nrows; i++) {
				const struct vp_row *w = &wt->rows[i];
				struct vp_row key = { vp_profile_intern(got, w->symbol),
						      vp_profile_intern(got, w->dso), NULL, -1, w->domain };
				struct vp_row *g = vp_table_lookup(gt, &key);
				if (!g || g->samples != w->samples || g->period != w->period)
					fail_msg("%s %s: row %s %s [%c]: %llu samples, want %llu", files[fi],
						 gt->name, w->symbol, w->dso, w->domain,
						 g ? (unsigned long long)g->samples : 0ull,
						 (unsigned long long)w->samples);
			}
			vp_profile_free(got);
			free(buf);
		}
		vp_pprof_free(pp);
		vp_profile_free(want);
	}
}

static void quiet(const char *msg, void *ctx)
{
	(void)msg;
	(void)ctx;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_leaf_functions_values_and_domains),
		cmocka_unit_test(mangled_system_names_are_demangled),
		cmocka_unit_test(hostile_indices_and_ids_are_refused),
		cmocka_unit_test(gzip_bombs_and_memory_bombs_stop_cleanly),
		cmocka_unit_test(malformed_protobuf_and_text_are_told_apart),
		cmocka_unit_test(metadata_comments_read_back),
		cmocka_unit_test(exports_read_back_as_the_recordings_tables),
	};
	vp_set_warn_handler(quiet, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
