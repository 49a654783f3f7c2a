/* Resolved call stacks of a perf.data file, sample by sample: the one walk
 * the folded-stack and pprof writers share (session upkeep from MMAP, COMM
 * and FORK, callchain contexts, every frame resolved as perf report would). */
#ifndef VP_STACKS_H
#define VP_STACKS_H

#include "lib/perfdata/perfdata.h"
#include "lib/symbols/session.h"
#include "report.h"

/* Frames kept per sample; a longer callchain is cut (the kernel's own cap,
 * kernel.perf_event_max_stack, is 127 by default). */
#define VP_STACKS_MAX_FRAMES 1024
/* Frames of a delivered stack at most: the kept chain and the sampled
 * address added before it (vp_stack.added_leaf). Size buffers by this. */
#define VP_STACKS_MAX_LEN (VP_STACKS_MAX_FRAMES + 1)

struct vp_frame {
	uint64_t ip;
	unsigned cpumode;	/* how ip is read: PERF_RECORD_MISC_USER, _KERNEL... */
	struct vp_resolved r;
};

struct vp_stack {
	const struct vp_sample *s;
	const char *comm;		/* the thread's command at this point, NULL if unknown */
	const struct vp_frame *frames;	/* leaf first; valid during the callback only */
	size_t n;			/* 1 to VP_STACKS_MAX_LEN */
	/* 1 when frames[0] is the sampled address, added because the callchain
	 * does not start there (a chain of kernel frames only, --call-graph
	 * dwarf; a hand-made chain): perf report counts self time at it, perf
	 * script prints the chain alone. */
	int added_leaf;
};

struct vp_stacks;

/* A frame's name as perf script shows it, the folded stacks' and flame
 * graphs' label: the symbol (without its parameter list unless full), and
 * an unresolved address named by its object, "[libc.so.6]", as
 * stackcollapse-perf.pl does. Returns the name (r's symbol, or tmp) and its
 * length in *len (not NUL-terminated when it is the symbol). */
#define VP_FRAME_LABEL_MAX 512
const char *vp_frame_label(const struct vp_resolved *r, int full, char tmp[VP_FRAME_LABEL_MAX],
			   size_t *len);

/* Frame labels (vp_frame_label's, without parameter lists) interned in
 * pool, remembered by the symbol and object they come from: those are
 * interned in the same pool, so the same pointers are the same names. A
 * stack tree takes every frame of every sample, and making each label
 * afresh (vp_symbol_display_len, the interning's hash) was a third of
 * compare's time on -g files. */
#define VP_LABEL_CACHE_SIZE 1024
struct vp_label_slot {
	const char *symbol, *dso, *label;
};
struct vp_label_cache {
	struct vp_strpool *pool;
	struct vp_label_slot slot[VP_LABEL_CACHE_SIZE];
};
/* NULL: out of memory. */
const char *vp_frame_label_interned(struct vp_label_cache *c, const struct vp_resolved *r);

/* Open the file and a session over it; resolved names are interned in pool. */
int vp_stacks_open(const char *path, const struct vp_load_opts *lo, struct vp_strpool *pool,
		   struct vp_stacks **out, struct vp_error *err);
void vp_stacks_close(struct vp_stacks *st);
struct vp_perfdata *vp_stacks_perfdata(const struct vp_stacks *st);
struct vp_session *vp_stacks_session(const struct vp_stacks *st);
/* The event called name, or the file's first when name is NULL. */
int vp_stacks_event(const struct vp_stacks *st, const char *name, const struct vp_evsel **ev,
		    struct vp_error *err);
/* How many of s's callchain entries its stack reads (the chain cut at
 * VP_STACKS_MAX_FRAMES; 0 without one). */
static inline size_t vp_stack_chain_len(const struct vp_sample *s)
{
	if (!s->callchain)
		return 0;
	return s->nr_callchain < VP_STACKS_MAX_FRAMES ? (size_t)s->nr_callchain
						      : VP_STACKS_MAX_FRAMES;
}

/* The spaces a stack's frames resolved in, each with its maps' generation
 * then (vp_session_resolve_gen): the same addresses resolve alike while
 * every one holds. kept 0: a frame had none, or more spaces than fit. */
#define VP_STACK_GENS 4
struct vp_stack_gens {
	const uint32_t *genp[VP_STACK_GENS];
	uint32_t gen[VP_STACK_GENS];
	unsigned n;
	int kept;
};
/* One more space and its maps' generation into g (kept 0 when genp is
 * NULL or g has no room). */
void vp_stack_gens_add(struct vp_stack_gens *g, const uint32_t *genp, uint32_t gen);
/* One sample's stack: the walk's own step, for a caller that walks the file
 * itself (the profile loader, which builds tables and stacks in one pass).
 * frames holds VP_STACKS_MAX_FRAMES + 1; out points into it. gens, when
 * not NULL, gets what the frames' names hang on. */
void vp_stack_resolve(struct vp_session *session, const struct vp_sample *s,
		      struct vp_frame *frames, struct vp_stack *out, struct vp_stack_gens *gens);
/* One pass over the samples of want (NULL: of every event), in time order,
 * those the load options' filters keep (filter.h). */
int vp_stacks_walk(struct vp_stacks *st, const struct vp_evsel *want,
		   int (*fn)(void *ctx, const struct vp_stack *stack), void *ctx, struct vp_error *err);

#endif
