/* Line reader over a fixed buffer (see lines.h). */
#include "lines.h"
#include "readahead.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int vp_lines_open(struct vp_lines *r, const char *path, size_t cap)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (cap < 2)
		cap = 2;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	r->buf = malloc(cap);
	if (!r->buf) {
		close(r->fd);
		r->fd = -1;
		return -ENOMEM;
	}
	r->cap = cap;
	return 0;
}

void vp_lines_read_ahead(struct vp_lines *r)
{
	if (r->fd >= 0 && !r->ahead)
		r->ahead = vp_readahead_start(r->fd);
}

void vp_lines_close(struct vp_lines *r)
{
	vp_readahead_stop(r->ahead);	/* before its fd goes */
	r->ahead = NULL;
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	r->fd = -1;
	r->buf = NULL;
}

/* Move the unread tail to the front and read more after it; 0 at EOF. */
static int fill(struct vp_lines *r)
{
	ssize_t n;

	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	do
		n = r->ahead ? vp_readahead_read(r->ahead, r->buf + r->end, r->cap - 1 - r->end)
			     : read(r->fd, r->buf + r->end, r->cap - 1 - r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r->end += (size_t)n;
	if (n == 0)
		r->eof = 1;
	return (int)(n > 0);
}

/* Past the tail of an over-long line returned last time: 1, 0 at the end,
 * < 0 on a read error. Out of line: inlined, gcc read the buffer for the
 * '\n' here before testing skip_rest and again for the line itself, two
 * memchr calls a line (callgrind, a 121k-line kallsyms copy). */
static __attribute__((noinline)) int skip_rest(struct vp_lines *r)
{
	int rc;

	while (r->skip_rest) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl) {
			r->start = (size_t)(nl - r->buf) + 1;
			r->skip_rest = 0;
			break;
		}
		r->start = r->end;
		if (r->eof)
			return 0;
		if ((rc = fill(r)) <= 0)
			return rc;
	}
	return 1;
}

int vp_lines_next(struct vp_lines *r, char **line, size_t *len, int *truncated, int *had_nl)
{
	size_t scanned = 0;
	int rc;

	if (r->skip_rest && (rc = skip_rest(r)) <= 0)
		return rc;
	for (;;) {
		char *p = r->buf + r->start;
		char *nl = memchr(p + scanned, '\n', r->end - r->start - scanned);
		if (nl) {
			*len = (size_t)(nl - p);
			*nl = '\0';
			r->start += *len + 1;
			*line = p;
			*truncated = 0;
			*had_nl = 1;
			return 1;
		}
		scanned = r->end - r->start;
		if (r->eof || scanned >= r->cap - 1) {
			if (scanned == 0)
				return 0;
			p[scanned] = '\0';
			*line = p;
			*len = scanned;
			*had_nl = 0;
			*truncated = !r->eof;
			r->start = r->end;
			r->skip_rest = !r->eof;
			return 1;
		}
		/* scanned stays valid: fill() moves the unread part to the front */
		if ((rc = fill(r)) < 0)
			return rc;
	}
}
