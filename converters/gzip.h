/* gzip in and out (zlib), for formats that travel compressed: pprof's
 * profile.proto. Input is untrusted: inflating stops at a size cap. */
#ifndef VP_GZIP_H
#define VP_GZIP_H

#include <stddef.h>
#include <stdio.h>

#include "lib/util/error.h"

/* The gzip magic (1f 8b). */
int vp_gzip_is(const void *data, size_t len);
/* Inflate every member (gzip -c a b > c concatenates them) into a malloc'd,
 * NUL-terminated buffer of at most max bytes: -EFBIG past it, -EINVAL for
 * cut or corrupt data, err naming path. partial: stop quietly at max, a cut
 * or bad data (sniffing a file's head). */
int vp_gunzip(const char *path, const void *data, size_t len, size_t max, int partial,
	      unsigned char **out, size_t *outlen, struct vp_error *err);
/* Write len bytes to f gzipped; deterministic (no name or time in the
 * header). 0, -EIO or -ENOMEM. */
int vp_gzip_write(FILE *f, const void *data, size_t len);

#endif
