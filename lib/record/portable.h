/* What a recording stores so it resolves on another machine: the portable
 * symbol section (lib/symbols/portsyms.h) and perf's build-id table, both
 * collected by one walk over the finished data. */
#ifndef VP_PORTABLE_H
#define VP_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"

struct vp_session_opts;

/* Walk the perf.data file at path (finished or not), resolve every sample's
 * address and callchain with opts, and return the section text (malloc'd,
 * NUL-terminated; size without the NUL). When build_ids is not NULL, it gets
 * perf's HEADER_BUILD_ID records (malloc'd) for the objects with samples that
 * have a build-id: user objects and the host kernel (/sys/kernel/notes). */
int vp_portsyms_collect(const char *path, const struct vp_session_opts *opts, char **text,
			size_t *size, void **build_ids, size_t *build_ids_size, struct vp_error *err);

#endif
