/* The writer's files read back: events, ids, metadata, synthesized records,
 * and samples in guest modes land in [g]/[u] rows resolved with the guest's
 * kallsyms (what a KVM host's --guest recording holds). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "perfdata_write.h"
#include "report.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return vp_test_mkdtemp(dir, "pdw");
}

static int teardown(void **state)
{
	(void)state;
	return vp_test_rmtree(dir);
}

static void put_sample(struct vp_pdw *w, uint16_t misc, uint64_t ip, uint64_t time)
{
	vp_test_put_sample(w, misc, ip, time, 42);
}

static const struct vp_row *row(const struct vp_event_table *t, const char *sym, char dom)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].symbol, sym) && t->rows[i].domain == dom)
			return &t->rows[i];
	return NULL;
}

static void guest_modes_resolve_with_guest_kallsyms(void **state)
{
	char path[128], ks[128];
	struct vp_pdw *w;
	struct vp_error err = { 0 };
	uint64_t ids[1] = { 7 };
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	(void)state;

	snprintf(ks, sizeof(ks), "%s/guest.kallsyms", dir);
	FILE *f = fopen(ks, "w");
	fputs("ffffffff81000000 T _text\nffffffff81000000 T guest_entry\nffffffff81002000 T guest_idle\n"
	      "ffffffff81003000 T _etext\n", f);
	fclose(f);

	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	ev.attr.sample_period = 1000;
	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_PERIOD;
	ev.attr.sample_id_all = 1;
	ev.attr.exclude_host = 1;
	snprintf(path, sizeof(path), "%s/guest.data", dir);
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	assert_int_equal(vp_pdw_comm(w, 42, 42, "qemu-kvm"), 0);
	for (int i = 0; i < 3; i++)
		put_sample(w, PERF_RECORD_MISC_GUEST_KERNEL, 0xffffffff81000010ull + i, 100 + i);
	put_sample(w, PERF_RECORD_MISC_GUEST_KERNEL, 0xffffffff81002004ull, 200);
	put_sample(w, PERF_RECORD_MISC_GUEST_USER, 0x400123, 300);
	assert_int_equal(vp_pdw_finished_round(w), 0);
	struct vp_pdw_features feat = { .hostname = "kvmhost", .osrelease = "6.1.0", .argc = 0,
					.nr_cpus_avail = 2, .nr_cpus_online = 2,
					.vmprof_meta = "label=guest\nhypervisor=none\nsteal-time=1.5\n" };
	assert_int_equal(vp_pdw_finish(w, &feat, &err), 0);

	struct vp_load_opts lo;
	struct vp_profile *p;
	vp_load_opts_init(&lo);
	lo.guest_kallsyms = ks;
	assert_int_equal(vp_profile_from_perfdata(path, &lo, &p, &err), 0);
	assert_int_equal(p->ntables, 1);
	const struct vp_event_table *t = p->tables[0];
	assert_string_equal(t->name, "cpu-clock");
	assert_int_equal(t->total_samples, 5);
	const struct vp_row *r = row(t, "guest_entry", 'g');
	assert_non_null(r);
	assert_int_equal(r->samples, 3);
	assert_string_equal(r->dso, "[guest.kernel.kallsyms]");
	assert_non_null(row(t, "guest_idle", 'g'));
	assert_non_null(row(t, "[unknown]", 'u'));	/* guest user space: nothing names it here */
	assert_string_equal(p->meta.label, "guest");
	assert_string_equal(p->meta.hostname, "kvmhost");
	assert_true(p->meta.steal_time > 1.49 && p->meta.steal_time < 1.51);
	vp_profile_free(p);
}

static void killed_file_is_recovered(void **state)
{
	char path[128];
	struct vp_pdw *w;
	struct vp_error err = { 0 };
	uint64_t ids[1] = { 1 };
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	(void)state;

	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_PERIOD;
	ev.attr.sample_id_all = 1;
	snprintf(path, sizeof(path), "%s/killed.data", dir);
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	for (int i = 0; i < 10; i++)
		put_sample(w, PERF_RECORD_MISC_USER, 0x1000 + i, 10 + i);
	vp_pdw_close(w);	/* never finished: header says data size 0 */

	struct vp_profile *p;
	assert_int_equal(vp_profile_from_perfdata(path, NULL, &p, &err), 0);
	assert_int_equal(p->tables[0]->total_samples, 10);
	vp_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(guest_modes_resolve_with_guest_kallsyms),
		cmocka_unit_test(killed_file_is_recovered),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
