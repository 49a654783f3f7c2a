/* Where a sample is charged when not to its own address: the program's
 * function in its callchain. offcpu-time samples sit in the kernel's
 * scheduler, syscall tracepoints in the C library's wrappers; the function
 * people look for is the program's own that made the call. */
#ifndef VP_CHARGE_H
#define VP_CHARGE_H

#include "lib/perfdata/perfdata.h"
#include "lib/symbols/session.h"

/* The first user frame of s's callchain, from the leaf, in one of the
 * program's own objects (not a system library: vp_dso_is_system); else the
 * first user frame; else res as the caller resolved it (the sample's own
 * address). Frames in no map (a frame-pointer walk gone astray) are
 * skipped. */
void vp_charge_own(struct vp_session *session, const struct vp_sample *s, struct vp_resolved *res);

#endif
