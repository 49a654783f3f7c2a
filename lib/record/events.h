/* Event specs in perf's syntax ("cycles:u,page-faults", "dTLB-load-misses",
 * "r1a2", "sched:sched_switch") turned into perf_event_attr. */
#ifndef VP_EVENTS_H
#define VP_EVENTS_H

#include <stddef.h>

#include "lib/util/error.h"
#include "lib/perfdata/perf_format.h"

struct vp_event_spec {
	struct perf_event_attr attr;	/* type, config and exclude bits; sampling set later */
	char name[160];			/* as written, perf's name for it */
	int needs_pmu;			/* hardware, cache or raw: needs a hardware PMU */
	int tracepoint;
	int levels;			/* a modifier names privilege levels (u, k or h) */
	int has_modifiers;		/* name ends in a modifier string (":u", ":G") */
	int callchain;			/* record its callchain even without -g */
	char tp_system[64], tp_event[96];
};

/* Parse a comma-separated list; *out is malloc'ed. Unknown names, unknown
 * tracepoints and bad modifiers are errors naming the event. Guest and host
 * execution are both counted unless a :G/:H modifier says otherwise. */
int vp_events_parse(const char *spec, struct vp_event_spec **out, size_t *n, struct vp_error *err);

/* Which execution an event counts before its modifiers, as perf's
 * perf_host/perf_guest: plain `perf record` is VP_KVM_HOST (exclude_guest),
 * `perf kvm --guest` VP_KVM_GUEST (exclude_host). :G and :H override it. */
enum vp_kvm_mode { VP_KVM_BOTH = 0, VP_KVM_HOST, VP_KVM_GUEST };
int vp_events_parse_kvm(const char *spec, enum vp_kvm_mode mode, struct vp_event_spec **out,
			size_t *n, struct vp_error *err);

/* Append the events of spec to *ev (n of them), with callchain set; -errno. */
int vp_events_add(struct vp_event_spec **ev, size_t *n, const char *spec, int callchain,
		  struct vp_error *err);

/* The tracefs directory (mounted at /sys/kernel/tracing when missing), or NULL. */
const char *vp_tracefs(void);

/* Names this machine knows for `vmprof list`: calls fn for each symbolic
 * hardware, software and cache event name. */
void vp_events_each_name(void (*fn)(const char *name, const char *kind, void *ctx), void *ctx);

#endif
