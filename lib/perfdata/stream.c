/* A sequential reader over a file region or a pipe that hands out whole
 * records (perf's pipe streams and the data of files that cannot be mapped),
 * and raw payload bytes that follow a record (tracing data, aux data). */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RECORD	(1u << 16)	/* perf_event_header.size is a u16 */
/* A pipe's buffer to begin with: a read from a pipe gives at most what the
 * pipe holds (64 KiB by default), so a bigger one fills no faster; it grows
 * when a record's payload asks for more. */
#define PIPE_START	(256u << 10)

int vp_stream_init(struct vp_stream *s, int fd, int seekable, uint64_t offset, uint64_t limit)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->seekable = seekable;
	s->buf_offset = offset;
	s->limit = limit;
	/* No bigger than what is there to read: a 4 MiB buffer for a file of a
	 * few kB cost a fresh mapping per open (under ASan, its shadow too:
	 * 14 ms per open of a 12 kB file on a machine whose page faults are
	 * dear, 2026-12-02). */
	s->cap = VP_STREAM_CHUNK;
	if (!seekable)
		s->cap = PIPE_START;
	else if (limit > offset && limit - offset < s->cap)
		s->cap = (size_t)(limit - offset);
	s->cap += MAX_RECORD;
	s->buf = malloc(s->cap);
	s->bounce = malloc(MAX_RECORD);
	if (!s->buf || !s->bounce) {
		vp_stream_free(s);
		return -ENOMEM;
	}
	if (seekable)
		posix_fadvise(fd, (off_t)offset, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

void vp_stream_free(struct vp_stream *s)
{
	free(s->buf);
	free(s->bounce);
	s->buf = NULL;
	s->bounce = NULL;
}

/* Make at least `want` bytes available at head, or as many as remain.
 * want is at most VP_STREAM_CHUNK + MAX_RECORD. */
static int stream_fill(struct vp_stream *s, size_t want)
{
	if (s->tail - s->head >= want)
		return 0;
	if (want > s->cap) {
		uint8_t *b = realloc(s->buf, VP_STREAM_CHUNK + MAX_RECORD);
		if (!b)
			return -ENOMEM;
		s->buf = b;
		s->cap = VP_STREAM_CHUNK + MAX_RECORD;
	}
	if (s->head) {
		memmove(s->buf, s->buf + s->head, s->tail - s->head);
		s->buf_offset += s->head;
		s->tail -= s->head;
		s->head = 0;
	}
	while (s->tail < want && !s->eof) {
		uint64_t pos = s->buf_offset + s->tail;
		size_t room = s->cap - s->tail;
		ssize_t r;

		if (pos >= s->limit) {
			s->eof = 1;
			break;
		}
		if (room > s->limit - pos)
			room = (size_t)(s->limit - pos);
		if (room > VP_STREAM_CHUNK)
			room = VP_STREAM_CHUNK;
		r = s->seekable ? pread(s->fd, s->buf + s->tail, room, (off_t)pos)
				: read(s->fd, s->buf + s->tail, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			s->eof = 1;
		s->tail += (size_t)r;
	}
	return 0;
}

int vp_stream_next(struct vp_stream *s, const struct perf_event_header **rec, uint64_t *off,
		   struct vp_error *err, const char *path)
{
	struct perf_event_header h;
	int r;

	if ((r = stream_fill(s, sizeof(h))) < 0)
		return vp_errorf(err, r, "'%s': read error: %s", path, strerror(-r));
	*off = s->buf_offset + s->head;
	if (s->tail == s->head)
		return 0;
	if (s->tail - s->head < sizeof(h))
		return -EPIPE;
	memcpy(&h, s->buf + s->head, sizeof(h));
	if (h.size < sizeof(h))
		return vp_errorf(err, -EINVAL, "'%s': record of size %u at offset %llu (type %u)", path,
				 h.size, (unsigned long long)*off, h.type);
	if ((r = stream_fill(s, h.size)) < 0)
		return vp_errorf(err, r, "'%s': read error: %s", path, strerror(-r));
	if (s->tail - s->head < h.size)
		return -EPIPE;
	/* perf's pipe streams hold records of any size (feature records of 84
	 * bytes): one that sits misaligned is handed out from an aligned copy. */
	if (s->head % 8) {
		memcpy(s->bounce, s->buf + s->head, h.size);
		*rec = (const struct perf_event_header *)s->bounce;
	} else {
		*rec = (const struct perf_event_header *)(s->buf + s->head);
	}
	s->head += h.size;
	return 1;
}

int vp_stream_read(struct vp_stream *s, void *dst, uint64_t n)
{
	while (n) {
		size_t chunk = n > VP_STREAM_CHUNK ? VP_STREAM_CHUNK : (size_t)n;
		int r = stream_fill(s, chunk);
		if (r < 0)
			return r;
		if (s->tail - s->head < chunk)
			return -ENODATA;
		if (dst) {
			memcpy(dst, s->buf + s->head, chunk);
			dst = (char *)dst + chunk;
		}
		s->head += chunk;
		n -= chunk;
	}
	return 0;
}
