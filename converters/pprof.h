/* What vmprof's pprof writer and reader agree on beyond profile.proto itself
 * (the sample labels, the metadata carried as "key: value" comments), and the
 * writer's collected profiles its two halves share. Internal to converters/. */
#ifndef VP_PPROF_INTERNAL_H
#define VP_PPROF_INTERNAL_H

#include "lib/profile/profile.h"
#include "lib/util/u64map.h"

#define VP_PPROF_LABEL_PID "pid"
#define VP_PPROF_LABEL_TID "tid"
#define VP_PPROF_LABEL_COMM "comm"
#define VP_PPROF_LABEL_DOMAIN "domain"	/* "[k]": the sampled address's domain */

/* ---- the writer's profiles, collected (pprof_write.c), then packed
 * (pprof_pack.c) ---- */

struct pprof_mapping {
	const char *dso;
	uint64_t start, end, pgoff;
	const char *build_id;	/* hex, interned; NULL when unknown */
};

struct pprof_function {
	const char *symbol;	/* full name, interned */
	const char *dso;
};

struct pprof_location {
	uint32_t mapping;	/* index + 1, 0 for none */
	uint32_t function;	/* index + 1, 0 for an unresolved address */
	const char *dso;
	uint64_t ip;
};

struct pprof_sample {
	size_t locs;		/* offset into loc_ids */
	uint32_t nlocs, pid, tid;
	const char *comm;
	char domain;
	uint64_t count, period;
};

/* A growing vector with a hash index over its entries' keys. */
struct pprof_vec {
	void *v;
	size_t n, cap, size;
	struct vp_u64map index;	/* key hash -> entry index + 1 */
};

struct pprof_event {
	const struct vp_evsel *evsel;	/* while walking */
	const char *name;		/* interned */
	int freq;			/* attr.freq, attr.sample_period */
	uint64_t sample_period;
	struct pprof_vec mappings, functions, locations, samples;
	uint32_t *loc_ids;	/* location indices of every sample, leaf first */
	size_t nloc_ids, cap_loc_ids;
	uint64_t total_samples, total_period;
};

struct vp_pprof {
	struct vp_strpool *pool;	/* every name, interned */
	struct vp_profile_meta meta;
	int full_names;
	struct pprof_event *ev;
	size_t nev;
};

static inline void *vp_pprof_vec_at(const struct pprof_vec *v, size_t i)
{
	return (char *)v->v + i * v->size;
}

/* Call fn with one comment line per known metadata field ("host: box"). */
int vp_pprof_meta_comments(const struct vp_profile_meta *m, int (*fn)(void *ctx, const char *line),
			   void *ctx);
/* Fill the field a comment line names; other comments are left alone. */
void vp_pprof_meta_parse(const char *line, struct vp_profile_meta *m, struct vp_strpool *pool);

#endif
