/* What several commands share: the options that say how perf.data is read
 * (symbol sources), atomic output files, and event lists. */
#ifndef VP_CMD_COMMON_H
#define VP_CMD_COMMON_H

#include <stdio.h>

#include "lib/util/error.h"
#include "lib/profile/profile.h"
#include "lib/profile/report.h"
#include "converters/sides.h"
#include "options.h"

/* How perf.data is read (symbol sources), bound into the struct vp_load_opts
 * FIELD of the command's TYPE; --threads and --quiet go to vp_load_opt. */
#define VP_LOAD_OPTIONS(type, field)                                                        \
	{ "threads", 0, "N", "use N CPUs: perf.data read on N threads, charts drawn in N "      \
	  "processes (default: every CPU this process may use)", OPT_THREADS },                \
	{ "quiet", 'q', NULL, "no progress line on stderr (it shows on a terminal for inputs of " \
	  "100 MB or more)", 'q' },                                                           \
	VP_OPT_STRING("symfs", 0, "DIR", "look for binaries under DIR, as perf --symfs", type,  \
		      field.symfs),                                                         \
	VP_OPT_STRING("kallsyms", 0, "FILE", "host kernel symbols (default /proc/kallsyms)",   \
		      type, field.kallsyms),                                                \
	VP_OPT_STRING("guest-kallsyms", 0, "FILE", "guest kernel symbols, for [g] samples",    \
		      type, field.guest_kallsyms),                                          \
	VP_OPT_STRING("guest-modules", 0, "FILE", "guest /proc/modules, for guest module samples", \
		      type, field.guest_modules),                                           \
	{ "pid", 0, "PID[,PID...]", "only samples of these processes (as perf report's)",      \
	  OPT_LOAD_PID },                                                                     \
	{ "tid", 0, "TID[,TID...]", "only samples of these threads (as perf report's)",        \
	  OPT_LOAD_TID },                                                                     \
	{ "comm", 0, "NAME[,NAME...]", "only samples of threads of these command names (as "   \
	  "perf report's comms)", OPT_LOAD_COMM },                                            \
	{ "time", 0, "START,END", "only samples in this time range, in seconds or percent of " \
	  "the recording (as perf report's)", OPT_LOAD_TIME }
/* 1 when id is one of VP_LOAD_OPTIONS' filters (stored in lo), 0 when not,
 * or a negative value after a usage error. */
int vp_load_opt(const struct vp_cmd_info *info, int id, const char *arg, struct vp_load_opts *lo);

/* Shared ids: the CSV formula-injection guard (on by default, --no-csv-safe
 * off), and what shapes a comparison (below). */
enum {
	OPT_CSV_SAFE = VP_OPT_SHARED, OPT_CSV_UNSAFE, OPT_CMP_VALUE, OPT_CMP_LABELS, OPT_CMP_ALPHA,
	OPT_LOAD_PID, OPT_LOAD_TID, OPT_LOAD_COMM, OPT_LOAD_TIME, OPT_CMP_CHILDREN, OPT_THREADS,
};
#define VP_CSV_SAFE_OPTIONS                                                                 \
	{ "csv-safe", 0, NULL, "prefix ' to CSV cells starting with = + - @ (the default)",      \
	  OPT_CSV_SAFE },                                                                     \
	{ "no-csv-safe", 0, NULL, "do not prefix ' to CSV cells starting with = + - @", OPT_CSV_UNSAFE }

/* 1 when id is --threads or --quiet of VP_LOAD_OPTIONS (stored), 0 when
 * not, or a negative value after a usage error. */
int vp_load_opt(const struct vp_cmd_info *info, int id, const char *arg, struct vp_load_opts *lo);

/* 1 when id was --csv-safe or --no-csv-safe (and *safe now says which), else 0. */
int vp_csv_safe_opt(int id, int *safe);

/* What shapes a comparison, the same for vmprof compare and vmprof chart
 * SIDE SIDE... (both build it with vp_comparison_build): the join, ranking
 * and labels, and how each side's runs are read. */
struct vp_cmp_args {
	struct vp_compare_opts co;
	struct vp_load_opts lo;			/* every side */
	struct vp_time_filter *side_time;	/* --time A:B:..., one per side (perf diff) */
	size_t nside_time;
	const char *g_kallsyms, *g_symfs;	/* the other sides' own symbol sources */
	const char **events;
	size_t nevents;
	const char **labels;			/* --labels, NULL-terminated; co.label once built */
	size_t nlabels;
	int rank_set, alpha_set;
	int children;				/* --children */
};
#define VP_COMPARE_OPTIONS                                                                  \
	{ "key", 'k', "KEYS", "join on sym (default), sym,dso (dso by base name) or sym,dso,domain", \
	  'k' },                                                                              \
	{ "event", 'e', "NAME", "only this event (repeat or comma separate for several)", 'e' },  \
	{ "sort", 's', "HOW", "rank by max (default), host, guest, ratio, delta, absdelta, q or effect", \
	  's' },                                                                              \
	{ "value", 0, "WHAT", "compare 'period' (default), 'samples', or the inclusive "      \
	  "'children' (period) or 'children-samples'", OPT_CMP_VALUE },                        \
	{ "children", 0, NULL, "also inclusive counts (a function and its callees, as perf "    \
	  "report --children)", OPT_CMP_CHILDREN },                                           \
	{ "labels", 0, "A,B,...", "column labels, one per side", OPT_CMP_LABELS },               \
	{ "alpha", 0, "A", "significance level (default 0.05): q < A is significant, intervals " \
	  "at 1 - A", OPT_CMP_ALPHA }
/* How the sides are read, bound into the struct vp_cmp_args FIELD of TYPE. */
#define VP_COMPARE_INPUT_OPTIONS(type, field)                                               \
	VP_LOAD_OPTIONS(type, field.lo),                                                      \
	VP_OPT_STRING("guest-file-kallsyms", 0, "FILE", "kernel symbols for the sides after the " \
		      "first only (the GUEST): a copy of /proc/kallsyms from the machine they were " \
		      "recorded on", type, field.g_kallsyms),                                   \
	VP_OPT_STRING("guest-file-symfs", 0, "DIR", "binaries of the GUEST's machine, for the " \
		      "sides after the first only", type, field.g_symfs)
void vp_cmp_args_init(struct vp_cmp_args *a);
/* 1 when id is one of VP_COMPARE_OPTIONS (stored in a), 0 when not, or a
 * negative value after a usage error. */
int vp_cmp_args_opt(const struct vp_cmd_info *info, int id, const char *arg, struct vp_cmp_args *a);
/* After the sides are counted (n inputs; fewer than 2: a saved comparison):
 * the filters need sides, --time A:B:... one time per side, --labels one
 * name per side. 0, or a negative value after a usage error. */
int vp_cmp_args_check(const struct vp_cmd_info *info, const struct vp_cmp_args *a, size_t ninputs);
/* The comparison of the n sides args (vp_side_spec_parse, then
 * vp_comparison_build) with these options. */
int vp_cmp_args_build(struct vp_cmp_args *a, char *const *args, size_t n, struct vp_comparison **out,
		      struct vp_error *err);
void vp_cmp_args_free(struct vp_cmp_args *a);

/* Write a file atomically through fn; on failure nothing is left under path
 * and err names the file. */
int vp_write_atomic(const char *path, int (*fn)(FILE *f, void *ctx), void *ctx, struct vp_error *err);

/* One file per event as DIR/EVENT.EXT (only those in events, NULL = all),
 * each atomically and all or nothing; prints what it wrote, or the error as
 * "vmprof CMD: ...". Returns the exit status. */
struct vp_split_out {
	const char *ext;			/* "csv", "pb.gz" */
	size_t n;				/* events */
	const char *(*name)(void *ctx, size_t i);
	int (*write)(FILE *f, void *ctx, size_t i);
	void *ctx;
};
int vp_split_files(const char *cmd, const char *dir, const char *const *events,
		   const struct vp_split_out *o);

struct vp_profile;
struct vp_out_opts;
/* vp_split_files for the tables of p as CSV. Tables must be sorted. */
int vp_split_csv(const char *cmd, const struct vp_profile *p, struct vp_out_opts *oo,
		 const char *dir, const char *const *events);

/* "period" or "samples" (--value); -1 for anything else. */
int vp_parse_value(const char *arg, enum vp_value *v);
/* "A,B,..." (--labels) into names (NULL-terminated, appended to *names);
 * -1 when a name is empty (nothing appended), -ENOMEM. */
int vp_parse_labels(const char *arg, const char ***names, size_t *n);

/* Append the names of a comma-separated list to a NULL-terminated array. */
int vp_add_names(const char ***names, size_t *n, const char *list);
void vp_free_names(const char **names, size_t n);

#endif
