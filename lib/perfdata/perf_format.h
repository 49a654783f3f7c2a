/* The perf.data (PERFILE2) layout as perf 6.1 writes it:
 * tools/perf/Documentation/perf.data-file-format.txt. Record and attr
 * layouts come from the kernel's <linux/perf_event.h>. */
#ifndef VP_PERF_FORMAT_H
#define VP_PERF_FORMAT_H

#include <stdint.h>
#include <linux/perf_event.h>

#define VP_PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" little endian */
#define VP_PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL
#define VP_PERF_MAGIC1		0x454c494652455050ULL	/* "PERFFILE", pre-2.6.36 perf */

/* perf 6.1 refuses attrs larger than this ("more recent and unsupported ABI"). */
#define VP_PERF_ATTR_SIZE_MAX	128

struct vp_perf_file_section {
	uint64_t offset;
	uint64_t size;
};

#define VP_HEADER_FEAT_BITS 256

struct vp_perf_file_header {
	uint64_t magic;
	uint64_t size;		/* size of this header */
	uint64_t attr_size;	/* size of one attrs entry: attr + ids section */
	struct vp_perf_file_section attrs;
	struct vp_perf_file_section data;
	struct vp_perf_file_section event_types;	/* unused since 2.6.x */
	uint64_t adds_features[VP_HEADER_FEAT_BITS / 64];
};

struct vp_perf_pipe_file_header {
	uint64_t magic;
	uint64_t size;		/* 16 */
};

/* Feature bits: each set bit owns one vp_perf_file_section in a table placed
 * at data.offset + data.size, in bit order. */
enum vp_perf_feature {
	VP_FEAT_RESERVED = 0,
	VP_FEAT_TRACING_DATA = 1,
	VP_FEAT_BUILD_ID,
	VP_FEAT_HOSTNAME,
	VP_FEAT_OSRELEASE,
	VP_FEAT_VERSION,
	VP_FEAT_ARCH,
	VP_FEAT_NRCPUS,
	VP_FEAT_CPUDESC,
	VP_FEAT_CPUID,
	VP_FEAT_TOTAL_MEM,
	VP_FEAT_CMDLINE,
	VP_FEAT_EVENT_DESC,
	VP_FEAT_CPU_TOPOLOGY,
	VP_FEAT_NUMA_TOPOLOGY,
	VP_FEAT_BRANCH_STACK,
	VP_FEAT_PMU_MAPPINGS,
	VP_FEAT_GROUP_DESC,
	VP_FEAT_AUXTRACE,
	VP_FEAT_STAT,
	VP_FEAT_CACHE,
	VP_FEAT_SAMPLE_TIME,
	VP_FEAT_MEM_TOPOLOGY,
	VP_FEAT_CLOCKID,
	VP_FEAT_DIR_FORMAT,
	VP_FEAT_BPF_PROG_INFO,
	VP_FEAT_BPF_BTF,
	VP_FEAT_COMPRESSED,
	VP_FEAT_CPU_PMU_CAPS,
	VP_FEAT_CLOCK_DATA,
	VP_FEAT_HYBRID_TOPOLOGY,
	VP_FEAT_PMU_CAPS,
	VP_FEAT_LAST_PERF,	/* first bit perf 6.1 does not know */
	/* vmprof's own sections live at high bits perf tolerates and skips. */
	VP_FEAT_VMPROF_META = 250,	/* vmprof metadata: hypervisor, steal, labels */
	VP_FEAT_VMPROF_SYMS = 251,	/* portable symbols covering sampled addresses */
};

/* Record types perf adds in user space (tools/perf/util/event.h). */
enum vp_perf_user_record {
	VP_REC_HEADER_ATTR = 64,
	VP_REC_HEADER_EVENT_TYPE = 65,
	VP_REC_HEADER_TRACING_DATA = 66,
	VP_REC_HEADER_BUILD_ID = 67,
	VP_REC_FINISHED_ROUND = 68,
	VP_REC_ID_INDEX = 69,
	VP_REC_AUXTRACE_INFO = 70,
	VP_REC_AUXTRACE = 71,
	VP_REC_AUXTRACE_ERROR = 72,
	VP_REC_THREAD_MAP = 73,
	VP_REC_CPU_MAP = 74,
	VP_REC_STAT_CONFIG = 75,
	VP_REC_STAT = 76,
	VP_REC_STAT_ROUND = 77,
	VP_REC_EVENT_UPDATE = 78,
	VP_REC_TIME_CONV = 79,
	VP_REC_HEADER_FEATURE = 80,
	VP_REC_COMPRESSED = 81,
	VP_REC_FINISHED_INIT = 82,
	VP_REC_USER_MAX,
};

/* PERF_RECORD_MISC bits perf uses beyond the kernel header's names. */
#define VP_MISC_CPUMODE_MASK	7
#define VP_MISC_COMM_EXEC	(1 << 13)
#define VP_MISC_MMAP_BUILD_ID	(1 << 14)

#endif
