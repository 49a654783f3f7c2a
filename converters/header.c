/* report --header: what a perf.data file says of itself (host, kernel,
 * command line, vmprof's own facts, portable symbols) and its events'
 * attributes, in the shape of perf report --header-only. Every string comes
 * from the file and is escaped (text.h). */
#include "formats.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "text.h"
#include "lib/perfdata/perfdata.h"
#include "lib/symbols/portsyms.h"

static void write_attr(FILE *f, const struct vp_evsel *ev)
{
	const struct perf_event_attr *a = &ev->attr;

	fprintf(f, "# event : name = ");
	vp_text_puts(f, ev->name);
	fprintf(f, ", type = %u, config = %#llx, size = %u, %s = %llu, "
	       "sample_type = %#llx, read_format = %#llx", a->type,
	       (unsigned long long)a->config, ev->file_attr_size, a->freq ? "sample_freq" : "sample_period",
	       (unsigned long long)a->sample_period, (unsigned long long)a->sample_type,
	       (unsigned long long)a->read_format);
#define FLAG(x) if (a->x) fprintf(f, ", " #x " = 1")
	FLAG(exclude_user);
	FLAG(exclude_kernel);
	FLAG(exclude_hv);
	FLAG(exclude_host);
	FLAG(exclude_guest);
	FLAG(exclude_idle);
	FLAG(inherit);
	FLAG(sample_id_all);
	FLAG(precise_ip);
#undef FLAG
	fprintf(f, ", ids = %zu\n", ev->nids);
}

int vp_perfdata_write_header(FILE *f, const char *path, struct vp_error *err)
{
	struct vp_perfdata *pd;
	struct vp_strpool *pool = vp_strpool_new();
	struct vp_profile_meta m;
	uint64_t first, last;
	int r;

	if (!pool)
		return vp_errorf(err, -ENOMEM, "out of memory");
	if ((r = vp_perfdata_open(path, &pd, err)) < 0) {
		vp_strpool_free(pool);
		return r;
	}
	vp_profile_meta_init(&m);
	vp_perfdata_meta(pd, &m, pool);
	vp_perfdata_sample_time(pd, &first, &last);
	fprintf(f, "# file            : ");
	vp_text_puts(f, path);
	fprintf(f, "%s\n", vp_perfdata_is_pipe(pd) ? " (pipe format)" : "");
	/* every string here comes from the file */
#define S(label, v) (fprintf(f, "# %-16s: ", label), vp_text_puts(f, (v) ? (v) : "unknown"), \
		     fputc('\n', f))
	S("hostname", m.hostname);
	S("os release", m.osrelease);
	S("perf version", m.perf_version);
	S("arch", m.arch);
	if (m.nr_cpus >= 0)
		fprintf(f, "# %-16s: %d\n", "cpus online", m.nr_cpus);
	S("cpu description", m.cpudesc);
	S("command line", m.cmdline);
	if (m.vmprof_version)
		S("vmprof version", m.vmprof_version);
	if (m.label)
		S("label", m.label);
	S("hypervisor", m.hypervisor);
	if (m.start_time >= 0) {
		char tb[64];
		time_t t = (time_t)m.start_time;
		strftime(tb, sizeof(tb), "%Y-%m-%d %H:%M:%S %z", localtime(&t));
		fprintf(f, "# %-16s: %s\n", "recorded at", tb);
	}
	if (first || last)
		fprintf(f, "# %-16s: %.6f .. %.6f s (%.3f ms)\n", "sample time", first / 1e9, last / 1e9,
		       (last - first) / 1e6);
	if (m.duration >= 0)
		fprintf(f, "# %-16s: %.3f s\n", "duration", m.duration);
	if (m.clocksource)
		S("clocksource", m.clocksource);
	if (m.cpu_time >= 0)
		fprintf(f, "# %-16s: %.3f s\n", "command cpu time", m.cpu_time);
	if (m.steal_time >= 0)
		fprintf(f, "# %-16s: %.3f s\n", "steal time", m.steal_time);
	/* where the command's time went: "wall-time" as "wall time" */
	for (size_t i = 0; i < VP_META_NTIMES; i++) {
		char label[32];
		if (*vp_meta_time_c(&m, i) < 0)
			continue;
		snprintf(label, sizeof(label), "%s", vp_meta_times[i].key);
		for (char *c = label; *c; c++)
			*c = *c == '-' ? ' ' : *c;
		fprintf(f, "# %-16s: %.6f s%s%s%s\n", label, *vp_meta_time_c(&m, i),
			vp_meta_times[i].what ? " (" : "", vp_meta_times[i].what ? vp_meta_times[i].what : "",
			vp_meta_times[i].what ? ")" : "");
	}
	if (m.sched_method)
		S("sched method", m.sched_method);
	if (m.sched_lost)
		fprintf(f, "# %-16s: %llu\n", "sched lost", (unsigned long long)m.sched_lost);
#undef S
	const void *sd;
	uint64_t ss;
	struct vp_portsyms *ps;
	if (vp_perfdata_feature(pd, VP_FEAT_VMPROF_SYMS, &sd, &ss) == 0 &&
	    vp_portsyms_parse(vp_perfdata_path(pd), sd, (size_t)ss, &ps, err) == 0) {
		size_t nsyms = 0;
		for (size_t i = 0; i < vp_portsyms_count(ps); i++)
			nsyms += vp_symtab_count(vp_portsyms_at(ps, i)->tab);
		fprintf(f, "# %-16s: %zu symbols of %zu objects\n", "portable symbols", nsyms,
		       vp_portsyms_count(ps));
		vp_portsyms_free(ps);
	}
	for (size_t i = 0; i < vp_perfdata_nevsel(pd); i++)
		write_attr(f, vp_perfdata_evsel(pd, i));
	vp_perfdata_close(pd);
	vp_strpool_free(pool);
	return 0;
}

