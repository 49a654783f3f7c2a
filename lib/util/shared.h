/* Things loaded once per process and shared by whoever uses them: the
 * kernel's symbols, an ELF object's. compare reads many files (a side's
 * runs, the sides) that name the same kernel and objects; each session
 * loaded them again, and with one thread (or files read one after
 * another) nothing was left to share between two sessions. While the
 * loads are held (vp_shared_hold), what nobody uses any more is kept
 * for the next session instead of freed. */
#ifndef VP_SHARED_H
#define VP_SHARED_H

#include "lib/util/error.h"

/* One kind of thing: how to free one. Kinds share nothing: one key may
 * name one thing of each kind. */
struct vp_shared_kind {
	void (*free)(void *v);
};

/* The thing of kind k under key, loaded by load(ctx, &v, err) the first
 * time (outside the lock: other keys load meanwhile; a thread asking for
 * the same key waits for it). 0 and *out set, one more use of it; or
 * load's error (a failed load is not kept: the next asker loads again). */
int vp_shared_get(const struct vp_shared_kind *k, const char *key,
		  int (*load)(void *ctx, void **out, struct vp_error *err), void *ctx, void **out,
		  struct vp_error *err);
/* One use of v less; freed (k->free) when it was the last and the loads are
 * not held. A v that vp_shared_get did not give is freed at once. NULL: a
 * no-op. */
void vp_shared_put(const struct vp_shared_kind *k, void *v);
/* Keep unused things until the matching vp_shared_release, which frees those
 * still unused at the last one. */
void vp_shared_hold(void);
void vp_shared_release(void);

#endif
