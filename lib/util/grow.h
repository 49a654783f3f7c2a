/* Arrays that grow by doubling: one place for the realloc and its failure. */
#ifndef VP_GROW_H
#define VP_GROW_H

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

/* Room for (*v)[n], growing *v (*cap elements of elem bytes) to twice its
 * size, or to first elements when it has none, when it is full; -ENOMEM
 * leaves *v and *cap as they were. */
static inline int vp_grow(void **v, size_t *cap, size_t n, size_t elem, size_t first)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : first;
	void *p = realloc(*v, c * elem);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

#endif
