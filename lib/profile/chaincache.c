/* Call chains already walked (see chaincache.h): a
 * direct-mapped table keyed by the chain's hash. The -g bench recording's
 * 281k samples hold 4171 distinct (process, chain) pairs. */
#include "chaincache.h"

#include <stdlib.h>
#include <string.h>

#define SLOTS 4096

struct slot {
	const void *table;	/* the table's: NULL while the slot is empty or being put */
	const char *comm;
	uint64_t hash, ip;
	uint32_t pid, cpumode;
	uint32_t n, cap;	/* the chain's length, and ips' room */
	uint64_t *ips;
	uint32_t leaf, row;
	uint32_t nkids, capkids;
	uint32_t *kids;
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
	for (size_t i = 0; i < c->nused; i++) {
		free(c->slot[c->used[i]].ips);
		free(c->slot[c->used[i]].kids);
	}
	free(c);
}

static uint64_t chain_hash(const void *table, const struct vp_sample *s, uint32_t n)
{
	uint64_t h = (uint64_t)(uintptr_t)table ^ ((uint64_t)s->pid << 32) ^ s->ip ^
		     ((uint64_t)(s->misc & VP_MISC_CPUMODE_MASK) << 60);

	for (uint32_t i = 0; i < n; i++) {
		h = (h ^ s->callchain[i]) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return h ^ n;
}

int vp_chain_cache_get(struct vp_chain_cache *c, const void *table, const struct vp_sample *s,
		       const char *comm, struct vp_chain_hit *hit)
{
	uint32_t n = (uint32_t)vp_stack_chain_len(s);
	uint64_t h = chain_hash(table, s, n);
	const struct slot *sl = &c->slot[h & (SLOTS - 1)];

	if (sl->table != table || sl->hash != h || sl->comm != comm || sl->pid != s->pid ||
	    sl->ip != s->ip || sl->cpumode != (s->misc & VP_MISC_CPUMODE_MASK) || sl->n != n ||
	    (n && memcmp(sl->ips, s->callchain, n * sizeof(*sl->ips))))
		return 0;
	for (unsigned i = 0; i < sl->gens.n; i++)
		if (*sl->gens.genp[i] != sl->gens.gen[i])
			return 0;
	*hit = (struct vp_chain_hit){ sl->leaf, sl->row, sl->kids, sl->nkids };
	return 1;
}

/* Room for n items of size sz in *v (cap of them): 0, or -1 out of memory. */
static int room(void **v, uint32_t *cap, uint32_t n, size_t sz)
{
	if (n <= *cap)
		return 0;
	void *grown = realloc(*v, n * sz);
	if (!grown)
		return -1;
	*v = grown;
	*cap = n;
	return 0;
}

void vp_chain_cache_put(struct vp_chain_cache *c, const void *table, const struct vp_sample *s,
			const char *comm, const struct vp_chain_hit *did,
			const struct vp_stack_gens *gens)
{
	uint32_t n = (uint32_t)vp_stack_chain_len(s);
	uint64_t h = chain_hash(table, s, n);
	struct slot *sl = &c->slot[h & (SLOTS - 1)];
	int had = sl->ips || sl->kids;

	sl->table = NULL;	/* until whole */
	if (!gens->kept)
		return;
	int fits = room((void **)&sl->ips, &sl->cap, n, sizeof(*sl->ips)) == 0 &&
		   room((void **)&sl->kids, &sl->capkids, did->nkids, sizeof(*sl->kids)) == 0;
	if (!had && (sl->ips || sl->kids))
		c->used[c->nused++] = (uint16_t)(h & (SLOTS - 1));
	if (!fits)
		return;
	if (n)
		memcpy(sl->ips, s->callchain, n * sizeof(*sl->ips));
	if (did->nkids)
		memcpy(sl->kids, did->kids, did->nkids * sizeof(*sl->kids));
	sl->nkids = did->nkids;
	sl->comm = comm;
	sl->hash = h;
	sl->ip = s->ip;
	sl->pid = s->pid;
	sl->cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	sl->n = n;
	sl->leaf = did->leaf;
	sl->row = did->row;
	sl->gens = *gens;
	sl->table = table;
}
