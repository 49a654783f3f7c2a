/* ELF objects as the symbol loader meets them (a binary under --symfs, a
 * guest's library): sections, notes, .symtab/.dynsym, PLT synthesis,
 * debuglink, demangling of every name in every mode. */
#include "fuzz.h"

#include <stdlib.h>

#include "lib/symbols/symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_elf_opts eo = { "", "/nonexistent-vmprof-fuzz", "/nonexistent-vmprof-fuzz" };
	struct vp_error err = { 0 };
	struct vp_elf *e = NULL;
	const char *path;
	uint8_t id[20];
	size_t idn;
	uint64_t addr;

	vp_fuzz_quiet();
	path = vp_fuzz_file_named("obj", data, size);
	vp_elf_read_build_id(path, id, &idn);
	if (vp_elf_open(path, NULL, 0, &eo, &e, &err) < 0) {
		if (!err.msg[0])
			abort();
		return 0;
	}
	const struct vp_symtab *t = vp_elf_symtab(e);
	for (size_t i = 0, n = vp_symtab_count(t); i < n && i < 512; i++) {
		const struct vp_sym *s = vp_symtab_at(t, i);
		vp_symtab_find(t, s->start);
		vp_symtab_find(t, s->end);
		vp_elf_offset_to_addr(e, s->start, &addr);
		if (!vp_sym_name(t, s, VP_DEMANGLE_NONE) || !vp_sym_name(t, s, VP_DEMANGLE_SHORT) ||
		    !vp_sym_name(t, s, VP_DEMANGLE_FULL))
			abort();
	}
	vp_elf_build_id(e, id, &idn);
	vp_elf_is_kernel_module(e);
	vp_elf_close(e);
	return 0;
}
