/* Build a profile (per-event tables) from a perf.data file: the reader, the
 * per-process maps and the symbol resolver together. */
#ifndef VP_REPORT_H
#define VP_REPORT_H

#include "lib/util/error.h"
#include "filter.h"
#include "profile.h"
#include "lib/symbols/symbols.h"

struct vp_load_opts {
	unsigned key;			/* row key; VP_KEY_DEFAULT (perf's --sort sym) when 0 */
	const char *const *events;	/* NULL-terminated names to keep; NULL keeps all */
	const char *symfs;		/* look binaries up under this root, like perf --symfs */
	const char *kallsyms;		/* host kernel symbols (default /proc/kallsyms) */
	const char *guest_kallsyms;	/* guest kernel symbols for [g] samples */
	const char *guest_modules;	/* guest /proc/modules, for guest module maps */
	const char *label;		/* side label to store in the profile's metadata */
	const char *weight;		/* tracepoint field summed into the period column */
	const char *group_by;		/* tracepoint field whose value keys the rows */
	int caller;			/* attribute to the first callchain frame outside the sampled object */
	int children;			/* inclusive counts per row, as perf report --children */
	unsigned children_key;		/* 0: once per sample per row; a comparison's join key
					 * (its dso a short name): once per key of the join */
	int stacks;			/* each table's call stacks as a tree (table->stacks):
					 * VP_STACKS_ALL, or VP_STACKS_RECORDED only for events
					 * recorded with callchains, without a warning for others */
	struct vp_filter filter;	/* which samples enter (--pid, --tid, --comm, --time) */
	unsigned threads;		/* read on this many threads; 0: every CPU given */
	int ordered;			/* the ordered walk even where the walk in pieces
					 * would do (tests compare the two) */
	uint64_t piece_bytes;		/* the walk in pieces' pieces (0: by the threads;
					 * tests cut them small) */
};

enum { VP_STACKS_ALL = 1, VP_STACKS_RECORDED = 2 };

void vp_load_opts_init(struct vp_load_opts *o);
int vp_profile_from_perfdata(const char *path, const struct vp_load_opts *o,
			     struct vp_profile **out, struct vp_error *err);

#endif
