/* What this user may record (see access.h). */
#include "access.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int vp_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

int vp_open_error(struct vp_error *err, const struct vp_event_spec *e, int errnum, int cpu_wide)
{
	int need = e->tracepoint ? -1 : cpu_wide ? 0 : 1;

	if (errnum == EACCES || errnum == EPERM)
		return vp_errorf(err, -errnum, "event '%s': not permitted: perf_event_paranoid is %d; "
				 "run as root or set it to %d (sysctl kernel.perf_event_paranoid=%d)",
				 e->name, vp_paranoid(), need, need);
	if (e->needs_pmu && (errnum == ENOENT || errnum == EOPNOTSUPP || errnum == ENODEV))
		return vp_errorf(err, -errnum, "event '%s': no hardware PMU is visible to this machine "
				 "(%s); software events and tracepoints still work", e->name, strerror(errnum));
	if (errnum == EMFILE)
		return vp_errorf(err, -errnum, "event '%s': too many open files (raise ulimit -n)", e->name);
	return vp_errorf(err, -errnum, "event '%s': cannot open: %s", e->name, strerror(errnum));
}

int vp_fall_back_to_user(struct vp_event_spec *e, int cpu_wide)
{
	size_t len = strlen(e->name);

	if (cpu_wide || e->levels || e->attr.exclude_kernel || e->attr.exclude_user ||
	    len + 3 > sizeof(e->name))
		return 0;
	e->attr.exclude_kernel = 1;
	e->attr.exclude_hv = 1;
	strcpy(e->name + len, e->has_modifiers ? "u" : ":u");
	return 1;
}

void vp_warn_user_only(const struct vp_event_spec *ev, size_t nev)
{
	char names[512] = "";
	size_t at = 0;

	for (size_t e = 0; e < nev && at < sizeof(names); e++)
		if (ev[e].attr.exclude_kernel && ev[e].attr.exclude_hv && !ev[e].levels)
			at += (size_t)snprintf(names + at, sizeof(names) - at, "%s'%s'", at ? ", " : "",
					       ev[e].name);
	vp_warn("kernel.perf_event_paranoid=%d keeps kernel samples from this user: recording "
		"user space only (%s), as perf does; run as root or set it to 1 for kernel samples",
		vp_paranoid(), names);
}
