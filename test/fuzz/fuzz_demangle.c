/* Symbol names as an object or a JIT map may carry them, demangled the way
 * report shows them (C++, Rust legacy and v0, OCaml through libiberty and
 * vmprof's own rules), with the invariant report's columns rely on: the
 * short name is the full name cut at vp_symbol_display_len. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "lib/profile/profile.h"
#include "lib/symbols/symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_symtab *t;
	char *name;

	if (size > 4096 || !(name = malloc(size + 1)))
		return 0;
	memcpy(name, data, size);
	name[size] = '\0';
	if (!(t = vp_symtab_new()))
		abort();
	vp_symtab_add(t, 0x1000, 0x10, name, 1 /* STB_GLOBAL */, 2 /* STT_FUNC */);
	vp_symtab_finish(t, 0);
	const struct vp_sym *s = vp_symtab_find(t, 0x1000);
	if (s) {
		const char *full = vp_sym_name(t, s, VP_DEMANGLE_FULL);
		const char *shrt = vp_sym_name(t, s, VP_DEMANGLE_SHORT);
		size_t n = vp_symbol_display_len(full);
		if (!full || !shrt)
			abort();
		/* Only C++ and Rust manglings: vp_symbol_display_len reads C++
		 * forms into any name, so a verbatim name ending in "(...)" (a JIT's
		 * "Foo::Bar(int32)") or an OCaml one holding C++-like text is cut for
		 * display although perf shows it whole -- a known gap, reported. */
		if ((!strncmp(name, "_Z", 2) || !strncmp(name, "_R", 2)) && strcmp(full, name) &&
		    (strlen(shrt) != n || strncmp(full, shrt, n)))
			abort();
		vp_symbol_display_len(shrt);
	}
	vp_symtab_free(t);
	free(name);
	return 0;
}
