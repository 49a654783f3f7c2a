/* Shared by the unit tests: the ELF fixtures, built on first use by
 * test/fixtures/elf/build.sh into BUILD/fixtures/elf (BUILD found from the
 * test binary's own path, build/test/x or build/san/test/x). */
#include "fixtures.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/perfdata/write.h"
#include "lib/profile/stacktree.h"

const char *vp_test_elf_fixtures(void)
{
	static char dir[PATH_MAX];
	static int state;	/* 0 untried, 1 ready, 77 tools missing, -1 failed */
	char exe[PATH_MAX], cmd[3 * PATH_MAX + 128];
	ssize_t n;
	char *p;

	if (state == 1)
		return dir;
	if (state == 77)
		skip();
	if (state < 0)
		fail_msg("the ELF fixtures could not be built");
	state = -1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 64);
	if (n <= 0)
		fail_msg("cannot read /proc/self/exe");
	exe[n] = '\0';
	for (int up = 0; up < 2; up++)	/* drop "/test_x", then "/test" */
		if ((p = strrchr(exe, '/')))
			*p = '\0';
	p = strrchr(exe, '/');
	if (p && !strcmp(p, "/san"))
		*p = '\0';
	snprintf(dir, sizeof(dir), "%.*s/fixtures/elf", (int)(sizeof(dir) - 64), exe);
	/* run from the source tree's root, as make does */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && test/fixtures/elf/build.sh '%s' >'%s.log' 2>&1",
		 dir, dir, dir);
	int rc = system(cmd);
	if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 77) {
		state = 77;
		fprintf(stderr, "fixtures: a tool is missing, see %s.log\n", dir);
		skip();
	}
	if (rc != 0)
		fail_msg("fixtures: '%s' failed, see %s.log", cmd, dir);
	state = 1;
	return dir;
}

char *vp_test_fixture(const char *name)
{
	static char path[2 * PATH_MAX];
	const char *dir = vp_test_elf_fixtures();

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

int vp_test_mkdtemp(char *dir, const char *tag)
{
	snprintf(dir, 64, "/tmp/vp-%.16s-XXXXXX", tag);
	return mkdtemp(dir) ? 0 : -1;
}

int vp_test_rmtree(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

void vp_test_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

void vp_test_cpu_clock_attr(struct perf_event_attr *a)
{
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 1000;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			 PERF_SAMPLE_PERIOD;
	a->sample_id_all = 1;
}

size_t vp_test_sample(void *buf, uint16_t misc, uint64_t ip, uint64_t time, uint32_t pid,
		      uint32_t cpu, uint64_t period)
{
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time;
		uint32_t cpu, res;
		uint64_t period;
	} s = { { PERF_RECORD_SAMPLE, misc, sizeof(s) }, ip, pid, pid, time, cpu, 0, period };

	memcpy(buf, &s, sizeof(s));
	return sizeof(s);
}

size_t vp_test_sample_chain(void *buf, uint16_t misc, uint64_t ip, uint64_t time, uint32_t pid,
			    uint32_t cpu, uint64_t period, const uint64_t *chain, uint64_t nr)
{
	uint8_t *p = buf;
	size_t n = vp_test_sample(p, misc, ip, time, pid, cpu, period);
	size_t size = n + sizeof(nr) + nr * sizeof(*chain);
	uint16_t size16 = (uint16_t)size;

	assert_true(size <= UINT16_MAX);
	memcpy(p + n, &nr, sizeof(nr));
	memcpy(p + n + sizeof(nr), chain, nr * sizeof(*chain));
	memcpy(p + offsetof(struct perf_event_header, size), &size16, sizeof(size16));
	return size;
}

void vp_test_put_sample(struct vp_pdw *w, uint16_t misc, uint64_t ip, uint64_t time, uint32_t pid)
{
	uint8_t s[64];
	size_t n = vp_test_sample(s, misc, ip, time, pid, 0, 1000);

	assert_int_equal(vp_pdw_write(w, s, n), 0);
}

void vp_test_stack_add(struct vp_stack_tree *t, size_t col, const char *spec, uint64_t samples,
		       uint64_t period)
{
	struct vp_strpool *pool = vp_stack_tree_pool(t);
	struct vp_stack_step steps[32];
	const char *comm = NULL;
	char buf[1024];
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *save = NULL, *s = strtok_r(buf, ";", &save); s && n < 32; s = strtok_r(NULL, ";", &save)) {
		if (!comm)
			comm = vp_strpool_intern(pool, s);
		else
			steps[n++] = (struct vp_stack_step){ vp_strpool_intern(pool, s), NULL, '.' };
	}
	if (vp_stack_tree_add(t, col, comm, steps, n, samples, period) != 0)
		fail_msg("cannot add '%s' to the tree", spec);
}
