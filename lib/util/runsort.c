/* Stable run merging (see runsort.h). */
#include "runsort.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define AT(i) (b + (i) * size)

/* The first of [lo, hi) that goes after key (cmp > 0), or with or_equal
 * the first that does not go before it (cmp >= 0); hi when none does. */
static size_t first_from(const char *b, size_t size, size_t lo, size_t hi, const void *key,
			 int or_equal, int (*cmp)(const void *, const void *))
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp(AT(mid), key) >= !or_equal)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* [lo, mid) and [mid, hi) sorted into [lo, hi). Only where they overlap
 * moves: the left run's part after the right one's first element and the
 * right run's part before the left one's last; the smaller of the two is
 * copied aside (at most half of what they cover). */
static void merge(char *b, size_t size, size_t lo, size_t mid, size_t hi, char *tmp,
		  int (*cmp)(const void *, const void *))
{
	size_t a0 = first_from(b, size, lo, mid, AT(mid), 0, cmp);
	size_t b1 = first_from(b, size, mid, hi, AT(mid - 1), 1, cmp);
	size_t na = mid - a0, nb = b1 - mid;

	if (!na || !nb)
		return;
	if (na <= nb) {		/* from the front, the left part aside */
		size_t i = 0, j = mid, out = a0;
		memcpy(tmp, AT(a0), na * size);
		while (i < na && j < b1) {
			/* the left one first when equal: stable */
			if (cmp(AT(j), tmp + i * size) < 0)
				memcpy(AT(out++), AT(j++), size);
			else
				memcpy(AT(out++), tmp + i++ * size, size);
		}
		memcpy(AT(out), tmp + i * size, (na - i) * size);
	} else {		/* from the back, the right part aside */
		size_t i = na, j = nb, out = b1;
		memcpy(tmp, AT(mid), nb * size);
		while (i && j) {
			if (cmp(tmp + (j - 1) * size, AT(a0 + i - 1)) < 0)
				memcpy(AT(--out), AT(a0 + --i), size);
			else
				memcpy(AT(--out), tmp + --j * size, size);
		}
		memcpy(AT(a0), tmp, j * size);
	}
}

int vp_runsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *b = base, *tmp;
	size_t *run = NULL, nrun = 1, cap = 0;

	/* run[k]: where run k starts, found in one pass; run[nrun] = n */
	for (size_t i = 1; i < n; i++) {
		if (cmp(AT(i - 1), AT(i)) <= 0)
			continue;
		if (nrun + 1 >= cap) {
			size_t c = cap ? 2 * cap : 64;
			size_t *v = realloc(run, c * sizeof(*v));
			if (!v) {
				free(run);
				return -ENOMEM;
			}
			run = v;
			cap = c;
		}
		run[nrun++] = i;
	}
	if (nrun == 1)
		return 0;	/* in order already */
	run[0] = 0;
	run[nrun] = n;
	if (!(tmp = malloc(n / 2 * size))) {
		free(run);
		return -ENOMEM;
	}
	/* bottom up: each pass merges neighbours, halving the runs */
	while (nrun > 1) {
		size_t k = 0;
		for (size_t i = 0; i + 1 < nrun; i += 2) {
			merge(b, size, run[i], run[i + 1], run[i + 2], tmp, cmp);
			run[k++] = run[i];
		}
		if (nrun % 2)
			run[k++] = run[nrun - 1];
		run[k] = n;
		nrun = k;
	}
	free(tmp);
	free(run);
	return 0;
}
