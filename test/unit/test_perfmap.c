/* perf-PID.map files: perf 6.1's parse (hex "START SIZE NAME", names with
 * spaces, its length checks), no fixups, and perf's own answers for a JIT
 * fixture's samples; malformed and huge lines warn once and never crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/symbols/symbols.h"
#include "fixtures.h"

static int nwarn;
static char lastwarn[1024];

static void on_warn(const char *msg, void *ctx)
{
	(void)ctx;
	nwarn++;
	snprintf(lastwarn, sizeof(lastwarn), "%s", msg);
}

static char *write_tmp(const char *text, size_t len)
{
	char *p = strdup("/tmp/vp-perfmap-XXXXXX");
	int fd = mkstemp(p);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return p;
}

static struct vp_symtab *load(const char *text, size_t len)
{
	char *p = write_tmp(text, len);
	struct vp_symtab *t = NULL;
	struct vp_error err = { 0 };

	nwarn = 0;
	vp_warn_once_reset();
	vp_set_warn_handler(on_warn, NULL);
	assert_int_equal(vp_perfmap_load(p, &t, &err), 0);
	vp_set_warn_handler(NULL, NULL);
	unlink(p);
	free(p);
	return t;
}

static const char *at(const struct vp_symtab *t, uint64_t a)
{
	const struct vp_sym *s = vp_symtab_find(t, a);

	return s ? vp_sym_name(t, s, VP_DEMANGLE_SHORT) : "(none)";
}

static void test_lines_parse_as_perf_parses_them(void **state)
{
	(void)state;
	static const char text[] =
		"7f0000001000 40 jit_alpha\n"
		"7f0000002000 20 LazyCompile:*beta /srv/app.js:12\n"	/* spaces stay */
		"0x7f0000003000 0x10 hex_prefixed\n"			/* strtoull takes 0x */
		"7f0000004000 0 zero_size\n"				/* holds its start only */
		"7f0000005000 10 ab\n"					/* < 3 bytes: perf drops it */
		"7f0000006000 10 _ZN3jit6mangledEv\n"			/* never demangled */
		"\n";
	struct vp_symtab *t = load(text, sizeof(text) - 1);

	assert_string_equal(at(t, 0x7f0000001000), "jit_alpha");
	assert_string_equal(at(t, 0x7f000000103f), "jit_alpha");
	assert_string_equal(at(t, 0x7f0000001040), "(none)");	/* no end fixup */
	assert_string_equal(at(t, 0x7f0000002010), "LazyCompile:*beta /srv/app.js:12");
	assert_string_equal(at(t, 0x7f0000003008), "hex_prefixed");
	assert_string_equal(at(t, 0x7f0000004000), "zero_size");
	assert_string_equal(at(t, 0x7f0000004001), "(none)");
	assert_string_equal(at(t, 0x7f0000005000), "(none)");
	assert_string_equal(at(t, 0x7f0000006000), "_ZN3jit6mangledEv");
	assert_int_equal(vp_symtab_count(t), 5);
	assert_int_equal(nwarn, 1);	/* the "ab" line perf drops silently */
	vp_symtab_free(t);
}

static void test_a_last_line_without_newline_loses_its_last_byte(void **state)
{
	(void)state;
	/* perf writes '\0' over the last byte of every line, newline or not */
	static const char text[] = "1000 10 first\n2000 10 second";
	struct vp_symtab *t = load(text, sizeof(text) - 1);

	assert_string_equal(at(t, 0x1000), "first");
	assert_string_equal(at(t, 0x2000), "secon");
	vp_symtab_free(t);
}

static void test_malformed_lines_warn_once_and_are_skipped(void **state)
{
	(void)state;
	static const char text[] = "zz yy not hex\n"
				   "1000 10 good\n"
				   "2000 -- no size\n"
				   "just words here\n"
				   "3000\n"
				   "4000 10 alsogood\n";
	struct vp_symtab *t = load(text, sizeof(text) - 1);

	assert_string_equal(at(t, 0x1000), "good");
	assert_string_equal(at(t, 0x4000), "alsogood");
	assert_int_equal(vp_symtab_count(t), 2);
	assert_int_equal(nwarn, 1);
	assert_non_null(strstr(lastwarn, "4 malformed lines"));
	assert_non_null(strstr(lastwarn, "line 1"));
	vp_symtab_free(t);
}

static void test_huge_lines_and_binary_junk_never_crash(void **state)
{
	(void)state;
	size_t big = 2 * 1024 * 1024, n;
	char *text = malloc(big + 256);
	uint64_t x = 0x2545f4914f6cdd1dULL;

	assert_non_null(text);
	n = (size_t)sprintf(text, "1000 10 before\n5000 10 ");
	memset(text + n, 'y', big);
	n += big;
	n += (size_t)sprintf(text + n, "\n6000 10 after\n");
	struct vp_symtab *t = load(text, n);
	assert_string_equal(at(t, 0x1000), "before");
	assert_string_equal(at(t, 0x6000), "after");
	assert_string_equal(at(t, 0x5000), "(none)");	/* the over-long line is dropped */
	assert_int_equal(nwarn, 1);
	vp_symtab_free(t);

	for (size_t i = 0; i < 65536; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		text[i] = (char)x;
	}
	t = load(text, 65536);
	for (size_t i = 0; i < vp_symtab_count(t); i++)
		vp_symtab_find(t, vp_symtab_at(t, i)->start);
	vp_symtab_free(t);
	free(text);

	struct vp_error err = { 0 };
	assert_int_equal(vp_perfmap_load("/nonexistent/perf-1.map", &t, &err), -ENOENT);
	assert_null(t);
}

/* perf.oracle's jit.map lines: what perf reported for the JIT fixture's
 * samples (a zero-size entry, a region overlapping later entries, an
 * address named twice: the tree decides, as in perf). */
static void test_jit_samples_resolve_as_perf_resolved_them(void **state)
{
	(void)state;
	const char *dir = vp_test_elf_fixtures();
	char path[4200], line[4096];
	struct vp_symtab *t = NULL;
	struct vp_error err = { 0 };
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/perf.skip", dir);
	if (access(path, F_OK) == 0)
		skip();
	snprintf(path, sizeof(path), "%s/jit.map", dir);
	assert_int_equal(vp_perfmap_load(path, &t, &err), 0);
	snprintf(path, sizeof(path), "%s/perf.oracle", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *offs, *sym;
		line[strcspn(line, "\n")] = '\0';
		if (!(offs = strchr(line, '\t')) || !(sym = strchr(offs + 1, '\t')))
			continue;
		*offs++ = '\0';
		*sym++ = '\0';
		size_t l = strlen(line);
		if (l < 8 || strcmp(line + l - 8, "/jit.map"))
			continue;
		const struct vp_sym *s = vp_symtab_find(t, strtoull(offs, NULL, 16));
		assert_string_equal(s ? vp_sym_name(t, s, VP_DEMANGLE_SHORT) : "[unknown]", sym);
		n++;
	}
	fclose(f);
	assert_true(n >= 4);
	vp_symtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_parse_as_perf_parses_them),
		cmocka_unit_test(test_a_last_line_without_newline_loses_its_last_byte),
		cmocka_unit_test(test_malformed_lines_warn_once_and_are_skipped),
		cmocka_unit_test(test_huge_lines_and_binary_junk_never_crash),
		cmocka_unit_test(test_jit_samples_resolve_as_perf_resolved_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
