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
#include "lib/perfdata/write.h"
#include "lib/profile/report.h"
#include "lib/symbols/symbols.h"

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

/* The row of sym in domain dom (0: any) and object dso (NULL: any). */
static const struct vp_row *row_of(const struct vp_event_table *t, const char *sym, char dom,
				   const char *dso)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].symbol, sym) && (!dom || t->rows[i].domain == dom) &&
		    (!dso || !strcmp(t->rows[i].dso, dso)))
			return &t->rows[i];
	return NULL;
}

static const struct vp_row *row(const struct vp_event_table *t, const char *sym, char dom)
{
	return row_of(t, sym, dom, NULL);
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
	vp_test_write_file(ks, "ffffffff81000000 T _text\nffffffff81000000 T guest_entry\n"
			   "ffffffff81002000 T guest_idle\nffffffff81003000 T _etext\n");

	vp_test_cpu_clock_attr(&ev.attr);
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

/* Two file offsets of obj that lie in different functions, found through
 * the ELF layer alone; their names into a and b. */
static void two_functions(const char *obj, uint64_t *off_a, const char **a, uint64_t *off_b,
			  const char **b)
{
	struct vp_elf_opts o = { 0 };
	struct vp_error err = { 0 };
	struct vp_elf *e = NULL;
	uint64_t addr;

	assert_int_equal(vp_elf_open(obj, NULL, 0, &o, &e, &err), 0);
	*a = *b = NULL;
	for (uint64_t off = 0x100; off < (1u << 20) && !*b; off += 4) {
		const struct vp_sym *s;
		if (vp_elf_offset_to_addr(e, off, &addr) < 0 ||
		    !(s = vp_symtab_find(vp_elf_symtab(e), addr)) || s->start == s->end)
			continue;
		if (!*a) {
			*a = strdup(s->name);
			*off_a = off;
		} else if (strcmp(*a, s->name)) {
			*b = strdup(s->name);
			*off_b = off;
		}
	}
	vp_elf_close(e);
	assert_non_null(*b);
}

/* The same address in one process, before and after the object mapped
 * there changes: each sample names the function mapped at its time. */
static void remapped_address_changes_function(void **state)
{
	const char *obj = vp_test_fixture("fix-nopie"), *fa, *fb;
	char path[128];
	struct vp_pdw *w;
	struct vp_error err = { 0 };
	uint64_t ids[1] = { 1 }, off_a = 0, off_b = 0, start = 0x7f0000000000ull, ip = start + 0x100;
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	(void)state;

	two_functions(obj, &off_a, &fa, &off_b, &fb);
	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_PERIOD;
	snprintf(path, sizeof(path), "%s/remap.data", dir);
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	assert_int_equal(vp_pdw_comm(w, 42, 42, "remap"), 0);
	assert_int_equal(vp_pdw_mmap2(w, PERF_RECORD_MISC_USER, 42, 42, start, 0x100000, off_a - 0x100,
				      5, 2, obj), 0);
	for (int i = 0; i < 5; i++)
		vp_test_put_sample(w, PERF_RECORD_MISC_USER, ip, 100 + i, 42);
	/* two rounds: the second delivers the samples before the new map */
	assert_int_equal(vp_pdw_finished_round(w), 0);
	assert_int_equal(vp_pdw_finished_round(w), 0);
	assert_int_equal(vp_pdw_mmap2(w, PERF_RECORD_MISC_USER, 42, 42, start, 0x100000, off_b - 0x100,
				      5, 2, obj), 0);
	for (int i = 0; i < 3; i++)
		vp_test_put_sample(w, PERF_RECORD_MISC_USER, ip, 300 + i, 42);
	assert_int_equal(vp_pdw_finished_round(w), 0);
	struct vp_pdw_features feat = { .hostname = "h", .osrelease = "6.1.0", .nr_cpus_avail = 1,
					.nr_cpus_online = 1 };
	assert_int_equal(vp_pdw_finish(w, &feat, &err), 0);

	struct vp_profile *p;
	assert_int_equal(vp_profile_from_perfdata(path, NULL, &p, &err), 0);
	const struct vp_event_table *t = p->tables[0];
	assert_int_equal(t->total_samples, 8);
	assert_non_null(row(t, fa, '.'));
	assert_non_null(row(t, fb, '.'));
	assert_int_equal(row(t, fa, '.')->samples, 5);
	assert_int_equal(row(t, fb, '.')->samples, 3);
	vp_profile_free(p);
	free((char *)fa);
	free((char *)fb);
}

/* Kernel samples read while kallsyms loads wait; a kernel map that changes
 * comes after them, one that maps again what is mapped changes nothing. */
static void kernel_samples_keep_their_place_around_kernel_maps(void **state)
{
	char path[128], ks[128];
	struct vp_pdw *w;
	struct vp_error err = { 0 };
	uint64_t ids[1] = { 1 }, text = 0xffffffff81000000ull, ip = text + 0x1010;
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	uint64_t t = 100;
	(void)state;

	snprintf(ks, sizeof(ks), "%s/k.kallsyms", dir);
	vp_test_write_file(ks, "ffffffff81000000 T _text\nffffffff81001000 T f1\n"
			   "ffffffff81002000 T f2\nffffffff81003000 T _etext\n");
	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_PERIOD;
	snprintf(path, sizeof(path), "%s/kmaps.data", dir);
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	for (int round = 0; round < 3; round++) {
		if (round < 2)	/* the kernel, mapped twice the same */
			assert_int_equal(vp_pdw_mmap2(w, PERF_RECORD_MISC_KERNEL, UINT32_MAX, 0, text,
						      0x10000, text, 5, 0, "[kernel.kallsyms]_text"), 0);
		else		/* a module over part of it */
			assert_int_equal(vp_pdw_mmap2(w, PERF_RECORD_MISC_KERNEL, UINT32_MAX, 0,
						      text + 0x1000, 0x100, 0, 5, 0,
						      "/lib/modules/6.1.0/extra/mymod.ko"), 0);
		for (int i = 0; i < 3 + round; i++)
			vp_test_put_sample(w, PERF_RECORD_MISC_KERNEL, ip, t++, 42);
		/* two rounds: the second delivers the samples before the next map */
		assert_int_equal(vp_pdw_finished_round(w), 0);
		assert_int_equal(vp_pdw_finished_round(w), 0);
	}
	struct vp_pdw_features feat = { .hostname = "h", .osrelease = "6.1.0", .nr_cpus_avail = 1,
					.nr_cpus_online = 1 };
	assert_int_equal(vp_pdw_finish(w, &feat, &err), 0);

	struct vp_load_opts lo;
	struct vp_profile *p;
	vp_load_opts_init(&lo);
	lo.kallsyms = ks;
	assert_int_equal(vp_profile_from_perfdata(path, &lo, &p, &err), 0);
	const struct vp_event_table *tb = p->tables[0];
	assert_int_equal(tb->total_samples, 12);
	assert_non_null(row_of(tb, "f1", 0, "[kernel.kallsyms]"));
	assert_int_equal(row_of(tb, "f1", 0, "[kernel.kallsyms]")->samples, 7);
	/* after the module's map: its object, where its symbols name nothing */
	assert_non_null(row_of(tb, "[unknown]", 0, "[mymod]"));
	assert_int_equal(row_of(tb, "[unknown]", 0, "[mymod]")->samples, 5);
	vp_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(guest_modes_resolve_with_guest_kallsyms),
		cmocka_unit_test(killed_file_is_recovered),
		cmocka_unit_test(remapped_address_changes_function),
		cmocka_unit_test(kernel_samples_keep_their_place_around_kernel_maps),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
