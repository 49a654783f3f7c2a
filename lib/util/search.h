/* Binary search over arrays sorted by a uint64_t field. */
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

#endif
