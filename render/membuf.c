/* The bytes of one output file, gathered in memory before it is written
 * whole (chart.c): what cairo's stream writers and libpng hand over. */
#include "render_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int vp_membuf_put(struct vp_membuf *b, const void *data, size_t len)
{
	if (b->n + len > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		while (cap < b->n + len)
			cap *= 2;
		unsigned char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return -ENOMEM;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
	return 0;
}
