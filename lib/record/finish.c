/* The end of a recording (see finish.h). */
#include "finish.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "machine.h"
#include "portable.h"
#include "tracing.h"
#include "lib/perfdata/perfdata.h"
#include "lib/perfdata/write.h"
#include "lib/symbols/session.h"

static char *meta_text(const struct vp_record_opts *o, const char *hv, time_t start, double dur,
		       double steal, double cpu)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return NULL;
	fprintf(f, "vmprof-version=%s\n", VP_VERSION);
	if (o->label)
		fprintf(f, "label=%s\n", o->label);
	fprintf(f, "hypervisor=%s\n", hv);
	fprintf(f, "start-time=%lld\n", (long long)start);
	fprintf(f, "duration=%.6f\n", dur);
	if (steal >= 0)
		fprintf(f, "steal-time=%.6f\n", steal);
	if (cpu >= 0)
		fprintf(f, "cpu-time=%.6f\n", cpu);
	if (o->guest_kallsyms)
		fprintf(f, "guest-kallsyms=%s\n", o->guest_kallsyms);
	if (o->guest_modules)
		fprintf(f, "guest-modules=%s\n", o->guest_modules);
	fclose(f);
	return s;
}


int vp_record_finish(struct vp_pdw *w, const char *partial, const struct vp_record_opts *o,
		     const struct vp_event_spec *ev, size_t nev, size_t page,
		     const struct vp_record_facts *facts, struct vp_error *err)
{
	char hv[256];
	struct utsname u;
	int rc;

	vp_hypervisor(hv, sizeof(hv));
	uname(&u);
	double steal1 = vp_steal_seconds();
	char *meta = meta_text(o, hv, facts->start, facts->seconds,
			       facts->steal0 >= 0 && steal1 >= 0 ? steal1 - facts->steal0 : -1,
			       facts->cpu_time);
	char version[64];
	snprintf(version, sizeof(version), "vmprof %s", VP_VERSION);
	struct vp_pdw_features feat = { u.nodename, u.release, version, u.machine,
					(uint32_t)sysconf(_SC_NPROCESSORS_CONF),
					(uint32_t)sysconf(_SC_NPROCESSORS_ONLN), o->argc_all, o->argv_all, meta };
	char *td = NULL;
	for (size_t e = 0; e < nev; e++)
		if (ev[e].tracepoint && !td)
			td = vp_tracing_data(ev, nev, page, &feat.tracing_size);
	feat.tracing_data = td;
	/* Portable file: the symbols of every sampled address go in with it. */
	char *syms = NULL;
	void *bids = NULL;
	size_t syms_size = 0;
	struct vp_error serr = { 0 };
	struct vp_session_opts so = { NULL, NULL, o->guest_kallsyms, o->guest_modules, 1 };
	int synced = vp_pdw_sync(w) == 0;
	/* perf's HEADER_SAMPLE_TIME: perf report --time 10%/2 needs it */
	if (synced && vp_perfdata_scan_sample_time(partial, &feat.first_sample_time,
						   &feat.last_sample_time, &serr) < 0)
		feat.first_sample_time = feat.last_sample_time = 0;
	if (synced &&
	    vp_portsyms_collect(partial, &so, &syms, &syms_size, &bids, &feat.build_ids_size,
				&serr) == 0) {
		feat.vmprof_syms = syms;
		feat.build_ids = bids;	/* perf's own build-id table, for perf report */
	} else {
		vp_warn("no portable symbols stored (the file needs the recorded binaries to "
			"resolve): %s", serr.msg[0] ? serr.msg : "cannot write the data");
	}
	rc = vp_pdw_finish(w, &feat, err);
	free(syms);
	free(bids);
	free(td);
	free(meta);
	if (rc < 0)
		unlink(partial);
	return rc;
}


/* The previous file stays under its name until the new one replaces it
 * in one rename: a hard link keeps it as .old (a rename where the file
 * system has no links). */
int vp_record_put_in_place(const char *partial, const char *out, struct vp_error *err)
{
	char old[4096];

	snprintf(old, sizeof(old), "%s.old", out);
	if (access(out, F_OK) == 0 &&
	    ((unlink(old) != 0 && errno != ENOENT) ||
	     (link(out, old) != 0 && rename(out, old) != 0)))
		return vp_errorf(err, -errno, "'%s': cannot keep the previous file as '%s': %s", out,
				 old, strerror(errno));
	if (rename(partial, out) != 0)
		return vp_errorf(err, -errno, "'%s': cannot rename '%s' into place: %s", out,
				 partial, strerror(errno));
	return 0;
}

