/* Callchain context markers, decoded in one place for every reader of
 * callchains (report --caller, folded stacks, portable symbols). */
#include "perfdata.h"

int vp_callchain_context(uint64_t ip, unsigned *cpumode)
{
	if (ip < PERF_CONTEXT_MAX)
		return 0;
	switch (ip) {
	case PERF_CONTEXT_USER: *cpumode = PERF_RECORD_MISC_USER; break;
	case PERF_CONTEXT_GUEST_USER: *cpumode = PERF_RECORD_MISC_GUEST_USER; break;
	case PERF_CONTEXT_GUEST_KERNEL: *cpumode = PERF_RECORD_MISC_GUEST_KERNEL; break;
	case PERF_CONTEXT_HV: *cpumode = PERF_RECORD_MISC_HYPERVISOR; break;
	/* PERF_CONTEXT_KERNEL, and markers perf itself calls invalid
	 * (PERF_CONTEXT_GUEST): read as the kernel's */
	default: *cpumode = PERF_RECORD_MISC_KERNEL; break;
	}
	return 1;
}
