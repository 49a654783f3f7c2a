/* perf.data -> profile: one walk over the file feeding the session (maps)
 * and the per-event tables. */
#include "report.h"
#include "charge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/perfdata/perfdata.h"
#include "lib/perfdata/perf_format.h"
#include "lib/symbols/session.h"
#include "lib/util/grow.h"
#include "lib/util/namelist.h"
#include "lib/util/u64map.h"
#include "lib/perfdata/tracedata.h"
#include "stacks.h"
#include "chaincache.h"
#include "lib/util/threads.h"
#include "tally.h"

void vp_load_opts_init(struct vp_load_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->key = VP_KEY_DEFAULT;
}

/* Host kernel samples that arrive while kallsyms is still being read on the
 * session's thread are counted per (table, ip) and resolved once that read is
 * done or the kernel's maps are about to change, so the walk never waits. */
struct pending_ip {
	struct vp_event_table *t;
	uint64_t ip, samples, period;
};

struct pending {
	struct vp_u64map index;		/* key hash -> entry index + 1 */
	struct pending_ip *v;
	size_t n, cap;
};

/* Plain samples (no --caller, field, comm or pid key) go from (table, pid,
 * cpumode, ip) straight to their row: one lookup instead of a resolution, a
 * row key and a table lookup. A slot holds while the maps it was resolved
 * against keep their generation. */
#define ROW_CACHE_SIZE 4096
struct row_slot {
	uint64_t ip;
	const uint32_t *genp;
	const struct vp_event_table *t;
	uint32_t pid, gen, row;
	unsigned cpumode;
};

struct loader {
	struct vp_session_client sc;	/* first: the session forwarders' view */
	const struct vp_load_opts *o;
	struct vp_perfdata *pd;
	struct vp_profile *prof;
	unsigned key;
	struct vp_event_table **by_evsel;	/* NULL entry: event filtered out */
	int *resolved_evsel;
	size_t nevsel;
	struct vp_tracedata *td;		/* when --weight or --group-by */
	const char *field;			/* that field's name */
	/* The row the previous sample went to: runs of samples in one function
	 * skip the table's hash lookup. */
	struct vp_event_table *last_table;
	struct vp_row last_key;
	size_t last_row;
	int fields_found;
	struct pending pending;
	int plain;		/* neither --caller nor a comm or pid key */
	int own_frames;		/* a table charges the program's own frame (offcpu-time) */
	struct row_slot *rows;	/* ROW_CACHE_SIZE of them */
	struct vp_filter_run filter;
	struct vp_frame *frames;	/* children or stacks: VP_STACKS_MAX_FRAMES + 1 */
	struct vp_stack_step *steps;	/* stacks: the same number */
	struct vp_label_cache *labels;	/* stacks: their frames' names */
	struct vp_chain_cache *chains;	/* stacks: the chains already in a tree */
	const char *comm_of, *comm;	/* stacks: the last command met, and it interned */
};

/* The table of an evsel, made on first use (pipe streams add evsels late). */
static struct vp_event_table *table_make(struct loader *l, const struct vp_evsel *ev)
{
	if (ev->index >= l->nevsel) {
		size_t n = ev->index + 1;
		struct vp_event_table **t = realloc(l->by_evsel, n * sizeof(*t));
		int *r = realloc(l->resolved_evsel, n * sizeof(*r));
		if (t)
			l->by_evsel = t;
		if (r)
			l->resolved_evsel = r;
		if (!t || !r)
			return NULL;
		for (size_t i = l->nevsel; i < n; i++) {
			l->by_evsel[i] = NULL;
			l->resolved_evsel[i] = 0;
		}
		l->nevsel = n;
	}
	if (!l->resolved_evsel[ev->index]) {
		l->resolved_evsel[ev->index] = 1;
		if (vp_names_want(l->o->events, ev->name)) {
			char name[512];
			/* Two attrs of one name (-e cpu-clock -e cpu-clock) stay apart, as in perf. */
			snprintf(name, sizeof(name), "%s", ev->name);
			for (int k = 2; vp_profile_find(l->prof, name); k++)
				snprintf(name, sizeof(name), "%s#%d", ev->name, k);
			/* A tracepoint with the --group-by field is keyed by its values alone. */
			int has_field = l->td && ev->attr.type == PERF_TYPE_TRACEPOINT &&
					vp_tracedata_field(l->td, (int)ev->attr.config, l->field);
			unsigned key = has_field && l->o->group_by ? VP_KEY_SYM : l->key;
			struct vp_event_table *t = vp_profile_table(l->prof, name, key);
			if (t) {
				t->children = l->o->children && !(has_field && l->o->group_by);
				t->callchains = (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN) != 0;
				if ((l->o->children || l->o->stacks == VP_STACKS_ALL) &&
				    !(ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
					vp_warn("'%s': '%s' was recorded without callchains (-g): %s",
						vp_perfdata_path(l->pd), ev->name, l->o->children ?
						"children equal self" : "every stack is one frame");
				t->attr_type = ev->attr.type;
				t->attr_config = ev->attr.config;
				/* off-CPU time is the program's: where it blocked, not where the kernel did */
				t->own_frame = !l->o->caller && !strcmp(ev->name, "offcpu-time") &&
					       (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
				l->own_frames |= t->own_frame;
				if (has_field && l->o->weight)
					t->weight = l->field;
				else if (has_field)
					t->group = l->field;
				l->fields_found |= has_field;
			}
			l->by_evsel[ev->index] = t;
		}
	}
	return l->by_evsel[ev->index];
}

static inline struct vp_event_table *table_of(struct loader *l, const struct vp_evsel *ev)
{
	if (ev->index < l->nevsel && l->resolved_evsel[ev->index])
		return l->by_evsel[ev->index];
	return table_make(l, ev);
}

/* The first user frame of the callchain in another object than the sampled
 * address: for a syscall tracepoint sampled in libc's read(), the program's
 * function that called it. Falls back to the sample itself. */
static void resolve_caller(struct loader *l, const struct vp_sample *s, struct vp_resolved *res)
{
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	struct vp_resolved first = *res, r;
	int have_first = cpumode == PERF_RECORD_MISC_USER;

	for (uint64_t i = 0; i < s->nr_callchain; i++) {
		uint64_t ip = s->callchain[i];
		if (vp_callchain_context(ip, &cpumode))
			continue;
		if (cpumode != PERF_RECORD_MISC_USER)
			continue;
		vp_session_resolve(l->sc.session, s->pid, cpumode, ip, &r);
		/* An address in no map is a frame-pointer walk gone astray: skip it. */
		if (!strcmp(r.dso, "[unknown]"))
			continue;
		if (!have_first) {
			first = r;
			have_first = 1;
			continue;
		}
		if (r.dso != first.dso) {
			*res = r;
			return;
		}
	}
}

/* --weight / --group-by: the field of this sample's tracepoint, or NULL. */
static const struct vp_tpfield *sample_field(struct loader *l, const struct vp_event_table *t,
					     const struct vp_sample *s)
{
	int id;

	if (!(t->weight || t->group) || !s->raw)
		return NULL;
	id = vp_tracedata_raw_id(l->td, s->raw, s->raw_size);
	return id < 0 ? NULL : vp_tracedata_field(l->td, id, l->field);
}

static int pending_flush(struct loader *l)
{
	struct pending *p = &l->pending;

	for (size_t i = 0; i < p->n; i++) {
		struct vp_resolved res;
		vp_session_resolve(l->sc.session, UINT32_MAX, PERF_RECORD_MISC_KERNEL, p->v[i].ip, &res);
		struct vp_row row = { res.symbol, res.dso, NULL, -1, res.domain, p->v[i].samples,
				      p->v[i].period };
		if (vp_table_add(p->v[i].t, &row) < 0)
			return vp_errorf(l->sc.err, -ENOMEM, "out of memory");
	}
	vp_u64map_free(&p->index);
	free(p->v);
	memset(p, 0, sizeof(*p));
	l->last_table = NULL;	/* rows may have moved */
	return 0;
}

/* 1: counted for later; 0: resolve now; < 0: error. */
static int pending_add(struct loader *l, struct vp_event_table *t, const struct vp_sample *s)
{
	struct pending *p = &l->pending;
	uint64_t key = s->ip ^ ((uint64_t)(uintptr_t)t << 47);
	uintptr_t at = (uintptr_t)vp_u64map_get(&p->index, key);

	if (at) {
		struct pending_ip *e = &p->v[at - 1];
		if (e->ip != s->ip || e->t != t)
			return 0;	/* key collision: resolve this one now */
		e->samples += s->count;
		e->period += s->period;
		return 1;
	}
	if (vp_grow((void **)&p->v, &p->cap, p->n, sizeof(*p->v), 1024) < 0)
		return vp_errorf(l->sc.err, -ENOMEM, "out of memory");
	if (vp_u64map_put(&p->index, key, (void *)(uintptr_t)(p->n + 1)) < 0)
		return vp_errorf(l->sc.err, -ENOMEM, "out of memory");
	p->v[p->n++] = (struct pending_ip){ t, s->ip, s->count, s->period };
	return 1;
}

/* One more sample in a row t already has: its counts and the table's. */
static void count_again(struct vp_event_table *t, size_t row, uint64_t samples, uint64_t period)
{
	t->rows[row].samples += samples;
	t->rows[row].period += period;
	t->total_samples += samples;
	t->total_period += period;
}

static int count_plain(struct loader *l, struct vp_event_table *t, const struct vp_sample *s)
{
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	uint64_t h = vp_hash_u64(s->ip ^ ((uint64_t)s->pid << 40) ^ ((uint64_t)cpumode << 60) ^
				 (uint64_t)(uintptr_t)t);
	struct row_slot *c = &l->rows[h & (ROW_CACHE_SIZE - 1)];
	struct vp_resolved res;
	const uint32_t *genp;
	uint32_t gen;

	if (c->ip == s->ip && c->pid == s->pid && c->cpumode == cpumode && c->t == t && c->genp &&
	    *c->genp == c->gen) {
		count_again(t, c->row, s->count, s->period);
		return 0;
	}
	vp_session_resolve_gen(l->sc.session, s->pid, cpumode, s->ip, &res, &genp, &gen);
	struct vp_row row = { res.symbol, res.dso, NULL, -1, res.domain, s->count, s->period };
	int at = vp_table_add(t, &row);
	if (at < 0)
		return vp_errorf(l->sc.err, -ENOMEM, "'%s': out of memory", vp_perfdata_path(l->pd));
	if (genp)
		*c = (struct row_slot){ s->ip, genp, t, s->pid, gen, (uint32_t)at, cpumode };
	return 0;
}

/* perf report --children keeps this many callchain addresses (its
 * --max-stack default, PERF_MAX_STACK_DEPTH), the outermost ones: with
 * --children it reads chains callers first. */
#define CHILDREN_MAX_STACK 127

static int same_key(const struct vp_row *a, const struct vp_row *b, unsigned key)
{
	return (!(key & VP_KEY_SYM) || a->symbol == b->symbol) &&
	       (!(key & VP_KEY_DSO) || a->dso == b->dso) &&
	       (!(key & VP_KEY_DOMAIN) || a->domain == b->domain) &&
	       (!(key & VP_KEY_COMM) || a->comm == b->comm) && (!(key & VP_KEY_PID) || a->pid == b->pid);
}

/* The same under a comparison's join key, whose objects are short names. */
static int same_join_key(const struct vp_row *a, const struct vp_row *b, unsigned key)
{
	return (!(key & VP_KEY_SYM) || a->symbol == b->symbol) &&
	       (!(key & VP_KEY_DSO) || a->dso == b->dso ||
		(a->dso && b->dso && !strcmp(vp_dso_short_name(a->dso), vp_dso_short_name(b->dso)))) &&
	       (!(key & VP_KEY_DOMAIN) || a->domain == b->domain);
}

/* Inclusive counts, as perf's hist_entry_iter for --children: the sampled
 * address's row (self) and the row of every callchain address, each row once
 * per sample however often it recurs (perf's "already seen in this
 * callchain" check); every such row gains the sample and its period. With a
 * comparison's join key (children_key), once per sample per key of that
 * join, on the first row of it: the join's sums are then exact. */
static int add_children(struct loader *l, struct vp_event_table *t, const struct vp_stack *st,
			const struct vp_row *self, uint32_t *kids, uint32_t *nkids)
{
	struct vp_row seen[CHILDREN_MAX_STACK + 1];
	size_t nseen = 0, from = (size_t)st->added_leaf;

	if (st->n - from > CHILDREN_MAX_STACK)
		from = st->n - CHILDREN_MAX_STACK;
	seen[nseen++] = *self;
	for (size_t i = from; i < st->n; i++) {
		const struct vp_resolved *r = &st->frames[i].r;
		struct vp_row k = { r->symbol, r->dso, self->comm, self->pid, r->domain };
		size_t j = 0;
		while (j < nseen && !(l->o->children_key ? same_join_key(&seen[j], &k, l->o->children_key)
							    : same_key(&seen[j], &k, t->key)))
			j++;
		if (j == nseen)
			seen[nseen++] = k;
	}
	for (size_t j = 0; j < nseen; j++) {
		seen[j].samples = seen[j].period = 0;
		seen[j].children_samples = self->samples;
		seen[j].children_period = self->period;
		int at = vp_table_add(t, &seen[j]);
		if (at < 0)
			return -ENOMEM;
		kids[j] = (uint32_t)at;
	}
	*nkids = (uint32_t)nseen;
	l->last_table = NULL;	/* rows may have moved */
	return 0;
}

/* A cached chain's inclusive counts: the rows add_children added to. */
static void count_children_again(struct vp_event_table *t, const uint32_t *kids, uint32_t nkids,
				 uint64_t samples, uint64_t period)
{
	for (uint32_t j = 0; j < nkids; j++) {
		t->rows[kids[j]].children_samples += samples;
		t->rows[kids[j]].children_period += period;
	}
}

/* The stack into the table's tree: the command, then the frames outermost
 * first, named as the folded writer names them (the chain alone, as perf
 * script prints it). */
static int add_stack(struct loader *l, struct vp_event_table *t, const struct vp_stack *st,
		     const struct vp_row *self, uint32_t *leaf)
{
	struct vp_strpool *pool = l->prof->pool;
	const char *of = st->comm ? st->comm : "[unknown]";
	size_t n = 0;

	/* the session's commands are interned: a pointer is a name */
	if (of != l->comm_of || !l->comm) {
		l->comm_of = of;
		l->comm = vp_strpool_intern(pool, of);
	}
	const char *comm = l->comm;

	if (!t->stacks) {
		if (!(t->stacks = vp_stack_tree_new(1, pool)))
			return -ENOMEM;
		vp_stack_tree_defer_totals(t->stacks);	/* summed once loaded */
	}
	for (size_t i = st->n; i-- > (size_t)st->added_leaf;) {
		struct vp_stack_step *step = &l->steps[n++];
		*step = (struct vp_stack_step){ vp_frame_label_interned(l->labels, &st->frames[i].r),
						st->frames[i].r.dso, st->frames[i].r.domain };
		if (!step->name)
			return -ENOMEM;
	}
	if (!comm)
		return -ENOMEM;
	return vp_stack_tree_add_leaf(t->stacks, 0, comm, l->steps, n, self->samples, self->period,
				      leaf);
}

/* Whether t's samples go into its stack tree. */
static int wants_stacks(const struct loader *l, const struct vp_event_table *t)
{
	return l->o->stacks == VP_STACKS_ALL || (l->o->stacks == VP_STACKS_RECORDED && t->callchains);
}

/* Whether t's samples are walked down their callchains. */
static int wants_paths(const struct loader *l, const struct vp_event_table *t)
{
	return l->frames && !t->group && (l->o->children || wants_stacks(l, t));
}

/* Whether t's rows hang on the sampled address alone (no --caller, own
 * frame or weight): a cached chain's row is then its row again. */
static inline int rows_by_address(const struct loader *l, const struct vp_event_table *t)
{
	return !l->o->caller && !t->own_frame && !t->weight;
}

/* A chain met before, its maps unchanged, goes where it went (a third of
 * compare's time on -g runs was naming frames and finding them in the tree
 * again): into the stack tree, and with --children into the rows it added
 * to, which needs rows_by_address. */
static inline int chains_cached(const struct loader *l, const struct vp_event_table *t)
{
	if (!l->frames || t->group)
		return 0;
	return l->o->children ? rows_by_address(l, t) : wants_stacks(l, t);
}

/* A sample's counts at leaf, where the chain cache says its stack ended. */
static int add_at_leaf(struct loader *l, struct vp_event_table *t, int64_t leaf, uint64_t samples,
		       uint64_t period)
{
	if (vp_stack_tree_add_at(t->stacks, 0, (uint32_t)leaf, samples, period) < 0)
		return vp_errorf(l->sc.err, -EINVAL, "'%s': a stack's cached end is not in its tree",
				 vp_perfdata_path(l->pd));
	return 0;
}

/* s's paths, its chain not in the chain cache; self went in row rowi of t,
 * its address resolved in a space whose maps' generation was *flat_genp ==
 * flat_gen. */
static int add_paths(struct loader *l, struct vp_event_table *t, const struct vp_sample *s,
		     const struct vp_row *self, uint32_t rowi, const uint32_t *flat_genp,
		     uint32_t flat_gen)
{
	struct vp_stack st;
	struct vp_stack_gens gens;
	uint32_t leaf = 0, kids[CHILDREN_MAX_STACK + 1], nkids = 0;
	int cached = chains_cached(l, t), r = 0;

	vp_stack_resolve(l->sc.session, s, l->frames, &st, cached ? &gens : NULL);
	if (l->o->children)
		r = add_children(l, t, &st, self, kids, &nkids);
	if (r == 0 && wants_stacks(l, t))
		r = add_stack(l, t, &st, self, cached ? &leaf : NULL);
	if (r == 0 && cached) {
		const struct vp_chain_hit did = { leaf, rowi, kids, nkids };
		vp_stack_gens_add(&gens, flat_genp, flat_gen);
		vp_chain_cache_put(l->chains, t, s, st.comm, &did, &gens);
	}
	return r;
}

static int on_sample(void *ctx, const struct vp_sample *s)
{
	struct loader *l = ctx;
	struct vp_event_table *t = table_of(l, s->evsel);
	const struct vp_tpfield *f;
	struct vp_resolved res;
	struct vp_row row;

	if (!t || !vp_filter_keep(&l->filter, l->sc.session, s))
		return 0;
	if ((s->misc & VP_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL && !l->o->caller && !wants_paths(l, t) &&
	    !t->weight && !t->group && !t->own_frame && !(l->key & (VP_KEY_COMM | VP_KEY_PID)) &&
	    vp_session_kernel_loading(l->sc.session)) {
		int r = pending_add(l, t, s);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	if (l->plain && !t->weight && !t->group && !t->own_frame)
		return count_plain(l, t, s);
	/* a chain met before: its stack's end, its row and its inclusive
	 * counts' rows, as then */
	struct vp_chain_hit hit;
	int64_t leaf = -1;
	if (chains_cached(l, t) &&
	    vp_chain_cache_get(l->chains, t, s, vp_session_comm_of(l->sc.session, s->pid, s->tid),
			       &hit)) {
		leaf = hit.leaf;
		if (rows_by_address(l, t)) {	/* its row too */
			count_again(t, hit.row, s->count, s->period);
			count_children_again(t, hit.kids, hit.nkids, s->count, s->period);
			/* without --children chains_cached says wants_stacks */
			if (!l->o->children || wants_stacks(l, t))
				return add_at_leaf(l, t, leaf, s->count, s->period);
			return 0;
		}
	}
	const uint32_t *genp;
	uint32_t gen;
	vp_session_resolve_gen(l->sc.session, s->pid, s->misc, s->ip, &res, &genp, &gen);
	if (l->o->caller && s->callchain)
		resolve_caller(l, s, &res);
	else if (t->own_frame && s->callchain)
		vp_charge_own(l->sc.session, s, &res);
	row = (struct vp_row){ res.symbol, res.dso, NULL, -1, res.domain, s->count, s->period };
	if ((f = sample_field(l, t, s))) {
		if (t->weight) {
			int64_t v = 0;
			/* Negative values are errors (ret < 0): no bytes moved. */
			vp_tpfield_value(f, s->raw, s->raw_size, &v);
			row.period = v > 0 ? (uint64_t)v : 0;
		} else {
			row.symbol = vp_tpfield_label(f, s->raw, s->raw_size, l->prof->pool);
			if (!row.symbol)
				return vp_errorf(l->sc.err, -ENOMEM, "out of memory");
		}
	}
	if (l->key & (VP_KEY_COMM | VP_KEY_PID))
		row.comm = vp_session_comm_of(l->sc.session, s->pid, s->tid);
	if (l->key & VP_KEY_PID)
		row.pid = (int32_t)s->pid;
	if (t == l->last_table && row.symbol == l->last_key.symbol && row.dso == l->last_key.dso &&
	    row.domain == l->last_key.domain && row.comm == l->last_key.comm &&
	    row.pid == l->last_key.pid) {
		count_again(t, l->last_row, row.samples, row.period);
	} else {
		int at = vp_table_add(t, &row);
		if (at < 0)
			return vp_errorf(l->sc.err, -ENOMEM, "'%s': out of memory", vp_perfdata_path(l->pd));
		l->last_table = t;
		l->last_key = row;
		l->last_row = (size_t)at;
	}
	if (leaf >= 0)	/* chains_cached without --children: wants_stacks */
		return add_at_leaf(l, t, leaf, row.samples, row.period);
	if (wants_paths(l, t) && add_paths(l, t, s, &row, (uint32_t)l->last_row, genp, gen) < 0)
		return vp_errorf(l->sc.err, -ENOMEM, "'%s': out of memory", vp_perfdata_path(l->pd));
	return 0;
}

static int on_mmap(void *ctx, const struct vp_mmap_event *m)
{
	struct loader *l = ctx;

	/* Set-aside kernel samples belong to the kernel maps as they are now
	 * (resolving them waits for kallsyms: only when the maps change). */
	if (l->pending.n && vp_session_mmap_changes_kernel(l->sc.session, m) && pending_flush(l) < 0)
		return -ENOMEM;
	return vp_session_process_mmap(ctx, m);
}

static int on_lost(void *ctx, const struct vp_lost_event *e)
{
	struct loader *l = ctx;
	struct vp_event_table *t = e->evsel ? table_of(l, e->evsel) : NULL;

	if (t)
		t->lost_samples += e->lost;
	return 0;
}

static void warn_stats(const char *path, const struct vp_perfdata_stats *st)
{
	if (st->recovered)
		vp_warn("'%s': the recording was not finished (recorder killed?); recovered %llu "
			"records up to the last whole one%s", path, (unsigned long long)st->records,
			st->dropped_bytes ? ", dropped a partial record at the end" : "");
	if (st->unknown_id)
		vp_warn("'%s': %llu samples match no event in the header and were skipped", path,
			(unsigned long long)st->unknown_id);
	if (st->compressed_records)
		vp_warn("'%s': %llu compressed record blocks (perf record -z) were skipped: vmprof "
			"does not decompress them; record without -z", path,
			(unsigned long long)st->compressed_records);
	if (st->lost_events || st->lost_samples)
		vp_warn("'%s': the recorder lost %llu events and %llu samples", path,
			(unsigned long long)st->lost_events, (unsigned long long)st->lost_samples);
}

int vp_profile_from_perfdata(const char *path, const struct vp_load_opts *o,
			     struct vp_profile **out, struct vp_error *err)
{
	struct vp_load_opts defaults;
	struct loader l = { 0 };
	struct vp_session_opts so;
	int r;

	*out = NULL;
	if (!o) {
		vp_load_opts_init(&defaults);
		o = &defaults;
	}
	l.o = o;
	l.sc.err = err;
	/* perf's symbol key is a symbol within its object. */
	l.key = o->key ? o->key : VP_KEY_DEFAULT;
	if (l.key & VP_KEY_SYM)
		l.key |= VP_KEY_DSO | VP_KEY_DOMAIN;

	if ((r = vp_perfdata_open(path, &l.pd, err)) < 0)
		return r;
	l.prof = vp_profile_new();
	if (!l.prof) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	so = (struct vp_session_opts){ o->symfs, o->kallsyms, o->guest_kallsyms, o->guest_modules };
	if ((r = vp_session_new(l.pd, &so, l.prof->pool, &l.sc.session, err)) < 0 ||
	    (r = vp_filter_start(&l.filter, &o->filter, l.pd, err)) < 0)
		goto out;
	if (o->weight || o->group_by) {
		const void *tdata;
		uint64_t tsize;
		l.field = vp_profile_intern(l.prof, o->weight ? o->weight : o->group_by);
		if (vp_perfdata_feature(l.pd, VP_FEAT_TRACING_DATA, &tdata, &tsize) < 0) {
			r = vp_errorf(err, -EINVAL, "'%s': no tracepoint formats in the file, so no "
				      "field '%s' to %s by", path, l.field, o->weight ? "weight" : "group");
			goto out;
		}
		if ((r = vp_tracedata_parse(tdata, tsize, &l.td, err)) < 0) {
			vp_error_prefix(err, "'%s'", path);
			goto out;
		}
	}
	/* Tables in the file's event order, even for events without samples. */
	for (size_t i = 0; i < vp_perfdata_nevsel(l.pd); i++)
		if (!table_of(&l, vp_perfdata_evsel(l.pd, i)) && vp_names_want(o->events, vp_perfdata_evsel(l.pd, i)->name)) {
			r = vp_errorf(err, -ENOMEM, "out of memory");
			goto out;
		}

	if (l.td && !l.fields_found) {
		r = vp_errorf(err, -EINVAL, "'%s': no tracepoint event has a field '%s'", path, l.field);
		goto out;
	}

	/* inclusive counts and stacks read every sample's callchain: no shortcut
	 * (a pipe's events are not all known yet) */
	int stacks = o->stacks == VP_STACKS_ALL || (o->stacks && vp_perfdata_is_pipe(l.pd));
	for (size_t i = 0; o->stacks && i < vp_perfdata_nevsel(l.pd); i++)
		stacks |= (vp_perfdata_evsel(l.pd, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN) != 0;
	l.plain = !o->caller && !o->children && !stacks && !(l.key & (VP_KEY_COMM | VP_KEY_PID));
	if ((o->children || o->stacks) &&
	    (!(l.frames = calloc(VP_STACKS_MAX_FRAMES + 1, sizeof(*l.frames))) ||
	     !(l.steps = calloc(VP_STACKS_MAX_FRAMES + 1, sizeof(*l.steps))) ||
	     !(l.labels = calloc(1, sizeof(*l.labels))) ||
	     !(l.chains = vp_chain_cache_new()))) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (l.labels)
		l.labels->pool = l.prof->pool;	/* the session's names are interned there */

	if (!(l.rows = calloc(ROW_CACHE_SIZE, sizeof(*l.rows)))) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	/* A merged run of samples spans time: a time range may cut it. */
	struct vp_perf_tool tool = {
		.sample = on_sample, .lost = on_lost,
		.merge_repeats = l.plain && !l.td && !l.own_frames && !o->filter.time.n,
	};
	vp_session_tool(&tool);
	tool.mmap = on_mmap;	/* set-aside kernel samples first */
	unsigned threads = o->threads ? o->threads : vp_cpus_available();
	r = VP_PIECES_ORDERED;
	/* the filters judge each sample against the thread's state as perf
	 * delivers it: those walks stay ordered */
	if (tool.merge_repeats && !o->ordered && !vp_filter_active(&o->filter)) {
		/* Plain rows: every CPU reads a piece of the file (tally.c). */
		struct vp_tally_opts to = { &tool, &l, l.sc.session, &so, l.by_evsel, l.nevsel, threads,
					    o->piece_bytes };
		r = vp_tally(l.pd, &to, err);
	}
	if (r == VP_PIECES_ORDERED)
		r = threads == 1 ? vp_perfdata_walk(l.pd, &tool, &l, err)
				 : vp_perfdata_walk_threaded(l.pd, &tool, &l, err);
	if (r < 0 || (r = pending_flush(&l)) < 0)
		goto out;
	for (size_t i = 0; i < l.prof->ntables; i++)
		if (l.prof->tables[i]->stacks) {
			vp_stack_tree_totals(l.prof->tables[i]->stacks);
			vp_stack_tree_sort(l.prof->tables[i]->stacks);
		}
	warn_stats(path, vp_perfdata_stats(l.pd));
	vp_filter_end(&l.filter, path);
	vp_perfdata_meta(l.pd, &l.prof->meta, l.prof->pool);
	if (o->label)
		l.prof->meta.label = vp_profile_intern(l.prof, o->label);
	*out = l.prof;
	l.prof = NULL;
out:
	vp_filter_end(&l.filter, NULL);
	vp_session_free(l.sc.session);
	vp_u64map_free(&l.pending.index);
	free(l.pending.v);
	vp_tracedata_free(l.td);
	vp_profile_free(l.prof);
	vp_perfdata_close(l.pd);
	free(l.by_evsel);
	free(l.resolved_evsel);
	free(l.rows);
	free(l.frames);
	free(l.steps);
	free(l.labels);
	vp_chain_cache_free(l.chains);
	return r < 0 ? r : 0;
}
