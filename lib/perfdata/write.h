/* A perf.data (PERFILE2) writer that perf 6.1 reads: header and attrs first
 * (data size 0, so a killed recording is recoverable), records appended,
 * feature sections and the final header at the end. */
#ifndef VP_PERFDATA_WRITE_H
#define VP_PERFDATA_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"
#include "perf_format.h"

struct vp_pdw_event {
	struct perf_event_attr attr;
	const char *name;
	const uint64_t *ids;
	size_t nids;
};

struct vp_pdw_features {
	const char *hostname, *osrelease, *version, *arch;
	uint32_t nr_cpus_avail, nr_cpus_online;
	int argc;
	char *const *argv;		/* the command line perf shows as "cmdline" */
	const char *vmprof_meta;	/* key=value lines (VP_FEAT_VMPROF_META), or NULL */
	const char *vmprof_syms;	/* portable symbols (VP_FEAT_VMPROF_SYMS), or NULL */
	const void *build_ids;		/* HEADER_BUILD_ID records (portsyms.h), or NULL */
	size_t build_ids_size;
	const void *tracing_data;	/* HEADER_TRACING_DATA blob, needed with tracepoints */
	size_t tracing_size;
	uint64_t first_sample_time, last_sample_time;	/* HEADER_SAMPLE_TIME when last != 0 */
};

struct vp_pdw;

int vp_pdw_open(const char *path, const struct vp_pdw_event *ev, size_t nev, struct vp_pdw **out,
		struct vp_error *err);
/* Append whole records as read from the kernel or synthesized. */
int vp_pdw_write(struct vp_pdw *w, const void *rec, size_t len);
/* Bytes of the sample_id_all trailer every non-sample record needs. */
size_t vp_pdw_trailer_size(const struct vp_pdw *w);
uint64_t vp_pdw_data_size(const struct vp_pdw *w);
/* Make the file readable as it is (header with the data size so far, no
 * features yet), e.g. to read it back before finishing. */
int vp_pdw_sync(struct vp_pdw *w);
/* Hand the records buffered so far to the file (no header update). */
int vp_pdw_flush(struct vp_pdw *w);
int vp_pdw_finish(struct vp_pdw *w, const struct vp_pdw_features *f, struct vp_error *err);
/* Close without finishing (the file stays as written so far). */
void vp_pdw_close(struct vp_pdw *w);

/* Synthesized records (time 0, trailer zeroed, as perf writes them). */
int vp_pdw_comm(struct vp_pdw *w, uint32_t pid, uint32_t tid, const char *comm);
int vp_pdw_mmap2(struct vp_pdw *w, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t start,
		 uint64_t len, uint64_t pgoff, uint32_t prot, uint32_t flags, const char *filename);
int vp_pdw_finished_round(struct vp_pdw *w);
/* perf's perf_record_header_build_id (a user record: no trailer) for an
 * object, pid -1 for the host kernel. */
int vp_pdw_build_id(struct vp_pdw *w, uint16_t cpumode, int32_t pid, const uint8_t *id,
		    size_t size, const char *filename);
/* The same record's bytes into buf (type 0 inside a HEADER_BUILD_ID section,
 * VP_REC_HEADER_BUILD_ID in the data); its length, 0 when it does not fit. */
size_t vp_pd_build_id_record(void *buf, size_t cap, uint32_t type, uint16_t cpumode, int32_t pid,
			     const uint8_t *id, size_t size, const char *filename);

#endif
