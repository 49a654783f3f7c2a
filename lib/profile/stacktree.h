/* Call stacks merged into a tree, with per-node values for one or more
 * sides: what a flame graph draws. A path from the root is the command, then
 * the frames outermost first, named as folded stacks name them (the tree
 * holds exactly the stacks `vmprof convert folded` writes: a node's self
 * value is the count of the folded line ending there, its value the sum of
 * the lines under it). A profile's table has a tree of one side; a
 * comparison merges its sides' trees into one with a column per side. */
#ifndef VP_STACKTREE_H
#define VP_STACKTREE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/strpool.h"

/* Node 0 is the root (every sample); depth 1 holds the commands. */
struct vp_stack_node {
	const char *name;	/* interned; NULL for the root */
	const char *dso;	/* interned object of the frame (first seen); NULL for root and commands */
	uint32_t parent;	/* the root's is 0 */
	uint32_t child;		/* first child, 0 when none (the root is no one's child) */
	uint32_t next;		/* next sibling, 0 when none */
	uint16_t depth;		/* 0 root, 1 command, 2 the outermost frame... */
	char domain;		/* enum vp_domain of the frame; 0 for root and commands */
};

/* Inclusive (the stacks through the node) and self (the stacks ending
 * there) counts of one side. */
struct vp_stack_value {
	uint64_t samples, period;
	uint64_t self_samples, self_period;
};

/* One frame of a path given to vp_stack_tree_add, outermost first. */
struct vp_stack_step {
	const char *name;	/* interned in the tree's pool */
	const char *dso;	/* interned in the tree's pool, or NULL */
	char domain;
};

struct vp_stack_tree;

/* A tree of nsides value columns whose names live in pool (not owned:
 * the profile's or comparison's pool). NULL on ENOMEM. */
struct vp_stack_tree *vp_stack_tree_new(size_t nsides, struct vp_strpool *pool);
void vp_stack_tree_free(struct vp_stack_tree *t);

/* Add one stack to side: the command, then n frames outermost first (names
 * and dsos interned in the tree's pool). Every node on the path gains
 * samples and period; the last gains them as self too. 0 or -ENOMEM. */
int vp_stack_tree_add(struct vp_stack_tree *t, size_t side, const char *comm,
		      const struct vp_stack_step *frames, size_t n, uint64_t samples, uint64_t period);
/* vp_stack_tree_add, and the path's last node into *leaf. */
int vp_stack_tree_add_leaf(struct vp_stack_tree *t, size_t side, const char *comm,
			   const struct vp_stack_step *frames, size_t n, uint64_t samples,
			   uint64_t period, uint32_t *leaf);
/* Add one more stack along the path that ends at leaf (a node a
 * vp_stack_tree_add_leaf gave): as adding that path again. 0 or -EINVAL. */
int vp_stack_tree_add_at(struct vp_stack_tree *t, size_t side, uint32_t leaf, uint64_t samples,
			 uint64_t period);
/* From now on the adds above count at the path's last node only (its self
 * values), until vp_stack_tree_totals: a loader's many adds then cost no
 * walk to the root. The tree is not to be read in between. */
void vp_stack_tree_defer_totals(struct vp_stack_tree *t);
/* Every node's value from the self values: its own plus its children's.
 * Ends deferring. */
void vp_stack_tree_totals(struct vp_stack_tree *t);
/* Add side src_side of src into side dst_side of dst, node by node (names
 * interned again in dst's pool). 0 or -ENOMEM. */
int vp_stack_tree_merge(struct vp_stack_tree *dst, size_t dst_side, const struct vp_stack_tree *src,
			size_t src_side);
/* Order every node's children by name (byte order): layouts and writers
 * then see the same tree whatever order the samples came in. */
void vp_stack_tree_sort(struct vp_stack_tree *t);

size_t vp_stack_tree_count(const struct vp_stack_tree *t);
size_t vp_stack_tree_sides(const struct vp_stack_tree *t);
const struct vp_stack_node *vp_stack_tree_node(const struct vp_stack_tree *t, size_t i);
const struct vp_stack_value *vp_stack_tree_value(const struct vp_stack_tree *t, size_t i,
						 size_t side);
struct vp_strpool *vp_stack_tree_pool(const struct vp_stack_tree *t);

/* For readers of saved trees: a child of parent (< count) named name
 * (interned in the tree's pool), found or made; its index or -ENOMEM,
 * -EINVAL for a bad parent or a tree deeper than a callchain can be. Values
 * are then set through vp_stack_tree_value_set. */
int vp_stack_tree_child(struct vp_stack_tree *t, size_t parent, const char *name, const char *dso,
			char domain);
void vp_stack_tree_value_set(struct vp_stack_tree *t, size_t i, size_t side,
			     const struct vp_stack_value *v);
/* Each node's self values: its inclusive ones less its children's (for a
 * tree read from inclusive values alone). */
void vp_stack_tree_fill_self(struct vp_stack_tree *t);

/* Deepest path a tree holds: the command, the kernel's longest callchain
 * vp_stacks keeps and the sampled address added at the leaf. */
#define VP_STACK_TREE_MAX_DEPTH 1100

#endif
