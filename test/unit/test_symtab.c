/* Symbol tables: perf 6.1's fixups (end, duplicates), its tree-walk lookup,
 * lazy names. Expected answers follow from perf's rules by hand: each case
 * says which rule it pins. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/symbols/symbols.h"
#include "lib/symbols/symtab_internal.h"
#include "lib/util/sanitizer.h"

static const char *name_at(const struct vp_symtab *t, uint64_t addr)
{
	const struct vp_sym *s = vp_symtab_find(t, addr);

	return s ? s->name : "(none)";
}

static void test_sized_symbols_hold_start_to_end_exclusive(void **state)
{
	(void)state;
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_add(t, 0x1000, 0x10, "a", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x1020, 0x10, "b", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 0);
	assert_string_equal(name_at(t, 0x1000), "a");
	assert_string_equal(name_at(t, 0x100f), "a");
	assert_string_equal(name_at(t, 0x1010), "(none)");	/* the gap stays a gap */
	assert_string_equal(name_at(t, 0x1020), "b");
	assert_string_equal(name_at(t, 0x102f), "b");
	assert_string_equal(name_at(t, 0x1030), "(none)");
	assert_string_equal(name_at(t, 0xfff), "(none)");
	assert_int_equal(vp_symtab_count(t), 2);
	assert_string_equal(vp_symtab_at(t, 0)->name, "a");
	assert_null(vp_symtab_at(t, 2));
	vp_symtab_free(t);
}

static void test_zero_size_symbols_stretch_to_the_next_and_the_last_to_a_page(void **state)
{
	(void)state;
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_add(t, 0x2000, 0, "first", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x2100, 0x20, "sized", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x2345, 0, "last", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 0);
	/* symbols__fixup_end: prev->end = curr->start */
	assert_int_equal(vp_symtab_at(t, 0)->end, 0x2100);
	assert_string_equal(name_at(t, 0x20ff), "first");
	/* a sized one keeps its size, leaving a gap */
	assert_string_equal(name_at(t, 0x2120), "(none)");
	/* the last: roundup(start, 4096) + 4096 */
	assert_int_equal(vp_symtab_at(t, 2)->end, 0x4000);
	assert_string_equal(name_at(t, 0x3fff), "last");
	assert_string_equal(name_at(t, 0x4000), "(none)");
	vp_symtab_free(t);
}

static void test_kallsyms_ends_do_not_bridge_kernel_and_modules(void **state)
{
	(void)state;
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_set_demangle(t, 0);
	vp_symtab_add(t, 0xffffffff81000000ULL, 0, "_text", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0xffffffff81000800ULL, 0, "kernel_last", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0xffffffffc0001000ULL, 0, "mod_fn\t[mod]", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0xffffffffc0001100ULL, 0, "mod_fn2\t[mod]", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 1);
	assert_int_equal(vp_symtab_at(t, 0)->end, 0xffffffff81000800ULL);
	/* before a module boundary: roundup(end + 4096, 4096), not the module's start */
	assert_int_equal(vp_symtab_at(t, 1)->end, 0xffffffff81002000ULL);
	assert_string_equal(name_at(t, 0xffffffffa0000000ULL), "(none)");
	assert_int_equal(vp_symtab_at(t, 2)->end, 0xffffffffc0001100ULL);
	vp_symtab_free(t);

	/* without the kallsyms flag the same table bridges the gap */
	t = vp_symtab_new();
	vp_symtab_add(t, 0x1000, 0, "a", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x9000, 0, "b\t[m]", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 0);
	assert_int_equal(vp_symtab_at(t, 0)->end, 0x9000);
	vp_symtab_free(t);
}

/* Two symbols at one address; returns the name perf keeps. */
static const char *survivor(uint64_t size_a, uint8_t bind_a, const char *a, uint64_t size_b,
			    uint8_t bind_b, const char *b, char *buf)
{
	/* added in order, and with "after" first (out of order: the table's
	 * tree, where an equal start goes right of the one before, as in perf's
	 * symbols__insert): the same survivor */
	for (int tree = 0; tree < 2; tree++) {
		struct vp_symtab *t = vp_symtab_new();
		vp_symtab_set_demangle(t, 0);
		if (tree)
			vp_symtab_add(t, 0x200, 0x10, "after", STB_GLOBAL, STT_FUNC);
		vp_symtab_add(t, 0x100, size_a, a, bind_a, STT_FUNC);
		vp_symtab_add(t, 0x100, size_b, b, bind_b, STT_FUNC);
		if (!tree)
			vp_symtab_add(t, 0x200, 0x10, "after", STB_GLOBAL, STT_FUNC);
		vp_symtab_finish(t, 0);
		assert_int_equal(vp_symtab_count(t), 2);
		if (tree)
			assert_string_equal(vp_symtab_at(t, 0)->name, buf);
		strcpy(buf, vp_symtab_at(t, 0)->name);
		assert_string_equal(name_at(t, 0x100), buf);
		vp_symtab_free(t);
	}
	return buf;
}

static void test_duplicates_keep_the_symbol_perf_chooses(void **state)
{
	(void)state;
	char b[64];
	/* a size beats no size (the zero-size one was stretched only to the other's start) */
	assert_string_equal(survivor(0, STB_GLOBAL, "nosize", 8, STB_LOCAL, "sized", b), "sized");
	/* ...but added second, the zero-size one is stretched to the next symbol
	 * before the duplicate pass, has a size too, and wins as the global one */
	assert_string_equal(survivor(8, STB_LOCAL, "sized", 0, STB_GLOBAL, "nosize", b), "nosize");
	/* then not weak over weak */
	assert_string_equal(survivor(8, STB_WEAK, "weak", 8, STB_LOCAL, "local", b), "local");
	/* then global over local */
	assert_string_equal(survivor(8, STB_LOCAL, "loc", 8, STB_GLOBAL, "glob", b), "glob");
	/* then fewer leading underscores */
	assert_string_equal(survivor(8, STB_GLOBAL, "__x", 8, STB_GLOBAL, "_yy", b), "_yy");
	/* then the longer name */
	assert_string_equal(survivor(8, STB_GLOBAL, "ab", 8, STB_GLOBAL, "abc", b), "abc");
	/* all equal: the one added first, unless it is a kernel "SyS" alias */
	assert_string_equal(survivor(8, STB_GLOBAL, "abc", 8, STB_GLOBAL, "xyz", b), "abc");
	assert_string_equal(survivor(8, STB_GLOBAL, "SyS_a", 8, STB_GLOBAL, "sys_a", b), "sys_a");
}

static void test_zero_size_aliases_leave_the_last_added(void **state)
{
	(void)state;
	/* fixup_end runs before the duplicate pass: of three zero-size aliases
	 * only the last reaches the next symbol, so it has a size and wins even
	 * against global and underscore preferences (/proc/kallsyms's
	 * srso_alias_untrain_ret, _stext, _text all at one address give _text). */
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_set_demangle(t, 0);
	vp_symtab_add(t, 0x1000, 0, "srso_alias_untrain_ret", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x1000, 0, "_stext", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x1000, 0, "_text", STB_LOCAL, STT_FUNC);
	vp_symtab_add(t, 0x1800, 0, "next", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 1);
	assert_int_equal(vp_symtab_count(t), 2);
	assert_string_equal(name_at(t, 0x17ff), "_text");
	vp_symtab_free(t);
}

static void test_lookup_walks_the_tree_as_perf_does(void **state)
{
	(void)state;
	/* An outer symbol [10,100) and inner ones. perf's symbols__find returns
	 * the first node on the search path holding the address, so the tree's
	 * shape decides. Inserting 10 then 30: 10 is the root, so 35 -> outer. */
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_add(t, 10, 90, "outer", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 30, 10, "inner30", STB_GLOBAL, STT_FUNC);
	vp_symtab_seal(t);
	assert_string_equal(name_at(t, 35), "outer");
	vp_symtab_free(t);

	/* Adding 50 rotates 30 to the root: 35 -> inner30, 55 -> inner50, and 45
	 * goes right of 30 then left of 50 into nothing: unresolved, although
	 * outer covers it. */
	t = vp_symtab_new();
	vp_symtab_add(t, 10, 90, "outer", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 30, 10, "inner30", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 50, 10, "inner50", STB_GLOBAL, STT_FUNC);
	vp_symtab_seal(t);
	assert_string_equal(name_at(t, 35), "inner30");
	assert_string_equal(name_at(t, 55), "inner50");
	assert_string_equal(name_at(t, 45), "(none)");
	assert_string_equal(name_at(t, 15), "outer");
	assert_string_equal(name_at(t, 80), "(none)");
	vp_symtab_free(t);
}

static void test_plt_entries_added_after_fixups_may_hide_under_a_stretched_init(void **state)
{
	(void)state;
	/* _init has size 0; the fixups stretch it over .plt up to main, and the
	 * PLT entries perf synthesizes come afterwards. Whether a PLT sample
	 * reads "_init" or "x@plt" depends on the tree (perf shows both: the
	 * fixtures' non-PIE build says _init, the PIE one fix_lib_add@plt).
	 * Here pre, _init, main rotate _init to the root: _init wins. */
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_add(t, 0x500, 0x10, "pre", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x1000, 0, "_init", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x1060, 0x44, "main", STB_GLOBAL, STT_FUNC);
	vp_symtab_fixup(t, 0);
	vp_symtab_add_plt(t, 0x1030, 0x10, "printf");
	vp_symtab_seal(t);
	assert_int_equal(vp_symtab_at(t, 1)->end, 0x1060);
	assert_string_equal(name_at(t, 0x1035), "_init");
	assert_string_equal(name_at(t, 0x1065), "main");
	assert_int_equal(vp_symtab_count(t), 4);
	assert_string_equal(vp_symtab_at(t, 2)->name, "printf@plt");
	assert_true(vp_symtab_at(t, 2)->flags & VP_SYM_PLT);
	vp_symtab_free(t);

	/* _init, main, _start: main becomes the root, _init its left child; the
	 * PLT entries hang below _init and rotate above it: they win. */
	t = vp_symtab_new();
	vp_symtab_add(t, 0x1000, 0, "_init", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x1060, 0x44, "main", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x10b0, 0x22, "_start", STB_GLOBAL, STT_FUNC);
	vp_symtab_fixup(t, 0);
	vp_symtab_add_plt(t, 0x1030, 0x10, "printf");
	vp_symtab_add_plt(t, 0x1040, 0x10, "ext_add");
	vp_symtab_seal(t);
	assert_string_equal(name_at(t, 0x1030), "printf@plt");
	assert_string_equal(name_at(t, 0x1045), "ext_add@plt");
	assert_string_equal(name_at(t, 0x1010), "_init");
	assert_string_equal(name_at(t, 0x1055), "(none)");	/* right of ext_add@plt: nothing */
	vp_symtab_free(t);
}

/* Without overlaps every search path agrees with a plain scan, whatever the
 * tree's shape: a random table checked address by address. */
static void test_lookup_agrees_with_a_scan_on_disjoint_symbols(void **state)
{
	(void)state;
	enum { N = 3000 };
	static uint64_t start[N], end[N];
	struct vp_symtab *t = vp_symtab_new();
	uint64_t x = 88172645463325252ULL, a = 0;
	char name[32];

	for (int i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		a += 1 + x % 50;
		start[i] = a;
		end[i] = a + 1 + (x >> 8) % 40;
		a = end[i];
	}
	/* insert in a scrambled order */
	for (int k = 0; k < N; k++) {
		int i = (int)((uint64_t)k * 1237 % N);
		snprintf(name, sizeof(name), "s%d", i);
		vp_symtab_add(t, start[i], end[i] - start[i], name, STB_GLOBAL, STT_FUNC);
	}
	vp_symtab_finish(t, 0);
	assert_int_equal(vp_symtab_count(t), N);
	int i = 0;
	for (uint64_t p = 0; p < a + 5; p++) {
		while (i < N && end[i] <= p)
			i++;
		const struct vp_sym *s = vp_symtab_find(t, p);
		if (i < N && start[i] <= p) {
			assert_non_null(s);
			assert_int_equal(s->start, start[i]);
		} else {
			assert_null(s);
		}
	}
	for (size_t k = 1; k < vp_symtab_count(t); k++)
		assert_true(vp_symtab_at(t, k - 1)->start < vp_symtab_at(t, k)->start);
	vp_symtab_free(t);
}

static void test_many_duplicates_erase_cleanly(void **state)
{
	(void)state;
	/* Groups of aliases at one address: the duplicate pass erases most nodes
	 * from the tree; what is left must still be found everywhere. */
	struct vp_symtab *t = vp_symtab_new();
	char name[32];
	vp_symtab_set_demangle(t, 0);
	for (int g = 0; g < 500; g++)
		for (int k = 0; k < 1 + g % 5; k++) {
			snprintf(name, sizeof(name), "g%d_%.*s", g, k, "xxxxx");
			vp_symtab_add(t, 0x1000 + (uint64_t)((g * 7919) % 500) * 0x100, 0x80, name,
				      STB_GLOBAL, STT_FUNC);
		}
	vp_symtab_finish(t, 0);
	assert_int_equal(vp_symtab_count(t), 500);
	for (int g = 0; g < 500; g++) {
		const struct vp_sym *s = vp_symtab_find(t, 0x1000 + (uint64_t)g * 0x100 + 0x40);
		assert_non_null(s);
		assert_int_equal(s->start, 0x1000 + (uint64_t)g * 0x100);
		/* the longest alias of the group survives */
		int grp = -1;
		sscanf(s->name, "g%d_", &grp);
		assert_int_equal(strlen(s->name), strlen("g_") + (grp >= 100 ? 3 : grp >= 10 ? 2 : 1) +
							  (size_t)(grp % 5));
	}
	assert_null(vp_symtab_find(t, 0x1000 + 0x80));
	vp_symtab_free(t);
}

static void test_names_are_demangled_on_first_use(void **state)
{
	(void)state;
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_add(t, 0x10, 8, "_ZN2ns3fooEi", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x20, 8, "plain_c", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 0);
	const struct vp_sym *s = vp_symtab_find(t, 0x10);
	assert_null(s->demangled);
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_NONE), "_ZN2ns3fooEi");
	assert_null(s->demangled);
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_SHORT), "ns::foo");
	assert_non_null(s->demangled);
	assert_null(s->demangled_full);	/* the fixups' form alone: the full one waits */
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_FULL), "ns::foo(int)");
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_SHORT), "ns::foo");
	s = vp_symtab_find(t, 0x20);
	assert_ptr_equal(vp_sym_name(t, s, VP_DEMANGLE_FULL), vp_sym_name(t, s, VP_DEMANGLE_NONE));
	vp_symtab_free(t);

	/* the full form asked first brings the short one it is chosen by */
	t = vp_symtab_new();
	vp_symtab_add(t, 0x10, 8, "_ZN2ns3barIiEEvT_", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x20, 8, "plain_c", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 0);
	s = vp_symtab_find(t, 0x10);
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_FULL), "ns::bar<int>(int)");
	assert_string_equal(s->demangled, "ns::bar<int>");
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_SHORT), "ns::bar<int>");
	s = vp_symtab_find(t, 0x20);
	assert_ptr_equal(vp_sym_name(t, s, VP_DEMANGLE_SHORT), vp_sym_name(t, s, VP_DEMANGLE_NONE));
	assert_ptr_equal(vp_sym_name(t, s, VP_DEMANGLE_FULL), vp_sym_name(t, s, VP_DEMANGLE_NONE));
	vp_symtab_free(t);

	/* tables perf never demangles (kernel, JIT maps) */
	t = vp_symtab_new();
	vp_symtab_set_demangle(t, 0);
	vp_symtab_add(t, 0x10, 8, "_ZN2ns3fooEi", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 0);
	assert_string_equal(vp_sym_name(t, vp_symtab_at(t, 0), VP_DEMANGLE_FULL), "_ZN2ns3fooEi");
	vp_symtab_free(t);
}

static void test_duplicates_compare_demangled_names(void **state)
{
	(void)state;
	/* perf holds names demangled when it compares them: "_ZN1a1bEv" (a::b,
	 * no underscore) beats "b_alias" only on length once demangled (4 < 7). */
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_add(t, 0x10, 8, "_ZN1a1bEv", STB_GLOBAL, STT_FUNC);
	vp_symtab_add(t, 0x10, 8, "b_alias", STB_GLOBAL, STT_FUNC);
	vp_symtab_finish(t, 0);
	assert_string_equal(vp_symtab_at(t, 0)->name, "b_alias");
	vp_symtab_free(t);
}

static void test_sealed_tables_refuse_more_symbols(void **state)
{
	(void)state;
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_finish(t, 0);
	assert_int_equal(vp_symtab_count(t), 0);
	assert_null(vp_symtab_find(t, 0));
	assert_true(vp_symtab_add(t, 1, 1, "x", STB_GLOBAL, STT_FUNC) < 0);
	vp_symtab_free(t);
	vp_symtab_free(NULL);
	assert_null(vp_symtab_find(NULL, 1));
}

/* Both tables name the same symbol (or none) at every address in [lo, hi). */
static void same_answers(int round, const char *an, const struct vp_symtab *ta, const char *bn,
			 const struct vp_symtab *tb, uint64_t lo, uint64_t hi)
{
	for (uint64_t ip = lo; ip < hi; ip++) {
		const struct vp_sym *a = vp_symtab_find(ta, ip), *b = vp_symtab_find(tb, ip);
		if ((a == NULL) != (b == NULL) || (a && strcmp(a->name, b->name)))
			fail_msg("round %d, ip %#llx: %s %s, %s %s", round, (unsigned long long)ip, an,
				 a ? a->name : "-", bn, b ? b->name : "-");
	}
}

/* A sealed table answers by its array of starts when no two symbols hold
 * one address; the tree's walk (a table fixed up, not sealed) is the oracle,
 * on random tables with and without overlaps, zero sizes and gaps. */
static void test_sealed_lookups_answer_as_the_tree_walk(void **state)
{
	uint64_t x = 88172645463325252ull;
#define NEXT() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
	(void)state;
	for (int round = 0; round < 200; round++) {
		struct vp_symtab *walk = vp_symtab_new(), *sealed = vp_symtab_new();
		int overlaps = round % 2, n = 1 + (int)(NEXT() % 300);
		uint64_t at = 0x1000;
		for (int i = 0; i < n; i++) {
			char name[16];
			uint64_t start = overlaps ? 0x1000 + NEXT() % 0x4000 : (at += NEXT() % 0x40);
			uint64_t size = NEXT() % 4 ? NEXT() % 0x30 : 0;
			if (!overlaps)
				at += size;
			snprintf(name, sizeof(name), "f%d", i);
			vp_symtab_add(walk, start, size, name, STB_GLOBAL, STT_FUNC);
			vp_symtab_add(sealed, start, size, name, STB_GLOBAL, STT_FUNC);
		}
		vp_symtab_fixup(walk, round % 4 == 1);
		vp_symtab_finish(sealed, round % 4 == 1);
		same_answers(round, "walk", walk, "sealed", sealed, 0xf00, 0x6000);
		vp_symtab_free(walk);
		vp_symtab_free(sealed);
	}
#undef NEXT
}

/* A table makes its tree only when it needs it (an insert out of order, a
 * lookup among overlapping symbols), replaying what was done before: the
 * same answers, symbol by symbol, as a table that kept its tree from the
 * first insert, on random sorted tables with overlaps and aliases, erases
 * between inserts and after them, and an insert out of order on the way;
 * and on tables in no order at all, many starts equal (most ELF symbol
 * tables come unsorted). */
static void test_tree_made_late_answers_as_one_kept_throughout(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
#define NEXT() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
	(void)state;
	for (int round = 0; round < 300; round++) {
		struct vp_symtab *lazy = vp_symtab_new(), *kept = vp_symtab_new();
		int n = 2 + (int)(NEXT() % 200), late = round % 3 ? -1 : (int)(NEXT() % n);
		int shuffled = round % 5 == 2;	/* starts in no order, many equal */
		uint64_t at = 0x1000;
		assert_int_equal(vp_symtab_keep_tree(kept), 0);
		for (int i = 0; i < n; i++) {
			char name[16];
			/* sorted, with aliases and sizes that reach over the next */
			uint64_t start = i == late ? 0x1000 + NEXT() % (at - 0x1000 + 1)
						   : (at += NEXT() % 4 ? NEXT() % 0x40 : 0);
			uint64_t size = NEXT() % 4 ? NEXT() % 0x80 : 0;
			if (shuffled) {
				start = 0x1000 + 0x10 * (NEXT() % (uint64_t)(n / 2 + 1));
				size = NEXT() % 3 ? 0x10 : NEXT() % 2 ? 0 : 0x30;
			}
			snprintf(name, sizeof(name), "f%d", i);
			assert_int_equal(vp_symtab_add(lazy, start, size, name, STB_GLOBAL, STT_FUNC), 0);
			assert_int_equal(vp_symtab_add(kept, start, size, name, STB_GLOBAL, STT_FUNC), 0);
			if (NEXT() % 5 == 0) {	/* erase the k-th live symbol of both */
				const struct vp_sym *a = vp_symtab_first(lazy), *b = vp_symtab_first(kept);
				for (uint64_t k = NEXT() % (uint64_t)(i + 1); k && a && b; k--) {
					a = vp_symtab_next(lazy, a);
					b = vp_symtab_next(kept, b);
				}
				assert_true((a == NULL) == (b == NULL));
				if (a) {
					assert_string_equal(a->name, b->name);
					assert_int_equal(vp_symtab_erase(lazy, a), 0);
					assert_int_equal(vp_symtab_erase(kept, b), 0);
				}
			}
		}
		assert_int_equal(vp_symtab_finish(lazy, round % 4 == 1), 0);
		assert_int_equal(vp_symtab_finish(kept, round % 4 == 1), 0);
		assert_int_equal(vp_symtab_count(lazy), vp_symtab_count(kept));
		for (size_t i = 0; i < vp_symtab_count(lazy); i++)
			assert_string_equal(vp_symtab_at(lazy, i)->name, vp_symtab_at(kept, i)->name);
		same_answers(round, "late tree", lazy, "kept tree", kept, 0xf00, at + 0x1100);
		vp_symtab_free(lazy);
		vp_symtab_free(kept);
	}
#undef NEXT
}

/* This process's address space, in bytes. */
static rlim_t mapped_bytes(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lu", &pages), 1);
	fclose(f);
	return (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
}

/* Out of memory while sealing, a table says so and stays unsealed: sealed,
 * it is read by many threads at once, and a seal that had made neither its
 * lookup arrays nor its tree left the first lookup to make the tree, on
 * whichever reader came first. The address space is capped so that the
 * seal's first array fits and the rest do not (big arrays are mappings of
 * their own, bulk.h); once the cap is lifted the same table seals and
 * answers as one sealed without it. */
static void test_seal_out_of_memory_is_an_error(void **state)
{
	enum { N = 100000 };	/* order 400 KB, starts 800 KB, tree 1.3 MB */
	struct vp_symtab *t, *ok;
	struct rlimit was, cap;

	(void)state;
	if (VP_ASAN || VP_TSAN) {
		/* the sanitizers' allocators abort when the address space is capped */
		print_message("SKIP: address-space caps do not apply under a sanitizer\n");
		skip();
	}
	t = vp_symtab_new();
	ok = vp_symtab_new();
	for (uint64_t i = 0; i < N; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%llu", (unsigned long long)i);
		assert_int_equal(vp_symtab_add(t, 0x1000 + 0x10 * i, 0x10, name, STB_GLOBAL, STT_FUNC), 0);
		assert_int_equal(vp_symtab_add(ok, 0x1000 + 0x10 * i, 0x10, name, STB_GLOBAL, STT_FUNC), 0);
	}
	assert_int_equal(vp_symtab_fixup(t, 0), 0);
	assert_int_equal(vp_symtab_finish(ok, 0), 0);
	assert_int_equal(getrlimit(RLIMIT_AS, &was), 0);
	cap = was;
	cap.rlim_cur = mapped_bytes() + N * sizeof(uint32_t) + (64 << 10);
	assert_int_equal(setrlimit(RLIMIT_AS, &cap), 0);
	int r = vp_symtab_seal(t);
	assert_int_equal(setrlimit(RLIMIT_AS, &was), 0);
	assert_int_equal(r, -ENOMEM);
	assert_int_equal(vp_symtab_count(t), 0);	/* not sealed */
	assert_int_equal(vp_symtab_seal(t), 0);
	assert_int_equal(vp_symtab_count(t), N);
	for (uint64_t ip = 0xff0; ip < 0x1000 + 0x10 * N + 0x20; ip += 7)
		assert_string_equal(name_at(t, ip), name_at(ok, ip));
	vp_symtab_free(t);
	vp_symtab_free(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sized_symbols_hold_start_to_end_exclusive),
		cmocka_unit_test(test_zero_size_symbols_stretch_to_the_next_and_the_last_to_a_page),
		cmocka_unit_test(test_kallsyms_ends_do_not_bridge_kernel_and_modules),
		cmocka_unit_test(test_duplicates_keep_the_symbol_perf_chooses),
		cmocka_unit_test(test_zero_size_aliases_leave_the_last_added),
		cmocka_unit_test(test_lookup_walks_the_tree_as_perf_does),
		cmocka_unit_test(test_plt_entries_added_after_fixups_may_hide_under_a_stretched_init),
		cmocka_unit_test(test_lookup_agrees_with_a_scan_on_disjoint_symbols),
		cmocka_unit_test(test_many_duplicates_erase_cleanly),
		cmocka_unit_test(test_names_are_demangled_on_first_use),
		cmocka_unit_test(test_duplicates_compare_demangled_names),
		cmocka_unit_test(test_sealed_tables_refuse_more_symbols),
		cmocka_unit_test(test_sealed_lookups_answer_as_the_tree_walk),
		cmocka_unit_test(test_tree_made_late_answers_as_one_kept_throughout),
		cmocka_unit_test(test_seal_out_of_memory_is_an_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
