/* perf.data (file and pipe format) through the whole report pipeline:
 * reader, ordering, sessions, symbol tables (ELF objects of the fixtures
 * under their symfs, a kallsyms copy for host and guest kernels),
 * tracepoint decoding, report --io's pairing of syscalls, and callchains
 * into inclusive counts and stack trees. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "lib/profile/io.h"
#include "lib/profile/report.h"

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
	lo.symfs = VP_SRCDIR "/test/fixtures/symfs";
	lo.kallsyms = VP_SRCDIR "/test/fuzz/corpus/kallsyms/kallsyms";
	lo.guest_kallsyms = lo.kallsyms;
	/* the input's last byte picks the row key and caller attribution, or
	 * inclusive counts and call-stack trees (every callchain walked) */
	if (size && data[size - 1] & 1) {
		lo.key = VP_KEY_SYM | VP_KEY_COMM | VP_KEY_PID;
		lo.caller = 1;
	} else {
		lo.children = 1;
		lo.stacks = 1;
		lo.children_key = size && data[size - 1] & 4 ? VP_KEY_SYM : 0;
	}
	const char *path = vp_fuzz_file(data, size);
	if (vp_profile_from_perfdata(path, &lo, &p, &err) == 0)
		vp_profile_free(p);
	else
		check_error(path, &err);
	/* and once more as tables of a tracepoint field, when the file has one */
	if (size && data[size - 1] & 2)
		lo.group_by = "prev_state";
	else
		lo.weight = "ret";
	p = NULL;
	err.msg[0] = '\0';
	if (vp_profile_from_perfdata(path, &lo, &p, &err) == 0)
		vp_profile_free(p);
	else if (!strstr(err.msg, "no tracepoint") && !strstr(err.msg, "field"))
		check_error(path, &err);
	/* and as report --io's table of the syscall tracepoints */
	struct vp_io_table *io = NULL;
	err.msg[0] = '\0';
	if (vp_io_from_perfdata(path, &lo, &io, &err) == 0)
		vp_io_free(io);
	else
		check_error(path, &err);
	return 0;
}
