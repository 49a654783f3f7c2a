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
#include "converters/pprof.h"
#include "lib/perfdata/perfdata.h"
#include "lib/profile/stacks.h"
#include "lib/perfdata/write.h"
#include "lib/record/portable.h"
#include "lib/symbols/session.h"

/* kfunc covers K, hvfunc covers H: a host kernel table that would name the
 * hypervisor's address if it were read as a kernel one. */
#define K 0xffffffff81000010ull
#define H 0xffffffff81001010ull
static const char kallsyms_text[] = "ffffffff81000000 T _text\nffffffff81000000 T kfunc\n"
				    "ffffffff81001000 T hvfunc\nffffffff81002000 T _etext\n";

static char dir[64], path[128], ks[128], longpath[128];

/* A cpu-clock file with one kernel sample of pid 42 (comm) at ip with the
 * callchain chain[nr], leaf first: 0, -1. */
static int write_one(const char *file, const char *comm, uint64_t ip, const uint64_t *chain,
		     uint64_t nr)
{
	static uint64_t ids[1] = { 7 };
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	struct vp_pdw_features feat = { .nr_cpus_avail = 1, .nr_cpus_online = 1 };
	struct vp_error err = { 0 };
	struct vp_pdw *w;
	void *s = malloc(VP_TEST_SAMPLE_CHAIN_SIZE(nr));
	size_t size;
	int r = -1;

	if (!s)
		return -1;
	size = vp_test_sample_chain(s, PERF_RECORD_MISC_KERNEL, ip, 10, 42, 0, 1000, chain, nr);
	vp_test_cpu_clock_attr(&ev.attr);
	ev.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (vp_pdw_open(file, &ev, 1, &w, &err) == 0) {
		if (vp_pdw_comm(w, 42, 42, comm) == 0 && vp_pdw_write(w, s, size) == 0 &&
		    vp_pdw_finished_round(w) == 0)
			r = vp_pdw_finish(w, &feat, &err) < 0 ? -1 : 0;	/* closes w */
		else
			vp_pdw_close(w);
	}
	free(s);
	return r;
}

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

/* hv.data: one kernel sample whose callchain is [HV, H, KERNEL, K], leaf
 * first. long.data: one whose callchain holds as many frames as a stack
 * keeps (VP_STACKS_MAX_FRAMES, all H) and does not start at the sampled
 * address K: its stack is K and every frame of the chain, one over the cap. */
static int setup(void **state)
{
	static const uint64_t hv[4] = { PERF_CONTEXT_HV, H, PERF_CONTEXT_KERNEL, K };
	static uint64_t chain[VP_STACKS_MAX_FRAMES];
	(void)state;

	if (vp_test_mkdtemp(dir, "chain") < 0)
		return -1;
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	vp_test_write_file(ks, kallsyms_text);
	snprintf(path, sizeof(path), "%s/hv.data", dir);
	snprintf(longpath, sizeof(longpath), "%s/long.data", dir);
	for (size_t i = 0; i < VP_STACKS_MAX_FRAMES; i++)
		chain[i] = H;
	return write_one(path, "hvtest", K, hv, 4) < 0 ||
	       write_one(longpath, "long", K, chain, VP_STACKS_MAX_FRAMES) < 0 ? -1 : 0;
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

/* The pprof export holds the whole stack of a sample at the frame cap whose
 * chain does not start at the sampled address: VP_STACKS_MAX_FRAMES + 1
 * locations, the sampled address (kfunc) the leaf. The writer's buffer for
 * one sample's locations had room for the cap only (one past its end
 * written: ASan's heap-buffer-overflow in check-unit-san). */
static void pprof_keeps_a_stack_one_over_the_cap(void **state)
{
	struct vp_load_opts lo;
	struct vp_pprof_opts po;
	struct vp_pprof *p = NULL;
	struct vp_error err = { 0 };
	(void)state;

	vp_load_opts_init(&lo);
	lo.kallsyms = ks;
	vp_pprof_opts_init(&po);
	assert_int_equal(vp_pprof_from_perfdata(longpath, &lo, &po, &p, &err), 0);
	assert_int_equal(p->nev, 1);
	const struct pprof_event *e = &p->ev[0];
	assert_int_equal(e->samples.n, 1);
	const struct pprof_sample *smp = vp_pprof_vec_at(&e->samples, 0);
	assert_int_equal(smp->nlocs, VP_STACKS_MAX_LEN);
	const struct pprof_location *leaf = vp_pprof_vec_at(&e->locations, e->loc_ids[smp->locs]);
	assert_int_equal(leaf->ip, K);
	const struct pprof_function *fn = vp_pprof_vec_at(&e->functions, leaf->function - 1);
	assert_string_equal(fn->symbol, "kfunc");
	for (uint32_t i = 1; i < smp->nlocs; i++) {
		const struct pprof_location *l = vp_pprof_vec_at(&e->locations, e->loc_ids[smp->locs + i]);
		assert_int_equal(l->ip, H);
	}
	vp_pprof_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decoder_follows_perf),
		cmocka_unit_test(portable_symbols_skip_hypervisor_frames),
		cmocka_unit_test(folded_stacks_read_hypervisor_frames_as_hypervisor),
		cmocka_unit_test(pprof_keeps_a_stack_one_over_the_cap),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
