/* A piece's own states of its address spaces (see lstates.h). */
#include "lstates.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/symbols/process.h"
#include "lib/symbols/session.h"
#include "lib/util/grow.h"
#include "lib/util/search.h"
#include "lib/util/strpool.h"

/* A space's changes within the piece. */
struct change {
	uint64_t from;		/* the first mark that sees it */
	uint64_t name;		/* the state's name from there on */
	uint32_t slot;		/* its stretch: UINT32_MAX until a sample needs it */
};

struct space {
	uint64_t name;		/* now (after the changes delivered so far) */
	/* a process: its maps made in the piece since its start or its fork
	 * (anchor: the name of what it had then), as the session makes them,
	 * so that maps made again alike give the same name (the plan's
	 * fingerprints are sums over the maps, not histories) */
	uint64_t anchor;
	struct vp_maps maps;
	uint32_t base;		/* the stretch before the first change */
	struct change *v;
	size_t n, cap;
};

static uint64_t base_name(uint64_t space)
{
	return vp_hash_u64(space ^ 0x9e3779b97f4a7c15ull);
}

static void spaces_free(struct vp_lstates *ls)
{
	for (size_t i = 0; i < ls->spaces.cap; i++)
		if (ls->spaces.vals[i]) {
			struct space *sp = ls->spaces.vals[i];
			vp_maps_clear(&sp->maps);
			free(sp->v);
			free(sp);
		}
	vp_u64map_free(&ls->spaces);
}

void vp_lstates_reset(struct vp_lstates *ls)
{
	spaces_free(ls);
	vp_u64map_free(&ls->by_name);
	ls->nslot = ls->nst = 0;
	ls->mark = 0;
	ls->space = UINT64_MAX;
}

void vp_lstates_free(struct vp_lstates *ls)
{
	vp_lstates_reset(ls);
	free(ls->slot);
	free(ls->st);
	ls->slot = NULL;
	ls->st = NULL;
	ls->capslot = ls->capst = 0;
}

static struct space *space_of(struct vp_lstates *ls, uint64_t space)
{
	struct space *s = vp_u64map_get(&ls->spaces, space);

	if (s)
		return s;
	if (!(s = calloc(1, sizeof(*s))) || vp_u64map_put(&ls->spaces, space, s) < 0) {
		free(s);
		return NULL;
	}
	s->name = s->anchor = base_name(space);
	s->base = UINT32_MAX;
	return s;
}

/* A record changed space: its name from the next mark on. */
static int change(struct vp_lstates *ls, struct space *s, uint64_t name)
{
	if (vp_grow((void **)&s->v, &s->cap, s->n, sizeof(*s->v), 4) < 0)
		return -ENOMEM;
	s->name = name;
	s->v[s->n++] = (struct change){ ls->mark + 1, name, UINT32_MAX };
	ls->space = UINT64_MAX;
	return 0;
}

int vp_lstates_mmap(struct vp_lstates *ls, const struct vp_mmap_event *m)
{
	uint64_t space = vp_session_mmap_space(m), h;
	const char *file;
	char jit[64];
	enum dso_kind kind;
	struct vp_map map;
	struct space *s;

	if (space == VP_SPACE_NONE)
		return 0;
	if (!(s = space_of(ls, space)))
		return -ENOMEM;
	/* A kernel's mmaps after the first records of a recording are rare,
	 * and a file grown by repeating a recording repeats them: its state
	 * is taken to stay, each stretch between them checked (a stretch
	 * whose plan state differs has its piece counted again). */
	if (space >> 32)
		return change(ls, s, s->name);
	if (!vp_procs_map_of(m, jit, &file, &kind, &map))
		return 0;	/* the session makes no map of it either */
	/* the session's object is one per (file, kind): its hash stands for it
	 * in the maps' sum, which only hashes the pointer */
	h = vp_hash_bytes(file, strlen(file), (uint64_t)kind) | 1;
	map.dso = (struct vp_dso *)(uintptr_t)h;
	if (vp_maps_insert(&s->maps, &map) < 0)
		return -ENOMEM;
	return change(ls, s, vp_hash_u64(s->anchor ^ s->maps.fp));
}

int vp_lstates_fork(struct vp_lstates *ls, const struct vp_task_event *e)
{
	struct space *parent, *child;

	if (e->pid == e->ppid)	/* a thread shares its process's maps */
		return 0;
	/* a new process: a copy of its parent's maps as they are now */
	if (!(parent = space_of(ls, e->ppid)) || !(child = space_of(ls, e->pid)))
		return -ENOMEM;
	child->anchor = vp_hash_u64(parent->name ^ 0x7f4a7c159e3779b9ull ^ vp_hash_u64(e->pid));
	vp_maps_clear(&child->maps);
	return change(ls, child, vp_hash_u64(child->anchor));
}

static int64_t state_named(struct vp_lstates *ls, uint64_t space, uint64_t name, uint64_t mark)
{
	uintptr_t at = (uintptr_t)vp_u64map_get(&ls->by_name, name);

	if (at)
		return (int64_t)at - 1;
	if (vp_grow((void **)&ls->st, &ls->capst, ls->nst, sizeof(*ls->st), 64) < 0)
		return -ENOMEM;
	if (vp_u64map_put(&ls->by_name, name, (void *)(uintptr_t)(ls->nst + 1)) < 0)
		return -ENOMEM;
	ls->st[ls->nst] = (struct vp_lstate){ space, mark };
	return (int64_t)ls->nst++;
}

int64_t vp_lstates_slow(struct vp_lstates *ls, uint64_t space, uint64_t mark)
{
	struct space *s;
	uint32_t *slot;
	size_t lo;

	if (!(s = space_of(ls, space)))
		return -ENOMEM;
	/* after the last change at or before mark */
	lo = vp_count_at_or_below(s->v, s->n, sizeof(*s->v), offsetof(struct change, from), mark);
	slot = lo ? &s->v[lo - 1].slot : &s->base;
	if (*slot == UINT32_MAX) {
		int64_t st = state_named(ls, space, lo ? s->v[lo - 1].name : base_name(space), mark);
		if (st < 0)
			return st;
		if (vp_grow((void **)&ls->slot, &ls->capslot, ls->nslot, sizeof(*ls->slot), 64) < 0)
			return -ENOMEM;
		ls->slot[ls->nslot] = (struct vp_lslot){ space, mark, (uint32_t)st };
		*slot = (uint32_t)ls->nslot++;
	}
	ls->space = space;
	ls->from = lo ? s->v[lo - 1].from : 0;
	ls->until = lo < s->n ? s->v[lo].from : UINT64_MAX;
	ls->state = ls->slot[*slot].state;
	return ls->state;
}

void vp_lstates_take(struct vp_lstates *ls, struct vp_lstates_kept *out)
{
	*out = (struct vp_lstates_kept){ ls->slot, ls->nslot, ls->st, ls->nst };
	ls->slot = NULL;
	ls->st = NULL;
	ls->nslot = ls->capslot = ls->nst = ls->capst = 0;
	vp_lstates_reset(ls);
}

void vp_lstates_kept_free(struct vp_lstates_kept *k)
{
	free(k->slot);
	free(k->st);
	k->slot = NULL;
	k->st = NULL;
	k->nslot = k->nst = 0;
}

int vp_lstates_map(const struct vp_lstates_kept *k, uint64_t mark_base,
		   uint32_t (*state)(const void *ctx, uint64_t space, uint64_t mark), const void *ctx,
		   uint32_t *out)
{
	for (size_t i = 0; i < k->nst; i++)
		out[i] = state(ctx, k->st[i].space, mark_base + k->st[i].mark);
	for (size_t i = 0; i < k->nslot; i++) {
		const struct vp_lslot *s = &k->slot[i];
		if (state(ctx, s->space, mark_base + s->mark) != out[s->state])
			return 1;
	}
	return 0;
}
