/* Callchain context markers are decoded once (vp_callchain_context) for every
 * reader of callchains. The copies it replaced disagreed: two read
 * PERF_CONTEXT_HV as kernel, so a hypervisor frame took the name of whatever
 * host kernel symbol sat at that address. perf's add_callchain_ip (machine.c)
 * is the reference: HV is the hypervisor, [H]. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "converters/formats.h"
#include "lib/perfdata/perfdata.h"
#include "lib/perfdata/write.h"
#include "lib/record/portable.h"
#include "lib/symbols/session.h"

/* kfunc covers K, hvfunc covers H: a host kernel table that would name the
 * hypervisor's address if it were read as a kernel one. */
#define K 0xffffffff81000010ull
#define H 0xffffffff81001010ull
static const char kallsyms_text[] = "ffffffff81000000 T _text\nffffffff81000000 T kfunc\n"
				    "ffffffff81001000 T hvfunc\nffffffff81002000 T _etext\n";

static char dir[64], path[128], ks[128];

static void decoder_follows_perf(void **state)
{
	static const struct {
		uint64_t marker;
		unsigned cpumode;
	} want[] = {
		{ PERF_CONTEXT_HV, PERF_RECORD_MISC_HYPERVISOR },
		{ PERF_CONTEXT_KERNEL, PERF_RECORD_MISC_KERNEL },
		{ PERF_CONTEXT_USER, PERF_RECORD_MISC_USER },
		{ PERF_CONTEXT_GUEST_KERNEL, PERF_RECORD_MISC_GUEST_KERNEL },
		{ PERF_CONTEXT_GUEST_USER, PERF_RECORD_MISC_GUEST_USER },
	};
	unsigned cpumode;
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		cpumode = 99;
		assert_int_equal(vp_callchain_context(want[i].marker, &cpumode), 1);
		assert_int_equal(cpumode, want[i].cpumode);
	}
	/* addresses, even the highest kernel ones, leave the mode alone */
	cpumode = PERF_RECORD_MISC_USER;
	assert_int_equal(vp_callchain_context(K, &cpumode), 0);
	assert_int_equal(vp_callchain_context(PERF_CONTEXT_MAX - 1, &cpumode), 0);
	assert_int_equal(cpumode, PERF_RECORD_MISC_USER);
	assert_int_equal(vp_domain_from_cpumode(PERF_RECORD_MISC_HYPERVISOR), 'H');
}

/* One kernel sample whose callchain is [HV, H, KERNEL, K], leaf first. */
static int setup(void **state)
{
	static uint64_t ids[1] = { 7 };
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	struct vp_pdw_features feat = { .nr_cpus_avail = 1, .nr_cpus_online = 1 };
	struct vp_error err = { 0 };
	struct vp_pdw *w;
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time;
		uint32_t cpu, res;
		uint64_t period, nr, chain[4];
	} s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, sizeof(s) }, K, 42, 42, 10, 0, 0, 1000,
		4, { PERF_CONTEXT_HV, H, PERF_CONTEXT_KERNEL, K } };
	(void)state;

	if (vp_test_mkdtemp(dir, "chain") < 0)
		return -1;
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	vp_test_write_file(ks, kallsyms_text);
	snprintf(path, sizeof(path), "%s/hv.data", dir);
	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	ev.attr.sample_period = 1000;
	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	ev.attr.sample_id_all = 1;
	if (vp_pdw_open(path, &ev, 1, &w, &err) < 0 || vp_pdw_comm(w, 42, 42, "hvtest") < 0 ||
	    vp_pdw_write(w, &s, sizeof(s)) < 0 || vp_pdw_finished_round(w) < 0 ||
	    vp_pdw_finish(w, &feat, &err) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return vp_test_rmtree(dir);
}

/* The recorder stores the symbols that cover sampled frames: kfunc, never
 * the kernel symbol at the hypervisor's address. */
static void portable_symbols_skip_hypervisor_frames(void **state)
{
	struct vp_session_opts so = { .kallsyms = ks };
	struct vp_error err = { 0 };
	char *text;
	size_t size;
	(void)state;

	assert_int_equal(vp_portsyms_collect(path, &so, &text, &size, NULL, NULL, &err), 0);
	assert_non_null(strstr(text, " kfunc\n"));
	assert_null(strstr(text, "hvfunc"));
	free(text);
}

/* Folded stacks name the hypervisor frame [unknown] (nothing here can name
 * it), root first: the kernel frame, then the hypervisor's. */
static void folded_stacks_read_hypervisor_frames_as_hypervisor(void **state)
{
	struct vp_load_opts lo;
	struct vp_folded_opts fo;
	struct vp_folded *f;
	struct vp_error err = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *m;
	(void)state;

	vp_load_opts_init(&lo);
	lo.kallsyms = ks;
	vp_folded_opts_init(&fo);
	assert_int_equal(vp_folded_from_perfdata(path, &lo, &fo, &f, &err), 0);
	assert_non_null(m = open_memstream(&out, &len));
	assert_int_equal(vp_folded_write(m, f), 0);
	fclose(m);
	assert_string_equal(out, "hvtest;kfunc;[unknown] 1\n");
	free(out);
	vp_folded_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decoder_follows_perf),
		cmocka_unit_test(portable_symbols_skip_hypervisor_frames),
		cmocka_unit_test(folded_stacks_read_hypervisor_frames_as_hypervisor),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
