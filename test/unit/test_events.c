/* Event specs parsed as perf parses them. Oracle one: the attr perf 6.1
 * builds for plain perf (printed by `perf stat -vv` before it opens the
 * event, so even events this machine cannot open are compared) against ours
 * with --host; the one intended difference is that --host keeps the guest
 * excluded when modifiers do not name G/H (perf lets ":k" count the guest).
 * Oracle two: `perf kvm --host --guest record` (both sides, vmprof's default)
 * with perf evlist -v, every exclude bit equal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/record/events.h"

struct want {
	unsigned long long type, config, exclude_user, exclude_kernel, exclude_hv, exclude_guest,
		exclude_host, precise_ip;
};

/* The first perf_event_attr block perf prints for spec; 0 when perf ran. */
static int perf_attr(const char *spec, struct want *w)
{
	char cmd[512], line[512];
	FILE *p;
	int in = 0, seen = 0;

	memset(w, 0, sizeof(*w));
	snprintf(cmd, sizeof(cmd), "perf stat -vv -e '%s' true 2>&1", spec);
	if (!(p = popen(cmd, "r")))
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char key[64];
		unsigned long long v;
		if (!strncmp(line, "perf_event_attr:", 16)) {
			in = !seen;
			seen = 1;
			continue;
		}
		if (!in)
			continue;
		if (line[0] == '-') {
			in = 0;
			continue;
		}
		if (sscanf(line, " %63s %lli", key, &v) != 2)
			continue;
#define F(name) if (!strcmp(key, #name)) w->name = v;
		F(type) F(config) F(exclude_user) F(exclude_kernel) F(exclude_hv) F(exclude_guest)
		F(exclude_host) F(precise_ip)
#undef F
	}
	return pclose(p) == -1 || !seen ? -1 : 0;
}

static void specs_give_the_attrs_perf_gives(void **state)
{
	static const char *const specs[] = {
		"cpu-clock", "task-clock:u", "page-faults:k", "faults", "minor-faults:uk",
		"major-faults", "cs", "context-switches:G", "cpu-migrations:H", "migrations:GH",
		"alignment-faults:h", "emulation-faults", "dummy", "cycles", "cycles:u",
		"instructions:kG", "cache-misses", "cache-references", "branch-instructions",
		"branches", "branch-misses", "bus-cycles", "ref-cycles", "cpu-cycles:p",
		"stalled-cycles-frontend", "dTLB-load-misses", "dTLB-stores", "L1-dcache-loads",
		"l1d-load-miss", "L1-dcache-store-misses", "LLC-prefetch-misses", "iTLB-load-misses",
		"L1-icache-loads", "node-loads", "LLC-misses", "Data-TLB-read-miss", "bpu-loads",
		"r1a2", "r003c:u", "sched:sched_switch", "sched:sched_switch:k",
		"syscalls:sys_exit_read:u",
	};
	struct want w;
	(void)state;

	if (perf_attr("cpu-clock", &w) < 0 || w.type != PERF_TYPE_SOFTWARE)
		skip();
	for (size_t i = 0; i < sizeof(specs) / sizeof(*specs); i++) {
		struct vp_event_spec *ev;
		size_t n;
		struct vp_error err = { 0 };

		assert_int_equal(perf_attr(specs[i], &w), 0);
		if (vp_events_parse_kvm(specs[i], VP_KVM_HOST, &ev, &n, &err) < 0)
			fail_msg("%s: %s", specs[i], err.msg);
		assert_int_equal(n, 1);
		const struct perf_event_attr *a = &ev[0].attr;
		const char *mods = strrchr(specs[i], ':');
		if (!mods || !strpbrk(mods, "GH"))
			w.exclude_guest = 1;
		if (a->type != w.type || a->config != w.config || a->exclude_user != w.exclude_user ||
		    a->exclude_kernel != w.exclude_kernel || a->exclude_hv != w.exclude_hv ||
		    a->exclude_guest != w.exclude_guest || a->exclude_host != w.exclude_host ||
		    a->precise_ip != w.precise_ip)
			fail_msg("%s: ours type %u config %#llx u%u k%u h%u G%u H%u p%u, perf's type %llu "
				 "config %#llx u%llu k%llu h%llu G%llu H%llu p%llu", specs[i], a->type,
				 (unsigned long long)a->config, a->exclude_user, a->exclude_kernel,
				 a->exclude_hv, a->exclude_guest, a->exclude_host, a->precise_ip, w.type,
				 w.config, w.exclude_user, w.exclude_kernel, w.exclude_hv, w.exclude_guest,
				 w.exclude_host, w.precise_ip);
		free(ev);
	}
}

/* perf evlist -v line "NAME: type: 1, size: 128, config: 0x2, ..., exclude_hv: 1, ..." */
static unsigned long long field(const char *line, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), " %s: ", key);
	p = strstr(line, k);
	return p ? strtoull(p + strlen(k), NULL, 0) : 0;
}

static void both_sides_give_the_exclude_bits_perf_kvm_gives(void **state)
{
	static const char list[] = "page-faults:k,cpu-clock:u,cpu-clock,cpu-clock:p,task-clock:G,"
				   "cs:H,minor-faults:uG,major-faults:kh,sched:sched_switch:u,"
				   "sched:sched_wakeup";
	char dir[] = "/tmp/vp-evkvm-XXXXXX", cmd[512], line[4096];
	struct vp_event_spec *ev;
	size_t n, k = 0;
	struct vp_error err = { 0 };
	FILE *p;
	(void)state;

	if (!mkdtemp(dir))
		skip();
	snprintf(cmd, sizeof(cmd), "perf kvm --host --guest record -q -e '%s' -o %s/k.data true "
		 ">/dev/null 2>&1 && perf evlist -v -i %s/k.data 2>/dev/null", list, dir, dir);
	assert_int_equal(vp_events_parse(list, &ev, &n, &err), 0);
	if (!(p = popen(cmd, "r")))
		skip();
	while (fgets(line, sizeof(line), p) && k < n) {
		const struct perf_event_attr *a = &ev[k].attr;
		if (!strstr(line, ": type: "))
			continue;
		/* perf drops a tracepoint's modifier from its name */
		size_t nl = (size_t)(strstr(line, ": type: ") - line);
		if (strncmp(line, ev[k].name, nl))
			fail_msg("perf lists '%.40s' where we have '%s'", line, ev[k].name);
		if (a->type != field(line, "type") || a->config != field(line, "config") ||
		    a->exclude_user != field(line, "exclude_user") ||
		    a->exclude_kernel != field(line, "exclude_kernel") ||
		    a->exclude_hv != field(line, "exclude_hv") ||
		    a->exclude_guest != field(line, "exclude_guest") ||
		    a->exclude_host != field(line, "exclude_host"))
			fail_msg("%s: ours u%u k%u h%u G%u H%u, perf's: %s", ev[k].name, a->exclude_user,
				 a->exclude_kernel, a->exclude_hv, a->exclude_guest, a->exclude_host, line);
		k++;
	}
	pclose(p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(ev);
	if (k == 0)
		skip();	/* perf kvm could not record here */
	assert_int_equal(k, n);
}

static void lists_repeat_and_kvm_modes_apply_before_modifiers(void **state)
{
	struct vp_event_spec *ev;
	size_t n;
	struct vp_error err = { 0 };
	(void)state;

	assert_int_equal(vp_events_parse_kvm("cpu-clock,cpu-clock:u,page-faults:G", VP_KVM_GUEST, &ev,
					     &n, &err), 0);
	assert_int_equal(n, 3);
	assert_true(ev[0].attr.exclude_host && !ev[0].attr.exclude_guest);
	assert_true(ev[1].attr.exclude_kernel && !ev[1].attr.exclude_user);
	assert_true(ev[2].attr.exclude_host && !ev[2].attr.exclude_guest);
	free(ev);
	/* Default: both executions, told apart by cpumode. */
	assert_int_equal(vp_events_parse("cpu-clock,cpu-clock:H", &ev, &n, &err), 0);
	assert_true(!ev[0].attr.exclude_host && !ev[0].attr.exclude_guest);
	assert_true(!ev[1].attr.exclude_host && ev[1].attr.exclude_guest);
	free(ev);
}

static void bad_specs_name_the_event(void **state)
{
	static const char *const bad[][2] = {
		{ "bogus-event", "event 'bogus-event': unknown event" },
		{ "cpu-clock:q", "event 'cpu-clock:q': unknown modifier" },
		{ "L1-icache-stores", "event 'L1-icache-stores': unknown event" },
		{ "cycles:pppp", "event 'cycles:pppp': at most 3" },
		{ "rxyz", "event 'rxyz': unknown event" },
		{ "sched:no_such_tracepoint_here", "event 'sched:no_such_tracepoint_here': no such tracepoint" },
		{ "cpu-clock,,page-faults", NULL },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct vp_event_spec *ev = NULL;
		size_t n;
		struct vp_error err = { 0 };
		int r = vp_events_parse(bad[i][0], &ev, &n, &err);
		if (!bad[i][1]) {	/* perf tolerates nothing here either, but we only ask no crash */
			free(ev);
			continue;
		}
		if (r >= 0)
			fail_msg("'%s' was accepted", bad[i][0]);
		if (!strstr(err.msg, bad[i][1]))
			fail_msg("'%s': message '%s' lacks '%s'", bad[i][0], err.msg, bad[i][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(specs_give_the_attrs_perf_gives),
		cmocka_unit_test(both_sides_give_the_exclude_bits_perf_kvm_gives),
		cmocka_unit_test(lists_repeat_and_kvm_modes_apply_before_modifiers),
		cmocka_unit_test(bad_specs_name_the_event),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
