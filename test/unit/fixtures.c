/* Shared by the unit tests: the ELF fixtures, built on first use by
 * test/fixtures/elf/build.sh into BUILD/fixtures/elf (BUILD found from the
 * test binary's own path, build/test/x or build/san/test/x). */
#include "fixtures.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *vp_test_elf_fixtures(void)
{
	static char dir[PATH_MAX];
	static int state;	/* 0 untried, 1 ready, -1 failed */
	char exe[PATH_MAX], cmd[2 * PATH_MAX + 128];
	ssize_t n;
	char *p;

	if (state)
		return state > 0 ? dir : NULL;
	state = -1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 64);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	for (int up = 0; up < 2; up++)	/* drop "/test_x", then "/test" */
		if ((p = strrchr(exe, '/')))
			*p = '\0';
	p = strrchr(exe, '/');
	if (p && !strcmp(p, "/san"))
		*p = '\0';
	if (snprintf(dir, sizeof(dir), "%.*s/fixtures/elf", (int)(sizeof(dir) - 64), exe) < 0)
		return NULL;
	/* run from the source tree's root, as make does */
	snprintf(cmd, sizeof(cmd), "test/fixtures/elf/build.sh '%s' >'%s.log' 2>&1", dir, dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "fixtures: '%s' failed, see %s.log\n", cmd, dir);
		return NULL;
	}
	state = 1;
	return dir;
}

char *vp_test_fixture(const char *name)
{
	static char path[2 * PATH_MAX];
	const char *dir = vp_test_elf_fixtures();

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}
