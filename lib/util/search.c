/* The count index (see search.h). */
#include "search.h"

#include <errno.h>
#include <stdlib.h>

/* Arrays this short search fast enough whole. */
#define INDEX_MIN 256
/* Values a bucket holds on average. */
#define PER_BUCKET 4

int vp_count_index_build(struct vp_count_index *x, const uint64_t *v, size_t n)
{
	size_t nb = 64, cut = n / 100;

	*x = (struct vp_count_index){ 0 };
	if (n < INDEX_MIN || n >= UINT32_MAX)
		return 0;
	uint64_t lo = v[cut], hi = v[n - 1 - cut];
	unsigned shift = 0;

	while (nb < n / PER_BUCKET)
		nb *= 2;
	while (shift < 64 && ((hi - lo) >> shift) >= nb)
		shift++;
	uint32_t *first = calloc(nb + 1, sizeof(*first));
	if (!first)
		return -ENOMEM;
	/* first[b]: the values below lo, then those of the buckets before b */
	size_t i = 0;
	while (i < n && v[i] < lo)
		i++;
	for (size_t b = 0; b <= nb; b++) {
		/* values in buckets before b: (value - lo) >> shift < b */
		while (i < n && ((v[i] - lo) >> shift) < b)
			i++;
		first[b] = (uint32_t)i;
	}
	*x = (struct vp_count_index){ lo, shift, nb, first };
	return 0;
}

void vp_count_index_free(struct vp_count_index *x)
{
	free(x->first);
	x->first = NULL;
}
