/* Which kernel a recording was made on, against the one this machine runs:
 * kernel symbols from this machine name a file's kernel samples only when
 * they are that kernel's. */
#ifndef VP_KERNEL_ID_H
#define VP_KERNEL_ID_H

#include <stddef.h>
#include <stdint.h>

#include "lib/perfdata/perfdata.h"

enum vp_kernel_match {
	VP_KERNEL_THIS = 0,	/* recorded on the kernel this machine runs */
	VP_KERNEL_OTHER,	/* recorded on another kernel */
	VP_KERNEL_UNKNOWN,	/* the file does not say (a recording whose header was never written) */
};

/* The running kernel's build-id from /sys/kernel/notes; 0 and *size set when found. */
int vp_kernel_build_id(uint8_t id[20], size_t *size);

/* perf's rule (dso__find_kallsyms): the host kernel build-id the file records
 * (header section or build-id records) against the running kernel's; the
 * release (HEADER_OSRELEASE) only where no build-id was recorded or the
 * running one cannot be read. A file that records neither is UNKNOWN: perf
 * would take this machine's kernel for it, vmprof does not guess. why gets
 * the evidence in words ("build-id 48dc54... , this machine runs 4a5a9b..."). */
enum vp_kernel_match vp_kernel_match_file(const struct vp_perfdata *pd, const char *osrelease,
					  char *why, size_t n);

#endif
