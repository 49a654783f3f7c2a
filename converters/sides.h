/* The comparison builder, one for every command that compares: each side
 * loaded from any input vmprof reads (perf.data, CSV, XML, perf report text;
 * the sides at once, on threads), the sides joined (lib/compare). Sides are
 * given as an array of specs: the design's K >= 2 sides of one or more runs
 * each fit it; today there are two sides, of one run (one path) each. */
#ifndef VP_SIDES_H
#define VP_SIDES_H

#include <stddef.h>

#include "lib/compare/compare.h"
#include "lib/profile/report.h"
#include "lib/util/error.h"

struct vp_side_spec {
	const char *path;		/* the side's input: its one run */
	struct vp_load_opts lo;		/* how it is read (symbol sources, events) */
};

/* Load the sides and join them with co (co->events must be found on some
 * side). Warns about a side without samples; fails, naming the inputs, when
 * no event is left to compare. sides[0] is the baseline (host). */
int vp_comparison_build(const struct vp_side_spec *sides, size_t nsides,
			const struct vp_compare_opts *co, struct vp_comparison **out,
			struct vp_error *err);

#endif
