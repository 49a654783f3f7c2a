/* Demangling: the SHORT form is what perf 6.1 prints (the expected strings
 * below are copied from `perf report --stdio` on this project's C++
 * fixtures, or follow libiberty's documented forms), the FULL form keeps
 * parameters, and vp_symbol_display_len(FULL) always cuts back to SHORT,
 * checked over every symbol of libstdc++ and of a C++ fixture binary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <cmocka.h>

#include "lib/profile/profile.h"
#include "lib/symbols/symbols.h"
#include "fixtures.h"

struct pair {
	const char *mangled, *shrt, *full;
};

static void check(const struct pair *p)
{
	char *s = vp_demangle(p->mangled, VP_DEMANGLE_SHORT);
	char *f = vp_demangle(p->mangled, VP_DEMANGLE_FULL);

	if (!p->shrt) {
		assert_null(s);
		assert_null(f);
		return;
	}
	assert_non_null(s);
	assert_non_null(f);
	assert_string_equal(s, p->shrt);
	assert_string_equal(f, p->full);
	assert_int_equal(vp_symbol_display_len(f), strlen(s));
	free(s);
	free(f);
}

static void test_cxx_names_as_perf_prints_them(void **state)
{
	(void)state;
	static const struct pair cases[] = {
		/* seen in perf report on fixcxx / the design's example */
		{ "_ZZ4mainENKUliE_clEi", "main::{lambda(int)#1}::operator()",
		  "main::{lambda(int)#1}::operator()(int) const" },
		{ "_ZN2fx4overEi", "fx::over", "fx::over(int)" },
		{ "_ZN2fx4overEd", "fx::over", "fx::over(double)" },
		{ "_ZN2fx5twiceIlEET_S1_", "fx::twice<long>", "fx::twice<long>(long)" },
		{ "_ZN2fx3BoxIiEC2Ei", "fx::Box<int>::Box", "fx::Box<int>::Box(int)" },
		{ "_ZNK2fx3BoxIiE3getEv", "fx::Box<int>::get", "fx::Box<int>::get() const" },
		{ "_ZNK2fx3BoxIiEplERKS1_", "fx::Box<int>::operator+",
		  "fx::Box<int>::operator+(fx::Box<int> const&) const" },
		{ "_ZNK2fx3BoxIiEltERKS1_", "fx::Box<int>::operator<",
		  "fx::Box<int>::operator<(fx::Box<int> const&) const" },
		{ "_ZNSt3mapIiiSt4lessIiESaISt4pairIKiiEEE4findERS3_",
		  "std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > >::find",
		  "std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > >"
		  "::find(int const&)" },
		{ "_ZN3FooD0Ev", "Foo::~Foo", "Foo::~Foo()" },
		{ "_ZNK3FooclEv", "Foo::operator()", "Foo::operator()() const" },
		{ "_ZNO3Foo1fEv", "Foo::f", "Foo::f() &&" },
		{ "_ZN3FoocvPFivEEv", "Foo::operator int (*)()", "Foo::operator int (*)()()" },
		{ "_Z1fPFivE", "f", "f(int (*)())" },
		/* std::function keeps its signature inside the template arguments */
		{ "_ZNSt17_Function_handlerIFiiEZ4mainEUliE_E9_M_invokeERKSt9_Any_dataOi",
		  "std::_Function_handler<int (int), main::{lambda(int)#1}>::_M_invoke",
		  "std::_Function_handler<int (int), main::{lambda(int)#1}>::_M_invoke"
		  "(std::_Any_data const&, int&&)" },
		/* perf's demangler never reads clone suffixes */
		{ "_Z3fooi.constprop.0", "foo", "foo(int) [clone .constprop.0]" },
		{ "_ZN3Foo3barEv.part.0.cold", "Foo::bar", "Foo::bar() [clone .part.0] [clone .cold]" },
		/* special names keep their inner parameter list in perf's form */
		{ "_ZThn8_N3Foo3barEi", "non-virtual thunk to Foo::bar(int)",
		  "non-virtual thunk to Foo::bar(int)" },
		{ "_ZThn8_N3Foo3barEi.cold", "non-virtual thunk to Foo::bar(int)",
		  "non-virtual thunk to Foo::bar(int) [clone .cold]" },
		{ "_ZTV3Foo", "vtable for Foo", "vtable for Foo" },
		/* DMGL_RET_DROP would eat "bool" here: the form without it is kept */
		{ "_ZTIFbcE", "typeinfo for bool (char)", "typeinfo for bool (char)" },
		/* a versioned name demangles only without parameters: FULL falls back */
		{ "_ZNSt3fooEv@@GLIBCXX_3.4", "std::foo", "std::foo" },
		/* not mangled */
		{ "main", NULL, NULL },
		{ "_Znot_really", NULL, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(&cases[i]);
}

static void test_rust_names_lose_their_hash(void **state)
{
	(void)state;
	static const struct pair cases[] = {
		{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write", "core::fmt::write" },
		{ "_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h9a4c5ab6cf1f6c3aE",
		  "std::rt::lang_start::{{closure}}", "std::rt::lang_start::{{closure}}" },
		{ "_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example", "mycrate::example" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(&cases[i]);
}

static void test_ocaml_names_as_perf_rewrites_them(void **state)
{
	(void)state;
	static const struct pair cases[] = {
		{ "camlStdlib__List__map_234", "Stdlib.List.map_234", "Stdlib.List.map_234" },
		{ "camlFoo$2ebar", "Foo.bar", "Foo.bar" },
		{ "camlfoo", NULL, NULL },	/* "caml" + lower case is not OCaml's */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(&cases[i]);
}

static void test_plt_entries_are_named_after_their_demangled_target(void **state)
{
	(void)state;
	struct vp_symtab *t = vp_symtab_new();
	vp_symtab_add_plt(t, 0x10, 0x10, "_Znwm");
	vp_symtab_add_plt(t, 0x20, 0x10, "memcmp");
	vp_symtab_add_plt(t, 0x30, 0x10, "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4swapERS4_");
	vp_symtab_seal(t);
	const struct vp_sym *s = vp_symtab_find(t, 0x10);
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_NONE), "_Znwm@plt");
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_SHORT), "operator new@plt");
	/* the parameters stay in the key, behind "@plt" where the display cut falls */
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_FULL), "operator new@plt(unsigned long)");
	assert_int_equal(vp_symbol_display_len(vp_sym_name(t, s, VP_DEMANGLE_FULL)),
			 strlen("operator new@plt"));
	s = vp_symtab_find(t, 0x20);
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_SHORT), "memcmp@plt");
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_FULL), "memcmp@plt");
	s = vp_symtab_find(t, 0x30);
	/* as perf report showed it for fixcxx */
	assert_string_equal(vp_sym_name(t, s, VP_DEMANGLE_SHORT),
			    "std::__cxx11::basic_string<char, std::char_traits<char>, "
			    "std::allocator<char> >::swap@plt");
	vp_symtab_free(t);

	/* perf's PLT names live in a 1024-byte buffer */
	char longname[1100];
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	t = vp_symtab_new();
	vp_symtab_add_plt(t, 0x10, 0x10, longname);
	vp_symtab_seal(t);
	s = vp_symtab_at(t, 0);
	assert_int_equal(strlen(vp_sym_name(t, s, VP_DEMANGLE_NONE)), 1023);
	assert_int_equal(strlen(vp_sym_name(t, s, VP_DEMANGLE_SHORT)), 1023);
	assert_int_equal(vp_symbol_display_len(vp_sym_name(t, s, VP_DEMANGLE_FULL)), 1023);
	vp_symtab_free(t);
}

static void test_display_len_cuts_what_perf_does_not_show(void **state)
{
	(void)state;
	assert_int_equal(vp_symbol_display_len("f(int) const"), 1);
	assert_int_equal(vp_symbol_display_len("f(int) [clone .cold]"), 1);
	assert_int_equal(vp_symbol_display_len("f(int) const [clone .isra.0] [clone .cold]"), 1);
	assert_int_equal(vp_symbol_display_len("ns::g<int (int)>(int (*)(int)) &&"), 16);
	assert_int_equal(vp_symbol_display_len("non-virtual thunk to A::f(int)"), 30);
	assert_int_equal(vp_symbol_display_len("virtual thunk to A::f(int) [clone .cold]"), 26);
	assert_int_equal(vp_symbol_display_len("plain_c"), 7);
	assert_int_equal(vp_symbol_display_len("odd [clone"), 10);
	assert_int_equal(vp_symbol_display_len("()"), 2);
	assert_int_equal(vp_symbol_display_len(""), 0);
}

/* ---- the invariant over real objects ---- */

static size_t check_table(const struct vp_symtab *t)
{
	size_t n = vp_symtab_count(t), mangled = 0;

	for (size_t i = 0; i < n; i++) {
		const struct vp_sym *s = vp_symtab_at(t, i);
		const char *sh = vp_sym_name(t, s, VP_DEMANGLE_SHORT);
		const char *fu = vp_sym_name(t, s, VP_DEMANGLE_FULL);
		size_t d = vp_symbol_display_len(fu);
		if (d != strlen(sh) || memcmp(fu, sh, d)) {
			fprintf(stderr, "%s: SHORT '%s' FULL '%s' cuts to %zu\n", s->name, sh, fu, d);
			fail();
		}
		mangled += strcmp(sh, s->name) != 0;
	}
	return mangled;
}

static void test_full_cuts_to_short_for_every_libstdcxx_symbol(void **state)
{
	(void)state;
	static const char *const paths[] = { "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
					     "/lib/x86_64-linux-gnu/libstdc++.so.6",
					     "/usr/lib64/libstdc++.so.6" };
	struct vp_elf *e = NULL;
	struct vp_error err = { 0 };
	struct vp_elf_opts o = { .buildid_dir = "/nonexistent" };

	for (size_t i = 0; i < 3 && !e; i++)
		vp_elf_open(paths[i], NULL, 0, &o, &e, &err);
	if (!e)
		skip();
	assert_true(check_table(vp_elf_symtab(e)) > 3000);
	vp_elf_close(e);
}

static void test_full_cuts_to_short_for_cxx_binaries_full_of_templates(void **state)
{
	(void)state;
	static const char *const names[] = { "stl", "fixcxx" };
	static const size_t least[] = { 500, 40 };	/* demangled names in each */

	for (size_t i = 0; i < 2; i++) {
		struct vp_elf *e = NULL;
		struct vp_error err = { 0 };
		const char *path = vp_test_fixture(names[i]);
		assert_int_equal(vp_elf_open(path, NULL, 0, NULL, &e, &err), 0);
		assert_true(check_table(vp_elf_symtab(e)) > least[i]);
		vp_elf_close(e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cxx_names_as_perf_prints_them),
		cmocka_unit_test(test_rust_names_lose_their_hash),
		cmocka_unit_test(test_ocaml_names_as_perf_rewrites_them),
		cmocka_unit_test(test_plt_entries_are_named_after_their_demangled_target),
		cmocka_unit_test(test_display_len_cuts_what_perf_does_not_show),
		cmocka_unit_test(test_full_cuts_to_short_for_every_libstdcxx_symbol),
		cmocka_unit_test(test_full_cuts_to_short_for_cxx_binaries_full_of_templates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
