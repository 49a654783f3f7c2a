/* Symbol sources a file or a user hands us: kallsyms text, perf-PID.map,
 * ELF objects, and tracing data (event formats through libtraceevent). */
#include "fuzz.h"

#include "lib/symbols.h"
#include "lib/tracedata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_error err = { 0 };
	struct vp_kallsyms *k = NULL;
	struct vp_tracedata *td = NULL;
	const char *path;

	vp_fuzz_quiet();
	path = vp_fuzz_file(data, size);
	if (vp_kallsyms_load(path, &k, &err) == 0)
		vp_kallsyms_free(k);
	if (vp_tracedata_parse(data, size, &td, &err) == 0)
		vp_tracedata_free(td);
	return 0;
}
