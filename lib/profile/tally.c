/* Tables from a walk in pieces (see tally.h). Three steps:
 * - plan: the records that are not samples are replayed into a session of
 *   our own; each address space's fingerprint (the sum of its maps' hashes)
 *   is noted at every mark where it changes, and each (space, fingerprint)
 *   met gets a state number: a timeline of states per space;
 * - count: each worker adds its samples into its own hash table keyed by
 *   (event, cpumode, state at the sample's mark, address), keeping where
 *   the key's first sample is in perf's order; then the tables are joined
 *   (keys.c);
 * - resolve: the records are replayed again into the caller's session, and
 *   at each mark the keys whose first sample comes there are resolved.
 * A key's addresses resolve alike wherever its space is in that state, and
 * resolving at the first sample, in perf's order, keeps what resolution
 * sets up on the way (an object's first load, its warnings) as the ordered
 * walk has it. Two different map sets of one space with one fingerprint
 * would be taken for one state: a 2^-64 chance per pair. */
#include "tally.h"
#include "keys.h"
#include "lstates.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/grow.h"
#include "lib/util/search.h"
#include "lib/util/strpool.h"
#include "lib/util/threads.h"
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
	if (vp_grow((void **)&t->v, &t->cap, t->n, sizeof(*t->v), 4) < 0)
		return -ENOMEM;
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

/* ---- count: a table of keys per worker (keys.c) ---- */

/* A piece counted in the scan: its keys, packed for the join, whose
 * states are the piece's own (lstates.h) until the plan says which states
 * they are (st). */
struct early_piece {
	size_t piece;
	struct vp_keys_pack pack;
	struct vp_lstates_kept ls;
	uint32_t *st;
};

/* count_fresh's memo: a worker meets the same few maps of a process in
 * most of its keys, and looked each key up in the plan's maps (the -g
 * bench file, 11.6k keys a worker: the merge of the scan's counts 5.8 ->
 * 4.8 ms on 2 CPUs; the flat one, 27k keys in many processes: 13.6 ->
 * 12.1 with 1024 entries, 15.3 -> 15.0 with 64). */
#define FRESH_MAPS 1024

struct counter {
	VP_THREAD_OWN const struct vp_tally_opts *o;
	const struct plan *pl;
	struct vp_keys keys;
	/* the space of the sample before, and the marks its state holds for */
	uint64_t space, from, until;
	uint32_t state;
	/* the count in the scan: the piece being read */
	struct vp_keys pk;
	struct vp_lstates ls;
	size_t *kept;			/* bytes of all workers' done keys */
	unsigned nparts;		/* the join's partitions */
	struct early_piece *done;	/* the pieces this worker counted */
	size_t ndone, capdone;
	/* maps whose objects count_fresh has seen to, by space and 1 MiB of address */
	struct fresh_map {
		uint64_t space, start, end;
	} fresh[FRESH_MAPS];
};

/* The state a space is in at a mark, and the marks [*from, *until) it holds for. */
static uint32_t plan_state(const struct plan *pl, uint64_t space, uint64_t mark, uint64_t *from,
			   uint64_t *until)
{
	const struct timeline *t = space == VP_SPACE_NONE ? NULL : vp_u64map_get(&pl->spaces, space);
	/* after the last change at or before mark */
	size_t lo = t ? vp_count_at_or_below(t->v, t->n, sizeof(*t->v), offsetof(struct change, from),
					     mark) : 0;

	*from = lo ? t->v[lo - 1].from : 0;
	*until = t && lo < t->n ? t->v[lo].from : UINT64_MAX;
	return lo ? t->v[lo - 1].state : empty_state(space);
}

static uint32_t state_at(struct counter *c, uint64_t space, uint64_t mark)
{
	if (space == c->space && mark >= c->from && mark < c->until)
		return c->state;
	c->space = space;
	c->state = plan_state(c->pl, space, mark, &c->from, &c->until);
	return c->state;
}

/* A key new to a worker: the object it falls in is read now, by the first
 * worker to meet it, so that no object is left to read after the count. */
static void count_fresh(void *ctx, const struct vp_key *k)
{
	struct counter *c = ctx;
	uint64_t space = c->pl->st[k->state].space;
	struct fresh_map *f = &c->fresh[vp_hash_u64(space ^ (k->ip >> 20)) % FRESH_MAPS];

	if (space >> 32)	/* not a process: the kernels' symbols are not objects */
		return;
	if (f->space == space && k->ip >= f->start && k->ip < f->end)
		return;		/* its object is read, or being read */
	vp_session_read_early(c->pl->sc.session, (uint32_t)space, k->cpumode, k->ip, &f->start,
			      &f->end);
	f->space = space;
}

/* A sample into t, keyed in state st. */
static inline int put_sample(struct vp_keys *t, const struct vp_sample *s,
			     const struct vp_pieces_pos *pos, size_t ev, unsigned cpumode, uint32_t st,
			     struct vp_error *err)
{
	struct vp_key k = {
		.ip = s->ip, .samples = s->count, .period = s->period, .off = s->offset,
		.state = st, .mark = (uint32_t)pos->mark, .when = (uint32_t)pos->when,
		.evsel = (uint16_t)ev, .cpumode = (uint8_t)cpumode,
	};
	return vp_keys_put(t, &k) < 0 ? vp_errorf(err, -ENOMEM, "out of memory") : 0;
}

static int count_sample(void *wctx, const struct vp_sample *s, const struct vp_pieces_pos *pos,
			struct vp_error *err)
{
	struct counter *c = wctx;
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	size_t ev = s->evsel->index;

	if (ev >= c->o->ntables || !c->o->tables[ev])
		return 0;
	return put_sample(&c->keys, s, pos, ev, cpumode,
			  state_at(c, vp_session_sample_space(s->pid, cpumode), pos->mark), err);
}

/* ---- the count in the scan: keys by the piece's own states ---- */

static int early_at(void *wctx, uint64_t mark)
{
	vp_lstates_at(&((struct counter *)wctx)->ls, mark);
	return 0;
}

static int early_mmap(void *wctx, const struct vp_mmap_event *m)
{
	return vp_lstates_mmap(&((struct counter *)wctx)->ls, m);
}

static int early_fork(void *wctx, const struct vp_task_event *e)
{
	return vp_lstates_fork(&((struct counter *)wctx)->ls, e);
}

static const struct vp_perf_tool early_tool = { .mmap = early_mmap, .fork = early_fork };

/* The pieces' keys wait for the plan: past this many bytes of them in all,
 * a piece is counted after the plan instead, so memory stays flat in the
 * file (the flat bench file of 328 MB kept 12 x 48k keys, 27 MB, and a
 * report's peak RSS was 83 MB against 65 MB for half the file). */
#define EARLY_KEPT_MAX (12u << 20)

static int early_begin(void *wctx, size_t piece)
{
	struct counter *c = wctx;

	(void)piece;
	vp_keys_clear(&c->pk);
	vp_lstates_reset(&c->ls);
	return __atomic_load_n(c->kept, __ATOMIC_RELAXED) > EARLY_KEPT_MAX;
}

static int early_sample(void *wctx, const struct vp_sample *s, const struct vp_pieces_pos *pos,
			struct vp_error *err)
{
	struct counter *c = wctx;
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	size_t ev = s->evsel->index;
	int64_t st;

	if (ev >= c->o->ntables || !c->o->tables[ev])
		return 0;
	if ((st = vp_lstates_of(&c->ls, vp_session_sample_space(s->pid, cpumode), pos->mark)) < 0)
		return vp_errorf(err, -ENOMEM, "out of memory");
	return put_sample(&c->pk, s, pos, ev, cpumode, (uint32_t)st, err);
}

/* The piece's keys kept aside, packed by the join's partitions, for the
 * plan to name their states: the join then takes them as they are, and
 * the workers' tables hold only the samples counted after the plan (on 2
 * CPUs 13 pieces of the -g bench file hold 119k keys, 11.6k distinct, and
 * were added into each worker's table before the join cut them again).
 * Out of memory nothing is kept: the plan finds nothing of the piece and
 * its samples are counted after it. */
static void early_end(void *wctx, size_t piece)
{
	struct counter *c = wctx;
	struct early_piece d = { .piece = piece };

	if (vp_keys_drain(&c->pk) < 0 || !c->pk.n)
		return;
	if (vp_grow((void **)&c->done, &c->capdone, c->ndone, sizeof(*c->done), 8) < 0)
		return;
	if (vp_keys_pack(&c->pk, c->nparts, &d.pack) < 0)
		return;
	__atomic_add_fetch(c->kept, vp_keys_pack_n(&d.pack) * sizeof(struct vp_key),
			   __ATOMIC_RELAXED);
	vp_lstates_take(&c->ls, &d.ls);
	c->done[c->ndone++] = d;
}

/* The pieces counted in the scan, after the plan: their states named, or
 * given back to vp_pieces_samples when a stretch of the piece's is not in
 * its state's plan state. */
struct early_map {
	struct counter *c;
	struct vp_pieces *p;
	struct early_piece **item;
};

static uint32_t plan_state_at(const void *pl, uint64_t space, uint64_t mark)
{
	uint64_t from, until;
	return plan_state(pl, space, mark, &from, &until);
}

static int map_item(void *ctx, unsigned w, size_t i)
{
	struct early_map *m = ctx;
	struct early_piece *d = m->item[i];
	uint64_t mb, wb;

	if (!vp_pieces_early_piece(m->p, d->piece, &mb, &wb)) {
		vp_keys_pack_free(&d->pack);	/* the plan counts it after the scan */
	} else if (!(d->st = malloc((d->ls.nst ? d->ls.nst : 1) * sizeof(*d->st))) ||
		   vp_lstates_map(&d->ls, mb, plan_state_at, m->c[w].pl, d->st)) {
		vp_pieces_early_reject(m->p, d->piece);
		vp_keys_pack_free(&d->pack);
		free(d->st);
		d->st = NULL;
	} else {
		d->pack.st = d->st;
		d->pack.mark = (uint32_t)mb;
		d->pack.when = (uint32_t)wb;
	}
	vp_lstates_kept_free(&d->ls);
	return 0;
}

/* The kept pieces' packs into *packs (for the join), and how many. */
static int early_map(struct counter *c, unsigned n, struct vp_pieces *p,
		     struct vp_keys_pack **packs, size_t *npacks)
{
	struct early_map m = { c, p, NULL };
	size_t total = 0, k = 0;

	*npacks = 0;
	for (unsigned w = 0; w < n; w++)
		total += c[w].ndone;
	if (!total)
		return 0;
	if (!(m.item = malloc(total * sizeof(*m.item))) ||
	    !(*packs = malloc(total * sizeof(**packs)))) {
		free(m.item);
		return -ENOMEM;
	}
	for (unsigned w = 0; w < n; w++)
		for (size_t i = 0; i < c[w].ndone; i++)
			m.item[k++] = &c[w].done[i];
	vp_run_queue(n, total, map_item, &m);
	for (size_t i = 0; i < total; i++)
		if (m.item[i]->pack.at)
			(*packs)[(*npacks)++] = m.item[i]->pack;
	free(m.item);
	return 0;
}

static void counter_free(struct counter *c)
{
	vp_keys_free(&c->keys);
	vp_keys_free(&c->pk);
	vp_lstates_free(&c->ls);
	for (size_t i = 0; i < c->ndone; i++) {
		vp_keys_pack_free(&c->done[i].pack);
		vp_lstates_kept_free(&c->done[i].ls);
		free(c->done[i].st);
	}
	free(c->done);
}

/* Whether the file's events sample the host's kernel, or a guest's. */
static void kernels_sampled(const struct vp_perfdata *pd, int *host, int *guest)
{
	*host = *guest = 0;
	for (size_t i = 0; i < vp_perfdata_nevsel(pd); i++) {
		const struct perf_event_attr *a = &vp_perfdata_evsel(pd, i)->attr;
		*host |= !a->exclude_kernel;
		*guest |= !a->exclude_guest;
	}
}

struct ahead {
	struct vp_session *session;
	int host, guest;
};

/* The scan's side jobs: the kernels' symbols, then the user objects the
 * file lists (which the count would otherwise read after the scan, one
 * CPU's work while the other waits: 21 objects, 21 ms of the 328 MB -g
 * bench file's 385 ms on one CPU). */
static void read_ahead(void *ctx, size_t i)
{
	struct ahead *a = ctx;

	if (i == 0)
		vp_session_read_kallsyms_ahead(a->session, a->host, a->guest);
	else
		vp_session_read_listed(a->session, i - 1);
}

static void read_kallsyms(void *session)
{
	vp_session_read_kallsyms(session);
}

/* ---- resolve: the keys at their first samples ---- */

struct resolver {
	const struct vp_tally_opts *o;
	const struct plan *pl;
	struct vp_key *e;	/* in perf's order of their first samples */
	size_t n, i;
	struct vp_error *err;
};

static int resolve_at(void *ctx, uint64_t mark)
{
	struct resolver *rs = ctx;

	for (; rs->i < rs->n && rs->e[rs->i].mark == mark; rs->i++) {
		const struct vp_key *e = &rs->e[rs->i];
		uint64_t space = rs->pl->st[e->state].space;
		struct vp_resolved res;
		vp_session_resolve_once(rs->o->session, space >> 32 ? UINT32_MAX : (uint32_t)space,
					e->cpumode, e->ip, &res);
		struct vp_row row = { res.symbol, res.dso, NULL, -1, res.domain, e->samples, e->period };
		if (vp_table_add(rs->o->tables[e->evsel], &row) < 0)
			return vp_errorf(rs->err, -ENOMEM, "out of memory");
	}
	return 0;
}

/* The user objects the keys fall in (by the planning session's maps at the
 * file's end), read on every thread before the replay, which then takes
 * them where it first uses them: the one serial step left, the resolve,
 * then costs the longest object's load, not the sum. */
static void load_ahead(const struct plan *pl, const struct vp_tally_opts *o,
		       const struct resolver *rs, unsigned threads)
{
	struct vp_session_addr *a = malloc((rs->n ? rs->n : 1) * sizeof(*a));
	size_t k = 0;

	if (!a)
		return;
	for (size_t i = 0; i < rs->n; i++) {
		const struct vp_key *e = &rs->e[i];
		uint64_t space = pl->st[e->state].space;
		if (!(space >> 32))	/* a process: the kernels' symbols are not objects */
			a[k++] = (struct vp_session_addr){ (uint32_t)space, e->cpumode, e->ip };
	}
	vp_session_load_ahead(o->session, pl->sc.session, a, k, threads);
	free(a);
}

int vp_tally(struct vp_perfdata *pd, const struct vp_tally_opts *o, struct vp_error *err)
{
	struct vp_pieces *p = NULL;
	struct plan pl = { .sc.err = err };
	struct vp_strpool *pool = NULL;
	struct counter *c = NULL;
	struct vp_keys *keys = NULL;
	struct vp_keys_pack *packs = NULL;
	size_t npacks = 0;
	void **wctx = NULL;
	struct resolver rs = { .o = o, .pl = &pl, .err = err };
	unsigned n = vp_pieces_early_threads(o->threads);
	struct ahead ah = { 0 };
	size_t kept = 0;
	int r;

	/* the plan's session first: the scan reads the kernel symbols into it */
	struct vp_session_opts so = *o->so;
	so.quiet = 1;	/* it resolves nothing */
	so.kallsyms_later = 1;	/* by a worker, beside the scan */
	struct vp_perf_tool planner = { .mmap = plan_mmap, .fork = plan_fork };
	c = vp_thread_calloc(n, sizeof(*c));
	wctx = calloc(n, sizeof(*wctx));
	keys = calloc(n, sizeof(*keys));
	if (!c || !wctx || !keys || !(pool = vp_strpool_new()) || plan_init(&pl) < 0) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned w = 0; w < n; w++) {
		c[w] = (struct counter){ .o = o, .pl = &pl, .space = UINT64_MAX, .kept = &kept,
					 .nparts = n };
		c[w].keys.fresh = count_fresh;
		c[w].keys.fresh_ctx = &c[w];
		wctx[w] = &c[w];
	}
	if ((r = vp_session_new(pd, &so, pool, &pl.sc.session, err)) < 0)
		goto out;
	ah.session = pl.sc.session;
	kernels_sampled(pd, &ah.host, &ah.guest);
	const struct vp_pieces_early early = {
		.wctx = wctx, .begin = early_begin, .end = early_end, .tool = &early_tool,
		.at = early_at, .sample = early_sample, .side = read_ahead, .side_ctx = &ah,
		.nside = 1 + vp_session_list_objects(pl.sc.session),
	};
	if ((r = vp_pieces_open_early(pd, o->threads, o->piece_bytes, &early, &p, err)) < 0)
		goto out;
	if (!p) {
		r = VP_PIECES_ORDERED;
		goto out;
	}
	/* the scan's tables given back for the workers' (peak RSS of the 328 MB
	 * flat bench file 71 -> 61 MB, when the pieces' keys kept reach
	 * EARLY_KEPT_MAX and the rest is counted after the plan) */
	for (unsigned w = 0; w < n; w++)
		vp_keys_free(&c[w].pk);
	/* plan */
	if ((r = vp_pieces_replay(p, &planner, &pl, plan_at, &pl, err)) < 0)
		goto out;
	/* count: what the scan counted, named, then the rest */
	if ((r = early_map(c, n, p, &packs, &npacks)) < 0) {
		r = vp_errorf(err, r, "out of memory");
		goto out;
	}
	/* what the scan did not read (a kernel the header did not foretell) */
	if (vp_session_kallsyms_waiting(pl.sc.session))
		vp_pieces_side_job(p, read_kallsyms, pl.sc.session);
	if ((r = vp_pieces_samples(p, count_sample, wctx, err)) != 0)
		goto out;
	for (unsigned w = 0; w < n; w++)
		keys[w] = c[w].keys;
	r = vp_keys_join(keys, n, packs, npacks, &rs.e, &rs.n);
	for (unsigned w = 0; w < n; w++) {
		c[w].keys = keys[w];
		for (size_t i = 0; i < c[w].ndone; i++)	/* joined: not needed to resolve */
			vp_keys_pack_free(&c[w].done[i].pack);
	}
	if (r < 0) {
		r = vp_errorf(err, r, "out of memory");
		goto out;
	}
	/* resolve */
	load_ahead(&pl, o, &rs, n);
	r = vp_pieces_replay(p, o->tool, o->ctx, resolve_at, &rs, err);
out:
	vp_pieces_close(p, r == 0);
	if (c)
		for (unsigned w = 0; w < n; w++)
			counter_free(&c[w]);
	free(keys);
	free(packs);
	free(c);
	free(wctx);
	free(rs.e);
	/* last: the planning session may hold the kernel symbols the other one uses */
	plan_free(&pl);
	vp_strpool_free(pool);
	return r;
}
