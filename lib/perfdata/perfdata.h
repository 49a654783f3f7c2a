/* lib/perfdata/, the file stage: perf.data in (this header; header.c opens,
 * walk.c walks through ordered.c and records.c, threaded.c on two threads)
 * and out (write.h), tracepoint formats (tracedata.h), event names.
 *
 * perf.data reader: header, attrs and ids, feature sections, and one pass over
 * the data section calling back into a vp_perf_tool (perf's struct perf_tool
 * pattern). Reads perf 6.1's file and pipe formats, and recovers files whose
 * header was never finished. Memory use is flat in the file's size: records
 * stream through a fixed buffer and only one ordering round is queued. */
#ifndef VP_PERFDATA_H
#define VP_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"
#include "perf_format.h"
#include "lib/profile/profile.h"

struct vp_evsel {
	struct perf_event_attr attr;	/* zero-extended copy of the file's attr */
	uint32_t file_attr_size;	/* attr.size as stored */
	const char *name;		/* EVENT_DESC name, else derived from the attr */
	uint64_t *ids;
	size_t nids;
	size_t index;
};

struct vp_sample {
	const struct vp_evsel *evsel;
	uint16_t misc;			/* cpumode in the low 3 bits */
	uint64_t ip, addr, id, stream_id, period, time;
	uint32_t pid, tid, cpu;
	uint64_t nr_callchain;
	const uint64_t *callchain;	/* valid during the callback only */
	uint32_t raw_size;
	const void *raw;		/* valid during the callback only */
	uint64_t offset;		/* file offset of the record */
	uint64_t count;			/* samples this one stands for (period is their sum):
					 * 1 unless the tool asked for merge_repeats */
};

struct vp_mmap_event {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint16_t misc;
	int is_mmap2;
	uint32_t prot, flags;
	uint8_t build_id[20];
	uint8_t build_id_size;		/* 0 unless MMAP2 carried a build-id */
	const char *filename;		/* NUL-terminated, valid during the callback */
	uint64_t time;
};

struct vp_comm_event {
	uint32_t pid, tid;
	int exec;
	const char *comm;
	uint64_t time;
};

struct vp_task_event {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct vp_lost_event {
	const struct vp_evsel *evsel;	/* may be NULL */
	uint64_t id, lost;
	int lost_samples;		/* PERF_RECORD_LOST_SAMPLES rather than LOST */
};

/* Every callback may be NULL; a negative return stops the walk with that code. */
struct vp_perf_tool {
	int (*sample)(void *ctx, const struct vp_sample *s);
	int (*mmap)(void *ctx, const struct vp_mmap_event *m);
	int (*comm)(void *ctx, const struct vp_comm_event *c);
	int (*fork)(void *ctx, const struct vp_task_event *t);
	int (*exit)(void *ctx, const struct vp_task_event *t);
	int (*lost)(void *ctx, const struct vp_lost_event *l);
	/* Any other record (kernel types 1-21 not above, user types 64+), raw. */
	int (*other)(void *ctx, const struct perf_event_header *h, uint64_t offset);
	/* Deliver records as they come, instead of in time order (perf's default). */
	int unordered;
	/* The tool uses a sample's event, misc, ip, pid, tid, addr and period
	 * only: a run of samples delivered one after the other that agree on
	 * all but time, cpu, id and period may come as one, with count and the
	 * periods' sum (most samples of a busy loop repeat the one before). */
	int merge_repeats;
	/* Called once when the walk ends (status < 0 on failure), before the
	 * records' memory goes away: a tool holding on to records finishes here. */
	int (*finished)(void *ctx, int status);
};

struct vp_perfdata_stats {
	uint64_t records;		/* records read */
	uint64_t samples;		/* samples delivered */
	uint64_t unknown_id;		/* samples whose id matched no attr: skipped, as perf */
	uint64_t lost_events;		/* sum of PERF_RECORD_LOST counts */
	uint64_t lost_samples;		/* sum of PERF_RECORD_LOST_SAMPLES counts */
	uint64_t skipped_records;	/* types vmprof does not use, skipped by size */
	uint64_t compressed_records;	/* PERF_RECORD_COMPRESSED: not decoded */
	uint64_t out_of_order;		/* events older than the last flushed round */
	int recovered;			/* the header was unfinished: data read up to the last whole record */
	uint64_t dropped_bytes;		/* recovery: bytes after the last whole record */
};

struct vp_build_id {
	uint32_t pid;
	uint16_t misc;
	uint8_t size;
	uint8_t id[20];
	const char *filename;
};

struct vp_perfdata;

/* Open a perf.data file ("-" for standard input). Reads everything but the
 * data records: header, attrs, features (file mode) or the stream's leading
 * header records (pipe mode). */
int vp_perfdata_open(const char *path, struct vp_perfdata **out, struct vp_error *err);
void vp_perfdata_close(struct vp_perfdata *pd);

const char *vp_perfdata_path(const struct vp_perfdata *pd);
int vp_perfdata_is_pipe(const struct vp_perfdata *pd);
size_t vp_perfdata_nevsel(const struct vp_perfdata *pd);
const struct vp_evsel *vp_perfdata_evsel(const struct vp_perfdata *pd, size_t i);
/* A feature section's bytes (pipe mode: as received so far); 0 when present. */
int vp_perfdata_feature(const struct vp_perfdata *pd, unsigned bit, const void **data,
			uint64_t *size);
int vp_perfdata_has_feature(const struct vp_perfdata *pd, unsigned bit);
const struct vp_build_id *vp_perfdata_build_ids(const struct vp_perfdata *pd, size_t *n);
/* Fill metadata from the feature sections; strings are interned in pool. */
void vp_perfdata_meta(const struct vp_perfdata *pd, struct vp_profile_meta *m,
		      struct vp_strpool *pool);
const struct vp_perfdata_stats *vp_perfdata_stats(const struct vp_perfdata *pd);
/* First and last sample time from HEADER_SAMPLE_TIME (ns), 0 when unknown. */
void vp_perfdata_sample_time(const struct vp_perfdata *pd, uint64_t *first, uint64_t *last);
/* The same read from the samples of a file (one more open and unordered
 * pass), for files without the header, as perf record computes it. */
int vp_perfdata_scan_sample_time(const char *path, uint64_t *first, uint64_t *last,
				 struct vp_error *err);

/* One pass over the data records. May be called once per open. */
int vp_perfdata_walk(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
		     struct vp_error *err);

/* The same walk on two threads: this one reads and orders the records, a
 * second one runs the tool's callbacks, batches handed over between them.
 * Callbacks see the same records in the same order; pointers in them stay
 * valid during the callback only, as with vp_perfdata_walk. Falls back to
 * vp_perfdata_walk where records are not mapped (pipes) or for a raw
 * `other` callback. */
int vp_perfdata_walk_threaded(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
			      struct vp_error *err);

/* The walk in pieces (scan.c, pieces.c), for a tool that adds samples up:
 * the data section is cut into byte ranges read on several threads. The
 * records that are not samples (MMAP, MMAP2, COMM, FORK, EXIT, LOST: few)
 * are found first and put in the order perf report delivers them; they are
 * replayed on the calling thread, as often as the tool asks. Samples come
 * on every thread in no order, each with its mark: how many of those
 * records perf delivers before it. A tool that resolves a sample against
 * the machine as of its mark gets what the ordered walk gives.
 *
 * vp_pieces_open: 0 with *out set, or with *out NULL when the file is for
 * the ordered walk (a pipe, a damaged file: it names the damage; aux data;
 * a round too deep for perf's queue to hold), or a negative code.
 * threads: how many to read on (vp_cpus_available(): all given). */
struct vp_pieces;
int vp_pieces_open(struct vp_perfdata *pd, unsigned threads, struct vp_pieces **out,
		   struct vp_error *err);
unsigned vp_pieces_threads(const struct vp_pieces *p);
/* The records that are not samples, in perf's order, to tool (its sample
 * callback unused), and at(actx, mark) before each (mark: how many went
 * before) and once after the last. A negative return stops it. */
int vp_pieces_replay(struct vp_pieces *p, const struct vp_perf_tool *tool, void *ctx,
		     int (*at)(void *actx, uint64_t mark), void *actx, struct vp_error *err);
/* Where perf delivers a sample: after `mark` of the records that are not
 * samples; samples go out in (when, offset) order. */
struct vp_pieces_pos {
	uint64_t mark, when;
};
/* Every sample: fn(wctx[w], sample, pos, err) on worker w's thread, w below
 * vp_pieces_threads. A negative return stops every worker; the lowest
 * piece's error is returned. VP_PIECES_ORDERED: a malformed sample, which
 * the ordered walk names (start again with it). */
#define VP_PIECES_ORDERED 1
typedef int (*vp_pieces_sample_fn)(void *wctx, const struct vp_sample *s,
				   const struct vp_pieces_pos *pos, struct vp_error *err);
int vp_pieces_samples(struct vp_pieces *p, vp_pieces_sample_fn fn, void *const *wctx,
		      struct vp_error *err);
/* Work the next vp_pieces_samples does on one of its threads before that
 * thread takes samples (reading kernel symbols): on a thread of its own it
 * would share the CPUs with every worker and end last. */
void vp_pieces_side_job(struct vp_pieces *p, void (*fn)(void *ctx), void *ctx);
/* The count in the scan: vp_pieces_open_early counts most samples while
 * it first reads the file, each piece's rounds past its first few by the
 * piece's own order of its records (marks and whens local to the piece),
 * and the plan then checks that order against the file's. For piece k:
 * begin(wctx, k) on the thread that scans it, then its own records that
 * are not samples in its own order (at(wctx, mark) before each, then the
 * tool's callback; types without one are skipped), and its samples as
 * sample(wctx, s, pos), then end(wctx, k). Afterwards
 * vp_pieces_early_piece says whether piece k's count stands and what to
 * add to its marks and whens; vp_pieces_samples then gives only the
 * samples not counted so. A tool that keeps nothing of a piece whose
 * count does not stand gets what the ordered walk gives. side(side_ctx, i)
 * for each i below nside runs on one of the scan's threads before it takes
 * pieces (reading symbols: see vp_pieces_side_job). */
struct vp_pieces_early {
	void *const *wctx;	/* one per thread (vp_pieces_early_threads) */
	int (*begin)(void *wctx, size_t piece);	/* nonzero: not this piece */
	void (*end)(void *wctx, size_t piece);
	const struct vp_perf_tool *tool;
	int (*at)(void *wctx, uint64_t mark);
	vp_pieces_sample_fn sample;
	void (*side)(void *ctx, size_t i);
	void *side_ctx;
	size_t nside;
};
/* The threads vp_pieces_open_early would use for threads; piece_bytes:
 * the pieces' size (0: by the threads; tests cut them small). */
unsigned vp_pieces_early_threads(unsigned threads);
int vp_pieces_open_early(struct vp_perfdata *pd, unsigned threads, uint64_t piece_bytes,
			 const struct vp_pieces_early *e, struct vp_pieces **out, struct vp_error *err);
/* 1 when piece k's count in the scan stands: its marks need mark_base and
 * its whens when_base added; 0 when its samples come in vp_pieces_samples. */
int vp_pieces_early_piece(const struct vp_pieces *p, size_t k, uint64_t *mark_base,
			  uint64_t *when_base);
/* Piece k's count in the scan set aside (before vp_pieces_samples, on any
 * thread for distinct k): its samples come in vp_pieces_samples. */
void vp_pieces_early_reject(struct vp_pieces *p, size_t k);
/* used: the walk happened (its counts join vp_perfdata_stats, and the file
 * counts as walked); else the ordered walk may still read the file. */
void vp_pieces_close(struct vp_pieces *p, int used);

/* A callchain entry that is a context marker (PERF_CONTEXT_KERNEL, _USER,
 * _HV, _GUEST_KERNEL, _GUEST_USER) sets the cpumode of the addresses after it,
 * as perf's add_callchain_ip does (PERF_CONTEXT_HV: the hypervisor, [H]).
 * 1 when ip is a marker (*cpumode set), 0 when it is an address. */
int vp_callchain_context(uint64_t ip, unsigned *cpumode);

/* perf's name for an attr without EVENT_DESC ("cpu-clock", "cycles:u", "r1a2"). */
void vp_event_name_from_attr(const struct perf_event_attr *attr, char *buf, size_t size);

#endif
