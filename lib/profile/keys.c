/* Sample keys added up (see keys.h). */
#include "keys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/bulk.h"
#include "lib/util/threads.h"

/* Tables in memory of their own (lib/util/bulk.h), populated when made. A
 * big one goes on huge pages where the system gives them: in a virtual
 * machine a TLB miss is a walk through two page tables, and with 4 KiB
 * pages nearly every new key was one. A small one (a few thousand keys,
 * the common case) stays on small pages: a whole huge page per worker and
 * partition would be most of the count's memory. Written pages at once: a
 * slot read before it is written maps the zero page, and the write that
 * replaces it flushes the TLB of every other CPU the process runs on. */
static struct vp_key *table_new(size_t cap)
{
	return vp_bulk_alloc(cap * sizeof(struct vp_key));
}

static void table_free(struct vp_key *e, size_t cap)
{
	vp_bulk_free(e, cap * sizeof(struct vp_key));
}

static int keys_grow(struct vp_keys *c)
{
	size_t cap = c->cap ? c->cap * 2 : 4096;
	struct vp_key *e = table_new(cap);

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap; i++)
		if (c->e[i].samples)
			*vp_keys_probe(e, cap, &c->e[i]) = c->e[i];
	table_free(c->e, c->cap);
	c->e = e;
	c->cap = cap;
	return 0;
}

/* Below this a table grows at half full: there a put costs its probe, not
 * memory, and a hit reads about 2 slots in a table 2/3 full, 1.25 in one 1/3
 * full (the -g bench file: 2703 keys in 8192 slots instead of 4096, its
 * count 3% faster in 32 of 40 alternating runs on one CPU). Bigger ones
 * grow at 7/10. */
#define SPARSE_CAP 8192

/* 1 when one more key would fill c past its load. */
static int full(const struct vp_keys *c)
{
	return c->cap < SPARSE_CAP ? (c->n + 1) * 2 > c->cap : (c->n + 1) * 10 > c->cap * 7;
}

static int keys_add(struct vp_keys *c, const struct vp_key *k)
{
	struct vp_key *e;

	if (full(c) && keys_grow(c) < 0)
		return -ENOMEM;
	e = vp_keys_probe(c->e, c->cap, k);
	if (e->samples) {
		vp_key_merge(e, k);
		return 0;
	}
	*e = *k;
	c->n++;
	if (c->fresh)
		c->fresh(c->fresh_ctx, e);
	return 0;
}

int vp_keys_drain(struct vp_keys *c)
{
	for (; c->queued; c->queued--, c->head = (c->head + 1) % VP_KEYS_RING)
		if (keys_add(c, &c->ring[c->head]) < 0)
			return -ENOMEM;
	return 0;
}

int vp_keys_put_slow(struct vp_keys *c, const struct vp_key *k)
{
	if (c->cap && c->cap <= VP_KEYS_SMALL_CAP) {
		if (c->queued && vp_keys_drain(c) < 0)
			return -ENOMEM;
		return keys_add(c, k);
	}
	if (c->queued) {	/* a run of one key joins the last one queued */
		struct vp_key *last = &c->ring[(c->head + c->queued - 1) % VP_KEYS_RING];
		if (vp_key_same(last, k)) {
			vp_key_merge(last, k);
			return 0;
		}
	}
	if (c->queued == VP_KEYS_RING) {
		if (keys_add(c, &c->ring[c->head]) < 0)
			return -ENOMEM;
		c->head = (c->head + 1) % VP_KEYS_RING;
		c->queued--;
	}
	c->ring[(c->head + c->queued++) % VP_KEYS_RING] = *k;
	if (c->cap)
		__builtin_prefetch(&c->e[vp_key_hash(k) & (c->cap - 1)]);
	return 0;
}

void vp_keys_clear(struct vp_keys *c)
{
	if (c->n)
		memset(c->e, 0, c->cap * sizeof(*c->e));
	c->n = 0;
	c->head = c->queued = 0;
}

void vp_keys_free(struct vp_keys *c)
{
	table_free(c->e, c->cap);
	c->e = NULL;
	c->cap = c->n = 0;
}

static int by_first(const void *a, const void *b)
{
	return vp_key_earlier(a, b) ? -1 : vp_key_earlier(b, a);	/* no two keys share a first sample */
}

/* In perf's order of first samples: a counting sort by mark (marks are
 * few: the records that are not samples), then each mark's keys by place. */
static int sort_by_first(struct vp_key *v, size_t n)
{
	uint32_t top = 0;
	size_t *at;
	struct vp_key *tmp;

	for (size_t i = 0; i < n; i++)
		top = v[i].mark > top ? v[i].mark : top;
	at = calloc((size_t)top + 2, sizeof(*at));
	tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!at || !tmp) {
		free(at);
		free(tmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		at[v[i].mark + 1]++;
	for (uint32_t m = 1; m <= top + 1; m++)
		at[m] += at[m - 1];
	for (size_t i = 0; i < n; i++)
		tmp[at[v[i].mark]++] = v[i];
	memcpy(v, tmp, n * sizeof(*v));
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j].mark == v[i].mark; j++)
			;
		if (j - i > 1)
			qsort(v + i, j - i, sizeof(*v), by_first);
	}
	free(at);
	free(tmp);
	return 0;
}

/* The join, on every thread: each worker's table is packed by partition,
 * then each partition's share of every pack (the workers' and the pieces'
 * counted in the scan) becomes one table (a key several saw is one key)
 * and one sorted array; a last pass merges the sorted partitions. */
struct part {
	struct vp_key *v;
	size_t n;
};

struct joiner {
	struct vp_keys *c;
	unsigned n;			/* workers, and partitions */
	struct vp_keys_pack *cut;	/* the workers' tables packed */
	const struct vp_keys_pack *packs;
	size_t npacks;
	struct part *sorted;		/* per partition */
};

/* Not by state: a piece's keys are packed before the plan names their states. */
static unsigned part_of(const struct vp_key *e, unsigned n)
{
	return (unsigned)((vp_hash_u64(e->ip ^ ((uint64_t)e->evsel << 3) ^ e->cpumode) >> 40) % n);
}

/* One pass over the table's slots (a piece's table is 2-3 times its keys,
 * and read twice it was 1.7% of a -g report's CPU), which empties them,
 * then the keys, still in the cache, put in partition order in place. */
int vp_keys_pack(struct vp_keys *c, unsigned nparts, struct vp_keys_pack *out)
{
	size_t *at, *next, n = 0;
	unsigned *part;

	*out = (struct vp_keys_pack){ .nparts = nparts };
	if (vp_keys_drain(c) < 0)
		return -ENOMEM;
	at = calloc((size_t)nparts + 1, sizeof(*at));
	next = malloc((size_t)nparts * sizeof(*next));
	part = malloc((c->n ? c->n : 1) * sizeof(*part));
	out->k = malloc((c->n ? c->n : 1) * sizeof(*out->k));
	if (!at || !next || !part || !out->k) {
		free(at);
		free(next);
		free(part);
		free(out->k);
		out->k = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->cap; i++)
		if (c->e[i].samples) {
			part[n] = part_of(&c->e[i], nparts);
			at[part[n] + 1]++;
			out->k[n++] = c->e[i];
			c->e[i].samples = 0;	/* an empty slot, while its line is here */
		}
	c->n = 0;	/* so vp_keys_clear need not write the whole table again */
	for (unsigned p = 0; p < nparts; p++) {
		at[p + 1] += at[p];
		next[p] = at[p];
	}
	/* each key swapped to its partition's next place until one fits here */
	for (unsigned p = 0; p < nparts; p++)
		while (next[p] < at[p + 1]) {
			size_t i = next[p];
			unsigned q = part[i];
			if (q == p) {
				next[p]++;
			} else {
				size_t j = next[q]++;
				struct vp_key k = out->k[i];
				out->k[i] = out->k[j];
				out->k[j] = k;
				part[i] = part[j];
				part[j] = q;
			}
		}
	free(next);
	free(part);
	out->at = at;
	return 0;
}

void vp_keys_pack_free(struct vp_keys_pack *p)
{
	free(p->k);
	free(p->at);
	p->k = NULL;
	p->at = NULL;
}

static const struct vp_keys_pack *source(const struct joiner *j, size_t s)
{
	return s < j->n ? &j->cut[s] : &j->packs[s - j->n];
}

static int join_part(struct joiner *j, unsigned p)
{
	struct vp_keys t = { 0 };
	struct part *out = &j->sorted[p];
	const struct vp_keys_pack *only = NULL;
	size_t most = 0, cap = 4096, sources = 0;

	for (size_t s = 0; s < j->n + j->npacks; s++) {
		const struct vp_keys_pack *k = source(j, s);
		size_t n = k->at[p + 1] - k->at[p];
		if (n) {
			sources++;
			only = k;
			most = n > most ? n : most;
		}
	}
	if (sources <= 1 && (!only || (!only->st && !only->mark && !only->when))) {
		/* one source as it is (or none): its keys are already one each */
		if (!(out->v = malloc((most ? most : 1) * sizeof(*out->v))))
			return -ENOMEM;
		if (most)
			memcpy(out->v, only->k + only->at[p], most * sizeof(*out->v));
		out->n = most;
	} else {
		/* each source holds most of the keys it shares with the others */
		while (cap * 7 < most * 10 + 10)
			cap *= 2;
		if (!(t.e = table_new(cap)))
			return -ENOMEM;
		t.cap = cap;
		for (size_t s = 0; s < j->n + j->npacks; s++) {
			const struct vp_keys_pack *k = source(j, s);
			for (size_t i = k->at[p]; i < k->at[p + 1]; i++) {
				struct vp_key e = k->k[i];
				if (k->st)
					e.state = k->st[e.state];
				e.mark += k->mark;
				e.when += k->when;
				if (keys_add(&t, &e) < 0) {
					table_free(t.e, t.cap);
					return -ENOMEM;
				}
			}
		}
		if (!(out->v = malloc((t.n ? t.n : 1) * sizeof(*out->v)))) {
			table_free(t.e, t.cap);
			return -ENOMEM;
		}
		for (size_t i = 0; i < t.cap; i++)
			if (t.e[i].samples)
				out->v[out->n++] = t.e[i];
		table_free(t.e, t.cap);
	}
	return sort_by_first(out->v, out->n);
}

static int cut_item(void *ctx, unsigned thread, size_t w)
{
	struct joiner *j = ctx;
	struct vp_keys *c = &j->c[w];
	int r = vp_keys_pack(c, j->n, &j->cut[w]);

	(void)thread;
	table_free(c->e, c->cap);
	c->e = NULL;
	c->cap = c->n = 0;
	return r;
}

static int join_item(void *ctx, unsigned thread, size_t p)
{
	(void)thread;
	return join_part(ctx, (unsigned)p);
}

int vp_keys_join(struct vp_keys *c, unsigned n, const struct vp_keys_pack *packs, size_t npacks,
		 struct vp_key **outp, size_t *nout)
{
	struct joiner j = { .c = c, .n = n, .packs = packs, .npacks = npacks };
	size_t total = 0, *at = NULL;
	int r = -ENOMEM;

	for (size_t i = 0; i < npacks; i++)
		if (packs[i].nparts != n || !packs[i].at)
			return -EINVAL;
	j.cut = calloc(n, sizeof(*j.cut));
	j.sorted = calloc(n, sizeof(*j.sorted));
	at = calloc(n, sizeof(*at));
	if (!j.cut || !j.sorted || !at)
		goto out;
	if (vp_run_queue(n, n, cut_item, &j) < 0 || vp_run_queue(n, n, join_item, &j) < 0)
		goto out;
	for (unsigned p = 0; p < n; p++)
		total += j.sorted[p].n;
	if (!(*outp = malloc((total ? total : 1) * sizeof(**outp))))
		goto out;
	/* the partitions' heads, the earliest first (no two keys share a place) */
	for (*nout = 0; *nout < total; (*nout)++) {
		unsigned best = n;
		for (unsigned p = 0; p < n; p++)
			if (at[p] < j.sorted[p].n &&
			    (best == n || vp_key_earlier(&j.sorted[p].v[at[p]], &j.sorted[best].v[at[best]])))
				best = p;
		(*outp)[*nout] = j.sorted[best].v[at[best]++];
	}
	r = 0;
out:
	for (unsigned w = 0; j.cut && w < n; w++)
		vp_keys_pack_free(&j.cut[w]);
	for (unsigned p = 0; j.sorted && p < n; p++)
		free(j.sorted[p].v);
	free(j.cut);
	free(j.sorted);
	free(at);
	return r;
}

