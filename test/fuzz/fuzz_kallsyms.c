/* kallsyms text (a guest's copy handed to --guest-kallsyms, or what the host
 * says): parse, fix up, split into modules, and look addresses up. */
#include "fuzz.h"

#include <stdlib.h>

#include "lib/symbols/symbols.h"

static void probe(const struct vp_kallsyms *k, const struct vp_symtab *t)
{
	size_t n = vp_symtab_count(t);

	for (size_t i = 0; i < n && i < 64; i++) {
		const struct vp_sym *s = vp_symtab_at(t, i);
		const char *mod;
		const struct vp_symtab *in;
		if (s->end < s->start && s->end)
			abort();	/* a fixed-up symbol never ends before it starts */
		vp_kallsyms_find(k, s->start, &mod, &in);
		vp_kallsyms_find(k, s->end ? s->end - 1 : 0, &mod, &in);
		if (!vp_sym_name(t, s, VP_DEMANGLE_SHORT))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_error err = { 0 };
	struct vp_kallsyms *k = NULL;
	const char *path, *name;

	vp_fuzz_quiet();
	path = vp_fuzz_file(data, size);
	if (vp_kallsyms_load(path, &k, &err) < 0) {
		if (!err.msg[0])
			abort();
		return 0;
	}
	vp_kallsyms_ref_addr(k, &name);
	vp_kallsyms_addr_of(k, "_text");
	vp_kallsyms_addr_of(k, "_stext");
	probe(k, vp_kallsyms_kernel(k));
	for (size_t i = 0; i < vp_kallsyms_module_count(k); i++) {
		const struct vp_symtab *t = vp_kallsyms_module(k, vp_kallsyms_module_name(k, i));
		if (!t)
			abort();	/* every listed module has its table */
		probe(k, t);
	}
	vp_kallsyms_free(k);
	return 0;
}
