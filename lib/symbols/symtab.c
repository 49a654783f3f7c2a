/* Symbol tables that answer exactly as perf 6.1's per-dso symbol rbtrees:
 * the same red-black tree (Linux lib/rbtree.c's insert and erase cases,
 * rebuilt here on array indices), perf's end and duplicate fixups, and
 * perf's tree walk for lookups, so overlapping symbols resolve as in perf.
 * One file on purpose (longer than the tree's others): the fixups erase
 * nodes mid-walk and the lookup walks the nodes as perf does, so tree,
 * fixups and lookup share the node layout and its invariants. */
#include "symbols.h"

#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "lib/util/bulk.h"
#include "lib/util/grow.h"
#include "lib/util/search.h"
#include "symtab_internal.h"

#define NIL UINT32_MAX
#define RED 0
#define BLACK 1
/* Most symbols are added in one go; the tree keeps at most this many. */
#define MAX_SYMS (UINT32_MAX - 1)

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

/* An erase made before the tree was: which node, after how many inserts. */
struct erased {
	uint32_t node, after;
};

struct vp_symtab {
	struct vp_sym *syms;	/* nodes, in insertion order */
	/* The tree, made only when needed (see build_tree): sorted input never
	 * needs it unless symbols overlap, and keeping it as the nodes went in
	 * was a third of a 122k-line kallsyms load (rebalancing, and pages of
	 * their own that a virtual machine makes dear on first touch). */
	uint32_t *left, *right, *parent;
	uint8_t *color;
	int tree;		/* the arrays above are made and kept */
	uint32_t last_live;	/* no tree: the last node not erased, NIL when none */
	struct erased *log;	/* no tree: the erases so far, in order */
	size_t nlog, caplog;
	size_t n, cap;
	uint32_t root;
	uint32_t rightmost;	/* last node in tree order, NIL when unknown */
	/* Every node went in right of all before it (sorted input: kallsyms,
	 * most symbol tables): tree order is then insertion order, and the
	 * fixups and the seal walk the array, not the tree, whose parent links
	 * missed the cache (with the '[' test once a symbol in fixup_end: a
	 * 122k-line kallsyms copy loaded in 18.9 ms instead of 21.4). */
	int in_order;
	uint32_t *order;	/* live nodes in tree order, after seal */
	size_t norder, olen;	/* olen: order's and starts' length as allocated */
	/* After seal, lookups in an array: the tree's nodes are scattered in
	 * memory, and perf's walk missed the cache at every level. When no two
	 * symbols hold one address (most tables once fixed up), the starts in
	 * tree order; else the walk's answers (pts: where it changes, ans: the
	 * node from there on). */
	uint64_t *starts;
	uint64_t *pts;
	uint32_t *ans;
	size_t npts;
	struct vp_count_index starts_index, pts_index;	/* narrow the searches */
	int sealed, demangle;
	struct chunk *chunks;	/* names and demangled names */
	size_t chunk_size;	/* the next chunk's: doubling up to CHUNK_MAX */
};

static void free_tree(struct vp_symtab *t);

#define CHUNK_FIRST (16u << 10)
#define CHUNK_MAX (2u << 20)

/* ---- string arena ---- */

static char *arena_alloc(struct vp_symtab *t, size_t n)
{
	struct chunk *c = t->chunks;

	if (!c || c->size - c->used < n) {
		/* Chunks double: a big table's names in a few populated mappings
		 * (bulk.h), a small one's in one malloc'd chunk. */
		size_t next = t->chunk_size ? t->chunk_size : CHUNK_FIRST - sizeof(*c);
		size_t sz = n > next ? n : next;
		c = vp_bulk_alloc(sizeof(*c) + sz);
		if (!c)
			return NULL;
		c->size = sz;
		c->used = 0;
		if (n <= next && next < CHUNK_MAX - sizeof(*c))
			t->chunk_size = 2 * (next + sizeof(*c)) - sizeof(*c);
		/* A big one-off string goes behind the current chunk, which keeps filling. */
		if (t->chunks && n > next) {
			c->next = t->chunks->next;
			t->chunks->next = c;
		} else {
			c->next = t->chunks;
			t->chunks = c;
		}
	}
	char *p = c->data + c->used;
	c->used += n;
	return p;
}

static const char *arena_strdup(struct vp_symtab *t, const char *s, size_t len)
{
	char *p = arena_alloc(t, len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* ---- table ---- */

struct vp_symtab *vp_symtab_new(void)
{
	struct vp_symtab *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->root = NIL;
	t->rightmost = NIL;
	t->last_live = NIL;
	t->demangle = 1;
	return t;
}

void vp_symtab_free(struct vp_symtab *t)
{
	if (!t)
		return;
	for (struct chunk *c = t->chunks, *next; c; c = next) {
		next = c->next;
		vp_bulk_free(c, sizeof(*c) + c->size);
	}
	vp_bulk_free(t->syms, t->cap * sizeof(*t->syms));
	free_tree(t);
	free(t->log);
	vp_bulk_free(t->order, t->olen * sizeof(*t->order));
	vp_bulk_free(t->starts, t->olen * sizeof(*t->starts));
	free(t->pts);
	free(t->ans);
	vp_count_index_free(&t->starts_index);
	vp_count_index_free(&t->pts_index);
	free(t);
}

void vp_symtab_set_demangle(struct vp_symtab *t, int on)
{
	t->demangle = on;
}

/* field resized from t->cap to cap elements (bulk.h), or return -ENOMEM */
#define RESIZE(t, field, cap)                                                            \
	do {                                                                             \
		void *p_ = vp_bulk_resize((t)->field, (t)->cap * sizeof(*(t)->field),   \
					  (cap) * sizeof(*(t)->field));                   \
		if (!p_)                                                                 \
			return -ENOMEM;                                                  \
		(t)->field = p_;                                                         \
	} while (0)

static int grow(struct vp_symtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;

	if (t->cap >= MAX_SYMS)
		return -ENOMEM;
	if (cap > MAX_SYMS)
		cap = MAX_SYMS;
	RESIZE(t, syms, cap);
	if (t->tree) {
		RESIZE(t, left, cap);
		RESIZE(t, right, cap);
		RESIZE(t, parent, cap);
		RESIZE(t, color, cap);
	}
	t->cap = cap;
	return 0;
}

static void free_tree(struct vp_symtab *t)
{
	vp_bulk_free(t->left, t->cap * sizeof(*t->left));
	vp_bulk_free(t->right, t->cap * sizeof(*t->right));
	vp_bulk_free(t->parent, t->cap * sizeof(*t->parent));
	vp_bulk_free(t->color, t->cap * sizeof(*t->color));
	t->left = t->right = t->parent = NULL;
	t->color = NULL;
}

/* ---- red-black tree on indices (same shapes as Linux lib/rbtree.c) ---- */

static void change_child(struct vp_symtab *t, uint32_t old, uint32_t new, uint32_t parent)
{
	if (parent == NIL)
		t->root = new;
	else if (t->left[parent] == old)
		t->left[parent] = new;
	else
		t->right[parent] = new;
}

/* old's parent and colour go to new; old hangs under new with colour c. */
static void rotate_set_parents(struct vp_symtab *t, uint32_t old, uint32_t new, uint8_t c)
{
	uint32_t parent = t->parent[old];

	t->parent[new] = parent;
	t->color[new] = t->color[old];
	t->parent[old] = new;
	t->color[old] = c;
	change_child(t, old, new, parent);
}

static void set_pc(struct vp_symtab *t, uint32_t n, uint32_t parent, uint8_t c)
{
	if (n == NIL)	/* cannot happen in a valid tree; never write out of bounds */
		return;
	t->parent[n] = parent;
	t->color[n] = c;
}

static int is_red(const struct vp_symtab *t, uint32_t n)
{
	return n != NIL && t->color[n] == RED;
}

static void insert_color(struct vp_symtab *t, uint32_t node)
{
	uint32_t parent = t->parent[node], gparent, tmp;

	for (;;) {
		if (parent == NIL) {
			set_pc(t, node, NIL, BLACK);
			break;
		}
		if (t->color[parent] == BLACK)
			break;
		gparent = t->parent[parent];
		tmp = t->right[gparent];
		if (parent != tmp) {	/* parent is gparent's left child */
			if (is_red(t, tmp)) {
				/* uncle red: recolour and continue from gparent */
				set_pc(t, tmp, gparent, BLACK);
				set_pc(t, parent, gparent, BLACK);
				node = gparent;
				parent = t->parent[node];
				set_pc(t, node, parent, RED);
				continue;
			}
			tmp = t->right[parent];
			if (node == tmp) {	/* left rotate at parent */
				t->right[parent] = tmp = t->left[node];
				t->left[node] = parent;
				if (tmp != NIL)
					set_pc(t, tmp, parent, BLACK);
				set_pc(t, parent, node, RED);
				parent = node;
				tmp = t->right[node];
			}
			/* right rotate at gparent */
			t->left[gparent] = tmp;
			t->right[parent] = gparent;
			if (tmp != NIL)
				set_pc(t, tmp, gparent, BLACK);
			rotate_set_parents(t, gparent, parent, RED);
			break;
		} else {
			tmp = t->left[gparent];
			if (is_red(t, tmp)) {
				set_pc(t, tmp, gparent, BLACK);
				set_pc(t, parent, gparent, BLACK);
				node = gparent;
				parent = t->parent[node];
				set_pc(t, node, parent, RED);
				continue;
			}
			tmp = t->left[parent];
			if (node == tmp) {	/* right rotate at parent */
				t->left[parent] = tmp = t->right[node];
				t->right[node] = parent;
				if (tmp != NIL)
					set_pc(t, tmp, parent, BLACK);
				set_pc(t, parent, node, RED);
				parent = node;
				tmp = t->left[node];
			}
			/* left rotate at gparent */
			t->right[gparent] = tmp;
			t->left[parent] = gparent;
			if (tmp != NIL)
				set_pc(t, tmp, gparent, BLACK);
			rotate_set_parents(t, gparent, parent, RED);
			break;
		}
	}
}

static void erase_color(struct vp_symtab *t, uint32_t parent)
{
	uint32_t node = NIL, sibling, tmp1, tmp2;

	for (;;) {
		sibling = t->right[parent];
		if (node != sibling) {	/* node is parent's left child */
			if (is_red(t, sibling)) {
				/* left rotate at parent */
				t->right[parent] = tmp1 = t->left[sibling];
				t->left[sibling] = parent;
				set_pc(t, tmp1, parent, BLACK);
				rotate_set_parents(t, parent, sibling, RED);
				sibling = tmp1;
			}
			tmp1 = t->right[sibling];
			if (!is_red(t, tmp1)) {
				tmp2 = t->left[sibling];
				if (!is_red(t, tmp2)) {
					/* sibling colour flip */
					set_pc(t, sibling, parent, RED);
					if (t->color[parent] == RED) {
						t->color[parent] = BLACK;
					} else {
						node = parent;
						parent = t->parent[node];
						if (parent != NIL)
							continue;
					}
					break;
				}
				/* right rotate at sibling */
				t->left[sibling] = tmp1 = t->right[tmp2];
				t->right[tmp2] = sibling;
				t->right[parent] = tmp2;
				if (tmp1 != NIL)
					set_pc(t, tmp1, sibling, BLACK);
				tmp1 = sibling;
				sibling = tmp2;
			}
			/* left rotate at parent, colour flips */
			t->right[parent] = tmp2 = t->left[sibling];
			t->left[sibling] = parent;
			set_pc(t, tmp1, sibling, BLACK);
			if (tmp2 != NIL)
				t->parent[tmp2] = parent;
			rotate_set_parents(t, parent, sibling, BLACK);
			break;
		} else {
			sibling = t->left[parent];
			if (is_red(t, sibling)) {
				t->left[parent] = tmp1 = t->right[sibling];
				t->right[sibling] = parent;
				set_pc(t, tmp1, parent, BLACK);
				rotate_set_parents(t, parent, sibling, RED);
				sibling = tmp1;
			}
			tmp1 = t->left[sibling];
			if (!is_red(t, tmp1)) {
				tmp2 = t->right[sibling];
				if (!is_red(t, tmp2)) {
					set_pc(t, sibling, parent, RED);
					if (t->color[parent] == RED) {
						t->color[parent] = BLACK;
					} else {
						node = parent;
						parent = t->parent[node];
						if (parent != NIL)
							continue;
					}
					break;
				}
				t->right[sibling] = tmp1 = t->left[tmp2];
				t->left[tmp2] = sibling;
				t->left[parent] = tmp2;
				if (tmp1 != NIL)
					set_pc(t, tmp1, sibling, BLACK);
				tmp1 = sibling;
				sibling = tmp2;
			}
			t->left[parent] = tmp2 = t->right[sibling];
			t->right[sibling] = parent;
			set_pc(t, tmp1, sibling, BLACK);
			if (tmp2 != NIL)
				t->parent[tmp2] = parent;
			rotate_set_parents(t, parent, sibling, BLACK);
			break;
		}
	}
}

static void tree_erase(struct vp_symtab *t, uint32_t node)
{
	uint32_t child = t->right[node], tmp = t->left[node];
	uint32_t parent, rebalance;

	if (tmp == NIL) {
		/* at most one child, the right one: it must be red */
		parent = t->parent[node];
		change_child(t, node, child, parent);
		if (child != NIL) {
			t->parent[child] = parent;
			t->color[child] = t->color[node];
			rebalance = NIL;
		} else {
			rebalance = t->color[node] == BLACK ? parent : NIL;
		}
	} else if (child == NIL) {
		/* only a left child */
		parent = t->parent[node];
		t->parent[tmp] = parent;
		t->color[tmp] = t->color[node];
		change_child(t, node, tmp, parent);
		rebalance = NIL;
	} else {
		uint32_t successor = child, child2;

		tmp = t->left[child];
		if (tmp == NIL) {
			/* the successor is node's right child */
			parent = successor;
			child2 = t->right[successor];
		} else {
			/* the successor is leftmost under the right child */
			do {
				parent = successor;
				successor = tmp;
				tmp = t->left[tmp];
			} while (tmp != NIL);
			t->left[parent] = child2 = t->right[successor];
			t->right[successor] = child;
			t->parent[child] = successor;
		}
		tmp = t->left[node];
		t->left[successor] = tmp;
		t->parent[tmp] = successor;

		uint32_t np = t->parent[node];
		uint8_t nc = t->color[node], sc = t->color[successor];
		change_child(t, node, successor, np);
		t->parent[successor] = np;
		t->color[successor] = nc;
		if (child2 != NIL) {
			set_pc(t, child2, parent, BLACK);
			rebalance = NIL;
		} else {
			rebalance = sc == BLACK ? parent : NIL;
		}
	}
	if (rebalance != NIL)
		erase_color(t, rebalance);
	t->syms[node].flags |= VP_SYM_ERASED;
	t->rightmost = NIL;
}

/* The first live node from index i on, in insertion order (in_order). */
static uint32_t live_from(const struct vp_symtab *t, size_t i)
{
	while (i < t->n && (t->syms[i].flags & VP_SYM_ERASED))
		i++;
	return i < t->n ? (uint32_t)i : NIL;
}

static uint32_t first(const struct vp_symtab *t)
{
	uint32_t n = t->root;

	if (t->in_order)
		return live_from(t, 0);
	if (n == NIL)
		return NIL;
	while (t->left[n] != NIL)
		n = t->left[n];
	return n;
}

static uint32_t tree_next(const struct vp_symtab *t, uint32_t n)
{
	uint32_t p;

	if (t->right[n] != NIL) {
		n = t->right[n];
		while (t->left[n] != NIL)
			n = t->left[n];
		return n;
	}
	while ((p = t->parent[n]) != NIL && n == t->right[p])
		n = p;
	return p;
}

/* Inline for sorted input, where the fixups, the split and the seal each
 * step through every symbol: as a call, 9.7 M of a 121k-line kallsyms
 * copy's 84 M instructions. */
static inline uint32_t next(const struct vp_symtab *t, uint32_t n)
{
	return t->in_order ? live_from(t, (size_t)n + 1) : tree_next(t, n);
}

/* ---- adding ---- */

/* Node i into the tree, as perf's rb_link_node and rb_insert_color put it. */
static void link_node(struct vp_symtab *t, uint32_t i)
{
	uint32_t *link = &t->root, parent = NIL;
	uint64_t start = t->syms[i].start;

	/* Sorted input (kallsyms, most symbol tables) lands right of the last
	 * node, where the descent would end anyway: skip the descent. */
	if (t->root == NIL) {
		t->rightmost = i;
		t->in_order = 1;	/* the one live node */
	} else {
		if (t->rightmost == NIL) {
			uint32_t r = t->root;
			while (t->right[r] != NIL)
				r = t->right[r];
			t->rightmost = r;
		}
		if (start >= t->syms[t->rightmost].start) {
			parent = t->rightmost;
			link = &t->right[parent];
			t->rightmost = i;
		} else {
			t->in_order = 0;
			while (*link != NIL) {
				parent = *link;
				link = start < t->syms[parent].start ? &t->left[parent]
								     : &t->right[parent];
			}
		}
	}
	t->left[i] = t->right[i] = NIL;
	t->parent[i] = parent;
	t->color[i] = RED;
	*link = i;
	insert_color(t, i);
}

/* The tree the inserts and erases so far would have made one by one, so
 * its shape, which perf's lookup walk answers by, is perf's. */
static int build_tree(struct vp_symtab *t)
{
	size_t cap = t->cap, e = 0;

	if (t->tree || !cap) {	/* none yet: grow makes them */
		t->tree = 1;
		return 0;
	}
	t->left = vp_bulk_alloc(cap * sizeof(*t->left));
	t->right = vp_bulk_alloc(cap * sizeof(*t->right));
	t->parent = vp_bulk_alloc(cap * sizeof(*t->parent));
	t->color = vp_bulk_alloc(cap * sizeof(*t->color));
	if (!t->left || !t->right || !t->parent || !t->color) {
		free_tree(t);
		return -ENOMEM;
	}
	t->tree = 1;
	t->root = t->rightmost = NIL;
	for (uint32_t i = 0; i < t->n; i++) {
		link_node(t, i);
		for (; e < t->nlog && t->log[e].after == i + 1; e++)
			tree_erase(t, t->log[e].node);
	}
	free(t->log);
	t->log = NULL;
	t->nlog = t->caplog = 0;
	return 0;
}

static int erase(struct vp_symtab *t, uint32_t node)
{
	if (t->tree) {
		tree_erase(t, node);
		return 0;
	}
	if (vp_grow((void **)&t->log, &t->caplog, t->nlog, sizeof(*t->log), 64) < 0)
		return -ENOMEM;
	t->log[t->nlog++] = (struct erased){ node, (uint32_t)t->n };
	t->syms[node].flags |= VP_SYM_ERASED;
	if (node == t->last_live) {
		while (node > 0 && (t->syms[node - 1].flags & VP_SYM_ERASED))
			node--;
		t->last_live = node > 0 ? node - 1 : NIL;
	}
	return 0;
}

static int insert(struct vp_symtab *t, uint64_t start, uint64_t size, const char *name,
		  size_t namelen, uint8_t bind, uint8_t type, uint8_t flags)
{
	uint32_t i;

	if (t->sealed)
		return -EINVAL;
	/* out of order: from here on the tree is kept */
	if (!t->tree && t->last_live != NIL && start < t->syms[t->last_live].start &&
	    build_tree(t) < 0)
		return -ENOMEM;
	if (t->n == t->cap && grow(t) < 0)
		return -ENOMEM;
	const char *nm = arena_strdup(t, name, namelen);
	if (!nm)
		return -ENOMEM;
	i = (uint32_t)t->n++;
	/* perf's symbol__new: end = start + len, or start when the size is unknown */
	t->syms[i] = (struct vp_sym){ start, size ? start + size : start, nm, NULL, NULL,
				      bind, type, flags };
	if (t->tree) {
		link_node(t, i);
	} else {
		if (t->last_live == NIL)
			t->in_order = 1;	/* as link_node into an empty tree */
		t->last_live = i;
	}
	return 0;
}

int vp_symtab_add(struct vp_symtab *t, uint64_t start, uint64_t size, const char *name,
		  uint8_t bind, uint8_t type)
{
	if (!t || !name)
		return -EINVAL;
	return insert(t, start, size, name, strlen(name), bind, type, 0);
}

/* ---- names ---- */

/* A PLT entry's SHORT and FULL forms, made together from its target's
 * (perf: snprintf(buf, 1024, "%s@plt", demangled ?: name)). */
static int demangle_plt(struct vp_symtab *t, struct vp_sym *s)
{
	char *sh = NULL, *fu = NULL, *psh = NULL, *pfu = NULL;
	size_t blen = strlen(s->name) - 4;	/* the target's name, without "@plt" */
	int r = 0;

	if (t->demangle) {
		char *b = strndup(s->name, blen);
		r = b ? vp_demangle_pair(b, &sh, &fu) : -ENOMEM;
		free(b);
	}
	if (r == 0)
		r = vp_demangle_plt(sh, fu, s->name, blen, &psh, &pfu);
	free(sh);
	free(fu);
	const char *d = r < 0 ? NULL : psh ? arena_strdup(t, psh, strlen(psh)) : s->name;
	const char *f = !d ? NULL : pfu ? arena_strdup(t, pfu, strlen(pfu)) : d;
	free(psh);
	free(pfu);
	if (!d || !f)
		return -ENOMEM;
	/* each form published whole: readers take either without the lock */
	__atomic_store_n(&s->demangled_full, f, __ATOMIC_RELEASE);
	__atomic_store_n(&s->demangled, d, __ATOMIC_RELEASE);
	return 0;
}

/* The SHORT form alone, which is what perf's fixups compare: the FULL one
 * is another demangling or two, and only the symbols samples hit need it
 * (demangling both for each duplicate was a quarter of reading the bench's
 * objects). A PLT entry's forms come from each other: both at once. */
static int demangle_short(struct vp_symtab *t, struct vp_sym *s)
{
	char *sh;
	const char *d;

	if (s->flags & VP_SYM_PLT)
		return demangle_plt(t, s);
	sh = t->demangle ? vp_demangle_short(s->name) : NULL;
	d = sh ? arena_strdup(t, sh, strlen(sh)) : s->name;
	free(sh);
	if (!d)
		return -ENOMEM;
	__atomic_store_n(&s->demangled, d, __ATOMIC_RELEASE);
	return 0;
}

/* The FULL form, the SHORT one first (it chooses the FULL candidate). */
static int demangle_full(struct vp_symtab *t, struct vp_sym *s)
{
	char *fu;
	const char *f;

	if (!s->demangled && demangle_short(t, s) < 0)
		return -ENOMEM;
	if (s->demangled_full)	/* the pair made both */
		return 0;
	if (s->demangled == s->name) {	/* not mangled */
		f = s->name;
	} else {
		if (!(fu = vp_demangle_full(s->name, s->demangled)))
			return -ENOMEM;
		f = arena_strdup(t, fu, strlen(fu));
		free(fu);
		if (!f)
			return -ENOMEM;
	}
	__atomic_store_n(&s->demangled_full, f, __ATOMIC_RELEASE);
	return 0;
}

/* Threads may share a table (vp_elf_get): the first to name a symbol
 * demangles it, under one lock for all, as each symbol is named once. */
static pthread_mutex_t demangle_mu = PTHREAD_MUTEX_INITIALIZER;

const char *vp_sym_name(const struct vp_symtab *ct, const struct vp_sym *cs,
			enum vp_demangle_mode m)
{
	/* The cache lives in the table: logically const, filled on first use. */
	struct vp_symtab *t = (struct vp_symtab *)ct;
	struct vp_sym *s = (struct vp_sym *)cs;

	if (!s)
		return NULL;
	/* Tables that never demangle (kallsyms) stay untouched. */
	if (m == VP_DEMANGLE_NONE || (!t->demangle && !(s->flags & VP_SYM_PLT)))
		return s->name;
	const char **form = m == VP_DEMANGLE_FULL ? &s->demangled_full : &s->demangled;
	const char *name = __atomic_load_n(form, __ATOMIC_ACQUIRE);

	if (!name) {
		pthread_mutex_lock(&demangle_mu);
		int r = *form ? 0 : m == VP_DEMANGLE_FULL ? demangle_full(t, s) : demangle_short(t, s);
		pthread_mutex_unlock(&demangle_mu);
		if (r < 0)
			return s->name;
		name = *form;
	}
	return name;
}

int vp_symtab_add_plt(struct vp_symtab *t, uint64_t start, uint64_t size, const char *target)
{
	char buf[1024];
	size_t len;
	uint32_t i;
	int r;

	if (!t || !target)
		return -EINVAL;
	/* perf's verbatim form is snprintf'd into 1024 bytes, so long names lose their tail */
	len = (size_t)snprintf(buf, sizeof(buf), "%s@plt", target);
	if (len >= sizeof(buf)) {
		/* the target is needed whole for demangling: keep it, name it now */
		char *full = malloc(strlen(target) + 5);
		if (!full)
			return -ENOMEM;
		strcpy(full, target);
		strcat(full, "@plt");
		r = insert(t, start, size, full, strlen(full), STB_GLOBAL, STT_FUNC, VP_SYM_PLT);
		free(full);
		if (r < 0)
			return r;
		i = (uint32_t)(t->n - 1);
		if (t->demangle && demangle_plt(t, &t->syms[i]) < 0)
			return -ENOMEM;
		t->syms[i].name = arena_strdup(t, buf, sizeof(buf) - 1);
		if (!t->syms[i].name)
			return -ENOMEM;
		if (!t->demangle)
			t->syms[i].demangled = t->syms[i].demangled_full = t->syms[i].name;
		return 0;
	}
	return insert(t, start, size, buf, len, STB_GLOBAL, STT_FUNC, VP_SYM_PLT);
}

/* ---- perf's fixups ---- */

static int underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* The name perf holds for a symbol: demangled at load time when it demangles. */
static const char *perf_name(struct vp_symtab *t, struct vp_sym *s)
{
	return t->demangle ? vp_sym_name(t, s, VP_DEMANGLE_SHORT) : s->name;
}

/* perf's choose_best_symbol: 1 keeps a, 0 keeps b. */
static int choose_a(struct vp_symtab *t, struct vp_sym *a, struct vp_sym *b)
{
	int64_t la = (int64_t)(a->end - a->start), lb = (int64_t)(b->end - b->start);
	int wa, wb, ga, gb, ua, ub;
	size_t na, nb;
	const char *sa, *sb;

	if (lb == 0 && la > 0)
		return 1;
	if (la == 0 && lb > 0)
		return 0;
	wa = a->bind == STB_WEAK;
	wb = b->bind == STB_WEAK;
	if (wb && !wa)
		return 1;
	if (wa && !wb)
		return 0;
	ga = a->bind == STB_GLOBAL;
	gb = b->bind == STB_GLOBAL;
	if (ga && !gb)
		return 1;
	if (gb && !ga)
		return 0;
	sa = perf_name(t, a);
	sb = perf_name(t, b);
	ua = underscores(sa);
	ub = underscores(sb);
	if (ub > ua)
		return 1;
	if (ua > ub)
		return 0;
	na = strlen(sa);
	nb = strlen(sb);
	if (na > nb)
		return 1;
	if (na < nb)
		return 0;
	/* arch__choose_best_symbol: avoid the kernel's "SyS" syscall aliases */
	if (!strncmp(sa, "SyS", 3) || !strncmp(sa, "compat_SyS", 10))
		return 0;
	return 1;
}

/* perf's roundup(x, 4096) + 4096, saturating: a symbol at the top of the
 * address space must not end before it starts. */
static uint64_t page_after(uint64_t x)
{
	if (x > UINT64_MAX - 8191)
		return UINT64_MAX;
	return (x + 4095) / 4096 * 4096 + 4096;
}

static void fixup_end(struct vp_symtab *t, int is_kallsyms)
{
	uint32_t pn = first(t), cn;
	struct vp_sym *prev, *curr;

	if (pn == NIL)
		return;
	curr = &t->syms[pn];
	/* whether a name holds '[' (a module's), once per symbol */
	int cmod = is_kallsyms && strchr(curr->name, '[') != NULL, pmod;
	for (cn = next(t, pn); cn != NIL; cn = next(t, cn)) {
		prev = curr;
		pmod = cmod;
		curr = &t->syms[cn];
		cmod = is_kallsyms && strchr(curr->name, '[') != NULL;
		if (prev->end != prev->start)
			continue;
		/* kallsyms: the last symbol before the kernel/module boundary gets a page */
		if (is_kallsyms && pmod != cmod)
			prev->end = page_after(prev->end);
		else
			prev->end = curr->start;
	}
	if (curr->end == curr->start)
		curr->end = page_after(curr->start);
}

static int fixup_duplicate(struct vp_symtab *t)
{
	uint32_t nd = first(t), curr, nx;

	while (nd != NIL) {
		curr = nd;
again:
		nx = next(t, curr);
		nd = nx;
		if (nx == NIL)
			break;
		if (t->syms[curr].start != t->syms[nx].start)
			continue;
		if (choose_a(t, &t->syms[curr], &t->syms[nx])) {
			if (erase(t, nx) < 0)
				return -ENOMEM;
			goto again;
		}
		nd = next(t, curr);
		if (erase(t, curr) < 0)
			return -ENOMEM;
	}
	return 0;
}

int vp_symtab_fixup(struct vp_symtab *t, int is_kallsyms)
{
	if (!t || t->sealed)
		return 0;
	fixup_end(t, is_kallsyms);
	return fixup_duplicate(t);
}

/* perf's symbols__find: the first node on the search path that holds ip */
static uint32_t walk(const struct vp_symtab *t, uint64_t ip)
{
	uint32_t n;

	for (n = t->root; n != NIL;) {
		const struct vp_sym *s = &t->syms[n];
		if (ip < s->start)
			n = t->left[n];
		else if (ip > s->end || (ip == s->end && ip != s->start))
			n = t->right[n];
		else
			break;
	}
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The walk compares ip with starts and ends only: its answer is the same
 * from one of the points start, end, end + 1 up to the next. */
static void flatten_walk(struct vp_symtab *t)
{
	uint64_t *pts = malloc((3 * t->norder + 1) * sizeof(*pts));
	size_t n = 0, k = 0;

	if (!pts)
		return;
	pts[n++] = 0;
	for (size_t i = 0; i < t->norder; i++) {
		const struct vp_sym *s = &t->syms[t->order[i]];
		pts[n++] = s->start;
		pts[n++] = s->end;
		if (s->end != UINT64_MAX)
			pts[n++] = s->end + 1;
	}
	qsort(pts, n, sizeof(*pts), cmp_u64);
	if (!(t->ans = malloc(n * sizeof(*t->ans)))) {
		free(pts);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i && pts[i] == pts[i - 1])
			continue;
		uint32_t a = walk(t, pts[i]);
		if (k && t->ans[k - 1] == a)
			continue;
		pts[k] = pts[i];
		t->ans[k++] = a;
	}
	t->pts = pts;
	t->npts = k;
	vp_count_index_build(&t->pts_index, pts, k);	/* without, the search is longer */
}

/* The lookups' arrays, else the tree that find() walks: 0, or -ENOMEM
 * when neither could be made. */
static int flatten(struct vp_symtab *t)
{
	uint64_t covered = 0;	/* addresses below this are held by a symbol before */
	int any = 0;

	for (size_t i = 0; i < t->norder; i++) {
		const struct vp_sym *s = &t->syms[t->order[i]];
		uint64_t past = s->end > s->start ? s->end : s->start + 1;
		if ((any && s->start < covered) || past <= s->start) {
			/* overlaps, or reaches the top: perf's walk decides */
			if (build_tree(t) < 0)
				return -ENOMEM;
			flatten_walk(t);	/* else find() walks the tree */
			return 0;
		}
		covered = past > covered ? past : covered;
		any = 1;
	}
	if (!(t->starts = vp_bulk_alloc(t->olen * sizeof(*t->starts))))
		return build_tree(t);	/* find() then walks it */
	for (size_t i = 0; i < t->norder; i++)
		t->starts[i] = t->syms[t->order[i]].start;
	vp_count_index_build(&t->starts_index, t->starts, t->norder);	/* without, the search is longer */
	return 0;
}

int vp_symtab_seal(struct vp_symtab *t)
{
	size_t live = 0;

	if (!t || t->sealed)
		return 0;
	/* Sealed, a table is read by many threads and never changed: what
	 * cannot be made now is an error, not a tree that find() makes. */
	for (size_t i = 0; i < t->n; i++)
		live += !(t->syms[i].flags & VP_SYM_ERASED);
	t->olen = live ? live : 1;
	if (!(t->order = vp_bulk_alloc(t->olen * sizeof(*t->order))))
		return -ENOMEM;
	for (uint32_t n = first(t); n != NIL; n = next(t, n))
		t->order[t->norder++] = n;
	if (flatten(t) < 0) {
		vp_bulk_free(t->order, t->olen * sizeof(*t->order));
		t->order = NULL;
		t->norder = 0;
		return -ENOMEM;
	}
	t->sealed = 1;
	return 0;
}

int vp_symtab_finish(struct vp_symtab *t, int is_kallsyms)
{
	int r = vp_symtab_fixup(t, is_kallsyms), s = vp_symtab_seal(t);

	return r < 0 ? r : s;
}

/* ---- lookups ---- */

const struct vp_sym *vp_symtab_find(const struct vp_symtab *t, uint64_t ip)
{
	uint32_t n;

	if (!t)
		return NULL;
	if (t->starts) {	/* disjoint: the last start at or below ip, if it holds ip */
		size_t i = vp_count_index_at_or_below(&t->starts_index, t->starts, t->norder, ip);
		const struct vp_sym *s = i ? &t->syms[t->order[i - 1]] : NULL;
		return s && (ip < s->end || ip == s->start) ? s : NULL;
	}
	if (t->pts) {
		size_t i = vp_count_index_at_or_below(&t->pts_index, t->pts, t->npts, ip);
		n = i ? t->ans[i - 1] : NIL;
	} else {
		/* Not sealed (the loader's own thread): perf's walk, on the tree
		 * made now if need be. Sealed, the seal made it. */
		if (!t->tree && (t->sealed || build_tree((struct vp_symtab *)t) < 0))
			return NULL;
		n = walk(t, ip);
	}
	return n == NIL ? NULL : &t->syms[n];
}

size_t vp_symtab_count(const struct vp_symtab *t)
{
	return t ? t->norder : 0;
}

const struct vp_sym *vp_symtab_at(const struct vp_symtab *t, size_t i)
{
	return t && i < t->norder ? &t->syms[t->order[i]] : NULL;
}

/* ---- internal (symtab_internal.h) ---- */

int vp_symtab_add_n(struct vp_symtab *t, uint64_t start, uint64_t size, const char *name,
		    size_t len, uint8_t bind, uint8_t type)
{
	if (!t || !name)
		return -EINVAL;
	return insert(t, start, size, name, len, bind, type, 0);
}

int vp_symtab_keep_tree(struct vp_symtab *t)
{
	return t ? build_tree(t) : -EINVAL;
}

const struct vp_sym *vp_symtab_first(const struct vp_symtab *t)
{
	uint32_t n = t ? first(t) : NIL;

	return n == NIL ? NULL : &t->syms[n];
}

const struct vp_sym *vp_symtab_next(const struct vp_symtab *t, const struct vp_sym *s)
{
	uint32_t n = next(t, (uint32_t)(s - t->syms));

	return n == NIL ? NULL : &t->syms[n];
}

int vp_symtab_erase(struct vp_symtab *t, const struct vp_sym *s)
{
	if (t && !t->sealed && s && !(s->flags & VP_SYM_ERASED))
		return erase(t, (uint32_t)(s - t->syms));
	return 0;
}
