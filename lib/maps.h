/* Address ranges of one address space (a process, or the kernel) and the
 * object mapped at each, with perf's rule for overlaps: a new map replaces
 * the overlapped parts of older ones (maps__fixup_overlappings). */
#ifndef VP_MAPS_H
#define VP_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct vp_dso;

struct vp_map {
	uint64_t start, end;	/* [start, end) */
	uint64_t pgoff;		/* file offset of start */
	struct vp_dso *dso;
};

struct vp_maps {
	struct vp_map *v;	/* sorted by start, non-overlapping */
	size_t n, cap;
};

int vp_maps_insert(struct vp_maps *m, const struct vp_map *map);
const struct vp_map *vp_maps_find(const struct vp_maps *m, uint64_t addr);
int vp_maps_copy(struct vp_maps *dst, const struct vp_maps *src);
void vp_maps_clear(struct vp_maps *m);

#endif
