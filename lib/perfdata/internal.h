/* The reader's state, shared by its files: header.c opens (evsel.c,
 * features.c, pipe.c fill the view), stream.c reads, walk.c walks through
 * ordered.c and delivers with records.c; threaded.c splits the walk. */
#ifndef VP_PERFDATA_INTERNAL_H
#define VP_PERFDATA_INTERNAL_H

#include "perfdata.h"

/* Hostile sizes: no allocation driven by a file field may exceed these. */
#define VP_MAX_EVSELS		4096
#define VP_MAX_IDS		(1u << 20)
#define VP_MAX_FEATURE_SIZE	(512ull << 20)
#define VP_MAX_BUILD_IDS	(1u << 20)

#define VP_STREAM_CHUNK		(4u << 20)	/* reads and payloads go in steps this big */
/* A PMD's span. Where the page cache holds a file in folios this big, the
 * kernel maps each with one entry (file mappings are 2 MiB aligned), and
 * giving back part of one splits it, an extra TLB shootdown: mapped files
 * are given back in whole ones. */
#define VP_PD_PMD		(2u << 20)

/* Sequential reader over a file region or a pipe: hands out whole records. */
struct vp_stream {
	int fd;
	int seekable;
	uint8_t *buf;
	size_t cap, head, tail;		/* valid bytes are buf[head, tail) */
	uint64_t *bounce;		/* an aligned copy of a misaligned record */
	uint64_t buf_offset;		/* file offset of buf[0] */
	uint64_t limit;			/* file offset where the region ends, or UINT64_MAX */
	int eof;
};

struct vp_feature {
	int present;
	uint64_t offset, size;		/* file mode location */
	uint8_t *data;			/* loaded bytes */
};

struct vp_id_slot {
	uint64_t id;
	uint32_t evsel_plus1;
};

/* Where each fixed field of a sample sits (u64 index after the header, -1
 * when absent): samples are parsed by indexing, not by walking sample_type. */
struct vp_layout {
	int8_t id, ip, tid, time, addr, stream_id, cpu, period;
	uint8_t fixed;		/* u64s before the variable part (READ, CALLCHAIN, RAW) */
	uint8_t variable;	/* any of READ, CALLCHAIN, RAW present */
};

struct vp_perfdata {
	char *path;
	int fd;
	int is_pipe;
	uint64_t file_size;
	struct vp_perf_file_header hdr;
	uint64_t data_start, data_end;	/* data end is UINT64_MAX when unknown */

	struct vp_evsel **evsels;
	struct vp_layout *layouts;	/* per evsel, parallel to evsels */
	size_t nevsels;
	struct vp_id_slot *ids;		/* open addressing, id -> evsel */
	size_t ids_cap, nids;
	int id_pos, is_pos;		/* perf's evlist id positions, -1 when absent */
	int layout_mixed;		/* attrs disagree on sample_id layout */
	int uniform;			/* every attr has one sample_type: layouts[0] is all's */

	struct vp_feature feat[VP_HEADER_FEAT_BITS];
	struct vp_build_id *build_ids;
	size_t nbuild_ids, capbuild_ids;
	struct vp_strpool *pool;	/* names, filenames */

	struct vp_stream stream;
	int walked;
	struct vp_perfdata_stats stats;
};

/* One-entry cache of the id map (ids come in runs), and the delivering
 * thread's counts: one per thread. The counts join pd->stats at the end
 * (vp_pd_idcache_fold), so the reader's and the worker's increments never
 * share a cache line (they did: a fifth of both threads' time). */
struct vp_pd_idcache {
	uint64_t id;
	const struct vp_evsel *ev;
	uint64_t samples, unknown_id, skipped;
};
void vp_pd_idcache_fold(struct vp_perfdata *pd, struct vp_pd_idcache *c);

/* The walk, optionally handing each ordered record to handoff instead of
 * delivering it; vp_pd_deliver then delivers it, on any thread, while the
 * walk's mapping lives (until tool->finished returns). in_use_floor gives
 * the lowest file offset of a handed-off record not yet delivered, so pages
 * are given back only behind it. */
struct vp_pd_handoff {
	int (*handoff)(void *ctx, const struct perf_event_header *h, uint64_t offset);
	uint64_t (*in_use_floor)(void *ctx);
	void *ctx;
};
int vp_pd_walk(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
	       const struct vp_pd_handoff *ho, struct vp_error *err);
/* Delivery of records one after the other, on any thread. For a
 * merge_repeats tool a run of like samples (same event, misc, ip, pid, tid,
 * addr and stream id; no callchain, raw or read values) is held and goes as
 * one sample with their count and summed period; anything else delivers the
 * run first. vp_pd_run_end delivers what is held: call it before the held
 * record's memory goes. */
struct vp_pd_run {
	const struct perf_event_header *h;	/* NULL: nothing held */
	uint64_t offset, repeats, period;
};
int vp_pd_deliver(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
		  struct vp_pd_idcache *ids, struct vp_pd_run *run, const struct perf_event_header *h,
		  uint64_t offset, struct vp_error *err);
int vp_pd_run_end(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
		  struct vp_pd_idcache *ids, struct vp_pd_run *run, struct vp_error *err);
/* One record, alone (no run joined). */
int vp_pd_deliver_record(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
			 struct vp_pd_idcache *ids, const struct perf_event_header *h,
			 uint64_t offset, struct vp_error *err);
/* 0 when a record the walk decodes (MMAP, COMM, FORK, EXIT, LOST...) is
 * long enough; 1 when shorter than its type's fixed part, 2 for an mmap
 * record with no room for its file name. */
int vp_pd_record_short(const struct perf_event_header *h);
/* A record's timestamp (a sample's or its sample_id_all trailer's), ~0 when
 * it carries none. */
uint64_t vp_pd_record_time(struct vp_perfdata *pd, struct vp_pd_idcache *c,
			   const struct perf_event_header *h);

int vp_pd_add_evsel(struct vp_perfdata *pd, const void *attr, uint64_t attr_size,
		    const uint64_t *ids, uint64_t nids, struct vp_error *err);
void vp_pd_finish_evsels(struct vp_perfdata *pd);
const struct vp_evsel *vp_pd_evsel_by_id(const struct vp_perfdata *pd, uint64_t id);
int vp_pd_parse_feature(struct vp_perfdata *pd, unsigned bit, const uint8_t *data, uint64_t size,
			struct vp_error *err);
/* perf_record_header_build_id records (a HEADER_BUILD_ID section, or records
 * of the stream) added to the file's build-ids; -1 when malformed. */
int vp_pd_parse_build_ids(struct vp_perfdata *pd, const uint8_t *data, uint64_t size);

/* Pipe mode: read the header records before the first kernel record. */
int vp_pd_open_pipe(struct vp_perfdata *pd, struct vp_error *err);
/* A header record (attr, feature, tracing data, event update) met in a
 * stream: 1 when consumed here, 0 when not one, or a negative code. */
int vp_pd_header_record(struct vp_perfdata *pd, const struct perf_event_header *h,
			struct vp_error *err);

/* How the scan cuts the data section [start, end): into pieces of *bytes
 * (0: set here, whole strides, PIECES_PER_THREAD per thread), piece k > 0
 * beginning at a multiple of *bytes in the file, so that by default no
 * stride is mapped and given back by two pieces' readers. Returns how many
 * pieces; vp_pd_piece_begin says where piece k begins. */
size_t vp_pd_piece_cut(uint64_t start, uint64_t end, unsigned threads, uint64_t *bytes);
uint64_t vp_pd_piece_begin(uint64_t start, uint64_t bytes, size_t k);
/* The least a piece split off at the scan's end holds, and the least the
 * piece split keeps (tests make it small, to split small files). */
extern uint64_t vp_pd_steal_min;
/* How many pieces the scan split off, and how many the join read again
 * because they did not begin where the piece before ended (tests). */
size_t vp_pd_pieces_split(const struct vp_pieces *p);
size_t vp_pd_pieces_reread(const struct vp_pieces *p);
/* vp_pieces_open with pieces of this many bytes (0: by the threads), and
 * the count's chunks of this many (0: VP_PD_CHUNK; tests cut them small);
 * e: the count in the scan (vp_pieces_open_early), or NULL. */
int vp_pd_pieces_open(struct vp_perfdata *pd, unsigned threads, uint64_t piece_bytes,
		      uint64_t chunk_bytes, const struct vp_pieces_early *e, struct vp_pieces **out,
		      struct vp_error *err);

int vp_stream_init(struct vp_stream *s, int fd, int seekable, uint64_t offset, uint64_t limit);
void vp_stream_free(struct vp_stream *s);
/* Next whole record: 1 with rec and off set, 0 at the region's end, or a
 * negative code; -EPIPE when the region ends inside a record (*off set). */
int vp_stream_next(struct vp_stream *s, const struct perf_event_header **rec, uint64_t *off,
		   struct vp_error *err, const char *path);
/* Read n payload bytes following the last record (pipe tracing data, aux data);
 * dst may be NULL to skip them. */
int vp_stream_read(struct vp_stream *s, void *dst, uint64_t n);

#endif
