/* perf's event names and modifiers (tools/perf/util/parse-events.c's tables),
 * turned into perf_event_attr; tracepoint ids from tracefs. */
#include "events.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

struct named { const char *name; unsigned type; unsigned long long config; };

static const struct named symbolic[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
};

static const char *const caches[] = { "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node" };
static const char *const cache_ops[] = { "load", "store", "prefetch" };

/* "dTLB-load-misses", "L1-dcache-loads", "LLC-prefetches" -> hw-cache config. */
static int cache_event(const char *s, unsigned long long *config)
{
	for (unsigned c = 0; c < sizeof(caches) / sizeof(*caches); c++) {
		size_t n = strlen(caches[c]);
		if (strncmp(s, caches[c], n) || s[n] != '-')
			continue;
		for (unsigned op = 0; op < 3; op++) {
			char a[64], m[64];
			snprintf(a, sizeof(a), "%s%s", cache_ops[op], op == 2 ? "es" : "s");
			snprintf(m, sizeof(m), "%s-misses", cache_ops[op]);
			if (!strcmp(s + n + 1, a) || !strcmp(s + n + 1, m)) {
				*config = c | (op << 8) | ((unsigned long long)!strcmp(s + n + 1, m) << 16);
				return 0;
			}
		}
	}
	return -1;
}

const char *vp_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;

	for (size_t i = 0; i < 2; i++) {
		char p[128];
		snprintf(p, sizeof(p), "%s/events", dirs[i]);
		if (stat(p, &st) == 0)
			return dirs[i];
	}
	/* perf mounts it itself; so do we (needs root) */
	if (mount("tracefs", dirs[0], "tracefs", 0, NULL) == 0)
		return dirs[0];
	return NULL;
}

static int tracepoint(struct vp_event_spec *e, const char *sys, const char *ev, struct vp_error *err)
{
	const char *fs = vp_tracefs();
	char path[512], buf[32];
	FILE *f;

	if (!fs)
		return vp_errorf(err, -ENOENT, "event '%s': tracefs is not mounted and cannot be (run as "
				 "root, or mount -t tracefs nodev /sys/kernel/tracing)", e->name);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", fs, sys, ev);
	if (!(f = fopen(path, "r")))
		return vp_errorf(err, -ENOENT, "event '%s': no such tracepoint (%s: %s)", e->name, path,
				 strerror(errno));
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return vp_errorf(err, -EIO, "event '%s': cannot read %s", e->name, path);
	}
	fclose(f);
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.config = strtoull(buf, NULL, 10);
	e->tracepoint = 1;
	snprintf(e->tp_system, sizeof(e->tp_system), "%s", sys);
	snprintf(e->tp_event, sizeof(e->tp_event), "%s", ev);
	return 0;
}

/* ":u", ":k", ":ukh", ":G", ":H", ":p" (precise, ignored: no PMU to ask). */
static int modifiers(struct vp_event_spec *e, const char *mods, struct vp_error *err)
{
	int u = 0, k = 0, h = 0;

	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u': u = 1; break;
		case 'k': k = 1; break;
		case 'h': h = 1; break;
		case 'G': e->attr.exclude_host = 1; break;
		case 'H': e->attr.exclude_guest = 1; break;
		case 'p': e->attr.precise_ip++; break;
		case 'S': break;
		default:
			return vp_errorf(err, -EINVAL, "event '%s': unknown modifier '%c' (use u, k, h, G, H, p)",
					 e->name, *p);
		}
	}
	if (u || k || h) {	/* perf: what is not named is excluded */
		e->attr.exclude_user = !u;
		e->attr.exclude_kernel = !k;
		e->attr.exclude_hv = !h;
	}
	return 0;
}

static int one(const char *tok, struct vp_event_spec *e, struct vp_error *err)
{
	char base[160];
	const char *colon;

	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", tok);
	e->attr.size = sizeof(e->attr);
	/* sys:event[:mods] for tracepoints; name[:mods] otherwise */
	colon = strchr(tok, ':');
	if (colon && strchr("ukhGHpS", colon[1]) && (strspn(colon + 1, "ukhGHpS") == strlen(colon + 1)) &&
	    colon[1]) {
		snprintf(base, sizeof(base), "%.*s", (int)(colon - tok), tok);
		if (modifiers(e, colon + 1, err) < 0)
			return -EINVAL;
	} else if (colon) {
		char sys[64], ev[96], mods[16] = "";
		const char *c2 = strchr(colon + 1, ':');
		if ((size_t)(colon - tok) >= sizeof(sys))
			return vp_errorf(err, -EINVAL, "event '%s': name too long", tok);
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - tok), tok);
		snprintf(ev, sizeof(ev), "%.*s", c2 ? (int)(c2 - colon - 1) : (int)strlen(colon + 1), colon + 1);
		if (c2)
			snprintf(mods, sizeof(mods), "%s", c2 + 1);
		for (const char *p = sys; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
				return vp_errorf(err, -EINVAL, "event '%s': not an event name", tok);
		for (const char *p = ev; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
				return vp_errorf(err, -EINVAL, "event '%s': not an event name", tok);
		if (tracepoint(e, sys, ev, err) < 0)
			return -ENOENT;
		return modifiers(e, mods, err);
	} else {
		snprintf(base, sizeof(base), "%s", tok);
	}
	for (size_t i = 0; i < sizeof(symbolic) / sizeof(*symbolic); i++)
		if (!strcmp(base, symbolic[i].name)) {
			e->attr.type = symbolic[i].type;
			e->attr.config = symbolic[i].config;
			e->needs_pmu = symbolic[i].type == PERF_TYPE_HARDWARE;
			return 0;
		}
	if (cache_event(base, &e->attr.config) == 0) {
		e->attr.type = PERF_TYPE_HW_CACHE;
		e->needs_pmu = 1;
		return 0;
	}
	if (base[0] == 'r' && base[1] && strspn(base + 1, "0123456789abcdefABCDEF") == strlen(base + 1) &&
	    strlen(base + 1) <= 16) {
		e->attr.type = PERF_TYPE_RAW;
		e->attr.config = strtoull(base + 1, NULL, 16);
		e->needs_pmu = 1;
		return 0;
	}
	return vp_errorf(err, -ENOENT, "event '%s': unknown event (see 'vmprof list')", tok);
}

int vp_events_parse(const char *spec, struct vp_event_spec **out, size_t *n, struct vp_error *err)
{
	char *copy = strdup(spec), *save = NULL;
	struct vp_event_spec *v = NULL;
	size_t k = 0;
	int r = 0;

	*out = NULL;
	*n = 0;
	if (!copy)
		return vp_errorf(err, -ENOMEM, "out of memory");
	for (char *tok = strtok_r(copy, ",", &save); tok && r >= 0; tok = strtok_r(NULL, ",", &save)) {
		struct vp_event_spec *nv = realloc(v, (k + 1) * sizeof(*v));
		if (!nv) {
			r = vp_errorf(err, -ENOMEM, "out of memory");
			break;
		}
		v = nv;
		r = one(tok, &v[k], err);
		if (r >= 0)
			k++;
	}
	free(copy);
	if (r >= 0 && !k)
		r = vp_errorf(err, -EINVAL, "no event in '%s'", spec);
	if (r < 0) {
		free(v);
		return r;
	}
	*out = v;
	*n = k;
	return 0;
}

void vp_events_each_name(void (*fn)(const char *name, const char *kind, void *ctx), void *ctx)
{
	char buf[96];

	for (size_t i = 0; i < sizeof(symbolic) / sizeof(*symbolic); i++)
		fn(symbolic[i].name, symbolic[i].type == PERF_TYPE_HARDWARE ? "Hardware event"
									     : "Software event", ctx);
	for (size_t c = 0; c < sizeof(caches) / sizeof(*caches); c++)
		for (unsigned op = 0; op < 3; op++) {
			snprintf(buf, sizeof(buf), "%s-%s%s", caches[c], cache_ops[op], op == 2 ? "es" : "s");
			fn(buf, "Hardware cache event", ctx);
			snprintf(buf, sizeof(buf), "%s-%s-misses", caches[c], cache_ops[op]);
			fn(buf, "Hardware cache event", ctx);
		}
}
