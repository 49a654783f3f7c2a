/* lib/compare/, the compare stage: profiles joined per event, ranked and cut
 * (this header); the statistics across runs (stats.h).
 *
 * A comparison: two profiles (host, guest) joined per event by key — a full
 * outer join, so a function seen on one side only keeps its row with the other
 * side zero — ranked, optionally cut to the top N. */
#ifndef VP_COMPARE_H
#define VP_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"
#include "lib/profile/profile.h"

enum vp_side { VP_HOST = 0, VP_GUEST = 1 };

enum vp_rank {
	VP_RANK_MAX = 0,	/* larger of the two sides' values (default) */
	VP_RANK_HOST,
	VP_RANK_GUEST,
	VP_RANK_RATIO,		/* guest/host; one-sided rows rank by their value after all ratios */
	VP_RANK_DELTA,		/* guest share - host share, largest first */
	VP_RANK_ABSDELTA,
};

/* How a row's ratio reads: a real number only when both sides are non-zero. */
enum vp_ratio_kind { VP_RATIO_BOTH = 0, VP_RATIO_ONLY_HOST, VP_RATIO_ONLY_GUEST, VP_RATIO_NONE };

struct vp_cmp_row {
	const char *symbol;	/* key fields; fields outside the key hold a representative */
	const char *dso;
	char domain;
	uint64_t samples[2];	/* indexed by enum vp_side */
	uint64_t period[2];
};

struct vp_cmp_event {
	const char *name;		/* the name the sides were matched by */
	const char *side_name[2];	/* each side's own event name, NULL when absent */
	int present[2];
	uint64_t total_samples[2];
	uint64_t total_period[2];
	size_t total_rows;		/* rows of the full join, before any top-N cut */
	struct vp_cmp_row *rows;
	size_t nrows;
};

struct vp_comparison {
	struct vp_strpool *pool;
	struct vp_profile_meta meta[2];	/* strings interned in pool */
	const char *label[2];		/* column heads: stored labels, file names, or --labels */
	unsigned key;			/* enum vp_keyfield mask the join used */
	enum vp_value value;		/* what shares, ratios and ranks are computed on */
	enum vp_rank rank;
	struct vp_cmp_event *events;
	size_t nevents;
};

struct vp_compare_opts {
	unsigned key;		/* default VP_KEY_SYM */
	enum vp_value value;
	enum vp_rank rank;
	size_t top;		/* 0 = all rows */
	const char *const *events;	/* NULL-terminated event names to keep; NULL = all */
	const char *label[2];	/* overrides; NULL = from metadata, else source */
};

void vp_compare_opts_init(struct vp_compare_opts *o);
/* Join two profiles. The comparison owns copies of everything it needs. */
int vp_compare(const struct vp_profile *host, const struct vp_profile *guest,
	       const struct vp_compare_opts *opts, struct vp_comparison **out, struct vp_error *err);
void vp_comparison_free(struct vp_comparison *c);
/* For readers of saved comparisons: an empty comparison, and a new event
 * (its index, or a negative code) whose rows the caller fills. */
struct vp_comparison *vp_comparison_new(void);
int vp_comparison_add_event(struct vp_comparison *c, const char *name);
/* Re-rank and cut (the chart uses this on a saved, full comparison). */
void vp_comparison_rank(struct vp_comparison *c, enum vp_rank rank, size_t top);
/* Keep only the events named (NULL-terminated; NULL keeps all), as
 * vp_profile_keep_events does for a profile; -ENOENT naming the first that
 * the comparison does not have. */
int vp_comparison_keep_events(struct vp_comparison *c, const char *const *names,
			      struct vp_error *err);
/* New column heads for the two sides; -ENOMEM. */
int vp_comparison_relabel(struct vp_comparison *c, const char *host, const char *guest);

uint64_t vp_cmp_value(const struct vp_cmp_row *r, enum vp_side s, enum vp_value v);
uint64_t vp_cmp_total(const struct vp_cmp_event *e, enum vp_side s, enum vp_value v);
double vp_cmp_share(const struct vp_cmp_event *e, const struct vp_cmp_row *r, enum vp_side s,
		    enum vp_value v);
/* guest/host of the raw values; *kind says when there is no finite ratio. */
double vp_cmp_ratio(const struct vp_cmp_row *r, enum vp_value v, enum vp_ratio_kind *kind);
/* guest share - host share, in percentage points. */
double vp_cmp_delta_pp(const struct vp_cmp_event *e, const struct vp_cmp_row *r, enum vp_value v);

int vp_rank_parse(const char *s, enum vp_rank *rank);
const char *vp_rank_name(enum vp_rank rank);

#endif
