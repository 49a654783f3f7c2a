/* lib/compare/, the compare stage: profiles joined per event, ranked and cut
 * (this header); the statistics across runs (stats.h).
 *
 * A comparison has K >= 2 sides; side 0 is the baseline and every other side
 * is compared with it. A side is one or more runs (recordings of the same
 * experiment), each a profile. Per event the runs' tables are joined by key —
 * a full outer join, so a function seen in some runs only keeps its row with
 * 0 in the others — ranked, optionally cut to the top N.
 *
 * The numbers of a side (vmprof-compare(1), SIDES AND RUNS): its samples and
 * period are the sums over its runs (integers); its mean is that sum over
 * the runs that recorded the event; its share is the mean over those runs of
 * each run's share of the event's total; a ratio is the side's mean over the
 * baseline's; a delta is the difference of the shares, in percentage points.
 * With one run per side these are that run's own numbers. */
#ifndef VP_COMPARE_H
#define VP_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"
#include "lib/profile/profile.h"
#include "stats.h"

/* The baseline and the first side compared with it. */
enum vp_side { VP_HOST = 0, VP_GUEST = 1 };

/* With K > 2 sides, keys that name "the side" take the largest over the
 * sides compared with the baseline (the smallest q). */
enum vp_rank {
	VP_RANK_MAX = 0,	/* larger of the sides' means (default) */
	VP_RANK_HOST,		/* the baseline's mean */
	VP_RANK_GUEST,		/* the other side's mean */
	VP_RANK_RATIO,		/* side/baseline; one-sided rows rank by their value after all ratios */
	VP_RANK_DELTA,		/* side share - baseline share, largest first */
	VP_RANK_ABSDELTA,
	VP_RANK_Q,		/* q-value, smallest first; rows without statistics last */
	VP_RANK_EFFECT,		/* how far the ratio's interval stays from 1x (log scale), largest first */
};

/* How a row's ratio reads: a real number only when both sides are non-zero. */
enum vp_ratio_kind { VP_RATIO_BOTH = 0, VP_RATIO_ONLY_HOST, VP_RATIO_ONLY_GUEST, VP_RATIO_NONE };

struct vp_cmp_row {
	const char *symbol;	/* key fields; fields outside the key hold a representative */
	const char *dso;
	char domain;
	uint64_t *samples;	/* [nsides]: the sum over the side's runs */
	uint64_t *period;	/* [nsides] */
	uint64_t *run_samples;	/* [nruns]: each run's own, 0 where the row is absent */
	uint64_t *run_period;	/* [nruns] */
	/* inclusive counts (perf report --children) when the event has children:
	 * per side the sum over its runs, and per run */
	uint64_t *children_samples;	/* [nsides] */
	uint64_t *children_period;	/* [nsides] */
	uint64_t *run_children_samples;	/* [nruns] */
	uint64_t *run_children_period;	/* [nruns] */
	struct vp_stat_result *stat;	/* [nsides]: side s against the baseline (s >= 1)
					   when the event's stat_ok[s]; [0] unused */
};

struct vp_cmp_event {
	const char *name;		/* the name the runs were matched by */
	const char **side_name;		/* [nsides]: each side's own event name, NULL when absent */
	int *present;			/* [nsides]: some run of the side recorded the event */
	uint64_t *total_samples;	/* [nsides]: sums over the side's runs */
	uint64_t *total_period;
	size_t *nruns;			/* [nsides]: the side's runs that recorded the event */
	int *run_present;		/* [nruns]: the run recorded the event (else its zeros are no data) */
	uint64_t *run_total_samples;	/* [nruns] */
	uint64_t *run_total_period;	/* [nruns] */
	int *stat_ok;			/* [nsides]: rows' stat[s] is computed (s >= 1) */
	long noise_floor;		/* rows significant in the baseline's A/A split; -1: not computed */
	int children;			/* rows carry inclusive counts: every run's table had them */
	struct vp_stack_tree *stacks;	/* the runs' call stacks merged, a value column per run
					   (NULL: no run had them); owned, names in the pool */
	size_t total_rows;		/* rows of the full join, before any top-N cut */
	struct vp_cmp_row *rows;
	size_t nrows;
	/* storage, compare.c's (rows point into these) */
	const size_t *first_run_;
	size_t nsides_, nruns_, row_cap_;
	uint64_t *vals_;
	struct vp_stat_result *stats_;
	void *arrays_;
};

struct vp_comparison {
	struct vp_strpool *pool;
	size_t nsides;			/* K >= 2; side 0 is the baseline */
	size_t nruns;			/* runs of all sides */
	size_t *first_run;		/* [nsides + 1]: side s has runs first_run[s] .. first_run[s + 1] - 1 */
	const char **label;		/* [nsides]: column heads: given, stored labels or input names */
	struct vp_profile_meta *meta;	/* [nsides]: a side's summary: its first run's strings, the
					   mean of its runs' known times, their lost samples summed */
	struct vp_profile_meta *run_meta;	/* [nruns]: every run's own (strings in pool) */
	unsigned key;			/* enum vp_keyfield mask the join used */
	enum vp_value value;		/* what shares, ratios, statistics and ranks are computed on */
	enum vp_rank rank;
	double alpha;			/* significance level; intervals are at confidence 1 - alpha */
	unsigned threads;		/* the statistics' threads: 0 = this process's CPUs */
	struct vp_cmp_event *events;
	size_t nevents;
};

#define VP_ALPHA_DEFAULT 0.05

struct vp_compare_opts {
	unsigned key;		/* default VP_KEY_SYM */
	enum vp_value value;
	enum vp_rank rank;
	size_t top;		/* 0 = all rows */
	const char *const *events;	/* NULL-terminated event names to keep; NULL = all */
	const char *const *label;	/* [nsides] overrides, NULL entries (or NULL) from the runs */
	double alpha;		/* VP_ALPHA_DEFAULT */
	unsigned threads;	/* for the statistics; 0 = this process's CPUs */
};

void vp_compare_opts_init(struct vp_compare_opts *o);
/* Join the runs of nsides sides: runs[] holds side 0's runs_per_side[0]
 * runs, then side 1's, and so on. The comparison owns copies of everything
 * it needs. A side's label defaults to its runs' stored label when they all
 * have the same, else its first run's file name. */
int vp_compare_runs(const struct vp_profile *const *runs, const size_t *runs_per_side, size_t nsides,
		    const struct vp_compare_opts *opts, struct vp_comparison **out, struct vp_error *err);
/* Two profiles, one run each. */
int vp_compare(const struct vp_profile *host, const struct vp_profile *guest,
	       const struct vp_compare_opts *opts, struct vp_comparison **out, struct vp_error *err);
void vp_comparison_free(struct vp_comparison *c);

/* For readers of saved comparisons: an empty comparison of these sides and
 * runs, a new event (its index, or a negative code), and a new row of an
 * event (zeroed, its arrays in place; NULL on ENOMEM), whose per-run values
 * (run_samples, run_period; the event's run_present and run_total_*; the
 * runs' metadata) the caller fills; then vp_comparison_finish. */
struct vp_comparison *vp_comparison_new(size_t nsides, const size_t *runs_per_side);
int vp_comparison_add_event(struct vp_comparison *c, const char *name);
struct vp_cmp_row *vp_cmp_event_add_row(struct vp_comparison *c, struct vp_cmp_event *e);
/* Everything a side says from its runs' values: sums, present, nruns, the
 * sides' metadata summaries, and the statistics of every event
 * (vp_comparison_judge at c->alpha); then every row is shown (nrows =
 * total_rows). -EINVAL when a row exceeds its run's total; -ENOMEM. */
int vp_comparison_finish(struct vp_comparison *c, struct vp_error *err);
/* The statistics of every row (lib/compare/judge.c): per event and side
 * after the baseline, from the runs of both that recorded the event, at
 * significance level alpha (0 < alpha < 1, else -EINVAL), with q-values
 * across the event's rows; and the event's A/A noise floor when the baseline
 * has 4 runs or more of it. A side whose numbers the method cannot take (a
 * value without samples) gets none, with a warning. */
int vp_comparison_judge(struct vp_comparison *c, double alpha, struct vp_error *err);

/* Re-rank and cut (the chart uses this on a saved, full comparison). */
void vp_comparison_rank(struct vp_comparison *c, enum vp_rank rank, size_t top);
/* Keep only the events named (NULL-terminated; NULL keeps all), as
 * vp_profile_keep_events does for a profile; -ENOENT naming the first that
 * the comparison does not have. */
int vp_comparison_keep_events(struct vp_comparison *c, const char *const *names,
			      struct vp_error *err);
/* New column heads, one per side (n must be nsides: -EINVAL); -ENOMEM. */
int vp_comparison_relabel(struct vp_comparison *c, const char *const *labels, size_t n);

/* The side a run belongs to, and how many runs a side has. */
size_t vp_cmp_run_side(const struct vp_comparison *c, size_t run);
size_t vp_cmp_side_runs(const struct vp_comparison *c, size_t side);

/* Side s's sums (the comparison's integers). */
uint64_t vp_cmp_value(const struct vp_cmp_row *r, size_t s, enum vp_value v);
uint64_t vp_cmp_total(const struct vp_cmp_event *e, size_t s, enum vp_value v);
/* Run k's own value of a row and the event's total in run k; any value,
 * own or inclusive (whose totals are the own ones: each sample counts once). */
uint64_t vp_cmp_run_value(const struct vp_cmp_row *r, size_t k, enum vp_value v);
uint64_t vp_cmp_run_total(const struct vp_cmp_event *e, size_t k, enum vp_value v);
/* Side s's mean per run (of the runs that recorded the event), 0 without any. */
double vp_cmp_mean(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		   enum vp_value v);
double vp_cmp_mean_total(const struct vp_cmp_event *e, size_t s, enum vp_value v);
/* The 1 - alpha confidence interval of side s's mean per run
 * (vp_stat_mean_interval on the side's runs that recorded the event): what a
 * bar's whisker shows for a side's own value. -EINVAL when the side has no
 * run of the event or numbers the method cannot take; -ENOMEM. */
int vp_cmp_mean_interval(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
			 enum vp_value v, double alpha, double *lo, double *hi);
/* Side s's share: the mean of its runs' shares of their event totals, in [0, 1]. */
double vp_cmp_share(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		    enum vp_value v);
/* Side s's mean over the baseline's; *kind says when there is no finite ratio
 * (VP_RATIO_ONLY_HOST: only the baseline has the row; _ONLY_GUEST: only s). */
double vp_cmp_ratio(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		    enum vp_value v, enum vp_ratio_kind *kind);
/* Side s's share - the baseline's, in percentage points. */
double vp_cmp_delta_pp(const struct vp_cmp_event *e, const struct vp_cmp_row *r, size_t s,
		       enum vp_value v);
/* Row r's statistics for side s, NULL when there are none (the event is
 * missing from the baseline or from s, or was not judged). */
const struct vp_stat_result *vp_cmp_stat(const struct vp_cmp_event *e, const struct vp_cmp_row *r,
					 size_t s);

int vp_rank_parse(const char *s, enum vp_rank *rank);
const char *vp_rank_name(enum vp_rank rank);

#endif
