/* Helpers for the fuzz targets (see fuzz.h). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/error.h"

static void drop(const char *msg, void *ctx)
{
	(void)msg;
	(void)ctx;
}

void vp_fuzz_quiet(void)
{
	vp_set_warn_handler(drop, NULL);
}

const char *vp_fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/vmprof-fuzz-%d.in", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	return path;
}
