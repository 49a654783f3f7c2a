/* perf's event names (tools/perf/util/evsel.c: evsel__hw_names,
 * evsel__sw_names, evsel__hw_cache*, evsel__add_modifiers). */
#include <stdio.h>
#include <string.h>

#include "evname.h"
#include "perfdata.h"

const char *const vp_hw_event_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
const size_t vp_hw_event_count = sizeof(vp_hw_event_names) / sizeof(vp_hw_event_names[0]);

const char *const vp_sw_event_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};
const size_t vp_sw_event_count = sizeof(vp_sw_event_names) / sizeof(vp_sw_event_names[0]);

const char *const vp_hw_cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};
const size_t vp_hw_cache_count = sizeof(vp_hw_cache_names) / sizeof(vp_hw_cache_names[0]);
const char *const vp_hw_cache_op_names[] = { "load", "store", "prefetch" };
const char *const vp_hw_cache_op_plural[] = { "loads", "stores", "prefetches" };
const char *const vp_hw_cache_result_names[] = { "refs", "misses" };

static size_t add_modifiers(const struct perf_event_attr *a, char *bf, size_t size)
{
	size_t r = 0;
	int colon = 0, guest_default = 0;

#define MOD(ctx, c) do { if (!a->exclude_##ctx && r + 2 < size) { \
		if (!colon) { colon = 1; bf[r++] = ':'; } bf[r++] = (c); } } while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(kernel, 'k');
		MOD(user, 'u');
		MOD(hv, 'h');
		guest_default = 1;
	}
	if (a->precise_ip) {
		if (!colon && r + 1 < size) {
			colon = 1;
			bf[r++] = ':';
		}
		for (unsigned i = 0; i < a->precise_ip && i < 3 && r + 1 < size; i++)
			bf[r++] = 'p';
		guest_default = 1;
	}
	if (a->exclude_host || (int)a->exclude_guest == guest_default) {
		MOD(host, 'H');
		MOD(guest, 'G');
	}
#undef MOD
	bf[r < size ? r : size - 1] = '\0';
	return r;
}

void vp_event_name_from_attr(const struct perf_event_attr *a, char *buf, size_t size)
{
	size_t n;

	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		if (a->config < vp_hw_event_count)
			snprintf(buf, size, "%s", vp_hw_event_names[a->config]);
		else
			snprintf(buf, size, "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		if (a->config < vp_sw_event_count)
			snprintf(buf, size, "%s", vp_sw_event_names[a->config]);
		else
			snprintf(buf, size, "unknown-software");
		break;
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, size, "tracepoint:%llu", (unsigned long long)a->config);
		break;
	case PERF_TYPE_HW_CACHE: {
		unsigned type = a->config & 0xff, op = (a->config >> 8) & 0xff,
			 res = (a->config >> 16) & 0xff;
		if (type >= vp_hw_cache_count || op > 2 || res > 1)
			snprintf(buf, size, "invalid-cache");
		else if (res)
			snprintf(buf, size, "%s-%s-%s", vp_hw_cache_names[type], vp_hw_cache_op_names[op],
				 vp_hw_cache_result_names[res]);
		else
			snprintf(buf, size, "%s-%s", vp_hw_cache_names[type], vp_hw_cache_op_plural[op]);
		break;
	}
	case PERF_TYPE_RAW:
		snprintf(buf, size, "r%llx", (unsigned long long)a->config);
		break;
	case PERF_TYPE_BREAKPOINT:
		snprintf(buf, size, "mem:0x%llx", (unsigned long long)a->bp_addr);
		break;
	default:
		snprintf(buf, size, "pmu%u/config=0x%llx/", a->type, (unsigned long long)a->config);
		break;
	}
	n = strlen(buf);
	if (n < size)
		add_modifiers(a, buf + n, size - n);
}
