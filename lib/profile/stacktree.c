/* Stack trees (see stacktree.h): nodes in one array, parents before their
 * children; a child is found by a hash of (parent, interned name). */
#include "stacktree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct vp_stack_tree {
	struct vp_strpool *pool;
	size_t nsides;
	struct vp_stack_node *nodes;
	struct vp_stack_value *vals;	/* n * nsides */
	/* each node's last child, 0 when none: a child is appended without
	 * walking its siblings (a node with thousands of callees made the
	 * merge of a comparison's trees quadratic) */
	uint32_t *last;
	/* adds count at the leaf only, vp_stack_tree_totals sums the paths:
	 * a load's sample walked its stack's 20-odd nodes to the root again
	 * (6% of a comparison of -g runs) */
	int deferred;
	size_t n, cap;
	uint32_t *index;		/* node + 1, 0 = empty; open addressing */
	size_t index_cap;
};

struct vp_stack_tree *vp_stack_tree_new(size_t nsides, struct vp_strpool *pool)
{
	struct vp_stack_tree *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pool = pool;
	t->nsides = nsides ? nsides : 1;
	t->cap = 64;
	t->nodes = calloc(t->cap, sizeof(*t->nodes));
	t->vals = calloc(t->cap * t->nsides, sizeof(*t->vals));
	t->last = calloc(t->cap, sizeof(*t->last));
	t->index_cap = 128;
	t->index = calloc(t->index_cap, sizeof(*t->index));
	if (!t->nodes || !t->vals || !t->last || !t->index) {
		vp_stack_tree_free(t);
		return NULL;
	}
	t->n = 1;	/* the root, zeroed */
	return t;
}

void vp_stack_tree_free(struct vp_stack_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->vals);
	free(t->last);
	free(t->index);
	free(t);
}

static uint64_t slot_hash(uint32_t parent, const char *name)
{
	return vp_hash_u64(((uint64_t)parent << 32) ^ (uint64_t)(uintptr_t)name);
}

static void index_put(struct vp_stack_tree *t, uint32_t node)
{
	size_t mask = t->index_cap - 1;
	size_t i = slot_hash(t->nodes[node].parent, t->nodes[node].name) & mask;

	while (t->index[i])
		i = (i + 1) & mask;
	t->index[i] = node + 1;
}

static int grow(struct vp_stack_tree *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap * 2;
		struct vp_stack_node *nodes = realloc(t->nodes, cap * sizeof(*nodes));
		if (!nodes)
			return -ENOMEM;
		t->nodes = nodes;
		struct vp_stack_value *vals = realloc(t->vals, cap * t->nsides * sizeof(*vals));
		if (!vals)
			return -ENOMEM;
		t->vals = vals;
		uint32_t *last = realloc(t->last, cap * sizeof(*last));
		if (!last)
			return -ENOMEM;
		t->last = last;
		t->cap = cap;
	}
	/* the index stays at most half full */
	if ((t->n + 1) * 2 > t->index_cap) {
		uint32_t *idx = calloc(t->index_cap * 2, sizeof(*idx));
		if (!idx)
			return -ENOMEM;
		free(t->index);
		t->index = idx;
		t->index_cap *= 2;
		for (uint32_t i = 1; i < t->n; i++)
			index_put(t, i);
	}
	return 0;
}

/* The child of parent named name (interned), made when missing: its index,
 * or -ENOMEM. */
static int64_t child_of(struct vp_stack_tree *t, uint32_t parent, const char *name, const char *dso,
			char domain)
{
	size_t mask = t->index_cap - 1;

	for (size_t i = slot_hash(parent, name) & mask; t->index[i]; i = (i + 1) & mask) {
		uint32_t k = t->index[i] - 1;
		if (t->nodes[k].parent == parent && t->nodes[k].name == name)
			return k;
	}
	if (t->n >= UINT32_MAX - 1 || grow(t) < 0)
		return -ENOMEM;
	uint32_t k = (uint32_t)t->n++;
	struct vp_stack_node *p = &t->nodes[parent];
	t->nodes[k] = (struct vp_stack_node){ name, dso, parent, 0, 0, (uint16_t)(p->depth + 1), domain };
	/* appended as the last child: siblings in the order first seen */
	if (!p->child)
		p->child = k;
	else
		t->nodes[t->last[parent]].next = k;
	t->last[parent] = k;
	t->last[k] = 0;
	memset(&t->vals[(size_t)k * t->nsides], 0, t->nsides * sizeof(*t->vals));
	index_put(t, k);
	return k;
}

static void add_value(struct vp_stack_tree *t, uint32_t node, size_t side,
		      const struct vp_stack_value *v)
{
	struct vp_stack_value *d = &t->vals[(size_t)node * t->nsides + side];

	d->samples += v->samples;
	d->period += v->period;
	d->self_samples += v->self_samples;
	d->self_period += v->self_period;
}

int vp_stack_tree_add_leaf(struct vp_stack_tree *t, size_t side, const char *comm,
			   const struct vp_stack_step *frames, size_t n, uint64_t samples,
			   uint64_t period, uint32_t *leaf)
{
	struct vp_stack_value through = { samples, period, 0, 0 };
	struct vp_stack_value end = { samples, period, samples, period };
	int path = !t->deferred;	/* else the last node's self values only */
	int64_t at;

	if (side >= t->nsides || n + 1 >= VP_STACK_TREE_MAX_DEPTH)
		return -EINVAL;
	if (!path)
		end.samples = end.period = 0;
	if ((at = child_of(t, 0, comm, NULL, 0)) < 0)
		return (int)at;
	if (path)
		add_value(t, 0, side, &through);
	for (size_t i = 0; i < n; i++) {
		if (path)
			add_value(t, (uint32_t)at, side, &through);
		if ((at = child_of(t, (uint32_t)at, frames[i].name, frames[i].dso, frames[i].domain)) < 0)
			return (int)at;
	}
	add_value(t, (uint32_t)at, side, &end);
	if (leaf)
		*leaf = (uint32_t)at;
	return 0;
}

int vp_stack_tree_add(struct vp_stack_tree *t, size_t side, const char *comm,
		      const struct vp_stack_step *frames, size_t n, uint64_t samples, uint64_t period)
{
	return vp_stack_tree_add_leaf(t, side, comm, frames, n, samples, period, NULL);
}

int vp_stack_tree_add_at(struct vp_stack_tree *t, size_t side, uint32_t leaf, uint64_t samples,
			 uint64_t period)
{
	struct vp_stack_value through = { samples, period, 0, 0 };
	struct vp_stack_value end = { samples, period, samples, period };

	if (side >= t->nsides || leaf == 0 || leaf >= t->n)
		return -EINVAL;
	if (t->deferred) {	/* the leaf's self values only, as add_leaf */
		end.samples = end.period = 0;
		add_value(t, leaf, side, &end);
		return 0;
	}
	add_value(t, leaf, side, &end);
	for (uint32_t at = t->nodes[leaf].parent; at != 0; at = t->nodes[at].parent)
		add_value(t, at, side, &through);
	add_value(t, 0, side, &through);
	return 0;
}

void vp_stack_tree_defer_totals(struct vp_stack_tree *t)
{
	t->deferred = 1;
}

void vp_stack_tree_totals(struct vp_stack_tree *t)
{
	for (size_t i = 0; i < t->n * t->nsides; i++) {
		t->vals[i].samples = t->vals[i].self_samples;
		t->vals[i].period = t->vals[i].self_period;
	}
	/* parents come before their children in the array */
	for (size_t i = t->n; i-- > 1;)
		for (size_t s = 0; s < t->nsides; s++) {
			const struct vp_stack_value *c = &t->vals[i * t->nsides + s];
			struct vp_stack_value *p = &t->vals[(size_t)t->nodes[i].parent * t->nsides + s];
			p->samples += c->samples;
			p->period += c->period;
		}
	t->deferred = 0;
}

/* src's names as interned in dst's pool, by src's pointer: a tree holds
 * far fewer names than nodes, and interning each node's name and object
 * again was half the merge (a compare of 2 x 3 -g runs: 34.3 M -> 18.2 M
 * instructions). */
#define MERGE_NAMES 4096
struct merge_name {
	const char *src, *dst;
};

static const char *merge_intern(struct merge_name *memo, struct vp_strpool *pool, const char *s)
{
	struct merge_name *e = &memo[vp_hash_u64((uint64_t)(uintptr_t)s) & (MERGE_NAMES - 1)];

	if (e->src != s) {
		const char *in = vp_strpool_intern(pool, s);
		if (!in)
			return NULL;
		*e = (struct merge_name){ s, in };
	}
	return e->dst;
}

int vp_stack_tree_merge(struct vp_stack_tree *dst, size_t dst_side, const struct vp_stack_tree *src,
			size_t src_side)
{
	struct merge_name *memo;
	uint32_t *map;

	if (dst_side >= dst->nsides || src_side >= src->nsides)
		return -EINVAL;
	map = malloc(src->n * sizeof(*map));
	memo = calloc(MERGE_NAMES, sizeof(*memo));
	if (!map || !memo) {
		free(map);
		free(memo);
		return -ENOMEM;
	}
	map[0] = 0;
	add_value(dst, 0, dst_side, &src->vals[src_side]);
	/* parents come before their children in src's array */
	for (size_t i = 1; i < src->n; i++) {
		const struct vp_stack_node *s = &src->nodes[i];
		const char *name = merge_intern(memo, dst->pool, s->name);
		const char *dso = s->dso ? merge_intern(memo, dst->pool, s->dso) : NULL;
		int64_t at = name && (dso || !s->dso) ? child_of(dst, map[s->parent], name, dso, s->domain)
						      : -ENOMEM;
		if (at < 0) {
			free(map);
			free(memo);
			return -ENOMEM;
		}
		map[i] = (uint32_t)at;
		add_value(dst, (uint32_t)at, dst_side, &src->vals[i * src->nsides + src_side]);
	}
	free(map);
	free(memo);
	return 0;
}

static int by_name(const void *pa, const void *pb, void *arg)
{
	const struct vp_stack_node *nodes = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return strcmp(nodes[a].name, nodes[b].name);
}

void vp_stack_tree_sort(struct vp_stack_tree *t)
{
	uint32_t *kids = malloc(t->n * sizeof(*kids));

	if (!kids)
		return;	/* the order stays the one of first sight: still a valid tree */
	for (size_t p = 0; p < t->n; p++) {
		size_t k = 0;
		for (uint32_t c = t->nodes[p].child; c; c = t->nodes[c].next)
			kids[k++] = c;
		if (k < 2)
			continue;
		qsort_r(kids, k, sizeof(*kids), by_name, t->nodes);
		t->nodes[p].child = kids[0];
		for (size_t i = 0; i < k; i++)
			t->nodes[kids[i]].next = i + 1 < k ? kids[i + 1] : 0;
		t->last[p] = kids[k - 1];
	}
	free(kids);
}

size_t vp_stack_tree_count(const struct vp_stack_tree *t)
{
	return t->n;
}

size_t vp_stack_tree_sides(const struct vp_stack_tree *t)
{
	return t->nsides;
}

const struct vp_stack_node *vp_stack_tree_node(const struct vp_stack_tree *t, size_t i)
{
	return &t->nodes[i];
}

const struct vp_stack_value *vp_stack_tree_value(const struct vp_stack_tree *t, size_t i, size_t side)
{
	return &t->vals[i * t->nsides + side];
}

struct vp_strpool *vp_stack_tree_pool(const struct vp_stack_tree *t)
{
	return t->pool;
}

int vp_stack_tree_child(struct vp_stack_tree *t, size_t parent, const char *name, const char *dso,
			char domain)
{
	if (parent >= t->n || !name || t->nodes[parent].depth + 1 >= VP_STACK_TREE_MAX_DEPTH)
		return -EINVAL;
	if (t->n >= INT32_MAX)
		return -ENOMEM;
	return (int)child_of(t, (uint32_t)parent, name, dso, domain);
}

void vp_stack_tree_value_set(struct vp_stack_tree *t, size_t i, size_t side,
			     const struct vp_stack_value *v)
{
	if (i < t->n && side < t->nsides)
		t->vals[i * t->nsides + side] = *v;
}

void vp_stack_tree_fill_self(struct vp_stack_tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		for (size_t s = 0; s < t->nsides; s++) {
			struct vp_stack_value *v = &t->vals[i * t->nsides + s];
			uint64_t cs = 0, cp = 0;
			for (uint32_t c = t->nodes[i].child; c; c = t->nodes[c].next) {
				cs += t->vals[(size_t)c * t->nsides + s].samples;
				cp += t->vals[(size_t)c * t->nsides + s].period;
			}
			v->self_samples = v->samples > cs ? v->samples - cs : 0;
			v->self_period = v->period > cp ? v->period - cp : 0;
		}
}
