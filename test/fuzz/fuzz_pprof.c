/* pprof profiles (profile.proto, gzipped or not), hostile: whatever reads
 * must add up (every row's samples sum to the table's total) and write as a
 * CSV table; anything else is a clean error. Seeds: a Go CPU profile and
 * vmprof exports, raw and gzipped (raw ones let the mutator reach the
 * protobuf). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

#include "converters/formats.h"

/* small enough that a gzip bomb costs the fuzzer little */
#define MAX_BYTES (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	struct vp_out_opts oo;
	FILE *null;

	vp_fuzz_quiet();
	(void)vp_input_detect((const char *)data, size);
	if (vp_profile_read_pprof_max("in", (const char *)data, size, MAX_BYTES, &p, &err) < 0) {
		if (!err.msg[0])
			abort();	/* every failure says why */
		return 0;
	}
	for (size_t i = 0; i < p->ntables; i++) {
		const struct vp_event_table *t = p->tables[i];
		uint64_t s = 0, per = 0;
		for (size_t k = 0; k < t->nrows; k++) {
			s += t->rows[k].samples;
			per += t->rows[k].period;
		}
		if (s != t->total_samples || per != t->total_period)
			abort();
	}
	vp_out_opts_init(&oo);
	if ((null = fopen("/dev/null", "w"))) {
		vp_profile_write_csv(null, p, &oo);
		fclose(null);
	}
	vp_profile_free(p);
	return 0;
}
