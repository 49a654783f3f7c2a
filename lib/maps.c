/* Sorted, non-overlapping map arrays: binary search to find, memmove to
 * insert (maps change rarely; lookups happen per sample). */
#include "maps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Index of the first map with start > addr. */
static size_t upper(const struct vp_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct vp_map *vp_maps_find(const struct vp_maps *m, uint64_t addr)
{
	size_t i = upper(m, addr);

	if (i == 0)
		return NULL;
	return addr < m->v[i - 1].end ? &m->v[i - 1] : NULL;
}

static int reserve(struct vp_maps *m, size_t extra)
{
	if (m->n + extra <= m->cap)
		return 0;
	size_t cap = m->cap ? m->cap * 2 : 16;
	while (cap < m->n + extra)
		cap *= 2;
	struct vp_map *v = realloc(m->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	m->v = v;
	m->cap = cap;
	return 0;
}

int vp_maps_insert(struct vp_maps *m, const struct vp_map *map)
{
	struct vp_map keep[2];
	size_t nkeep = 0, first, last;

	if (map->end <= map->start)
		return 0;
	if (reserve(m, 3) < 0)
		return -ENOMEM;
	/* Maps overlapping [start, end): from the one holding start (if any) on. */
	first = upper(m, map->start);
	if (first > 0 && m->v[first - 1].end > map->start)
		first--;
	for (last = first; last < m->n && m->v[last].start < map->end; last++)
		;
	if (first < last) {
		const struct vp_map *lo = &m->v[first], *hi = &m->v[last - 1];
		if (lo->start < map->start) {
			keep[nkeep] = *lo;
			keep[nkeep++].end = map->start;
		}
		if (hi->end > map->end) {
			keep[nkeep] = *hi;
			keep[nkeep].pgoff += map->end - hi->start;
			keep[nkeep++].start = map->end;
		}
	}
	/* Replace v[first, last) with [before] map [after]. */
	size_t add = 1 + nkeep, del = last - first;
	memmove(&m->v[first + add], &m->v[last], (m->n - last) * sizeof(*m->v));
	m->n = m->n - del + add;
	size_t at = first;
	if (nkeep && keep[0].end == map->start && keep[0].start < map->start)
		m->v[at++] = keep[0];
	m->v[at++] = *map;
	for (size_t k = 0; k < nkeep; k++)
		if (keep[k].start == map->end)
			m->v[at++] = keep[k];
	return 0;
}

int vp_maps_copy(struct vp_maps *dst, const struct vp_maps *src)
{
	vp_maps_clear(dst);
	if (!src->n)
		return 0;
	dst->v = malloc(src->n * sizeof(*dst->v));
	if (!dst->v)
		return -ENOMEM;
	memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = dst->cap = src->n;
	return 0;
}

void vp_maps_clear(struct vp_maps *m)
{
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
}
