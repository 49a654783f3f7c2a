/* perf.data (file and pipe format) through the whole report pipeline:
 * reader, ordering, sessions, symbol tables, tracepoint decoding. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "lib/report.h"

/* A failure must say what is wrong with which file: an empty or anonymous
 * message is a bug the fuzzer should find like a crash. */
static void check_error(const char *path, const struct vp_error *err)
{
	if (!err->msg[0] || !strstr(err->msg, path))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_load_opts lo;
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };

	vp_fuzz_quiet();
	vp_load_opts_init(&lo);
	lo.symfs = "/nonexistent-vmprof-fuzz";	/* no host binaries: the file alone */
	lo.kallsyms = "/dev/null";
	const char *path = vp_fuzz_file(data, size);
	if (vp_profile_from_perfdata(path, &lo, &p, &err) == 0)
		vp_profile_free(p);
	else
		check_error(path, &err);
	/* and once more as tables of a tracepoint field, when the file has one */
	lo.weight = "ret";
	p = NULL;
	err.msg[0] = '\0';
	if (vp_profile_from_perfdata(path, &lo, &p, &err) == 0)
		vp_profile_free(p);
	else if (!strstr(err.msg, "no tracepoint") && !strstr(err.msg, "field"))
		check_error(path, &err);
	return 0;
}
