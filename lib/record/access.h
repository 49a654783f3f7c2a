/* What this user may record: the kernel's perf_event_paranoid, why an event
 * did not open in words a user can act on, and perf's fallback to user
 * space only where kernel-side sampling is refused. */
#ifndef VP_ACCESS_H
#define VP_ACCESS_H

#include <stddef.h>

#include "events.h"

/* kernel.perf_event_paranoid (2 when unreadable). */
int vp_paranoid(void);
/* The error for e failing to open with errnum; cpu_wide: opened on whole
 * CPUs (-a, -C, the wakeup tracepoints). The paranoid level it needs: -1 for
 * tracepoint payloads, 0 for whole CPUs, 1 for kernel samples. */
int vp_open_error(struct vp_error *err, const struct vp_event_spec *e, int errnum, int cpu_wide);
/* perf's evsel__fallback: an event asked without u/k/h counts user space
 * only, renamed as perf renames it ("cpu-clock:u"). Not cpu_wide and not for
 * an explicit :k or :h: those fail with the reason. 1 when e changed. */
int vp_fall_back_to_user(struct vp_event_spec *e, int cpu_wide);
/* Said once, naming every event of ev that fell back. */
void vp_warn_user_only(const struct vp_event_spec *ev, size_t nev);

#endif
