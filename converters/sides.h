/* The comparison builder, one for every command that compares: K >= 2
 * sides, each one or more runs read from any input vmprof reads (perf.data,
 * CSV, XML, perf report text), every run loaded at once on a few threads,
 * then joined (lib/compare). */
#ifndef VP_SIDES_H
#define VP_SIDES_H

#include <stddef.h>

#include "lib/compare/compare.h"
#include "lib/profile/report.h"
#include "lib/util/error.h"

struct vp_side_spec {
	const char *arg;		/* as the user gave it: for messages and the default label */
	const char *label;		/* LABEL of LABEL=PATHS, else NULL */
	char **paths;			/* the runs, a directory's recordings in name order */
	size_t npaths;
	const char *dir;		/* the directory the side is, else NULL (its default label) */
	struct vp_load_opts lo;		/* how its runs are read (symbol sources, events) */
};

/* A side from a command-line argument (vmprof-compare(1), SIDES AND RUNS):
 * "-" or an existing file or directory is one path, whatever its name holds;
 * otherwise LABEL=PATHS names the side (LABEL without '/'), and PATHS, unless
 * it exists as one path, is a comma-separated list. A directory stands for
 * its files in name order (numbers as numbers: run-2 before run-10), leaving
 * out hidden names and *.old and *.partial. lo is copied into the spec. */
int vp_side_spec_parse(const char *arg, const struct vp_load_opts *lo, struct vp_side_spec *out,
		       struct vp_error *err);
void vp_side_spec_free(struct vp_side_spec *s);

/* Load the sides' runs and join them with co (co->events must be found in
 * some run; co->label, when set, wins over the specs' labels). Warns about a
 * run without samples and about the runs of one side that differ in events
 * or command; fails, naming the inputs, when no event is left to compare.
 * sides[0] is the baseline. */
int vp_comparison_build(const struct vp_side_spec *sides, size_t nsides,
			const struct vp_compare_opts *co, struct vp_comparison **out,
			struct vp_error *err);

#endif
