/* Call chains already walked (the profile loader's): a sample whose
 * process, command, sampled address and chain were met before, while every
 * space its frames and its address resolved in keeps the maps it had, ends
 * at the same node of its table's stack tree, goes in the same table row
 * and adds its inclusive counts (--children) to the same rows: its path is
 * added again from there and its frames are not resolved, named or looked
 * up in the tree or the table again, nor its address in the table. */
#ifndef VP_CHAINCACHE_H
#define VP_CHAINCACHE_H

#include <stdint.h>

#include "lib/perfdata/perfdata.h"
#include "stacks.h"

struct vp_chain_cache;

/* NULL on ENOMEM. */
struct vp_chain_cache *vp_chain_cache_new(void);
void vp_chain_cache_free(struct vp_chain_cache *c);
/* What a chain did when it was put: the node of its table's stack tree
 * where its stack ended, its row, and the nkids rows its inclusive counts
 * went to (kids valid until the next put). */
struct vp_chain_hit {
	uint32_t leaf, row;
	const uint32_t *kids;
	uint32_t nkids;
};

/* 1 and *hit when s's chain was put for table (any pointer that names the
 * table and its tree), its spaces' maps unchanged since; else 0. comm is
 * the thread's command now, as the session says it. */
int vp_chain_cache_get(struct vp_chain_cache *c, const void *table, const struct vp_sample *s,
		       const char *comm, struct vp_chain_hit *hit);
/* s's chain, its frames and address resolved as gens says, did what *did
 * says (kids copied). */
void vp_chain_cache_put(struct vp_chain_cache *c, const void *table, const struct vp_sample *s,
			const char *comm, const struct vp_chain_hit *did,
			const struct vp_stack_gens *gens);

#endif
