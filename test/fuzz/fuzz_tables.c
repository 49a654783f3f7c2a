/* vmprof's CSV and XML tables and saved comparisons, and perf report text;
 * whatever reads is written back as CSV and XML and must read again (the
 * writers escape whatever names a file can carry); a comparison that reads
 * is ranked by every key and written in every format (its sides, runs and
 * statistics come from the file). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "converters/formats.h"

/* Write p in one format and read it back: a failure is a writer's bug. */
static void round_trip(const struct vp_profile *p, int xml)
{
	struct vp_out_opts oo;
	struct vp_profile *back = NULL;
	struct vp_error err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	vp_out_opts_init(&oo);
	oo.csv_safe = 1;
	if ((xml ? vp_profile_write_xml(f, p, &oo) : vp_profile_write_csv(f, p, &oo)) < 0) {
		fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	/* Names XML cannot carry are written as U+FFFD: two names that differ
	 * only there become one, and the tables may not add up when read back.
	 * Lossy, known, and a clean error; a file that is not XML is a bug. */
	if ((xml ? vp_profile_read_xml("out", buf, len, &back, &err)
		 : vp_profile_read_csv("out", buf, len, &back, &err)) < 0 &&
	    (!memmem(buf, len, "\xef\xbf\xbd", 3) || strstr(err.msg, "not well-formed"))) {
		fprintf(stderr, "round trip through %s failed: %s\n", xml ? "XML" : "CSV", err.msg);
		abort();
	}
	vp_profile_free(back);
	free(buf);
}

/* Every writer of a comparison, after each ranking. */
static void write_all(struct vp_comparison *c)
{
	static const char *const inputs[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	const char *in[64];
	struct vp_out_opts oo;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	for (size_t s = 0; s < c->nsides && s < 64; s++)
		in[s] = inputs[s % 8];
	vp_out_opts_init(&oo);
	for (int r = VP_RANK_MAX; r <= VP_RANK_EFFECT; r++) {
		vp_comparison_rank(c, (enum vp_rank)r, (size_t)(r % 3));
		if (c->nsides <= 64)
			vp_cmp_write_table(f, c, in, &oo);
		vp_cmp_write_csv(f, c, &oo);
	}
	vp_cmp_write_xml(f, c, &oo);
	vp_cmp_save_xml(f, c);
	fclose(f);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_profile *p = NULL;
	struct vp_comparison *c = NULL;
	struct vp_error err = { 0 };
	const char *s = (const char *)data;

	vp_fuzz_quiet();
	if (vp_profile_read_csv("in", s, size, &p, &err) == 0) {
		round_trip(p, 1);
		vp_profile_free(p);
	}
	if (vp_profile_read_xml("in", s, size, &p, &err) == 0) {
		round_trip(p, 0);
		vp_profile_free(p);
	}
	if (vp_profile_read_perf_text("in", s, size, &p, &err) == 0) {
		round_trip(p, 0);
		round_trip(p, 1);
		vp_profile_free(p);
	}
	if (vp_cmp_read_xml("in", s, size, &c, &err) == 0) {
		write_all(c);
		vp_comparison_free(c);
	}
	if (vp_cmp_read_csv("in", s, size, &c, &err) == 0) {
		write_all(c);
		vp_comparison_free(c);
	}
	(void)vp_input_detect(s, size);
	return 0;
}
