/* Machine formats in and out of vmprof's tables and comparisons: CSV (libcsv,
 * RFC 4180), XML (libxml2, schemas in schema/), the text of `perf report
 * --stdio`, folded stacks, pprof's profile.proto (protobuf-c, zlib); and
 * detection of what a file holds. Writers return
 * 0 or a negative errno (the caller names the file); readers fill err with
 * "'FILE': line N: what is wrong". */
#ifndef VP_FORMATS_H
#define VP_FORMATS_H

#include <stdio.h>

#include "lib/compare/compare.h"
#include "lib/util/error.h"
#include "lib/profile/profile.h"
#include "lib/profile/report.h"

struct vp_out_opts {
	enum vp_value value;	/* share computed on (report) */
	size_t top;		/* rows per event, 0 = all (tables must be sorted) */
	int full_names;		/* keep C++ parameter lists in symbol cells */
	int csv_safe;		/* prefix ' to cells starting with = + - @ (formula injection) */
	const char *event;	/* write only this event; NULL = all */
};

void vp_out_opts_init(struct vp_out_opts *o);

/* CSV header lines, fixed (design: output conventions). */
#define VP_CSV_PROFILE_HEADER "event,symbol,dso,domain,samples,period,share"
#define VP_CSV_CMP_HEADER                                                                   \
	"event,symbol,dso,domain,host_samples,host_period,host_share,guest_samples,"      \
	"guest_period,guest_share,ratio,delta"
/* ... and the statistics after them (a CSV without them is read too) */
#define VP_CSV_CMP_STATS ",ratio_low,ratio_high,q_value,significant"
/* K > 2 sides: one line per row and side after the baseline (side: its label). */
#define VP_CSV_CMP_SIDES_HEADER                                                             \
	"event,symbol,dso,domain,side,base_samples,base_period,base_share,side_samples,"   \
	"side_period,side_share,ratio,delta,ratio_low,ratio_high,delta_low,delta_high,"     \
	"p_value,q_value,significant"

int vp_profile_write_csv(FILE *f, const struct vp_profile *p, const struct vp_out_opts *o);
int vp_profile_write_xml(FILE *f, const struct vp_profile *p, const struct vp_out_opts *o);
/* Comparisons: the rows each event shows (nrows); for a saved comparison cut
 * nothing (vp_comparison_rank with top 0 first). CSV: two sides in
 * VP_CSV_CMP_HEADER's columns, K > 2 in VP_CSV_CMP_SIDES_HEADER's. */
int vp_cmp_write_csv(FILE *f, const struct vp_comparison *c, const struct vp_out_opts *o);
int vp_cmp_write_xml(FILE *f, const struct vp_comparison *c, const struct vp_out_opts *o);
/* Saved comparison XML: every row of the join, both sides' metadata. */
int vp_cmp_save_xml(FILE *f, const struct vp_comparison *c);

/* Text tables for a terminal: report's (a heading naming input, then each
 * event's table with the key columns of keys, "dso,sym") and compare's (a
 * heading naming each side's input, inputs[nsides], then each event's
 * rows); tables sorted. */
int vp_profile_write_table(FILE *f, const struct vp_profile *p, const char *input, const char *keys,
			   const struct vp_out_opts *o);
int vp_cmp_write_table(FILE *f, const struct vp_comparison *c, const char *const *inputs,
		       const struct vp_out_opts *o);
/* report --header: a perf.data file's metadata and event attributes. */
int vp_perfdata_write_header(FILE *f, const char *path, struct vp_error *err);

/* Readers over a whole file's bytes; path is for messages. */
int vp_profile_read_csv(const char *path, const char *data, size_t len, struct vp_profile **out,
			struct vp_error *err);
int vp_profile_read_xml(const char *path, const char *data, size_t len, struct vp_profile **out,
			struct vp_error *err);
int vp_profile_read_perf_text(const char *path, const char *data, size_t len,
			      struct vp_profile **out, struct vp_error *err);
/* pprof's profile.proto, gzipped or not: one table named by the period type
 * (vmprof's exports: the event; Go's CPU profiles: "cpu"), each sample charged
 * to its leaf location's function, mapping file and domain label. */
int vp_profile_read_pprof(const char *path, const char *data, size_t len, struct vp_profile **out,
			  struct vp_error *err);
/* The same with a cap on the decompressed size (the default is 256 MiB). */
int vp_profile_read_pprof_max(const char *path, const char *data, size_t len, size_t max_bytes,
			      struct vp_profile **out, struct vp_error *err);
/* 1 when the bytes (a file's head is enough) look like a profile.proto. */
int vp_pprof_detect(const char *data, size_t len);
int vp_cmp_read_xml(const char *path, const char *data, size_t len, struct vp_comparison **out,
		    struct vp_error *err);
int vp_cmp_read_csv(const char *path, const char *data, size_t len, struct vp_comparison **out,
		    struct vp_error *err);

enum vp_input_kind {
	VP_IN_UNKNOWN = 0, VP_IN_PERFDATA, VP_IN_CSV, VP_IN_XML, VP_IN_PERF_TEXT,
	VP_IN_CMP_XML, VP_IN_CMP_CSV, VP_IN_PPROF,
};
/* What the first bytes of a file say it is. */
enum vp_input_kind vp_input_detect(const char *data, size_t len);
/* A profile from any input a user has (perf.data, CSV, XML, perf report
 * text, pprof). */
int vp_load_profile(const char *path, const struct vp_load_opts *lo, struct vp_profile **out,
		    struct vp_error *err);
/* A saved comparison (XML or CSV). */
int vp_load_comparison(const char *path, struct vp_comparison **out, struct vp_error *err);

/* Folded stacks ("comm;root;...;leaf COUNT", FlameGraph/speedscope input)
 * from one event's callchains in a perf.data file, sorted by stack. */
struct vp_folded_opts {
	const char *event;	/* NULL: the file's first event */
	enum vp_value value;	/* count samples (default) or sum periods */
	int full_names;		/* keep C++ parameter lists */
};
struct vp_folded;
void vp_folded_opts_init(struct vp_folded_opts *o);
int vp_folded_from_perfdata(const char *path, const struct vp_load_opts *lo,
			    const struct vp_folded_opts *o, struct vp_folded **out, struct vp_error *err);
const char *vp_folded_event(const struct vp_folded *f);
size_t vp_folded_count(const struct vp_folded *f);
int vp_folded_write(FILE *out, const struct vp_folded *f);
void vp_folded_free(struct vp_folded *f);

/* pprof's profile.proto from a perf.data file: one gzipped profile per event
 * (every event, or the one asked for, or the first), from the same resolved
 * stacks as folded. */
struct vp_pprof_opts {
	const char *event;	/* NULL: the first event (unless all) */
	int all;		/* one profile per event (unless event names one) */
	int full_names;		/* C++ parameter lists in function names */
};
struct vp_pprof;
void vp_pprof_opts_init(struct vp_pprof_opts *o);
int vp_pprof_from_perfdata(const char *path, const struct vp_load_opts *lo,
			   const struct vp_pprof_opts *o, struct vp_pprof **out, struct vp_error *err);
size_t vp_pprof_count(const struct vp_pprof *p);
const char *vp_pprof_event(const struct vp_pprof *p, size_t i);
/* Profile i, gzipped; 0 or a negative errno. */
int vp_pprof_write(FILE *f, const struct vp_pprof *p, size_t i);
void vp_pprof_free(struct vp_pprof *p);
#endif
