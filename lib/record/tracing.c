/* The tracing data section (see tracing.h): systems in first-seen order,
 * each with the formats of its events, as perf writes them. */
#include "tracing.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"

static int put_file(FILE *out, const char *path, int size_bytes)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return -errno;
	do {
		if (n + 4096 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 8192);
			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got > 0);
	fclose(f);
	if (size_bytes == 8) {
		uint64_t sz = n;
		fwrite(&sz, 8, 1, out);
	} else {
		uint32_t sz = (uint32_t)n;
		fwrite(&sz, 4, 1, out);
	}
	fwrite(buf, 1, n, out);
	free(buf);
	return 0;
}

char *vp_tracing_data(const struct vp_event_spec *ev, size_t nev, size_t page_size, size_t *size)
{
	const char *fs = vp_tracefs();
	char *blob = NULL, path[512];
	size_t len = 0;
	FILE *out;
	uint32_t page = (uint32_t)page_size, zero32 = 0, nsys = 0;
	uint64_t zero64 = 0;

	if (!fs || !(out = open_memstream(&blob, &len)))
		return NULL;
	fwrite("\027\010\104tracing", 1, 10, out);
	fwrite("0.6", 1, 4, out);
	fputc(0, out);			/* little endian */
	fputc((int)sizeof(long), out);
	fwrite(&page, 4, 1, out);
	fwrite("header_page", 1, 12, out);
	snprintf(path, sizeof(path), "%s/events/header_page", fs);
	put_file(out, path, 8);
	fwrite("header_event", 1, 13, out);
	snprintf(path, sizeof(path), "%s/events/header_event", fs);
	put_file(out, path, 8);
	fwrite(&zero32, 4, 1, out);	/* no ftrace-internal formats */
	/* systems in first-seen order, each with its events' formats */
	for (size_t i = 0; i < nev; i++) {
		int first = ev[i].tracepoint;
		for (size_t j = 0; j < i && first; j++)
			if (ev[j].tracepoint && !strcmp(ev[j].tp_system, ev[i].tp_system))
				first = 0;
		nsys += first;
	}
	fwrite(&nsys, 4, 1, out);
	for (size_t i = 0; i < nev; i++) {
		int first = ev[i].tracepoint;
		uint32_t count = 0;
		for (size_t j = 0; j < i && first; j++)
			if (ev[j].tracepoint && !strcmp(ev[j].tp_system, ev[i].tp_system))
				first = 0;
		if (!first)
			continue;
		fwrite(ev[i].tp_system, 1, strlen(ev[i].tp_system) + 1, out);
		for (size_t j = i; j < nev; j++)
			count += ev[j].tracepoint && !strcmp(ev[j].tp_system, ev[i].tp_system);
		fwrite(&count, 4, 1, out);
		for (size_t j = i; j < nev; j++)
			if (ev[j].tracepoint && !strcmp(ev[j].tp_system, ev[i].tp_system)) {
				snprintf(path, sizeof(path), "%s/events/%s/%s/format", fs, ev[j].tp_system,
					 ev[j].tp_event);
				put_file(out, path, 8);
			}
	}
	fwrite(&zero32, 4, 1, out);	/* kallsyms */
	fwrite(&zero32, 4, 1, out);	/* printk formats */
	fwrite(&zero64, 8, 1, out);	/* saved cmdlines */
	if (fclose(out) != 0) {
		free(blob);
		return NULL;
	}
	*size = len;
	return blob;
}
