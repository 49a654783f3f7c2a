/* perf's event names and modifiers (tools/perf/util/parse-events.c's tables),
 * turned into perf_event_attr; tracepoint ids from tracefs. */
#include "events.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

/* perf's evsel__hw_cache* alias tables (the first name is the canonical one). */
static const char *const caches[][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
static const char *const cache_ops[][4] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
static const char *const cache_results[][4] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};
#define NCACHES (sizeof(caches) / sizeof(*caches))

/* perf's hw_cache_stat: which (cache, op) pairs exist. */
static int cache_op_valid(unsigned c, unsigned op)
{
	static const unsigned char ok[] = { 7, 5, 7, 7, 1, 1, 7 };	/* bit per op */
	return c < NCACHES && (ok[c] >> op) & 1;
}

/* Length of the longest alias of row that s starts with (case-insensitive)
 * and that ends at a '-' or the end of s; 0 if none. */
static size_t alias_prefix(const char *const *row, size_t nrow, const char *s)
{
	size_t best = 0;

	for (size_t i = 0; i < nrow && row[i]; i++) {
		size_t n = strlen(row[i]);
		if (n > best && !strncasecmp(s, row[i], n) && (s[n] == '-' || !s[n]))
			best = n;
	}
	return best;
}

/* "dTLB-load-misses", "L1-dcache-loads", "l1d-miss", "LLC-prefetches" ->
 * hw-cache config, as perf's parse_events_add_cache: the op defaults to read
 * and the result to access; a cache/op pair perf rejects is rejected. */
static int cache_event(const char *s, unsigned long long *config)
{
	for (unsigned c = 0; c < NCACHES; c++) {
		size_t n = alias_prefix(caches[c], 5, s);
		int op = -1, res = -1, parts = 0;
		const char *p = s + n;

		if (!n)
			continue;
		while (*p == '-' && parts < 2) {
			size_t k;
			p++;
			parts++;
			if (op < 0) {
				for (unsigned o = 0; o < 3; o++)
					if ((k = alias_prefix(cache_ops[o], 4, p))) {
						op = (int)o;
						p += k;
						break;
					}
				if (op >= 0)
					continue;
			}
			if (res < 0) {
				for (unsigned r = 0; r < 2; r++)
					if ((k = alias_prefix(cache_results[r], 4, p))) {
						res = (int)r;
						p += k;
						break;
					}
				if (res >= 0)
					continue;
			}
			break;
		}
		if (*p || !parts)
			continue;
		if (op < 0)
			op = PERF_COUNT_HW_CACHE_OP_READ;
		if (res < 0)
			res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
		if (!cache_op_valid(c, (unsigned)op))
			return -1;
		*config = c | ((unsigned)op << 8) | ((unsigned long long)res << 16);
		return 0;
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

/* ":u", ":k", ":ukh", ":G", ":H", ":p" as perf's get_event_modifier: a
 * modifier string replaces every exclude bit; the first of u/k/h excludes all
 * three levels and each one named is let in again, likewise the first of G/H
 * for guest and host; u and p exclude the guest unless guest execution is
 * recorded (perf_guest). One thing differs on purpose: with --host or --guest
 * the other side stays excluded unless G/H say otherwise (perf kvm --guest
 * would count the host for "cycles:k"). "p" is passed on as perf does. */
static int modifiers(struct vp_event_spec *e, const char *mods, enum vp_kvm_mode mode,
		     struct vp_error *err)
{
	struct perf_event_attr *a = &e->attr;
	int perf_guest = mode != VP_KVM_HOST;
	int eu = 0, ek = 0, eh = 0, eG = 0, eH = 0, exclude = 0, exclude_GH = 0, precise = 0;

	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_GH && !perf_guest)
				eG = 1;
			eu = 0;
			break;
		case 'k': if (!exclude) exclude = eu = ek = eh = 1; ek = 0; break;
		case 'h': if (!exclude) exclude = eu = ek = eh = 1; eh = 0; break;
		case 'G': if (!exclude_GH) exclude_GH = eG = eH = 1; eG = 0; break;
		case 'H': if (!exclude_GH) exclude_GH = eG = eH = 1; eH = 0; break;
		case 'p':
			precise++;
			if (!exclude_GH)	/* perf: precise sampling wants exclude_guest */
				eG = 1;
			break;
		case 'S': break;
		default:
			return vp_errorf(err, -EINVAL, "event '%s': unknown modifier '%c' (use u, k, h, G, H, p)",
					 e->name, *p);
		}
	}
	if (precise > 3)
		return vp_errorf(err, -EINVAL, "event '%s': at most 3 'p' modifiers", e->name);
	e->levels = exclude;
	e->has_modifiers = 1;
	if (!exclude_GH && mode == VP_KVM_HOST)
		eG = 1;
	if (!exclude_GH && mode == VP_KVM_GUEST)
		eH = 1;
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_guest = eG;
	a->exclude_host = eH;
	a->precise_ip = precise;
	return 0;
}

static int one(const char *tok, enum vp_kvm_mode mode, struct vp_event_spec *e, struct vp_error *err)
{
	char base[160];
	const char *colon;

	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", tok);
	e->attr.size = sizeof(e->attr);
	e->attr.exclude_guest = mode == VP_KVM_HOST;
	e->attr.exclude_host = mode == VP_KVM_GUEST;
	/* sys:event[:mods] for tracepoints; name[:mods] otherwise */
	colon = strchr(tok, ':');
	if (colon && strchr("ukhGHpS", colon[1]) && (strspn(colon + 1, "ukhGHpS") == strlen(colon + 1)) &&
	    colon[1]) {
		snprintf(base, sizeof(base), "%.*s", (int)(colon - tok), tok);
		if (modifiers(e, colon + 1, mode, err) < 0)
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
		unsigned long long cfg;
		int known = cache_event(sys, &cfg) == 0;
		for (size_t i = 0; !known && i < sizeof(symbolic) / sizeof(*symbolic); i++)
			known = !strcmp(sys, symbolic[i].name);
		if (known)	/* "cpu-clock:q": a known event with a bad modifier */
			return vp_errorf(err, -EINVAL, "event '%s': unknown modifier '%s' (use u, k, h, "
					 "G, H, p)", tok, colon + 1);
		if (tracepoint(e, sys, ev, err) < 0)
			return -ENOENT;
		return *mods ? modifiers(e, mods, mode, err) : 0;
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
	return vp_events_parse_kvm(spec, VP_KVM_BOTH, out, n, err);
}

int vp_events_parse_kvm(const char *spec, enum vp_kvm_mode mode, struct vp_event_spec **out,
			size_t *n, struct vp_error *err)
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
		r = one(tok, mode, &v[k], err);
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

int vp_events_add(struct vp_event_spec **ev, size_t *n, const char *spec, int callchain,
		  struct vp_error *err)
{
	struct vp_event_spec *more, *all;
	size_t k;
	int r;

	if ((r = vp_events_parse(spec, &more, &k, err)) < 0)
		return r;
	if (!(all = realloc(*ev, (*n + k) * sizeof(*all)))) {
		free(more);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < k; i++)
		more[i].callchain = callchain;
	if (k)
		memcpy(all + *n, more, k * sizeof(*more));
	free(more);
	*ev = all;
	*n += k;
	return 0;
}

void vp_events_each_name(void (*fn)(const char *name, const char *kind, void *ctx), void *ctx)
{
	char buf[96];

	for (size_t i = 0; i < sizeof(symbolic) / sizeof(*symbolic); i++)
		fn(symbolic[i].name, symbolic[i].type == PERF_TYPE_HARDWARE ? "Hardware event"
									     : "Software event", ctx);
	static const char *const plural[] = { "loads", "stores", "prefetches" };
	for (size_t c = 0; c < NCACHES; c++)
		for (unsigned op = 0; op < 3; op++) {
			if (!cache_op_valid((unsigned)c, op))
				continue;
			snprintf(buf, sizeof(buf), "%s-%s", caches[c][0], plural[op]);
			fn(buf, "Hardware cache event", ctx);
			snprintf(buf, sizeof(buf), "%s-%s-misses", caches[c][0], cache_ops[op][0]);
			fn(buf, "Hardware cache event", ctx);
		}
}
