/* ELF symbols against independent oracles on fixtures built at test time
 * (test/fixtures/elf/build.sh): readelf's symbols and program headers,
 * objdump's PLT names, and what perf 6.1 itself resolved for every sampled
 * offset of the fixtures, a C++ program, libc and libstdc++. Then the debug
 * file searches, symfs, the build-id cache, stale build-ids and corrupted
 * copies of a real object. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <elf.h>
#include <cmocka.h>

#include "lib/symbols/symbols.h"
#include "fixtures.h"

static const char *fixture(const char *name)
{
	return vp_test_fixture(name);
}

/* Options that keep the caller's ~/.debug out (the fixtures' perf runs had
 * an empty one too). */
static struct vp_elf_opts opts(void)
{
	static char cache[4200];
	snprintf(cache, sizeof(cache), "%s", fixture("home/.debug"));
	return (struct vp_elf_opts){ .buildid_dir = cache };
}

static struct vp_elf *open_ok(const char *path, const struct vp_elf_opts *o)
{
	struct vp_elf *e = NULL;
	struct vp_error err = { 0 };
	int r = vp_elf_open(path, NULL, 0, o, &e, &err);

	if (r < 0)
		fprintf(stderr, "%s\n", err.msg);
	assert_int_equal(r, 0);
	assert_non_null(e);
	return e;
}

static const struct vp_sym *lookup(struct vp_elf *e, uint64_t off)
{
	uint64_t addr;

	assert_int_equal(vp_elf_offset_to_addr(e, off, &addr), 0);
	return vp_symtab_find(vp_elf_symtab(e), addr);
}

/* Every FUNC symbol readelf lists resolves at its file offset: to itself or
 * to an alias at the same offset. */
static void check_against_readelf(const char *obj)
{
	char path[4200], line[4096];
	struct vp_elf_opts o = opts();
	struct vp_elf *e = open_ok(fixture(obj), &o);
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s.syms", fixture(obj));
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long off, size;
		char bind[16], name[1024];
		if (sscanf(line, "%llx\t%llu\t%15s\t%1023s", &off, &size, bind, name) != 4)
			continue;
		const struct vp_sym *s = lookup(e, off);
		if (!s || s->start != off) {
			fprintf(stderr, "%s: %s at %llx resolves to %s\n", obj, name, off,
				s ? s->name : "nothing");
			fail();
		}
		if (size > 1) {
			s = lookup(e, off + size - 1);
			assert_non_null(s);
			assert_true(s->start <= off + size - 1);
		}
		n++;
	}
	fclose(f);
	assert_true(n >= 6);
	vp_elf_close(e);
}

static void test_functions_resolve_at_the_offsets_readelf_gives(void **state)
{
	(void)state;
	check_against_readelf("fix-nopie");	/* text at 0x401000, file offset 0x1000 */
	check_against_readelf("fix-pie");
	check_against_readelf("libfix.so");
	check_against_readelf("libshift.so");	/* every segment 0x200000 off its file offset */
	check_against_readelf("fixcxx");
}

static void check_plt(const char *obj, size_t want)
{
	char path[4200], line[4096];
	struct vp_elf_opts o = opts();
	struct vp_elf *e = open_ok(fixture(obj), &o);
	const struct vp_symtab *t = vp_elf_symtab(e);
	size_t n = 0, nplt = 0;
	FILE *f;

	for (size_t i = 0; i < vp_symtab_count(t); i++)
		nplt += (vp_symtab_at(t, i)->flags & VP_SYM_PLT) != 0;
	snprintf(path, sizeof(path), "%s.plt", fixture(obj));
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long off;
		char name[1024];
		int found = 0;
		if (sscanf(line, "%llx\t%1023s", &off, name) != 2)
			continue;
		for (size_t i = 0; i < vp_symtab_count(t); i++) {
			const struct vp_sym *s = vp_symtab_at(t, i);
			if (s->start == off && (s->flags & VP_SYM_PLT) && !strcmp(s->name, name))
				found = 1;
		}
		if (!found) {
			fprintf(stderr, "%s: no %s at %llx\n", obj, name, off);
			fail();
		}
		n++;
	}
	fclose(f);
	assert_int_equal(n, nplt);
	assert_true(n >= want);
	vp_elf_close(e);
}

static void test_plt_entries_are_the_ones_objdump_names(void **state)
{
	(void)state;
	check_plt("fix-nopie", 3);
	check_plt("fix-pie", 3);
	check_plt("fixcxx", 5);
}

/* perf.oracle: "OBJECT\tOFFSET\tSYMBOL" from perf script on the fixtures. */
static void test_every_sampled_offset_resolves_as_perf_resolved_it(void **state)
{
	(void)state;
	char line[8192], cur[8192] = "";
	struct vp_elf_opts o = opts();
	struct vp_elf *e = NULL;
	size_t n = 0, objs = 0, bad = 0;
	FILE *f;

	fixture("");
	if ((f = fopen(fixture("perf.skip"), "r"))) {
		if (fgets(line, sizeof(line), f))
			fprintf(stderr, "skipped: %s", line);
		fclose(f);
		skip();
	}
	f = fopen(fixture("perf.oracle"), "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *obj = line, *offs, *sym;
		line[strcspn(line, "\n")] = '\0';
		if (!(offs = strchr(obj, '\t')) || !(sym = strchr(offs + 1, '\t')))
			continue;
		*offs++ = '\0';
		*sym++ = '\0';
		if (strlen(obj) >= 8 && !strcmp(obj + strlen(obj) - 8, "/jit.map"))
			continue;	/* test_perfmap's */
		if (strcmp(obj, cur)) {
			vp_elf_close(e);
			e = open_ok(obj, &o);
			snprintf(cur, sizeof(cur), "%s", obj);
			objs++;
		}
		const struct vp_sym *s = lookup(e, strtoull(offs, NULL, 16));
		const char *got = s ? vp_sym_name(vp_elf_symtab(e), s, VP_DEMANGLE_SHORT) : "[unknown]";
		if (strcmp(got, sym)) {
			fprintf(stderr, "%s+%s: perf says '%s', we say '%s'\n", obj, offs, sym, got);
			bad++;
		}
		n++;
	}
	fclose(f);
	vp_elf_close(e);
	assert_int_equal(bad, 0);
	assert_true(n >= 100);
	assert_true(objs >= 5);
}

/* The same layout resolved from the unstripped object and through a debug file. */
static void check_same_as_unstripped(struct vp_elf *e)
{
	char path[4200], line[4096];
	FILE *f;
	size_t n = 0, statics = 0;

	snprintf(path, sizeof(path), "%s", fixture("fix-pie.syms"));
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long off, size;
		char bind[16], name[1024];
		if (sscanf(line, "%llx\t%llu\t%15s\t%1023s", &off, &size, bind, name) != 4)
			continue;
		const struct vp_sym *s = lookup(e, off);
		assert_non_null(s);
		assert_int_equal(s->start, off);
		if (!strcmp(name, "static_worker")) {
			assert_string_equal(s->name, "static_worker");
			statics++;
		}
		n++;
	}
	fclose(f);
	assert_int_equal(statics, 1);
	assert_true(n >= 6);
}

static void test_stripped_object_finds_its_debug_file_by_debuglink(void **state)
{
	(void)state;
	struct vp_elf_opts o = opts();
	struct vp_elf *e = open_ok(fixture("fix-stripped"), &o);
	const char *src = vp_elf_symsrc(e);

	assert_non_null(strstr(src, "/.debug/fix-stripped.debug"));
	check_same_as_unstripped(e);
	vp_elf_close(e);
}

static void test_debuglink_also_looks_beside_the_object_and_in_the_debug_mirror(void **state)
{
	(void)state;
	char root[4200], want[8400];
	struct vp_elf_opts o = opts();
	struct vp_elf *e = open_ok(fixture("fix-samedir"), &o);

	assert_string_equal(vp_elf_symsrc(e), fixture("fix-samedir.debug"));
	check_same_as_unstripped(e);
	vp_elf_close(e);

	/* DEBUG_DIR + the object's directory + the link's name */
	snprintf(root, sizeof(root), "%s", fixture("debugroot"));
	o.debug_dir = root;
	e = open_ok(fixture("fix-mirror"), &o);
	snprintf(want, sizeof(want), "%s%s/fix-mirror.debug", root, vp_test_elf_fixtures());
	assert_string_equal(vp_elf_symsrc(e), want);
	check_same_as_unstripped(e);
	vp_elf_close(e);
}

static void test_stripped_object_finds_its_debug_file_by_build_id(void **state)
{
	(void)state;
	char root[4200];
	struct vp_elf_opts o = opts();
	struct vp_elf *e;

	snprintf(root, sizeof(root), "%s", fixture("debugroot"));
	/* without the debug root: .dynsym only, the static function is gone */
	e = open_ok(fixture("fix-nolink"), &o);
	for (size_t i = 0; i < vp_symtab_count(vp_elf_symtab(e)); i++)
		assert_string_not_equal(vp_symtab_at(vp_elf_symtab(e), i)->name, "static_worker");
	vp_elf_close(e);

	o.debug_dir = root;
	e = open_ok(fixture("fix-nolink"), &o);
	assert_non_null(strstr(vp_elf_symsrc(e), "/debugroot/.build-id/"));
	check_same_as_unstripped(e);
	vp_elf_close(e);
}

static void test_symfs_prefixes_every_path(void **state)
{
	(void)state;
	char root[4200];
	struct vp_elf_opts o = opts();
	struct vp_elf *e = NULL;
	struct vp_error err = { 0 };

	snprintf(root, sizeof(root), "%s", fixture("symfs"));
	assert_int_equal(vp_elf_open("/opt/vpfix/fix-moved", NULL, 0, &o, &e, &err), -ENOENT);
	o.symfs = root;
	e = open_ok("/opt/vpfix/fix-moved", &o);
	/* joined as perf's path__join does: "ROOT" "/" "/opt/..." */
	assert_int_equal(strncmp(vp_elf_symsrc(e), root, strlen(root)), 0);
	assert_string_equal(vp_elf_symsrc(e) + strlen(root), "//opt/vpfix/fix-moved");
	check_same_as_unstripped(e);
	vp_elf_close(e);
}

static int read_build_id_file(const char *name, uint8_t *id, size_t *size)
{
	char hex[128];
	FILE *f = fopen(fixture(name), "r");

	if (!f || !fgets(hex, sizeof(hex), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	*size = 0;
	for (char *p = hex; p[0] && p[1] && p[0] != '\n' && *size < 20; p += 2) {
		unsigned b;
		sscanf(p, "%2x", &b);
		id[(*size)++] = (uint8_t)b;
	}
	return 0;
}

static void test_build_id_cache_serves_a_deleted_binary(void **state)
{
	(void)state;
	char cache[4200];
	uint8_t id[20], got[20];
	size_t size, gsize;
	struct vp_elf_opts o = { 0 };
	struct vp_elf *e = NULL;
	struct vp_error err = { 0 };

	assert_int_equal(read_build_id_file("fix-nopie.buildid", id, &size), 0);
	assert_int_equal(size, 20);
	snprintf(cache, sizeof(cache), "%s", fixture("bcache"));
	o.buildid_dir = cache;
	assert_int_equal(vp_elf_open("/nonexistent/vmprof/fix-nopie", id, size, &o, &e, &err), 0);
	assert_non_null(strstr(vp_elf_symsrc(e), "/bcache/.build-id/"));
	assert_int_equal(vp_elf_build_id(e, got, &gsize), 0);
	assert_int_equal(gsize, 20);
	assert_memory_equal(got, id, 20);
	/* it is the non-PIE fixture: main sits where readelf says */
	const struct vp_symtab *t = vp_elf_symtab(e);
	int mains = 0;
	for (size_t i = 0; i < vp_symtab_count(t); i++)
		mains += !strcmp(vp_symtab_at(t, i)->name, "main");
	assert_int_equal(mains, 1);
	vp_elf_close(e);

	/* readelf's build-id is the one the object reports */
	assert_int_equal(vp_elf_read_build_id(fixture("fix-nopie"), got, &gsize), 0);
	assert_memory_equal(got, id, 20);
}

static void test_a_different_build_id_is_stale(void **state)
{
	(void)state;
	uint8_t id[20];
	size_t size;
	struct vp_elf_opts o = opts();
	struct vp_elf *e = NULL;
	struct vp_error err = { 0 };

	assert_int_equal(read_build_id_file("fix-nopie.buildid", id, &size), 0);
	/* fix-pie's own build-id differs from fix-nopie's */
	assert_int_equal(vp_elf_open(fixture("fix-pie"), id, size, &o, &e, &err), -ESTALE);
	assert_null(e);
	assert_non_null(strstr(err.msg, "build-id"));
	/* the matching one loads; a zero-padded short id matches too (perf's rule) */
	assert_int_equal(vp_elf_open(fixture("fix-nopie"), id, size, &o, &e, &err), 0);
	vp_elf_close(e);
}

static void test_missing_and_non_elf_files_fail_cleanly(void **state)
{
	(void)state;
	struct vp_elf *e = NULL;
	struct vp_error err = { 0 };
	struct vp_elf_opts o = opts();

	assert_int_equal(vp_elf_open("/nonexistent/x", NULL, 0, &o, &e, &err), -ENOENT);
	assert_null(e);
	assert_int_equal(vp_elf_open(fixture("fix-nopie.syms"), NULL, 0, &o, &e, &err), -ENOENT);
	assert_int_equal(vp_elf_open("", NULL, 0, &o, &e, &err), -EINVAL);
}

/* ---- hostile copies ---- */

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long sz;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)sz);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)sz, f), (size_t)sz);
	fclose(f);
	*n = (size_t)sz;
	return buf;
}

static void try_copy(const char *path, const unsigned char *buf, size_t n)
{
	FILE *f = fopen(path, "wb");
	struct vp_elf *e = NULL;
	struct vp_error err = { 0 };
	struct vp_elf_opts o = { .buildid_dir = "/nonexistent" };

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	fclose(f);
	if (vp_elf_open(path, NULL, 0, &o, &e, &err) == 0) {
		const struct vp_symtab *t = vp_elf_symtab(e);
		for (size_t i = 0; i < vp_symtab_count(t); i++) {
			const struct vp_sym *s = vp_symtab_at(t, i);
			vp_sym_name(t, s, VP_DEMANGLE_FULL);
			vp_symtab_find(t, s->start);
		}
		vp_elf_close(e);
	}
}

static void test_corrupted_objects_never_crash(void **state)
{
	(void)state;
	char path[4200];
	size_t n;
	unsigned char *orig = slurp(fixture("fix-nopie"), &n), *buf = malloc(n);
	Elf64_Ehdr eh;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	assert_non_null(buf);
	/* one file per process: the plain and the sanitized run may run at once,
	 * and a file cut short under another's mapping is a SIGBUS */
	snprintf(path, sizeof(path), "%s.%d", fixture("corrupt.tmp"), (int)getpid());
	memcpy(&eh, orig, sizeof(eh));
	/* truncated anywhere */
	for (size_t cut = 0; cut < n; cut += n / 37 + 1)
		try_copy(path, orig, cut);
	/* every section header field set to absurd values, one at a time */
	static const uint64_t bogus[] = { 0, 1, 7, 0xffffffffULL, 0x7fffffffffffffffULL,
					  0xffffffffffffffffULL };
	for (unsigned sec = 0; sec < eh.e_shnum; sec++) {
		size_t base = eh.e_shoff + (size_t)sec * eh.e_shentsize;
		/* sh_type, sh_offset, sh_size, sh_link, sh_info, sh_entsize, sh_name */
		static const size_t fields[][2] = { { 4, 4 },	{ 24, 8 }, { 32, 8 }, { 40, 4 },
						    { 44, 4 }, { 56, 8 },  { 0, 4 } };
		if (base + sizeof(Elf64_Shdr) > n)
			break;
		for (size_t fi = 0; fi < sizeof(fields) / sizeof(fields[0]); fi++)
			for (size_t b = 0; b < sizeof(bogus) / sizeof(bogus[0]); b++) {
				memcpy(buf, orig, n);
				memcpy(buf + base + fields[fi][0], &bogus[b], fields[fi][1]);
				try_copy(path, buf, n);
			}
	}
	/* header fields */
	static const size_t hfields[][2] = { { 32, 8 }, { 40, 8 }, { 54, 2 }, { 56, 2 },
					     { 58, 2 }, { 60, 2 }, { 62, 2 } };
	for (size_t fi = 0; fi < sizeof(hfields) / sizeof(hfields[0]); fi++)
		for (size_t b = 0; b < sizeof(bogus) / sizeof(bogus[0]); b++) {
			memcpy(buf, orig, n);
			memcpy(buf + hfields[fi][0], &bogus[b], hfields[fi][1]);
			try_copy(path, buf, n);
		}
	/* random bytes flipped in the symbol and string tables' neighbourhood */
	for (int round = 0; round < 150; round++) {
		memcpy(buf, orig, n);
		for (int k = 0; k < 16; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			buf[x % n] ^= (unsigned char)(x >> 32);
		}
		try_copy(path, buf, n);
	}
	remove(path);
	free(buf);
	free(orig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_functions_resolve_at_the_offsets_readelf_gives),
		cmocka_unit_test(test_plt_entries_are_the_ones_objdump_names),
		cmocka_unit_test(test_every_sampled_offset_resolves_as_perf_resolved_it),
		cmocka_unit_test(test_stripped_object_finds_its_debug_file_by_debuglink),
		cmocka_unit_test(test_debuglink_also_looks_beside_the_object_and_in_the_debug_mirror),
		cmocka_unit_test(test_stripped_object_finds_its_debug_file_by_build_id),
		cmocka_unit_test(test_symfs_prefixes_every_path),
		cmocka_unit_test(test_build_id_cache_serves_a_deleted_binary),
		cmocka_unit_test(test_a_different_build_id_is_stale),
		cmocka_unit_test(test_missing_and_non_elf_files_fail_cleanly),
		cmocka_unit_test(test_corrupted_objects_never_crash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
