/* Binary search over arrays sorted by a uint64_t field, and an index
 * that narrows it. */
#ifndef VP_SEARCH_H
#define VP_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* How many of the n elements at base (stride bytes apart, ascending by the
 * uint64_t at byte off of each) are at or below key: the index after the
 * last one that is, 0 when none is. Inline, so that a constant stride and
 * offset make it the loop one would write for the array's own type. */
static inline size_t vp_count_at_or_below(const void *base, size_t n, size_t stride, size_t off,
					  uint64_t key)
{
	const unsigned char *b = base;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t v;
		memcpy(&v, b + mid * stride + off, sizeof(v));
		if (v <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* An index of a sorted uint64_t array by its values' high bits, so that
 * a count costs one bucket's search, not the whole array's: a sealed symbol
 * table's starts (122k of them for the kernel) took about 17 steps, the
 * last ones cache misses (a compare of one -g run a side: the lookups'
 * D1 misses 322k -> 115k, instructions 8.9 M -> 3.1 M). The buckets span
 * the values from the 1st to the 99th percentile (outliers far from the
 * bulk would make them coarse); the rest is searched as before. */
struct vp_count_index {
	uint64_t lo;		/* bucket b holds values from lo + (b << shift) */
	unsigned shift;
	size_t nb;
	uint32_t *first;	/* nb + 1: how many values lie below bucket b; NULL: no index */
};

/* The index of v's n values (sorted ascending): 0, or -ENOMEM (x then
 * answers without an index). Small arrays get none. */
int vp_count_index_build(struct vp_count_index *x, const uint64_t *v, size_t n);
void vp_count_index_free(struct vp_count_index *x);

/* vp_count_at_or_below(v, n, ...) for the array x indexes. */
static inline size_t vp_count_index_at_or_below(const struct vp_count_index *x, const uint64_t *v,
						size_t n, uint64_t key)
{
	size_t f, e;

	if (!x->first)
		return vp_count_at_or_below(v, n, sizeof(*v), 0, key);
	if (key < x->lo) {
		f = 0;
		e = x->first[0];
	} else {
		uint64_t b = (key - x->lo) >> x->shift;
		f = x->first[b < x->nb ? b : x->nb];
		e = b < x->nb ? x->first[b + 1] : n;
	}
	return f + vp_count_at_or_below(v + f, e - f, sizeof(*v), 0, key);
}

#endif
