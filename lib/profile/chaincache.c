/* Call chains already walked into a stack tree (see chaincache.h): a
 * direct-mapped table keyed by the chain's hash. The -g bench recording's
 * 281k samples hold 4171 distinct (process, chain) pairs. */
#include "chaincache.h"

#include <stdlib.h>
#include <string.h>

#define SLOTS 4096

struct slot {
	const void *tree;
	const char *comm;
	uint64_t hash, ip;
	uint32_t pid, cpumode;
	uint32_t n, cap;	/* the chain's length, and ips' room */
	uint64_t *ips;
	uint32_t leaf, row;
	struct vp_stack_gens gens;
};

struct vp_chain_cache {
	struct slot slot[SLOTS];
	/* The slots with chains of their own, for the free: reading every slot
	 * there (512 kB, most never touched) faulted each page in. */
	uint16_t used[SLOTS];
	size_t nused;
};

struct vp_chain_cache *vp_chain_cache_new(void)
{
	return calloc(1, sizeof(struct vp_chain_cache));
}

void vp_chain_cache_free(struct vp_chain_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nused; i++)
		free(c->slot[c->used[i]].ips);
	free(c);
}

static uint64_t chain_hash(const void *tree, const struct vp_sample *s, uint32_t n)
{
	uint64_t h = (uint64_t)(uintptr_t)tree ^ ((uint64_t)s->pid << 32) ^ s->ip ^
		     ((uint64_t)(s->misc & VP_MISC_CPUMODE_MASK) << 60);

	for (uint32_t i = 0; i < n; i++) {
		h = (h ^ s->callchain[i]) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return h ^ n;
}

int64_t vp_chain_cache_get(struct vp_chain_cache *c, const void *tree, const struct vp_sample *s,
			   const char *comm, uint32_t *row)
{
	uint32_t n = (uint32_t)vp_stack_chain_len(s);
	uint64_t h = chain_hash(tree, s, n);
	const struct slot *sl = &c->slot[h & (SLOTS - 1)];

	if (sl->tree != tree || sl->hash != h || sl->comm != comm || sl->pid != s->pid ||
	    sl->ip != s->ip || sl->cpumode != (s->misc & VP_MISC_CPUMODE_MASK) || sl->n != n ||
	    (n && memcmp(sl->ips, s->callchain, n * sizeof(*sl->ips))))
		return -1;
	for (unsigned i = 0; i < sl->gens.n; i++)
		if (*sl->gens.genp[i] != sl->gens.gen[i])
			return -1;
	*row = sl->row;
	return sl->leaf;
}

void vp_chain_cache_put(struct vp_chain_cache *c, const void *tree, const struct vp_sample *s,
			const char *comm, uint32_t leaf, uint32_t row, const struct vp_stack_gens *gens)
{
	uint32_t n = (uint32_t)vp_stack_chain_len(s);
	uint64_t h = chain_hash(tree, s, n);
	struct slot *sl = &c->slot[h & (SLOTS - 1)];

	sl->tree = NULL;	/* until whole */
	if (!gens->kept)
		return;
	if (n > sl->cap) {
		uint64_t *v = realloc(sl->ips, n * sizeof(*v));
		if (!v)
			return;
		if (!sl->ips)
			c->used[c->nused++] = (uint16_t)(h & (SLOTS - 1));
		sl->ips = v;
		sl->cap = n;
	}
	if (n)
		memcpy(sl->ips, s->callchain, n * sizeof(*sl->ips));
	sl->comm = comm;
	sl->hash = h;
	sl->ip = s->ip;
	sl->pid = s->pid;
	sl->cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	sl->n = n;
	sl->leaf = leaf;
	sl->row = row;
	sl->gens = *gens;
	sl->tree = tree;
}
