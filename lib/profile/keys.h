/* Sample keys added up (lib/profile/tally.c's count): a hash table per
 * worker; a big one (over 3 MiB) on huge pages, each key's slot fetched a
 * ring of keys ahead (a run of one key joins the last one queued); a small
 * one, in the cache, takes each key at once; and the tables' join, on
 * several threads, into one array in perf's order of first samples. */
#ifndef VP_KEYS_H
#define VP_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/util/strpool.h"

/* A key (event, cpumode, address-space state, address), its sums, and where
 * its first sample is in perf's order. */
struct vp_key {
	uint64_t ip;
	uint32_t state;		/* state, evsel, cpumode and pad in one word: */
	uint16_t evsel;		/* keys compare in two loads */
	uint8_t cpumode;
	uint8_t pad;		/* 0 */
	uint64_t samples, period;	/* samples 0: an empty slot */
	uint64_t off;		/* its first sample in perf's order: this offset, */
	uint32_t mark, when;	/* this mark and (when, off) (vp_pieces_pos) */
};

#define VP_KEYS_RING 16

struct vp_keys {
	struct vp_key *e;
	size_t cap, n;		/* cap a power of two; n at most half of it (7/10 when big) */
	struct vp_key ring[VP_KEYS_RING];
	unsigned head, queued;
	/* Called with each key new to this table (its first sample in this
	 * worker's pieces): the object it falls in can be read while the count
	 * goes on. NULL: none. */
	void (*fresh)(void *ctx, const struct vp_key *k);
	void *fresh_ctx;
};

/* 1 when a's first sample comes before b's in perf's order. */
static inline int vp_key_earlier(const struct vp_key *a, const struct vp_key *b)
{
	if (a->mark != b->mark)
		return a->mark < b->mark;
	if (a->when != b->when)
		return a->when < b->when;
	return a->off < b->off;
}

_Static_assert(offsetof(struct vp_key, pad) == offsetof(struct vp_key, state) + 7,
	       "state, evsel, cpumode and pad make one 8-byte word");

static inline uint64_t vp_key_word(const struct vp_key *k)
{
	uint64_t w;

	memcpy(&w, &k->state, sizeof(w));
	return w;
}

static inline int vp_key_same(const struct vp_key *a, const struct vp_key *b)
{
	return (a->ip == b->ip) & (vp_key_word(a) == vp_key_word(b));
}

static inline uint64_t vp_key_hash(const struct vp_key *k)
{
	return vp_hash_u64(k->ip ^ ((uint64_t)k->state << 20) ^ ((uint64_t)k->evsel << 3) ^
			   k->cpumode);
}

/* k's slot in a table of cap slots: its own, or the empty one it would take. */
static inline struct vp_key *vp_keys_probe(struct vp_key *e, size_t cap, const struct vp_key *k)
{
	size_t mask = cap - 1, i = vp_key_hash(k) & mask;

	while (e[i].samples && !vp_key_same(&e[i], k))
		i = (i + 1) & mask;
	return &e[i];
}

/* k's samples added to e, which keeps the earlier first sample. */
static inline void vp_key_merge(struct vp_key *e, const struct vp_key *k)
{
	e->samples += k->samples;
	e->period += k->period;
	if (vp_key_earlier(k, e)) {
		e->mark = k->mark;
		e->when = k->when;
		e->off = k->off;
	}
}

/* A table this small (3 MiB) stays in the cache: its slots need no
 * fetching ahead. A -g file with 20k keys (two tables of 32768 slots, 1.5
 * MiB each, on CPUs with 2 MiB of L2 each) counted through the ring took
 * 163 ms on 2 CPUs, taking each key at once 150 ms (medians of 8
 * alternating runs), at the same peak RSS. */
#define VP_KEYS_SMALL_CAP 65536

/* Add a key's samples (it keeps the earlier place); -ENOMEM. */
int vp_keys_put_slow(struct vp_keys *t, const struct vp_key *k);
/* The same, a key already in a small table (most samples) added here,
 * inline in the count's loop: as calls into keys.c a put cost 51 more
 * instructions a sample (callgrind, report of the 44 MB -g recording:
 * 401.4 M -> 377.8 M). */
static inline int vp_keys_put(struct vp_keys *t, const struct vp_key *k)
{
	if (t->cap && t->cap <= VP_KEYS_SMALL_CAP && !t->queued) {
		struct vp_key *e = vp_keys_probe(t->e, t->cap, k);
		if (e->samples) {
			vp_key_merge(e, k);
			return 0;
		}
	}
	return vp_keys_put_slow(t, k);
}
/* The keys queued for their slots put there (the table's e then holds them all); -ENOMEM. */
int vp_keys_drain(struct vp_keys *t);
/* No keys, the table's memory kept. */
void vp_keys_clear(struct vp_keys *t);
void vp_keys_free(struct vp_keys *t);
/* A table's keys packed by the join's partitions: partition p's are
 * k[at[p]] to k[at[p + 1]]. The join takes such packs beside the workers'
 * tables, each key's state renumbered by st (NULL: as it is) and its first
 * sample moved on by (mark, when): a piece counted in the scan is packed
 * there, and joined once the plan has named its states. */
struct vp_keys_pack {
	struct vp_key *k;
	size_t *at;
	unsigned nparts;
	const uint32_t *st;
	uint32_t mark, when;
};

/* t's keys moved into a pack for a join of nparts partitions (t is left
 * empty, its memory kept); -ENOMEM, and then t as it was and out holding
 * nothing. */
int vp_keys_pack(struct vp_keys *t, unsigned nparts, struct vp_keys_pack *out);
static inline size_t vp_keys_pack_n(const struct vp_keys_pack *p)
{
	return p->at ? p->at[p->nparts] : 0;
}
void vp_keys_pack_free(struct vp_keys_pack *p);
/* The n tables' keys and the packs' (made for n partitions; a key in
 * several as one) into *out, in perf's order of first samples, on n
 * threads; the tables are emptied, the packs left. -ENOMEM. */
int vp_keys_join(struct vp_keys *t, unsigned n, const struct vp_keys_pack *packs, size_t npacks,
		 struct vp_key **out, size_t *nout);

#endif
