/* Maps in a skip list: a map lives in its node until a newer map covers it,
 * so pointers from vp_maps_find stay valid until the next insert. */
#include "maps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/strpool.h"

struct vp_map_node {
	struct vp_map map;	/* first: a map pointer is its node's */
	unsigned nlevels;
	struct vp_map_node *next[];
};

/* Levels with p = 1/4, from a fixed seed: the same inputs build the same list. */
static unsigned random_levels(struct vp_maps *m)
{
	unsigned l = 1;

	if (!m->rng)
		m->rng = 0x9E3779B97F4A7C15ull;
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	for (uint64_t r = m->rng; l < VP_MAPS_LEVELS && !(r & 3); r >>= 2)
		l++;
	return l;
}

/* The last node starting before key; upd[l] is the link at level l to the
 * first node starting at or after key. */
static struct vp_map_node *descend(struct vp_maps *m, uint64_t key,
				   struct vp_map_node **upd[VP_MAPS_LEVELS])
{
	struct vp_map_node **links = m->head, *prev = NULL;

	for (int l = VP_MAPS_LEVELS - 1; l >= 0; l--) {
		while (links[l] && links[l]->map.start < key) {
			prev = links[l];
			links = prev->next;
		}
		upd[l] = &links[l];
	}
	return prev;
}

static uint64_t map_hash(const struct vp_map *m)
{
	return vp_hash_u64(m->start ^ vp_hash_u64(m->end ^ vp_hash_u64(m->pgoff ^
				vp_hash_u64((uint64_t)(uintptr_t)m->dso + 1))));
}

static struct vp_map_node *node_new(struct vp_maps *m, const struct vp_map *map)
{
	unsigned l = random_levels(m);
	struct vp_map_node *n = malloc(sizeof(*n) + l * sizeof(n->next[0]));

	if (!n)
		return NULL;
	n->map = *map;
	n->nlevels = l;
	return n;
}

/* Put n where descend's links say. */
static void splice(struct vp_maps *m, struct vp_map_node *n, struct vp_map_node **upd[])
{
	for (unsigned l = 0; l < n->nlevels; l++) {
		n->next[l] = *upd[l];
		*upd[l] = n;
	}
	m->n++;
	m->fp += map_hash(&n->map);
}

static int link_new(struct vp_maps *m, const struct vp_map *map)
{
	struct vp_map_node **upd[VP_MAPS_LEVELS];
	struct vp_map_node *n = node_new(m, map);

	if (!n)
		return -ENOMEM;
	descend(m, map->start, upd);
	splice(m, n, upd);
	return 0;
}

const struct vp_map *vp_maps_find(const struct vp_maps *m, uint64_t addr)
{
	struct vp_map_node *const *links = m->head;
	const struct vp_map_node *prev = NULL;

	for (int l = VP_MAPS_LEVELS - 1; l >= 0; l--)
		while (links[l] && links[l]->map.start <= addr) {
			prev = links[l];
			links = prev->next;
		}
	return prev && addr < prev->map.end ? &prev->map : NULL;
}

int vp_maps_insert(struct vp_maps *m, const struct vp_map *map)
{
	struct vp_map_node **upd[VP_MAPS_LEVELS], *p, *n;
	struct vp_map hi = { 0 };

	if (map->end <= map->start)
		return 0;
	/* The node must exist before anything is cut: no half-done insert. */
	if (!(n = node_new(m, map)))
		return -ENOMEM;
	p = descend(m, map->start, upd);
	if (p && p->map.end > map->start) {	/* starts before, reaches in: keep its head */
		if (p->map.end > map->end)
			hi = (struct vp_map){ map->end, p->map.end,
					      p->map.pgoff + (map->end - p->map.start), p->map.dso };
		m->fp -= map_hash(&p->map);
		p->map.end = map->start;
		m->fp += map_hash(&p->map);
	}
	while ((p = *upd[0]) && p->map.start < map->end) {	/* starts inside: goes */
		if (p->map.end > map->end)
			hi = (struct vp_map){ map->end, p->map.end,
					      p->map.pgoff + (map->end - p->map.start), p->map.dso };
		for (unsigned l = 0; l < p->nlevels; l++)
			*upd[l] = p->next[l];
		m->fp -= map_hash(&p->map);
		free(p);
		m->n--;
	}
	splice(m, n, upd);
	/* The tail of a cut map; on ENOMEM it is lost and its addresses resolve
	 * to nothing, which is what the caller's error means anyway. */
	return hi.end ? link_new(m, &hi) : 0;
}

const struct vp_map *vp_maps_first(const struct vp_maps *m)
{
	return m->head[0] ? &m->head[0]->map : NULL;
}

const struct vp_map *vp_maps_next(const struct vp_map *map)
{
	const struct vp_map_node *n = (const struct vp_map_node *)map;

	return n->next[0] ? &n->next[0]->map : NULL;
}

int vp_maps_copy(struct vp_maps *dst, const struct vp_maps *src)
{
	struct vp_map_node **tail[VP_MAPS_LEVELS];

	vp_maps_clear(dst);
	for (int l = 0; l < VP_MAPS_LEVELS; l++)
		tail[l] = &dst->head[l];
	for (const struct vp_map_node *s = src->head[0]; s; s = s->next[0]) {
		struct vp_map_node *n = node_new(dst, &s->map);
		if (!n)
			return -ENOMEM;	/* dst holds a consistent prefix */
		for (unsigned l = 0; l < n->nlevels; l++) {
			n->next[l] = NULL;
			*tail[l] = n;
			tail[l] = &n->next[l];
		}
		dst->n++;
		dst->fp += map_hash(&n->map);
	}
	return 0;
}

void vp_maps_clear(struct vp_maps *m)
{
	for (struct vp_map_node *n = m->head[0], *nx; n; n = nx) {
		nx = n->next[0];
		free(n);
	}
	memset(m->head, 0, sizeof(m->head));
	m->n = 0;
	m->fp = 0;
}
