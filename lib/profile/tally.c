/* Tables from a walk in pieces (see tally.h). Three steps:
 * - plan: the records that are not samples are replayed into a session of
 *   our own; each address space's fingerprint (the sum of its maps' hashes)
 *   is noted at every mark where it changes, and each (space, fingerprint)
 *   met gets a state number: a timeline of states per space;
 * - count: each worker adds its samples into its own hash table keyed by
 *   (event, cpumode, state at the sample's mark, address), keeping where
 *   the key's first sample is in perf's order; then the tables are joined;
 * - resolve: the records are replayed again into the caller's session, and
 *   at each mark the keys whose first sample comes there are resolved.
 * A key's addresses resolve alike wherever its space is in that state, and
 * resolving at the first sample, in perf's order, keeps what resolution
 * sets up on the way (an object's first load, its warnings) as the ordered
 * walk has it. Two different map sets of one space with one fingerprint
 * would be taken for one state: a 2^-64 chance per pair. */
#include "tally.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/util/strpool.h"
#include "lib/util/u64map.h"

/* ---- plan: states, and a timeline of them per address space ---- */

struct change {
	uint64_t from;		/* the first mark that sees it */
	uint32_t state;
};

struct timeline {
	struct change *v;
	size_t n, cap;
};

struct state {
	uint64_t space, fp;
};

/* States every plan has: a process with no maps (or none yet: they resolve
 * alike, to nothing) and each other space before its first map. */
enum { ST_EMPTY_USER, ST_EMPTY_KERNEL, ST_EMPTY_GUEST, ST_NONE, ST_FIXED };

struct plan {
	struct vp_session_client sc;	/* first: the session forwarders' view */
	struct vp_u64map spaces;	/* space -> struct timeline */
	struct state *st;		/* by state number */
	size_t nst, capst;
	struct vp_u64map st_index;	/* hash of (space, fp) -> state number + 1 */
	uint64_t mark;			/* of the record being replayed */
};

static uint32_t empty_state(uint64_t space)
{
	return space == VP_SPACE_KERNEL ? ST_EMPTY_KERNEL :
	       space == VP_SPACE_GUEST_KERNEL ? ST_EMPTY_GUEST :
	       space == VP_SPACE_NONE ? ST_NONE : ST_EMPTY_USER;
}

/* The number of (space, fp), made on first sight; -ENOMEM. */
static int64_t state_of(struct plan *pl, uint64_t space, uint64_t fp)
{
	uint64_t h = fp ^ vp_hash_u64(space ^ 0x5bd1e995);
	uintptr_t at;

	if (!fp)
		return empty_state(space);
	at = (uintptr_t)vp_u64map_get(&pl->st_index, h);
	if (at && pl->st[at - 1].space == space && pl->st[at - 1].fp == fp)
		return (int64_t)at - 1;
	if (pl->nst == pl->capst) {
		size_t cap = pl->capst * 2;
		struct state *v = realloc(pl->st, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		pl->st = v;
		pl->capst = cap;
	}
	/* a hash shared by two states: the later one goes unshared (safe) */
	if (!at && vp_u64map_put(&pl->st_index, h, (void *)(uintptr_t)(pl->nst + 1)) < 0)
		return -ENOMEM;
	pl->st[pl->nst] = (struct state){ space, fp };
	return (int64_t)pl->nst++;
}

static int plan_init(struct plan *pl)
{
	if (!(pl->st = malloc(64 * sizeof(*pl->st))))
		return -ENOMEM;
	pl->capst = 64;
	pl->st[ST_EMPTY_USER] = (struct state){ 0, 0 };
	pl->st[ST_EMPTY_KERNEL] = (struct state){ VP_SPACE_KERNEL, 0 };
	pl->st[ST_EMPTY_GUEST] = (struct state){ VP_SPACE_GUEST_KERNEL, 0 };
	pl->st[ST_NONE] = (struct state){ VP_SPACE_NONE, 0 };
	pl->nst = ST_FIXED;
	return 0;
}

/* After a record that may have changed space: its state from the next mark on. */
static int note(struct plan *pl, uint64_t space)
{
	struct timeline *t = vp_u64map_get(&pl->spaces, space);
	int64_t st;

	if (space == VP_SPACE_NONE)
		return 0;
	if ((st = state_of(pl, space, vp_session_space_fp(pl->sc.session, space))) < 0)
		return -ENOMEM;
	if (!t) {
		if ((uint32_t)st == empty_state(space))
			return 0;
		if (!(t = calloc(1, sizeof(*t))) || vp_u64map_put(&pl->spaces, space, t) < 0) {
			free(t);
			return -ENOMEM;
		}
	}
	if (t->n && t->v[t->n - 1].state == (uint32_t)st)
		return 0;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4;
		struct change *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = (struct change){ pl->mark + 1, (uint32_t)st };
	return 0;
}

static int plan_mmap(void *ctx, const struct vp_mmap_event *m)
{
	int r = vp_session_process_mmap(ctx, m);

	return r < 0 ? r : note(ctx, vp_session_mmap_space(m)) < 0 ? -ENOMEM : 0;
}

static int plan_fork(void *ctx, const struct vp_task_event *e)
{
	int r = vp_session_process_fork(ctx, e);

	return r < 0 ? r : note(ctx, e->pid) < 0 ? -ENOMEM : 0;
}

static int plan_at(void *ctx, uint64_t mark)
{
	((struct plan *)ctx)->mark = mark;
	return 0;
}

static void plan_free(struct plan *pl)
{
	for (size_t i = 0; i < pl->spaces.cap; i++)
		if (pl->spaces.vals[i]) {
			free(((struct timeline *)pl->spaces.vals[i])->v);
			free(pl->spaces.vals[i]);
		}
	vp_u64map_free(&pl->spaces);
	vp_u64map_free(&pl->st_index);
	free(pl->st);
	vp_session_free(pl->sc.session);
}

/* ---- count: a hash table per worker ---- */

struct entry {
	uint64_t ip;
	uint64_t samples, period;	/* samples 0: an empty slot */
	uint64_t off;		/* its first sample in perf's order: this offset, */
	uint32_t state, mark, when;	/* this mark and (when, off) (vp_pieces_pos) */
	uint16_t evsel;
	uint8_t cpumode;
};

/* a before b in perf's order */
static int earlier(const struct entry *a, const struct entry *b)
{
	if (a->mark != b->mark)
		return a->mark < b->mark;
	if (a->when != b->when)
		return a->when < b->when;
	return a->off < b->off;
}

static int same_key(const struct entry *a, const struct entry *b)
{
	return a->ip == b->ip && a->state == b->state && a->evsel == b->evsel &&
	       a->cpumode == b->cpumode;
}

static uint64_t entry_hash(const struct entry *k)
{
	return vp_hash_u64(k->ip ^ ((uint64_t)k->state << 20) ^ ((uint64_t)k->evsel << 3) ^
			   k->cpumode);
}

/* Samples wait in a ring while their slots are fetched: a table bigger
 * than the caches costs a memory latency per new key, and this way several
 * are under way at once. */
#define RING 16

struct counter {
	const struct vp_tally_opts *o;
	const struct plan *pl;
	struct entry *e;
	size_t cap, n;		/* cap a power of two; n below 7/10 of it */
	struct entry ring[RING];
	unsigned head, queued;
	/* the space of the sample before, and the marks its state holds for */
	uint64_t space, from, until;
	uint32_t state;
};

static struct entry *probe(struct entry *e, size_t cap, const struct entry *k)
{
	size_t mask = cap - 1, i = entry_hash(k) & mask;

	while (e[i].samples && !same_key(&e[i], k))
		i = (i + 1) & mask;
	return &e[i];
}

/* Tables in memory of their own, on huge pages where the system gives them:
 * in a virtual machine a TLB miss is a walk through two page tables, and
 * with 4 KiB pages nearly every new key was one. */
#define HUGE (2u << 20)

static struct entry *table_new(size_t cap)
{
	size_t bytes = (cap * sizeof(struct entry) + HUGE - 1) / HUGE * HUGE;
	void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	madvise(m, bytes, MADV_HUGEPAGE);
	return m;
}

static void table_free(struct entry *e, size_t cap)
{
	if (e)
		munmap(e, (cap * sizeof(*e) + HUGE - 1) / HUGE * HUGE);
}

static int counter_grow(struct counter *c)
{
	size_t cap = c->cap ? c->cap * 2 : 4096;
	struct entry *e = table_new(cap);

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap; i++)
		if (c->e[i].samples)
			*probe(e, cap, &c->e[i]) = c->e[i];
	table_free(c->e, c->cap);
	c->e = e;
	c->cap = cap;
	return 0;
}

/* Add samples under a key, which keeps its first sample's place. */
static int counter_add(struct counter *c, const struct entry *k)
{
	struct entry *e;

	if ((c->n + 1) * 10 > c->cap * 7 && counter_grow(c) < 0)
		return -ENOMEM;
	e = probe(c->e, c->cap, k);
	if (!e->samples) {
		*e = *k;
		c->n++;
		return 0;
	}
	e->samples += k->samples;
	e->period += k->period;
	if (earlier(k, e)) {
		e->mark = k->mark;
		e->when = k->when;
		e->off = k->off;
	}
	return 0;
}

static int counter_drain(struct counter *c)
{
	for (; c->queued; c->queued--, c->head = (c->head + 1) % RING)
		if (counter_add(c, &c->ring[c->head]) < 0)
			return -ENOMEM;
	return 0;
}

/* The state a space is in at a mark. */
static uint32_t state_at(struct counter *c, uint64_t space, uint64_t mark)
{
	const struct timeline *t;
	size_t lo, hi;

	if (space == c->space && mark >= c->from && mark < c->until)
		return c->state;
	c->space = space;
	t = space == VP_SPACE_NONE ? NULL : vp_u64map_get(&c->pl->spaces, space);
	/* the last change at or before mark */
	for (lo = 0, hi = t ? t->n : 0; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].from <= mark)
			lo = mid + 1;
		else
			hi = mid;
	}
	c->state = lo ? t->v[lo - 1].state : empty_state(space);
	c->from = lo ? t->v[lo - 1].from : 0;
	c->until = t && lo < t->n ? t->v[lo].from : UINT64_MAX;
	return c->state;
}

static int count_sample(void *wctx, const struct vp_sample *s, const struct vp_pieces_pos *pos,
			struct vp_error *err)
{
	struct counter *c = wctx;
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	size_t ev = s->evsel->index;

	if (ev >= c->o->ntables || !c->o->tables[ev])
		return 0;
	struct entry k = {
		.ip = s->ip, .samples = s->count, .period = s->period, .off = s->offset,
		.state = state_at(c, vp_session_sample_space(s->pid, cpumode), pos->mark),
		.mark = (uint32_t)pos->mark, .when = (uint32_t)pos->when, .evsel = (uint16_t)ev,
		.cpumode = (uint8_t)cpumode,
	};
	if (c->queued) {	/* a run of one key joins the last one queued */
		struct entry *last = &c->ring[(c->head + c->queued - 1) % RING];
		if (same_key(last, &k)) {
			last->samples += k.samples;
			last->period += k.period;
			if (earlier(&k, last))
				*last = (struct entry){ .ip = k.ip, .samples = last->samples,
							.period = last->period, .off = k.off,
							.state = k.state, .mark = k.mark,
							.when = k.when, .evsel = k.evsel,
							.cpumode = k.cpumode };
			return 0;
		}
	}
	if (c->queued == RING) {
		if (counter_add(c, &c->ring[c->head]) < 0)
			return vp_errorf(err, -ENOMEM, "out of memory");
		c->head = (c->head + 1) % RING;
		c->queued--;
	}
	c->ring[(c->head + c->queued++) % RING] = k;
	if (c->cap)
		__builtin_prefetch(&c->e[entry_hash(&k) & (c->cap - 1)]);
	return 0;
}

/* ---- resolve: the keys at their first samples ---- */

struct resolver {
	const struct vp_tally_opts *o;
	const struct plan *pl;
	struct entry *e;	/* in perf's order of their first samples */
	size_t n, i;
	struct vp_error *err;
};

static int by_first(const void *a, const void *b)
{
	return earlier(a, b) ? -1 : earlier(b, a);	/* no two keys share a first sample */
}

static int resolve_at(void *ctx, uint64_t mark)
{
	struct resolver *rs = ctx;

	for (; rs->i < rs->n && rs->e[rs->i].mark == mark; rs->i++) {
		const struct entry *e = &rs->e[rs->i];
		uint64_t space = rs->pl->st[e->state].space;
		struct vp_resolved res;
		vp_session_resolve(rs->o->session, space >> 32 ? UINT32_MAX : (uint32_t)space,
				   e->cpumode, e->ip, &res);
		struct vp_row row = { res.symbol, res.dso, NULL, -1, res.domain, e->samples, e->period };
		if (vp_table_add(rs->o->tables[e->evsel], &row) < 0)
			return vp_errorf(rs->err, -ENOMEM, "out of memory");
	}
	return 0;
}

/* Every worker's keys in one array, in perf's order of their first samples. */
static int join(struct counter *c, unsigned n, struct resolver *rs)
{
	struct counter *all = &c[0];

	for (unsigned w = 0; w < n; w++)
		if (counter_drain(&c[w]) < 0)
			return -ENOMEM;
	for (unsigned w = 1; w < n; w++)
		for (size_t i = 0; i < c[w].cap; i++)
			if (c[w].e[i].samples && counter_add(all, &c[w].e[i]) < 0)
				return -ENOMEM;
	if (!(rs->e = malloc((all->n ? all->n : 1) * sizeof(*rs->e))))
		return -ENOMEM;
	for (size_t i = 0; i < all->cap; i++)
		if (all->e[i].samples)
			rs->e[rs->n++] = all->e[i];
	qsort(rs->e, rs->n, sizeof(*rs->e), by_first);
	return 0;
}

int vp_tally(struct vp_perfdata *pd, const struct vp_tally_opts *o, struct vp_error *err)
{
	struct vp_pieces *p = NULL;
	struct plan pl = { .sc.err = err };
	struct vp_strpool *pool = NULL;
	struct counter *c = NULL;
	void **wctx = NULL;
	struct resolver rs = { .o = o, .pl = &pl, .err = err };
	unsigned n = 0;
	int r;

	if ((r = vp_pieces_open(pd, o->threads, &p, err)) < 0 || !p)
		return r < 0 ? r : VP_PIECES_ORDERED;
	/* plan, in a session of its own (quiet: it resolves nothing) */
	struct vp_session_opts so = *o->so;
	so.quiet = 1;
	struct vp_perf_tool planner = { .mmap = plan_mmap, .fork = plan_fork };
	if (!(pool = vp_strpool_new()) || plan_init(&pl) < 0) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((r = vp_session_new(pd, &so, pool, &pl.sc.session, err)) < 0)
		goto out;
	if ((r = vp_pieces_replay(p, &planner, &pl, plan_at, &pl, err)) < 0)
		goto out;
	/* count */
	n = vp_pieces_threads(p);
	c = calloc(n, sizeof(*c));
	wctx = calloc(n, sizeof(*wctx));
	if (!c || !wctx) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned w = 0; w < n; w++) {
		c[w] = (struct counter){ .o = o, .pl = &pl, .space = UINT64_MAX };
		wctx[w] = &c[w];
	}
	if ((r = vp_pieces_samples(p, count_sample, wctx, err)) != 0)
		goto out;
	if ((r = join(c, n, &rs)) < 0) {
		r = vp_errorf(err, r, "out of memory");
		goto out;
	}
	/* resolve */
	r = vp_pieces_replay(p, o->tool, o->ctx, resolve_at, &rs, err);
out:
	vp_pieces_close(p, r == 0);
	if (c)
		for (unsigned w = 0; w < n; w++)
			table_free(c[w].e, c[w].cap);
	free(c);
	free(wctx);
	free(rs.e);
	/* last: the planning session may hold the kernel symbols the other one uses */
	plan_free(&pl);
	vp_strpool_free(pool);
	return r;
}
