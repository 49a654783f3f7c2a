/* Progress of long work, counted where the work happens (lib/) and shown by
 * whoever wants to (cmd/ draws one line on a terminal): input bytes, the
 * work they take (a byte read in two passes is two units of work) and how
 * much is done; a recorder's samples and losses. Process-wide counters any
 * thread adds to. */
#ifndef VP_PROGRESS_H
#define VP_PROGRESS_H

#include <stdint.h>

struct vp_progress {
	int64_t bytes, work, done;	/* input bytes, work units, units done */
	uint64_t samples, lost;		/* a recording's so far */
	int recording;
};

/* Deltas (negative ones take back what an abandoned attempt expected). */
void vp_progress_add(int64_t bytes, int64_t work, int64_t done);
/* bytes of input to be read in `passes` passes */
void vp_progress_expect(uint64_t bytes, unsigned passes);
void vp_progress_advance(uint64_t work);
/* A recorder's totals so far. */
void vp_progress_record(uint64_t samples, uint64_t lost);
void vp_progress_get(struct vp_progress *p);

#endif
