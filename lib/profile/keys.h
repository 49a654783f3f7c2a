/* Sample keys added up (lib/profile/tally.c's count): a hash table per
 * worker; a big one (over 3 MiB) on huge pages, each key's slot fetched a
 * ring of keys ahead (a run of one key joins the last one queued); a small
 * one, in the cache, takes each key at once; and the tables' join, on
 * several threads, into one array in perf's order of first samples. */
#ifndef VP_KEYS_H
#define VP_KEYS_H

#include <stddef.h>
#include <stdint.h>

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
int vp_key_earlier(const struct vp_key *a, const struct vp_key *b);
/* Add a key's samples (it keeps the earlier place); -ENOMEM. */
int vp_keys_put(struct vp_keys *t, const struct vp_key *k);
void vp_keys_free(struct vp_keys *t);
/* The n tables' keys (a key in several tables as one) into *out, in perf's
 * order of first samples, on n threads; the tables are emptied. -ENOMEM. */
int vp_keys_join(struct vp_keys *t, unsigned n, struct vp_key **out, size_t *nout);

#endif
