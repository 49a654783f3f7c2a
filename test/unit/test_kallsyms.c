/* Kernel symbols: a hand-written kallsyms whose answers follow from perf's
 * rules (each case says which), then the running kernel's /proc/kallsyms
 * checked line by line against grep-like scans of the same file. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <elf.h>
#include <unistd.h>
#include <cmocka.h>
#include <pthread.h>

#include "lib/symbols/symbols.h"

static char *write_tmp(const char *text, size_t len)
{
	static char path[] = "/tmp/vp-kallsyms-XXXXXX";
	char *p = strdup(path);
	int fd = mkstemp(p);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return p;
}

static struct vp_kallsyms *load_text(const char *text, int *rc, struct vp_error *err)
{
	char *p = write_tmp(text, strlen(text));
	struct vp_kallsyms *k = NULL;

	*rc = vp_kallsyms_load(p, &k, err);
	unlink(p);
	free(p);
	return k;
}

static const char *at(const struct vp_kallsyms *k, uint64_t a, const char **mod)
{
	const struct vp_sym *s = vp_kallsyms_find(k, a, mod, NULL);

	return s ? s->name : "(none)";
}

static const char sample[] =
	"ffffffff81000000 T srso_alias_untrain_ret\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t local_fn\n"
	"ffffffff81000200 T strong_fn\n"
	"ffffffff81000200 W weak_fn\n"
	"ffffffff81000300 r rodata_sym\n"	/* not T W D B: dropped, never an end */
	"ffffffff81000400 T __entry_SYSCALL_64_trampoline\n"
	"ffffffff81000500 A abs_sym\n"
	"ffffffff81000600 D data_sym\n"
	"ffffffff81000700 T SyS_read\n"
	"ffffffff81000700 T sys_read\n"
	"ffffffff81000900 T kernel_last\n"
	"ffffffffc0001000 t mod_init\t[xfs]\n"
	"ffffffffc0001080 T xfs_fn\t[xfs]\n"
	"ffffffffc0002000 t ext4_fn\t[ext4]\n"
	"ffffffffc0002040 t ext4_last\t[ext4]\n"
	"ffffffffc0003000 t bpf_prog_1\t[bpf]\n"
	"garbage line\n"
	"ffffffffc0004000 Tmissing_space\n"
	"\n";

static void test_hand_written_kallsyms_resolves_by_perfs_rules(void **state)
{
	(void)state;
	struct vp_error err = { 0 };
	const char *mod;
	int rc;
	struct vp_kallsyms *k = load_text(sample, &rc, &err);

	assert_int_equal(rc, 0);
	/* three zero-size aliases: only the last reaches the next symbol */
	assert_string_equal(at(k, 0xffffffff81000000ULL, &mod), "_text");
	assert_null(mod);
	assert_string_equal(at(k, 0xffffffff810000ffULL, &mod), "_text");
	/* ends run to the next kept symbol; 'r' and 'A' lines are skipped */
	assert_string_equal(at(k, 0xffffffff81000100ULL, &mod), "local_fn");
	/* aliases: the last one, the only one stretched, wins whatever its binding */
	assert_string_equal(at(k, 0xffffffff81000250ULL, &mod), "weak_fn");
	assert_string_equal(at(k, 0xffffffff81000300ULL, &mod), "weak_fn");
	/* the x86 entry trampoline leaves the kernel's table: its range reads as nothing */
	assert_string_equal(at(k, 0xffffffff81000450ULL, &mod), "(none)");
	/* data symbols stay (as STT_OBJECT) */
	const struct vp_sym *d = vp_kallsyms_find(k, 0xffffffff81000600ULL, NULL, NULL);
	assert_non_null(d);
	assert_string_equal(d->name, "data_sym");
	assert_int_equal(d->type, STT_OBJECT);
	assert_string_equal(at(k, 0xffffffff81000700ULL, &mod), "sys_read");
	/* the last kernel symbol before the modules: a page past its start, rounded */
	assert_string_equal(at(k, 0xffffffff81001fffULL, &mod), "kernel_last");
	assert_string_equal(at(k, 0xffffffff81002000ULL, &mod), "(none)");
	/* modules: own tables, bare module names */
	assert_string_equal(at(k, 0xffffffffc0001010ULL, &mod), "mod_init");
	assert_string_equal(mod, "xfs");
	/* a module's last symbol runs to the next module's first */
	assert_string_equal(at(k, 0xffffffffc0001fffULL, &mod), "xfs_fn");
	assert_string_equal(at(k, 0xffffffffc0002fffULL, &mod), "ext4_last");
	assert_string_equal(mod, "ext4");
	/* the very last symbol: roundup(start, 4096) + 4096 */
	assert_string_equal(at(k, 0xffffffffc0003fffULL, &mod), "bpf_prog_1");
	assert_string_equal(mod, "bpf");
	assert_string_equal(at(k, 0xffffffffc0004000ULL, &mod), "(none)");
	assert_string_equal(at(k, 0xffffffff80ffffffULL, &mod), "(none)");

	assert_int_equal(vp_kallsyms_module_count(k), 3);
	assert_string_equal(vp_kallsyms_module_name(k, 0), "xfs");
	const struct vp_symtab *x = vp_kallsyms_module(k, "xfs");
	assert_non_null(x);
	assert_int_equal(vp_symtab_count(x), 2);
	assert_string_equal(vp_symtab_at(x, 1)->name, "xfs_fn");	/* "\t[xfs]" gone */
	assert_null(vp_kallsyms_module(k, "nosuch"));
	/* kernel names stay verbatim */
	assert_string_equal(vp_sym_name(vp_kallsyms_kernel(k),
					vp_kallsyms_find(k, 0xffffffff81000100ULL, NULL, NULL),
					VP_DEMANGLE_FULL),
			    "local_fn");

	const char *ref;
	assert_int_equal(vp_kallsyms_ref_addr(k, &ref), 0xffffffff81000000ULL);
	assert_string_equal(ref, "_text");
	assert_int_equal(vp_kallsyms_addr_of(k, "_stext"), 0xffffffff81000000ULL);
	vp_kallsyms_free(k);
}

static void test_stext_serves_as_reference_without_text(void **state)
{
	(void)state;
	struct vp_error err = { 0 };
	int rc;
	struct vp_kallsyms *k = load_text("ffffffff81000000 D _text\n"	/* not a function */
					  "ffffffff81000010 T _stext\n"
					  "ffffffff81000020 T f\n",
					  &rc, &err);
	const char *ref;

	assert_int_equal(rc, 0);
	assert_int_equal(vp_kallsyms_ref_addr(k, &ref), 0xffffffff81000010ULL);
	assert_string_equal(ref, "_stext");
	vp_kallsyms_free(k);
}

static void test_restricted_kallsyms_says_so(void **state)
{
	(void)state;
	struct vp_error err = { 0 };
	int rc;
	struct vp_kallsyms *k = load_text("0000000000000000 T _text\n"
					  "0000000000000000 T f\n"
					  "0000000000000000 t g\t[mod]\n",
					  &rc, &err);
	assert_null(k);
	assert_int_equal(rc, -EACCES);
	assert_non_null(strstr(err.msg, "kptr_restrict"));

	k = load_text("nothing here\n", &rc, &err);
	assert_null(k);
	assert_int_equal(rc, -EINVAL);
	assert_int_equal(vp_kallsyms_load("/nonexistent/kallsyms", &k, &err), -ENOENT);
}

static void test_lines_of_any_length_are_survived(void **state)
{
	(void)state;
	size_t big = 3 * 1024 * 1024;
	char *text = malloc(big + 200);
	struct vp_error err = { 0 };
	struct vp_kallsyms *k = NULL;
	const char *mod;

	assert_non_null(text);
	strcpy(text, "ffffffff81000000 T first\nffffffff81000100 T ");
	size_t n = strlen(text);
	memset(text + n, 'x', big);	/* a 3 MB name */
	n += big;
	n += (size_t)sprintf(text + n, "\nffffffff81000200 T after\n");
	char *p = write_tmp(text, n);
	assert_int_equal(vp_kallsyms_load(p, &k, &err), 0);
	/* the long name is kept to perf's 513 bytes; the next line still parses */
	const struct vp_sym *s = vp_kallsyms_find(k, 0xffffffff81000100ULL, &mod, NULL);
	assert_non_null(s);
	assert_int_equal(strlen(s->name), 513);
	assert_string_equal(at(k, 0xffffffff81000200ULL, &mod), "after");
	vp_kallsyms_free(k);
	unlink(p);
	free(p);
	free(text);
}

/* Addresses are read eight digits at a time when there are sixteen: each
 * line's value is checked against strtoull's reading of its own text, in
 * any case, and a line with one byte in it that is not a hex digit (at any
 * of the 16 places) must be skipped, as perf skips it. */
static void test_addresses_read_as_strtoull_reads_them(void **state)
{
	(void)state;
	enum { GOOD = 400 };
	static const char bad_bytes[] = "gG/:@`xX\t-\x80\xff";
	size_t cap = 1 << 20, n = 0;
	char *text = malloc(cap);
	uint64_t want[GOOD + 2];
	struct vp_error err = { 0 };
	struct vp_kallsyms *k = NULL;
	unsigned seed = 12345;
	int rc;

	assert_non_null(text);
	for (int i = 0; i < GOOD; i++) {
		char digits[17];
		/* rising addresses, every nibble value somewhere */
		uint64_t a = 0xffff000000000000ull + (uint64_t)i * 0x0000123456789abdull;
		snprintf(digits, sizeof(digits), "%016" PRIx64, a);
		for (int d = 0; d < 16; d++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) & 1)
				digits[d] = (char)toupper((unsigned char)digits[d]);
		}
		want[i] = strtoull(digits, NULL, 16);
		n += (size_t)snprintf(text + n, cap - n, "%s T good%d\n", digits, i);
		/* the same line broken at one place */
		digits[i % 16] = bad_bytes[i % (sizeof(bad_bytes) - 1)];
		n += (size_t)snprintf(text + n, cap - n, "%s T bad%d\n", digits, i);
	}
	/* eight digits and seventeen: the digit loop's reading */
	n += (size_t)snprintf(text + n, cap - n, "81000000 T short8\n1fffffffffffffff0 T long17\n");
	want[GOOD] = 0x81000000ull;
	want[GOOD + 1] = 0xfffffffffffffff0ull;
	char *p = write_tmp(text, n);
	k = NULL;
	rc = vp_kallsyms_load(p, &k, &err);
	assert_int_equal(rc, 0);
	const struct vp_symtab *t = vp_kallsyms_kernel(k);
	size_t found = 0;
	for (size_t i = 0; i < vp_symtab_count(t); i++) {
		const struct vp_sym *s = vp_symtab_at(t, i);
		int j;
		assert_true(strncmp(s->name, "bad", 3) != 0);
		if (sscanf(s->name, "good%d", &j) == 1)
			assert_true(s->start == want[j]);
		else if (!strcmp(s->name, "short8"))
			assert_true(s->start == want[GOOD]);
		else if (!strcmp(s->name, "long17"))
			assert_true(s->start == want[GOOD + 1]);
		else
			fail_msg("unexpected symbol %s", s->name);
		found++;
	}
	assert_int_equal(found, GOOD + 2);
	vp_kallsyms_free(k);
	unlink(p);
	free(p);
	free(text);
}

/* ---- the running kernel's table ---- */

struct line {
	uint64_t addr;
	char type;
	char name[600];
};

static int cmp_addr(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void test_proc_kallsyms_agrees_with_its_own_lines(void **state)
{
	(void)state;
	FILE *f = fopen("/proc/kallsyms", "r");
	struct vp_kallsyms *k = NULL;
	struct vp_error err = { 0 };
	struct line *v = NULL;
	size_t n = 0, cap = 0, checked = 0;
	char buf[1024];

	if (!f)
		skip();
	/* every kept line (grep '^[0-9a-f]* [TtWwDdBb] '), core symbols only */
	while (fgets(buf, sizeof(buf), f)) {
		struct line l;
		if (sscanf(buf, "%" SCNx64 " %c %599s", &l.addr, &l.type, l.name) != 3)
			continue;
		if (!strchr("TtWwDdBb", l.type) || strchr(buf, '\t'))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			v = realloc(v, cap * sizeof(*v));
			assert_non_null(v);
		}
		v[n++] = l;
	}
	fclose(f);
	int rc = vp_kallsyms_load("/proc/kallsyms", &k, &err);
	if (rc == -EACCES) {
		free(v);
		skip();	/* kptr_restrict: addresses hidden from this user */
	}
	assert_int_equal(rc, 0);
	assert_true(n > 1000);
	qsort(v, n, sizeof(*v), cmp_addr);
	/* Symbols alone at their address, with a later symbol after them: their
	 * start and the byte before the next symbol resolve to them. */
	for (size_t i = 1; i + 1 < n; i += 7) {
		if (v[i].addr == v[i - 1].addr || v[i].addr == v[i + 1].addr)
			continue;
		if (!strcmp(v[i].name, "__entry_SYSCALL_64_trampoline"))
			continue;
		const char *mod;
		assert_string_equal(at(k, v[i].addr, &mod), v[i].name);
		assert_null(mod);
		assert_string_equal(at(k, v[i + 1].addr - 1, &mod), v[i].name);
		checked++;
	}
	/* aliases: the survivor is one of the names at that address */
	for (size_t i = 0; i + 1 < n; i++) {
		if (v[i].addr != v[i + 1].addr)
			continue;
		const char *got = at(k, v[i].addr, NULL);
		int ok = 0;
		for (size_t j = i; j < n && v[j].addr == v[i].addr; j++)
			ok |= !strcmp(got, v[j].name);
		assert_true(ok);
		while (i + 1 < n && v[i + 1].addr == v[i].addr)
			i++;
	}
	assert_true(checked > 100);
	free(v);
	vp_kallsyms_free(k);
}

struct getter {
	const char *path;
	struct vp_kallsyms *k;
	int rc;
};

static void *get_it(void *arg)
{
	struct getter *g = arg;
	struct vp_error err = { 0 };

	g->rc = vp_kallsyms_get(g->path, &g->k, &err);
	return NULL;
}

/* Threads asking for one path get one table, read once; it lives until the
 * last put (ASan sees any early free or leak); a failed read is not kept. */
static void test_shared_tables_are_read_once(void **state)
{
	char *p = write_tmp(sample, sizeof(sample) - 1);
	struct getter g[4];
	pthread_t t[4];
	struct vp_error err = { 0 };
	struct vp_kallsyms *k;
	(void)state;

	for (int i = 0; i < 4; i++) {
		g[i] = (struct getter){ p, NULL, -1 };
		assert_int_equal(pthread_create(&t[i], NULL, get_it, &g[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(g[i].rc, 0);
		assert_ptr_equal(g[i].k, g[0].k);
	}
	const char *mod;
	assert_string_equal(at(g[0].k, 0xffffffffc0001090ull, &mod), "xfs_fn");
	for (int i = 0; i < 3; i++)
		vp_kallsyms_put(g[i].k);
	assert_string_equal(at(g[3].k, 0xffffffff81000110ull, &mod), "local_fn");	/* still held */
	vp_kallsyms_put(g[3].k);

	/* Given back: the next get reads the file as it is now. */
	FILE *f = fopen(p, "w");
	fputs("ffffffff81000000 T _text\nffffffff81000100 T changed\n", f);
	fclose(f);
	assert_int_equal(vp_kallsyms_get(p, &k, &err), 0);
	assert_string_equal(at(k, 0xffffffff81000110ull, &mod), "changed");
	vp_kallsyms_put(k);

	unlink(p);
	free(p);
	assert_int_equal(vp_kallsyms_get("/nonexistent/kallsyms", &k, &err), -ENOENT);
	assert_int_equal(vp_kallsyms_get("/nonexistent/kallsyms", &k, &err), -ENOENT);
	assert_null(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_written_kallsyms_resolves_by_perfs_rules),
		cmocka_unit_test(test_stext_serves_as_reference_without_text),
		cmocka_unit_test(test_restricted_kallsyms_says_so),
		cmocka_unit_test(test_lines_of_any_length_are_survived),
		cmocka_unit_test(test_addresses_read_as_strtoull_reads_them),
		cmocka_unit_test(test_proc_kallsyms_agrees_with_its_own_lines),
		cmocka_unit_test(test_shared_tables_are_read_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
