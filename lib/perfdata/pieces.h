/* The walk in pieces, inside lib/perfdata/: a piece of the data section as
 * the first pass (scan.c) finds it, for the plan that pieces.c makes of
 * them. The public side is in perfdata.h (vp_pieces_*). */
#ifndef VP_PERFDATA_PIECES_H
#define VP_PERFDATA_PIECES_H

#include "internal.h"
#include "lib/util/threads.h"


/* A record that is not a sample but changes what samples resolve to or
 * count (MMAP, MMAP2, COMM, FORK, EXIT, LOST, LOST_SAMPLES): few of them. */
struct vp_pd_nrec {
	uint64_t off;
	uint64_t time;		/* ~0: delivered as it comes (no timestamp to order by) */
	uint32_t round;		/* in the scan: the piece's round it falls in; then the file's */
	uint32_t flush;		/* the plan: the round whose end delivers it */
	union {			/* a copy of the record: the reader's buffer moves on */
		size_t pos;	/* (scan: in the piece's copies) */
		const struct perf_event_header *h;	/* (plan) */
	} rec;
};

/* A round's records that wait in perf's ordering queue (those with a
 * timestamp): how many, and the newest time among them. */
struct vp_pd_round {
	uint64_t queued, newest;
};

/* Where the count may start within a piece: the first record at or after a
 * stride's boundary, and how many FINISHED_ROUNDs of the piece come before. */
struct vp_pd_cut {
	uint64_t off;
	uint32_t rounds;
};

struct vp_pd_piece {
	VP_THREAD_OWN uint64_t begin, end;	/* its records start in [begin, end): one thread's */
	uint64_t first, exit;		/* its first record; where its last one ends */
	int odd;			/* a record only the ordered walk takes (aux data, attrs...) */
	int broken;			/* the records break at exit: damaged, or cut short */
	/* rounds: one per FINISHED_ROUND in the piece, and the open one after */
	struct vp_pd_round *rounds;
	size_t nrounds, caprounds;
	struct vp_pd_nrec *n;
	size_t nn, capn;
	uint8_t *copies;		/* of the n records, 8-byte aligned */
	size_t ncopies, capcopies;
	size_t *hdr;			/* header records (types 64 and up) for vp_pd_header_record:
					 * where their copies are */
	size_t nhdr, caphdr;
	struct vp_pd_cut *cuts;		/* one per stride the piece crosses */
	size_t ncuts, capcuts;
	uint64_t records, skipped, compressed;
	uint32_t round0;		/* the plan: the file's round its first record is in */
};

/* Pieces begin on multiples of this (a piece's reads then start where
 * the page cache's large folios do). */
#define VP_PD_STRIDE VP_PD_PMD
/* Each record's place comes from the size in the one before, a chain of
 * loads the hardware prefetcher does not follow across pages: both passes
 * ask for the line a page ahead while they read this one. The scan (one
 * CPU, 294 MB file, medians of 10 alternating runs): 67-74 ms without,
 * 42-49 ms with; 2 KiB and 8 KiB ahead did no better. The count (316 MB -g
 * file, medians of 6-10 alternating runs): 222 to 194 ms on one CPU, 124 to
 * 111 ms on two; a 310 MB flat file 269 to 242 and 148 to 133; 2 KiB,
 * 8 KiB or a second line ahead did no better. (Measured when both passes
 * mapped the file.) */
#define VP_PD_PREFETCH 4096
/* The count's chunks: cut at the first record from a multiple of this
 * on, so a chunk and the record that runs past the multiple fit in a
 * reader's buffer of 2 MiB, one huge page. */
#define VP_PD_RECORD_MAX (64u << 10)	/* a record's size is 16 bits */
#define VP_PD_CHUNK (VP_PD_PMD - VP_PD_RECORD_MAX)

/* A reader's bytes of the file: a buffer of cap bytes holding [lo, hi),
 * refilled with pread from where what is asked for begins. */
struct vp_pd_view {
	int fd;
	uint64_t end;			/* nothing is read from here on */
	uint8_t *buf;			/* made at the first fill */
	size_t cap;
	uint64_t lo, hi;
};
void vp_pd_view_init(struct vp_pd_view *v, int fd, uint64_t end, size_t cap);
void vp_pd_view_free(struct vp_pd_view *v);
const uint8_t *vp_pd_view_fill(struct vp_pd_view *v, uint64_t off, size_t n);
/* Bytes [off, off + n) of the file, valid until the next call; NULL when
 * they cannot be read (past the end, n over cap, a read error). */
static inline const uint8_t *vp_pd_view_at(struct vp_pd_view *v, uint64_t off, size_t n)
{
	if (off >= v->lo && off + n <= v->hi)
		return v->buf + (off - v->lo);
	return vp_pd_view_fill(v, off, n);
}

/* Scan one piece of the file through v from p->first, or (resync) from the
 * first offset in [begin, end) that looks like a run of records: the plan
 * checks that start against where the piece before ends; the piece is cut
 * for the count where its records cross a multiple of chunk bytes. 0, or
 * -ENOMEM. */
int vp_pd_scan_piece(struct vp_perfdata *pd, struct vp_pd_view *v, struct vp_pd_piece *p, int resync,
		     uint64_t chunk);
void vp_pd_piece_reset(struct vp_pd_piece *p);

#endif
