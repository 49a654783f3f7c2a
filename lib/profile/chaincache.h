/* Call chains already walked into a stack tree (the profile loader's): a
 * sample whose process, command, sampled address and chain were met
 * before, while every space its frames and its address resolved in keeps
 * the maps it had, ends at the same node and goes in the same table row:
 * its path is added again from there and its frames are not resolved,
 * named or looked up in the tree again, nor its address in the table. */
#ifndef VP_CHAINCACHE_H
#define VP_CHAINCACHE_H

#include <stdint.h>

#include "lib/perfdata/perfdata.h"
#include "stacks.h"

struct vp_chain_cache;

/* NULL on ENOMEM. */
struct vp_chain_cache *vp_chain_cache_new(void);
void vp_chain_cache_free(struct vp_chain_cache *c);
/* The node of tree where s's stack ended when it was put, or -1; and its
 * row into *row. comm is the thread's command now, as the session says it. */
int64_t vp_chain_cache_get(struct vp_chain_cache *c, const void *tree, const struct vp_sample *s,
			   const char *comm, uint32_t *row);
/* s's stack, its frames and address resolved as gens says, ended at leaf
 * of tree, and s went in row of its table. */
void vp_chain_cache_put(struct vp_chain_cache *c, const void *tree, const struct vp_sample *s,
			const char *comm, uint32_t leaf, uint32_t row, const struct vp_stack_gens *gens);

#endif
