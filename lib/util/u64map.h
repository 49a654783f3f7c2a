/* A small open-addressing map from u64 keys to pointers (pids, tids, ids). */
#ifndef VP_U64MAP_H
#define VP_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct vp_u64map {
	uint64_t *keys;
	void **vals;		/* NULL marks an empty slot: values must be non-NULL */
	size_t cap, n;
};

void *vp_u64map_get(const struct vp_u64map *m, uint64_t key);
/* Insert or replace; -ENOMEM on failure. */
int vp_u64map_put(struct vp_u64map *m, uint64_t key, void *val);
void vp_u64map_free(struct vp_u64map *m);
/* Iterate: for (size_t i = 0; i < m->cap; i++) if (m->vals[i]) ... */

#endif
