/* The program's own frame of a sample (see charge.h). */
#include "charge.h"

#include <string.h>

#include "profile.h"

void vp_charge_own(struct vp_session *session, const struct vp_sample *s, struct vp_resolved *res)
{
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;
	struct vp_resolved r;
	int have_user = 0;

	for (uint64_t i = 0; i < s->nr_callchain; i++) {
		uint64_t ip = s->callchain[i];
		if (vp_callchain_context(ip, &cpumode) || cpumode != PERF_RECORD_MISC_USER)
			continue;
		vp_session_resolve(session, s->pid, cpumode, ip, &r);
		if (!strcmp(r.dso, "[unknown]"))
			continue;
		if (!vp_dso_is_system(r.dso)) {
			*res = r;
			return;
		}
		if (!have_user) {
			*res = r;
			have_user = 1;
		}
	}
}
