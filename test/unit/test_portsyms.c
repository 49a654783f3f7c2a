/* Portable symbols: what the recorder stores resolves a file without the
 * original symbol sources (guest kallsyms given only at record time, a kernel
 * of another release), and a damaged section never crashes the reader. */
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
#include "lib/symbols/portsyms.h"
#include "lib/record/portable.h"
#include "lib/profile/report.h"
#include "lib/symbols/session.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return vp_test_mkdtemp(dir, "psyms");
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

static struct vp_pdw *open_file(const char *path, int guest)
{
	static uint64_t ids[1] = { 7 };
	struct vp_pdw_event ev = { .name = "cpu-clock", .ids = ids, .nids = 1 };
	struct vp_error err = { 0 };
	struct vp_pdw *w;

	vp_test_cpu_clock_attr(&ev.attr);
	ev.attr.exclude_host = guest;
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	return w;
}

static const struct vp_row *row(const struct vp_event_table *t, const char *sym, char dom)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].symbol, sym) && t->rows[i].domain == dom)
			return &t->rows[i];
	return NULL;
}

/* A --guest recording on a KVM host: the guest's kallsyms is given to the
 * recorder only; the report, without it, still names the guest functions. */
static void guest_kallsyms_travel_with_the_file(void **state)
{
	char path[128], ks[128];
	struct vp_error err = { 0 };
	struct vp_pdw *w;
	char *text;
	size_t size;
	(void)state;

	snprintf(ks, sizeof(ks), "%s/guest.kallsyms", dir);
	vp_test_write_file(ks, "ffffffff81000000 T _text\nffffffff81000000 T guest_entry\n"
			   "ffffffff81001000 T unused\nffffffff81002000 T guest_idle\n"
			   "ffffffff81003000 T _etext\n");
	snprintf(path, sizeof(path), "%s/guest.data", dir);
	w = open_file(path, 1);
	assert_int_equal(vp_pdw_comm(w, 42, 42, "qemu-kvm"), 0);
	for (int i = 0; i < 3; i++)
		put_sample(w, PERF_RECORD_MISC_GUEST_KERNEL, 0xffffffff81000010ull + i, 100 + i);
	put_sample(w, PERF_RECORD_MISC_GUEST_KERNEL, 0xffffffff81002004ull, 200);
	put_sample(w, PERF_RECORD_MISC_GUEST_USER, 0x400123, 300);
	assert_int_equal(vp_pdw_finished_round(w), 0);
	assert_int_equal(vp_pdw_sync(w), 0);

	struct vp_session_opts so = { .guest_kallsyms = ks };
	assert_int_equal(vp_portsyms_collect(path, &so, &text, &size, NULL, NULL, &err), 0);
	/* Only the symbols that cover samples are stored. */
	assert_non_null(strstr(text, "guest_entry"));
	assert_non_null(strstr(text, "guest_idle"));
	assert_null(strstr(text, "unused"));
	assert_int_equal(strlen(text), size);
	struct vp_pdw_features feat = { .hostname = "kvmhost", .nr_cpus_avail = 1,
					.nr_cpus_online = 1, .vmprof_syms = text };
	assert_int_equal(vp_pdw_finish(w, &feat, &err), 0);
	free(text);

	struct vp_profile *p;
	assert_int_equal(vp_profile_from_perfdata(path, NULL, &p, &err), 0);
	const struct vp_event_table *t = p->tables[0];
	const struct vp_row *r = row(t, "guest_entry", 'g');
	assert_non_null(r);
	assert_int_equal(r->samples, 3);
	assert_string_equal(r->dso, "[guest.kernel.kallsyms]");
	r = row(t, "guest_idle", 'g');
	assert_non_null(r);
	assert_int_equal(r->samples, 1);
	vp_profile_free(p);
}

/* A file from another kernel release: this machine's kallsyms must not be
 * used, the file's own kernel symbols are. */
static void kernel_of_another_release_resolves_from_the_file(void **state)
{
	static const char syms[] = "vmprof-syms 1\n"
				   "dso k - [kernel.kallsyms]\n"
				   "ffffffff81000100 ffffffff81000200 - old_kernel_func\n"
				   "dso k - [oldmod]\n"
				   "ffffffffc0001000 ffffffffc0001100 - oldmod_func\n";
	char path[128];
	struct vp_error err = { 0 };
	struct vp_pdw *w;
	(void)state;

	snprintf(path, sizeof(path), "%s/oldkernel.data", dir);
	w = open_file(path, 0);
	assert_int_equal(vp_pdw_mmap2(w, PERF_RECORD_MISC_KERNEL, UINT32_MAX, 0, 0xffffffff81000000ull,
				      0x1000000, 0xffffffff81000000ull, 5, 0, "[kernel.kallsyms]_text"), 0);
	put_sample(w, PERF_RECORD_MISC_KERNEL, 0xffffffff81000150ull, 10);
	put_sample(w, PERF_RECORD_MISC_KERNEL, 0xffffffff81000180ull, 11);
	put_sample(w, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001010ull, 12);
	put_sample(w, PERF_RECORD_MISC_KERNEL, 0xffffffff81000300ull, 13);	/* covered by nothing */
	struct vp_pdw_features feat = { .osrelease = "0.0.0-not-this-kernel", .nr_cpus_avail = 1,
					.nr_cpus_online = 1, .vmprof_syms = syms };
	assert_int_equal(vp_pdw_finish(w, &feat, &err), 0);

	struct vp_profile *p;
	assert_int_equal(vp_profile_from_perfdata(path, NULL, &p, &err), 0);
	const struct vp_event_table *t = p->tables[0];
	const struct vp_row *r = row(t, "old_kernel_func", 'k');
	assert_non_null(r);
	assert_int_equal(r->samples, 2);
	assert_string_equal(r->dso, "[kernel.kallsyms]");
	r = row(t, "oldmod_func", 'k');
	assert_non_null(r);
	assert_string_equal(r->dso, "[oldmod]");
	r = row(t, "[unknown]", 'k');
	assert_non_null(r);
	assert_int_equal(r->samples, 1);
	vp_profile_free(p);
}

/* A JIT's perf-PID.map is gone by the time the file is read elsewhere: the
 * recording's own copy of the symbols it used names the samples. */
static void jit_map_symbols_travel_with_the_file(void **state)
{
	const uint32_t pid = 3999999;	/* above any pid this machine hands out in a test */
	char path[128], map[64];
	struct vp_error err = { 0 };
	struct vp_pdw *w;
	char *text;
	size_t size;
	(void)state;

	snprintf(map, sizeof(map), "/tmp/perf-%u.map", pid);
	vp_test_write_file(map, "7f0000001000 100 jitted_hot\n7f0000002000 80 jitted_cold\n");
	snprintf(path, sizeof(path), "%s/jit.data", dir);
	w = open_file(path, 0);
	assert_int_equal(vp_pdw_mmap2(w, PERF_RECORD_MISC_USER, pid, pid, 0x7f0000000000ull, 0x10000, 0,
				      7, 2, "//anon"), 0);
	vp_test_put_sample(w, PERF_RECORD_MISC_USER, 0x7f0000001010ull, 10, pid);
	vp_test_put_sample(w, PERF_RECORD_MISC_USER, 0x7f00000010f0ull, 11, pid);
	vp_test_put_sample(w, PERF_RECORD_MISC_USER, 0x7f0000002010ull, 12, pid);
	assert_int_equal(vp_pdw_sync(w), 0);
	struct vp_session_opts so = { 0 };
	assert_int_equal(vp_portsyms_collect(path, &so, &text, &size, NULL, NULL, &err), 0);
	unlink(map);
	assert_non_null(strstr(text, "jitted_hot"));
	struct vp_pdw_features feat = { .nr_cpus_avail = 1, .nr_cpus_online = 1, .vmprof_syms = text };
	assert_int_equal(vp_pdw_finish(w, &feat, &err), 0);
	free(text);

	struct vp_profile *p;
	assert_int_equal(vp_profile_from_perfdata(path, NULL, &p, &err), 0);
	const struct vp_row *r = row(p->tables[0], "jitted_hot", '.');
	assert_non_null(r);
	assert_int_equal(r->samples, 2);
	assert_string_equal(r->dso, map);
	r = row(p->tables[0], "jitted_cold", '.');
	assert_non_null(r);
	assert_int_equal(r->samples, 1);
	vp_profile_free(p);
}

static int warnings;
static char last_warning[512];
static void count_warning(const char *msg, void *ctx)
{
	(void)ctx;
	snprintf(last_warning, sizeof(last_warning), "%s", msg);
	warnings++;
}

static void damaged_sections_parse_what_is_whole(void **state)
{
	static const char *const bad[] = {
		"",
		"vmprof-syms 2\n",
		"vmprof-syms 1\n1000 2000 - orphan\n",
		"vmprof-syms 1\ndso x - /bin/x\n",
		"vmprof-syms 1\ndso u zz /bin/x\n",
		"vmprof-syms 1\ndso u - /bin/x\n2000 1000 - backwards\n",
		"vmprof-syms 1\ndso u - /bin/x\n1000 2000 q badflag\n",
		"vmprof-syms 1\ndso u - /bin/x\n1000 2000 -\n",
		"vmprof-syms 1\ndso u 0011223344556677889900112233445566778899aabb /bin/x\n",
		"vmprof-syms 1\ndso u - /bin/x\n1000 20\0" "00 - cut by a NUL\n",
	};
	struct vp_error err = { 0 };
	struct vp_portsyms *p;
	(void)state;

	vp_set_warn_handler(count_warning, NULL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		size_t len = strlen(bad[i]) + (i == 9 ? 19 : 0);
		warnings = 0;
		assert_int_equal(vp_portsyms_parse("t.data", bad[i], len, &p, &err), 0);
		assert_int_equal(warnings, 1);
		assert_non_null(strstr(last_warning, "'t.data'"));
		assert_true(vp_portsyms_count(p) <= 1);
		vp_portsyms_free(p);
	}
	/* A whole section gives back what was written, PLT entries named as perf names them. */
	static const char good[] = "vmprof-syms 1\ndso u 0a0b /bin/x\n1000 1010 - main\n"
				   "1020 1030 p _ZN2ns1fEv\n";
	warnings = 0;
	assert_int_equal(vp_portsyms_parse("t.data", good, sizeof(good), &p, &err), 0);	/* NUL included */
	assert_int_equal(warnings, 0);
	const struct vp_portsyms_dso *d = vp_portsyms_find(p, VP_PORTSYMS_USER, "/bin/x");
	assert_non_null(d);
	assert_int_equal(d->build_id_size, 2);
	assert_int_equal(d->build_id[1], 0x0b);
	const struct vp_sym *s = vp_symtab_find(d->tab, 0x1008);
	assert_non_null(s);
	assert_string_equal(s->name, "main");
	assert_null(vp_symtab_find(d->tab, 0x1010));
	s = vp_symtab_find(d->tab, 0x1024);
	assert_non_null(s);
	assert_string_equal(vp_sym_name(d->tab, s, VP_DEMANGLE_SHORT), "ns::f@plt");
	vp_portsyms_free(p);
}

/* A hostile section is bounded: objects past the limit are dropped, warned once. */
static void section_limits_hold(void **state)
{
	size_t n = VP_PORTSYMS_MAX_OBJECTS + 10, cap = 32 + n * 40, len;
	char *text = malloc(cap);
	struct vp_error err = { 0 };
	struct vp_portsyms *p;
	(void)state;

	assert_non_null(text);
	len = (size_t)snprintf(text, cap, "vmprof-syms 1\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "dso u - /o%zu\n1000 1010 - f\n", i);
	vp_set_warn_handler(count_warning, NULL);
	warnings = 0;
	assert_int_equal(vp_portsyms_parse("t.data", text, len, &p, &err), 0);
	assert_int_equal(warnings, 1);
	assert_non_null(strstr(last_warning, "objects"));
	assert_int_equal(vp_portsyms_count(p), VP_PORTSYMS_MAX_OBJECTS);
	/* the last object kept is whole, the first dropped is absent */
	char name[32];
	snprintf(name, sizeof(name), "/o%d", VP_PORTSYMS_MAX_OBJECTS - 1);
	assert_non_null(vp_portsyms_find(p, VP_PORTSYMS_USER, name));
	snprintf(name, sizeof(name), "/o%d", VP_PORTSYMS_MAX_OBJECTS);
	assert_null(vp_portsyms_find(p, VP_PORTSYMS_USER, name));
	vp_portsyms_free(p);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(guest_kallsyms_travel_with_the_file),
		cmocka_unit_test(kernel_of_another_release_resolves_from_the_file),
		cmocka_unit_test(jit_map_symbols_travel_with_the_file),
		cmocka_unit_test(damaged_sections_parse_what_is_whole),
		cmocka_unit_test(section_limits_hold),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
