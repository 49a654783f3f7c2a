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

#define VP_MAPS_LEVELS 24
struct vp_map_node;

/* A skip list sorted by start, non-overlapping: finding and inserting are
 * O(log n) whatever the order maps come in (a sorted array took seconds to
 * minutes for a file that maps hundreds of thousands of ranges downwards). */
struct vp_maps {
	struct vp_map_node *head[VP_MAPS_LEVELS];
	size_t n;
	uint64_t rng;
	/* The sum of the maps' hashes: two address spaces with the same maps
	 * have the same sum whatever the way there, so samples taken in either
	 * resolve alike (the walk in pieces keys samples by it). */
	uint64_t fp;
};

int vp_maps_insert(struct vp_maps *m, const struct vp_map *map);
const struct vp_map *vp_maps_find(const struct vp_maps *m, uint64_t addr);
const struct vp_map *vp_maps_first(const struct vp_maps *m);
const struct vp_map *vp_maps_next(const struct vp_map *map);
int vp_maps_copy(struct vp_maps *dst, const struct vp_maps *src);
void vp_maps_clear(struct vp_maps *m);

#endif
