/* lib/time/, where the time went: a side's wall time against the
 * baseline's, the gap split into what the recordings measured (vmprof
 * record, see vmprof-record(1) Time): user CPU, kernel CPU, steal, waiting
 * for a CPU, blocked, and the remainder the parts do not explain. Computed
 * from the runs' metadata alone, so the compare table, its CSV and XML, the
 * waterfall chart and the HTML report print the same numbers.
 *
 * Each part is the difference of the two sides' means over their runs, with
 * an interval when both sides have several runs (the remainder's from each
 * run's own remainder).
 * Waiting and blocked are the command's as a whole (no thread running and
 * one runnable; every thread blocked), so for a program that runs one thread
 * at a time the parts add up to the wall time on each side; CPU time is
 * summed over threads, so threads running in parallel make the parts exceed
 * the wall time and the remainder negative. A part a run did not measure
 * (perf's recordings, files of older vmprof versions) goes into the
 * remainder, whose name then says so. */
#ifndef VP_TIME_SPLIT_H
#define VP_TIME_SPLIT_H

#include <stddef.h>

#include "lib/compare/compare.h"
#include "lib/profile/profile.h"
#include "lib/util/error.h"

enum vp_time_part {
	VP_TIME_USER = 0,	/* user CPU of the process tree */
	VP_TIME_SYSTEM,		/* kernel CPU of the process tree */
	VP_TIME_STEAL,		/* taken by the host from all CPUs */
	VP_TIME_WAITING,	/* runnable, waiting for a CPU */
	VP_TIME_BLOCKED,	/* every thread blocked */
	VP_TIME_REMAINDER,	/* the gap minus the parts above that were measured */
	VP_TIME_NPARTS
};

struct vp_time_value {
	double base, side;	/* means over the runs, seconds */
	double delta;		/* side - base */
	double lo, hi;		/* delta's 95% interval across runs (Welch, stats.h); NAN with
				   fewer than 2 runs on a side */
	int known;		/* every run of both sides measured it (always, for the remainder) */
};

struct vp_time_split {
	size_t nruns[2];		/* baseline's, side's */
	struct vp_time_value wall;
	double ratio;			/* side wall / baseline wall; 0 when the baseline's is 0 */
	struct vp_time_value part[VP_TIME_NPARTS];
	char remainder_name[160];	/* "remainder", or what it holds that was not measured */
};

/* The split of one side against the baseline, from their runs' metadata.
 * -ENODATA (with the file named in err) when a run has no wall time: it
 * was not recorded by vmprof record with a command; -EINVAL without runs. */
int vp_time_split(const struct vp_profile_meta *const *base, size_t nbase,
		  const struct vp_profile_meta *const *side, size_t nside, struct vp_time_split *out,
		  struct vp_error *err);
/* The split of a comparison's side (1 to nsides - 1) against its baseline,
 * from their runs' metadata; as vp_time_split, -EINVAL for no such side. */
int vp_cmp_time_split(const struct vp_comparison *c, size_t side, struct vp_time_split *out,
		      struct vp_error *err);
/* A part's name for people ("user CPU", "remainder (blocked, not measured)"):
 * the remainder's says which parts it holds; valid while s is. */
const char *vp_time_part_name(const struct vp_time_split *s, enum vp_time_part p);
/* Its name for machines ("user", "system", "steal", "waiting", "blocked",
 * "remainder"). */
const char *vp_time_part_key(enum vp_time_part p);
/* The part's share of the gap in percent; NAN when the gap is under a
 * microsecond (no gap to share). */
double vp_time_part_percent(const struct vp_time_split *s, enum vp_time_part p);

#endif
