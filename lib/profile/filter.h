/* Which samples of a recording enter a profile: perf report's --pid, --tid,
 * --comms and --time, parsed here (the syntax) and applied per sample by
 * every reader of perf.data (report.c, folded.c), so they all agree. */
#ifndef VP_FILTER_H
#define VP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"

struct vp_perfdata;
struct vp_sample;
struct vp_session;

/* One range of --time: absolute nanoseconds (0: open), or, for percent
 * forms, fractions of the recording from first to last sample. */
struct vp_time_range {
	uint64_t start, end;
	double pstart, pend;
};

struct vp_time_filter {
	struct vp_time_range *v;
	size_t n;
	int percent;		/* v holds fractions, placed on each file's span */
};

/* An empty filter (all zero) keeps everything. The lists are owned by
 * whoever parsed them (vp_filter_free); copies of the struct share them. */
struct vp_filter {
	uint32_t *pids, *tids;
	size_t npids, ntids;
	char **comms;
	size_t ncomms;
	struct vp_time_filter time;
};

/* "PID[,PID...]" and "TID[,TID...]" (added to the lists: options may repeat),
 * "NAME[,NAME...]"; -EINVAL with a message naming the bad item. */
int vp_filter_add_pids(struct vp_filter *f, const char *list, struct vp_error *err);
int vp_filter_add_tids(struct vp_filter *f, const char *list, struct vp_error *err);
int vp_filter_add_comms(struct vp_filter *f, const char *list, struct vp_error *err);
/* perf's --time for one file: "START,END" in seconds (either may be empty;
 * several ranges separated by spaces), or percent forms "A%-B%", "P%/N",
 * "P%" (several, comma separated). Replaces t's ranges. */
int vp_time_filter_parse(struct vp_time_filter *t, const char *arg, struct vp_error *err);
void vp_time_filter_free(struct vp_time_filter *t);
int vp_filter_active(const struct vp_filter *f);
void vp_filter_free(struct vp_filter *f);

/* A filter ready for one file: percent ranges placed on its span. */
struct vp_filter_run {
	const struct vp_filter *f;
	struct vp_time_range *ranges;	/* absolute */
	size_t nranges;
	int active;
	const char *last_comm;		/* interned by the session: one strcmp per comm */
	int last_comm_kept;
	uint64_t kept, seen;
};

/* Percent ranges need the first and last sample time: HEADER_SAMPLE_TIME,
 * else (unfinished recordings, perf record --no-buildid) one extra pass
 * over the file's samples; a pipe without it is an error. */
int vp_filter_start(struct vp_filter_run *run, const struct vp_filter *f, struct vp_perfdata *pd,
		    struct vp_error *err);
int vp_filter_keep_slow(struct vp_filter_run *run, struct vp_session *s,
			const struct vp_sample *sample);
/* 1 when the sample enters the profile. Samples without a time (0) pass
 * --time, as in perf. */
static inline int vp_filter_keep(struct vp_filter_run *run, struct vp_session *s,
				 const struct vp_sample *sample)
{
	return !run->active || vp_filter_keep_slow(run, s, sample);
}
/* Frees the run; with the file's path (a walk that succeeded), warns when
 * the filter kept none of its samples. */
void vp_filter_end(struct vp_filter_run *run, const char *path);

/* A parsed percent or "N,M" pair as perf computes it: shared with tests. */
void vp_time_place(const struct vp_time_range *pct, uint64_t first, uint64_t last,
		   struct vp_time_range *out);

#endif
