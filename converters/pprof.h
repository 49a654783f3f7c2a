/* What vmprof's pprof writer and reader agree on beyond profile.proto itself:
 * the sample labels and the metadata carried as "key: value" comments.
 * Internal to converters/. */
#ifndef VP_PPROF_INTERNAL_H
#define VP_PPROF_INTERNAL_H

#include "lib/profile/profile.h"

#define VP_PPROF_LABEL_PID "pid"
#define VP_PPROF_LABEL_TID "tid"
#define VP_PPROF_LABEL_COMM "comm"
#define VP_PPROF_LABEL_DOMAIN "domain"	/* "[k]": the sampled address's domain */

/* Call fn with one comment line per known metadata field ("host: box"). */
int vp_pprof_meta_comments(const struct vp_profile_meta *m, int (*fn)(void *ctx, const char *line),
			   void *ctx);
/* Fill the field a comment line names; other comments are left alone. */
void vp_pprof_meta_parse(const char *line, struct vp_profile_meta *m, struct vp_strpool *pool);

#endif
