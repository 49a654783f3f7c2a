/* Per-event tables from a perf.data file read in pieces on every CPU given
 * (the walk in pieces, lib/perfdata/pieces.c), for tables whose rows need
 * only a sample's event, address, process and period (report.c's plain
 * tables). Samples are added up by (event, address space, the state of
 * that space's maps, address) while they are read, and each sum is resolved
 * once, afterwards, against the machine as it was when its first sample was
 * taken: the same rows as the ordered walk gives. */
#ifndef VP_TALLY_H
#define VP_TALLY_H

#include <stddef.h>

#include "lib/util/error.h"
#include "lib/perfdata/perfdata.h"
#include "lib/symbols/session.h"
#include "profile.h"

struct vp_tally_opts {
	/* The resolving side: a tool whose MMAP, COMM, FORK and LOST callbacks
	 * keep `session` (its ctx's) as the ordered walk would. */
	const struct vp_perf_tool *tool;
	void *ctx;
	struct vp_session *session;
	const struct vp_session_opts *so;	/* for the session that plans */
	struct vp_event_table *const *tables;	/* by evsel index; NULL: not counted */
	size_t ntables;
	unsigned threads;
	uint64_t piece_bytes;	/* the scan's pieces (0: by the threads; tests cut them small) */
};

/* 0 with the tables filled; VP_PIECES_ORDERED when this file is for the
 * ordered walk (nothing was counted nor replayed); or a negative code. */
int vp_tally(struct vp_perfdata *pd, const struct vp_tally_opts *o, struct vp_error *err);

#endif
