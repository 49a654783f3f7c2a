/* Shared by the fuzz targets: hand the input to a reader that wants a file. */
#ifndef VP_FUZZ_H
#define VP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The source tree, for fixtures the targets read (symfs, kallsyms). */
#ifndef VP_SRCDIR
#define VP_SRCDIR "."
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* The bytes in a temporary file (one per process, rewritten each run). */
const char *vp_fuzz_file(const uint8_t *data, size_t size);
/* The same in a directory of the process's own, under the given name, so
 * readers that look for files beside it (debuglink) find nothing stray. */
const char *vp_fuzz_file_named(const char *name, const uint8_t *data, size_t size);
/* Silence vmprof's warnings: a fuzzer makes millions of them. */
void vp_fuzz_quiet(void);

#endif
