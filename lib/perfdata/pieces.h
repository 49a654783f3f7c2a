/* The walk in pieces, inside lib/perfdata/: a piece of the data section as
 * the first pass (scan.c) finds it, for the plan that pieces.c makes of
 * them. The public side is in perfdata.h (vp_pieces_*). */
#ifndef VP_PERFDATA_PIECES_H
#define VP_PERFDATA_PIECES_H

#include "internal.h"
#include "lib/util/threads.h"

#include <pthread.h>
#include <sys/uio.h>

/* A record that is not a sample but changes what samples resolve to or
 * count (MMAP, MMAP2, COMM, FORK, EXIT, LOST, LOST_SAMPLES): few of them. */
struct vp_pd_nrec {
	uint64_t off;
	uint64_t time;		/* ~0: delivered as it comes (no timestamp to order by) */
	uint32_t round;		/* in the scan: the piece's round it falls in; then the file's */
	uint32_t flush;		/* the plan: the round whose end delivers it */
	union {			/* a copy of the record: the mapping's pages are given */
		size_t pos;	/* back as they are read (scan: in the piece's copies) */
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

/* The pages of the mapping one reader has in use: those ahead are mapped in
 * one call a stride at a time (a fault maps only 16 pages, and in a virtual
 * machine a fault is dear), those behind are given back, so memory stays
 * flat whatever the file's size. */
/* A PMD (VP_PD_PMD): the kernel maps a 2 MiB folio whole whatever part of
 * it was asked for. With 1 MiB strides a 2-CPU report of the 294 MB bench
 * file split 157 PMDs giving back halves (157 of its 402 IPIs); with whole
 * ones none (337 IPIs), madvise 7.4% of its CPU time instead of 8.4%, and
 * the same peak RSS (29.6 MB). */
#define VP_PD_STRIDE VP_PD_PMD
/* Each record's place comes from the size in the one before, a chain of
 * loads the hardware prefetcher does not follow across pages: both passes
 * ask for the line a page ahead while they read this one. The scan (one
 * CPU, 294 MB file, medians of 10 alternating runs): 67-74 ms without,
 * 42-49 ms with; 2 KiB and 8 KiB ahead did no better. The count (316 MB -g
 * file, medians of 6-10 alternating runs): 222 to 194 ms on one CPU, 124 to
 * 111 ms on two; a 310 MB flat file 269 to 242 and 148 to 133; 2 KiB,
 * 8 KiB or a second line ahead did no better. */
#define VP_PD_PREFETCH 4096
/* Pages are given back 2 MiB at a time: in a process with several threads
 * each give-back is a TLB shootdown, an interrupt to every other CPU that
 * runs it (1 MiB at a time, 2 CPUs spent 7-15 ms of a 266 MB file's
 * 300 ms of CPU time in them; 2 MiB: 4-7 ms). 4 MiB saved 1-3 ms more but
 * kept 4 MB more mapped at the peak. */
#define VP_PD_GIVE (2u << 20)
/* The count reads the file a chunk at a time into a buffer of its own
 * (pieces.c's read_chunk): a chunk is cut at the first record from a
 * multiple of this on, so it and the record that runs past the multiple fit
 * in 2 MiB, one huge page. */
#define VP_PD_RECORD_MAX (64u << 10)	/* a record's size is 16 bits */
#define VP_PD_CHUNK (VP_PD_PMD - VP_PD_RECORD_MAX)
/* What the readers give back waits in one batch for them all and then goes
 * in one call, one TLB shootdown: the count's chunks are apart in the file,
 * and process_madvise takes them all at once (a kernel that refuses, before
 * 6.13 or under a filter, gets one madvise per range). A 2-CPU report of
 * the 294 MB bench file sent 366 IPIs with 2 MiB give-backs and 182 with a
 * batch of 8 MiB per reader; 2-CPU reports of the 338 MB -g file were
 * faster in 34 of 40 alternating pairs (mean 0.963 of the time), at 4.6 MB
 * more peak RSS (29.6 to 34.2 MB). 4 MiB: 254 IPIs, 31.7 MB, 29 of 40
 * pairs faster; 16 MiB: 109 IPIs, 44 MB, no faster than 8 (26 of 40).
 * One batch for all, of 8 MiB per reader up to a budget, not one each: a
 * reader's batch shrank as readers grew (2 MiB each at 64, a shootdown per
 * give-back), and the count's chunks go to readers in turn, so ranges
 * meet across readers. process_madvise calls per report of the 294 MB
 * file, a batch each against one for all: 99 and 51 with 2 threads, 313
 * and 11 with 32, 792 and 15 with 64. On 2 CPUs: IPIs 280 and 187 (the
 * -g file: 340 and 221), wall time alike (one for all faster in 18 of 30
 * and 19 of 40 pairs on the -g file, 18 of 30 and 18 of 40 on the flat
 * one), peak RSS 1 MB more. */
#define VP_PD_GIVE_BATCH (8u << 20)	/* per reader */
/* The batch of many readers stays within this (on 64 CPUs a shootdown
 * interrupts 63 of them, but 64 x 8 MiB would be 512 MiB mapped). */
#define VP_PD_GIVE_BUDGET (128u << 20)
#define VP_PD_GIVE_RANGES 64
struct vp_pd_giveback {
	VP_THREAD_OWN pthread_mutex_t mu;	/* readers add to it from their threads */
	int pidfd;			/* this process's, for process_madvise; -1: madvise */
	size_t batch;			/* given back once it holds this much */
	unsigned n;
	size_t bytes;
	struct iovec v[VP_PD_GIVE_RANGES];	/* adjoining ranges are merged */
};
/* This process's pidfd for the batch (close it when done), or -1. */
int vp_pd_giveback_pidfd(void);
/* The batch of `readers` readers. */
size_t vp_pd_giveback_batch(unsigned readers);
/* An empty batch of `batch` bytes on pidfd (-1: madvise); -errno. */
int vp_pd_giveback_init(struct vp_pd_giveback *g, int pidfd, size_t batch);
/* What it holds given back, and its lock freed. */
void vp_pd_giveback_destroy(struct vp_pd_giveback *g);
/* Give back [at, at + len) in the batch: at once when the batch is full. */
void vp_pd_giveback(struct vp_pd_giveback *g, const void *at, size_t len);
void vp_pd_giveback_flush(struct vp_pd_giveback *g);

struct vp_pd_window {
	const uint8_t *map;
	uint64_t len;			/* of the mapping */
	uint64_t lo, hi;		/* [lo, hi) is mapped */
	struct vp_pd_giveback *gb;	/* where pages behind go; NULL: given back at once */
};
void vp_pd_window_start(struct vp_pd_window *w, const uint8_t *map, uint64_t len, uint64_t off,
			struct vp_pd_giveback *gb);
/* The reader is at off (>= w->hi, or ahead of where the window started):
 * map the stride, and give back what is behind it once that is
 * VP_PD_GIVE or more. */
void vp_pd_window_move(struct vp_pd_window *w, uint64_t off);
/* Done at off (where the last record read ends): give back what is mapped. */
void vp_pd_window_end(struct vp_pd_window *w, uint64_t off);

/* Scan one piece of the mapped file from p->first, or (resync) from the
 * first offset in [begin, end) that looks like a run of records: the plan
 * checks that start against where the piece before ends; the piece is cut
 * for the count where its records cross a multiple of chunk bytes. 0, or
 * -ENOMEM. */
int vp_pd_scan_piece(struct vp_perfdata *pd, const uint8_t *map, struct vp_pd_piece *p, int resync,
		     uint64_t chunk, struct vp_pd_giveback *gb);
void vp_pd_piece_reset(struct vp_pd_piece *p);

#endif
