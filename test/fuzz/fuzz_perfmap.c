/* perf-PID.map text (a JIT's symbol map): parse and look addresses up. */
#include "fuzz.h"

#include <stdlib.h>

#include "lib/symbols/symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_error err = { 0 };
	struct vp_symtab *t = NULL;
	const char *path;

	vp_fuzz_quiet();
	path = vp_fuzz_file(data, size);
	if (vp_perfmap_load(path, &t, &err) < 0) {
		if (!err.msg[0])
			abort();
		return 0;
	}
	for (size_t i = 0, n = vp_symtab_count(t); i < n && i < 256; i++) {
		const struct vp_sym *s = vp_symtab_at(t, i);
		vp_symtab_find(t, s->start);
		vp_symtab_find(t, s->start - 1);
		vp_symtab_find(t, s->end);
		if (!vp_sym_name(t, s, VP_DEMANGLE_FULL))
			abort();
	}
	vp_symtab_free(t);
	return 0;
}
