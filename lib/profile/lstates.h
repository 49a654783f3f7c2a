/* A piece's own states of its address spaces, for the count in the scan
 * (tally.c): while a piece is read alone, nothing says what a space's maps
 * are, only which of the piece's own records change them. A state of the
 * piece's own is named by what made it: the space, and the records that
 * changed it within the piece since its start or since the fork that made
 * it (a hash of their contents: the same process started again the same way
 * gets the same state, as the plan's fingerprints would give it). After the
 * plan each state becomes the plan's state at its first sample, and every
 * stretch between two changes of a space that took that state is checked to
 * be in the same plan state (a hash that lied, a fork that copied nothing:
 * the piece is then counted again). */
#ifndef VP_LSTATES_H
#define VP_LSTATES_H

#include <stddef.h>
#include <stdint.h>

#include "lib/perfdata/perfdata.h"
#include "lib/util/u64map.h"

/* A stretch of a space between two of its changes in the piece: where its
 * first sample is (the piece's mark) and its state. */
struct vp_lslot {
	uint64_t space, mark;
	uint32_t state;
};

/* A state of the piece's own: the space, the mark of its first sample. */
struct vp_lstate {
	uint64_t space, mark;
};

struct vp_lstates {
	struct vp_u64map spaces;	/* space -> its changes in the piece */
	struct vp_u64map by_name;	/* name -> state + 1 */
	struct vp_lslot *slot;
	size_t nslot, capslot;
	struct vp_lstate *st;
	size_t nst, capst;
	uint64_t mark;			/* of the record being delivered */
	/* the sample before's space, the marks its stretch holds for, its state */
	uint64_t space, from, until;
	uint32_t state;
};

/* What a piece leaves: its stretches and states (owned by the caller). */
struct vp_lstates_kept {
	struct vp_lslot *slot;
	size_t nslot;
	struct vp_lstate *st;
	size_t nst;
};

void vp_lstates_reset(struct vp_lstates *ls);
void vp_lstates_free(struct vp_lstates *ls);
/* The piece's records in its own order: at(mark) before each, then the
 * changes they make. 0, or -ENOMEM. */
static inline void vp_lstates_at(struct vp_lstates *ls, uint64_t mark)
{
	ls->mark = mark;
}
int vp_lstates_mmap(struct vp_lstates *ls, const struct vp_mmap_event *m);
int vp_lstates_fork(struct vp_lstates *ls, const struct vp_task_event *e);
/* The state of space at the piece's mark (a sample's): its number, or -ENOMEM. */
int64_t vp_lstates_slow(struct vp_lstates *ls, uint64_t space, uint64_t mark);
static inline int64_t vp_lstates_of(struct vp_lstates *ls, uint64_t space, uint64_t mark)
{
	if (space == ls->space && mark >= ls->from && mark < ls->until)
		return ls->state;
	return vp_lstates_slow(ls, space, mark);
}
/* The piece's stretches and states handed over, ls left empty. */
void vp_lstates_take(struct vp_lstates *ls, struct vp_lstates_kept *out);
void vp_lstates_kept_free(struct vp_lstates_kept *k);
/* The plan's state of each of the piece's states (out[nst]), from
 * state(ctx, space, mark) with marks in the file (mark_base plus the
 * piece's): 0, or 1 when a stretch's plan state is not its state's. */
int vp_lstates_map(const struct vp_lstates_kept *k, uint64_t mark_base,
		   uint32_t (*state)(const void *ctx, uint64_t space, uint64_t mark), const void *ctx,
		   uint32_t *out);

#endif
