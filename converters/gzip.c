/* gzip in and out with zlib (see gzip.h). */
#include "gzip.h"

#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

int vp_gzip_is(const void *data, size_t len)
{
	const unsigned char *d = data;

	return len >= 2 && d[0] == 0x1f && d[1] == 0x8b;
}

int vp_gunzip(const char *path, const void *data, size_t len, size_t max, int partial,
	      unsigned char **out, size_t *outlen, struct vp_error *err)
{
	const unsigned char *in = data;
	int full = !partial;
	z_stream z = { 0 };
	size_t cap = len * 4 < max ? (len * 4 > 4096 ? len * 4 : 4096) : max;
	unsigned char *buf = malloc(cap + 1);
	size_t n = 0;
	int r = Z_OK;

	if (!buf || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(buf);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	z.next_in = (unsigned char *)in;
	while (1) {
		/* zlib counts in uInt: feed at most 1 GiB at a time */
		size_t left_in = len - (size_t)(z.next_in - in);
		if (!z.avail_in)
			z.avail_in = left_in > (1u << 30) ? 1u << 30 : (uInt)left_in;
		if (n == cap) {
			if (cap >= max) {
				inflateEnd(&z);
				if (!full)
					break;
				free(buf);
				return vp_errorf(err, -EFBIG, "'%s': decompresses to more than %zu MiB "
						 "(a gzip bomb?)", path, max >> 20);
			}
			size_t nc = cap * 2 < max ? cap * 2 : max;
			unsigned char *nb = realloc(buf, nc + 1);
			if (!nb) {
				inflateEnd(&z);
				free(buf);
				return vp_errorf(err, -ENOMEM, "out of memory");
			}
			buf = nb;
			cap = nc;
		}
		size_t room = cap - n > (1u << 30) ? 1u << 30 : cap - n;
		z.next_out = buf + n;
		z.avail_out = (uInt)room;
		r = inflate(&z, Z_NO_FLUSH);
		n += room - z.avail_out;
		if (r == Z_STREAM_END) {
			size_t rest = len - (size_t)(z.next_in - in);
			if (!vp_gzip_is(z.next_in, rest)) {
				inflateEnd(&z);
				/* trailing zeros are padding (tape archives): tolerated as gzip does */
				break;
			}
			inflateReset(&z);
			continue;
		}
		if (r == Z_BUF_ERROR && !z.avail_in && (size_t)(z.next_in - in) == len) {
			inflateEnd(&z);
			if (full) {
				free(buf);
				return vp_errorf(err, -EINVAL, "'%s': truncated gzip data", path);
			}
			break;
		}
		if (r != Z_OK && r != Z_BUF_ERROR) {
			const char *why = z.msg ? z.msg : "corrupt data";
			if (!full) {
				inflateEnd(&z);
				break;
			}
			vp_errorf(err, -EINVAL, "'%s': bad gzip data: %s", path, why);
			inflateEnd(&z);
			free(buf);
			return -EINVAL;
		}
	}
	buf[n] = 0;
	*out = buf;
	*outlen = n;
	return 0;
}

int vp_gzip_write(FILE *f, const void *data, size_t len)
{
	const unsigned char *buf = data;
	unsigned char out[65536];
	z_stream z = { 0 };
	int r, flush;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)buf;
	do {
		size_t left = len - (size_t)(z.next_in - buf);
		z.avail_in = left > (1u << 30) ? 1u << 30 : (uInt)left;
		flush = left == z.avail_in ? Z_FINISH : Z_NO_FLUSH;
		do {
			z.next_out = out;
			z.avail_out = sizeof(out);
			r = deflate(&z, flush);
			size_t n = sizeof(out) - z.avail_out;
			if (n && fwrite(out, 1, n, f) != n) {
				deflateEnd(&z);
				return -EIO;
			}
		} while (z.avail_out == 0);
	} while (flush != Z_FINISH);
	deflateEnd(&z);
	return r == Z_STREAM_END ? 0 : -EIO;
}
