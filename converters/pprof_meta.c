/* A profile's metadata as pprof comments and back: one table of keys, so
 * what the writer says the reader understands (`go tool pprof -comments`
 * shows them to people). */
#include "pprof.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { STR, INT, U64, SECONDS };

static const struct key {
	const char *name;
	enum kind kind;
	size_t off;
} keys[] = {
	{ "label", STR, offsetof(struct vp_profile_meta, label) },
	{ "host", STR, offsetof(struct vp_profile_meta, hostname) },
	{ "kernel", STR, offsetof(struct vp_profile_meta, osrelease) },
	{ "arch", STR, offsetof(struct vp_profile_meta, arch) },
	{ "cpu", STR, offsetof(struct vp_profile_meta, cpudesc) },
	{ "cpus", INT, offsetof(struct vp_profile_meta, nr_cpus) },
	{ "command", STR, offsetof(struct vp_profile_meta, cmdline) },
	{ "perf version", STR, offsetof(struct vp_profile_meta, perf_version) },
	{ "vmprof version", STR, offsetof(struct vp_profile_meta, vmprof_version) },
	{ "hypervisor", STR, offsetof(struct vp_profile_meta, hypervisor) },
	{ "duration", SECONDS, offsetof(struct vp_profile_meta, duration) },
	{ "cpu time", SECONDS, offsetof(struct vp_profile_meta, cpu_time) },
	{ "steal", SECONDS, offsetof(struct vp_profile_meta, steal_time) },
	{ "lost samples", U64, offsetof(struct vp_profile_meta, lost_samples) },
};

int vp_pprof_meta_comments(const struct vp_profile_meta *m, int (*fn)(void *ctx, const char *line),
			   void *ctx)
{
	const char *base = (const char *)m;
	char line[4096];
	int r;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct key *k = &keys[i];
		const void *f = base + k->off;
		const char *s;
		int n = -1;

		switch (k->kind) {
		case STR:
			memcpy(&s, f, sizeof(s));
			if (s && *s)
				n = snprintf(line, sizeof(line), "%s: %s", k->name, s);
			break;
		case INT:
			if (*(const int *)f >= 0)
				n = snprintf(line, sizeof(line), "%s: %d", k->name, *(const int *)f);
			break;
		case U64:
			if (*(const uint64_t *)f)
				n = snprintf(line, sizeof(line), "%s: %" PRIu64, k->name,
					     *(const uint64_t *)f);
			break;
		case SECONDS:
			if (*(const double *)f >= 0)
				n = snprintf(line, sizeof(line), "%s: %.6f s", k->name, *(const double *)f);
			break;
		}
		if (n > 0 && (r = fn(ctx, line)) < 0)
			return r;
	}
	return 0;
}

void vp_pprof_meta_parse(const char *line, struct vp_profile_meta *m, struct vp_strpool *pool)
{
	char *base = (char *)m;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct key *k = &keys[i];
		size_t n = strlen(k->name);
		const char *v = line + n + 2;
		char *end;

		if (strncmp(line, k->name, n) || line[n] != ':' || line[n + 1] != ' ' || !*v)
			continue;
		if (k->kind == STR) {
			const char *s = vp_strpool_intern(pool, v);
			if (s)
				memcpy(base + k->off, &s, sizeof(s));
		} else if (k->kind == SECONDS) {
			double d = strtod(v, &end);
			/* a hostile "nan" or "1e999" is no duration */
			if (end != v && !strcmp(end, " s") && d >= 0 && d < 1e12)
				*(double *)(base + k->off) = d;
		} else {
			unsigned long long u;
			if (*v < '0' || *v > '9')
				return;
			u = strtoull(v, &end, 10);
			if (*end)
				return;
			if (k->kind == U64)
				*(uint64_t *)(base + k->off) = u;
			else if (u <= 1u << 20)
				*(int *)(base + k->off) = (int)u;
		}
		return;
	}
}
