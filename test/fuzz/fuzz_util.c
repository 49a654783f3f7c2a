/* Helpers for the fuzz targets (see fuzz.h). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util/error.h"

static void drop(const char *msg, void *ctx)
{
	(void)msg;
	(void)ctx;
}

void vp_fuzz_quiet(void)
{
	vp_set_warn_handler(drop, NULL);
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

const char *vp_fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/vmprof-fuzz-%d.in", (int)getpid());
	write_file(path, data, size);
	return path;
}

const char *vp_fuzz_file_named(const char *name, const uint8_t *data, size_t size)
{
	static char dir[64], path[192];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/vmprof-fuzz-%d.d", (int)getpid());
		if (mkdir(dir, 0700) < 0 && access(dir, W_OK) < 0)
			abort();
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_file(path, data, size);
	return path;
}
