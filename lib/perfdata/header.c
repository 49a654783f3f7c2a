/* Opening a perf.data file: the file header, the attrs with their ids and the
 * feature table (file mode), or the leading header records of a pipe stream
 * (pipe.c); closing it, and the accessors of what was read. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(fd, (char *)buf + done, n - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ENODATA;
		done += (size_t)r;
	}
	return 0;
}

static int in_file(const struct vp_perfdata *pd, uint64_t off, uint64_t size)
{
	return off <= pd->file_size && size <= pd->file_size - off;
}

static int load_features(struct vp_perfdata *pd, struct vp_error *err)
{
	unsigned nfeat = 0;
	uint64_t table;

	for (unsigned b = 0; b < VP_HEADER_FEAT_BITS; b++)
		if (pd->hdr.adds_features[b / 64] >> (b % 64) & 1)
			nfeat++;
	if (!nfeat)
		return 0;
	table = pd->hdr.data.offset + pd->hdr.data.size;
	if (table < pd->hdr.data.offset || !in_file(pd, table, (uint64_t)nfeat * 16)) {
		vp_warn("'%s': feature table lies outside the file; header metadata ignored",
			pd->path);
		return 0;
	}
	unsigned k = 0;
	for (unsigned b = 0; b < VP_HEADER_FEAT_BITS; b++) {
		struct vp_perf_file_section sec;
		uint8_t *buf;

		if (!(pd->hdr.adds_features[b / 64] >> (b % 64) & 1))
			continue;
		if (read_at(pd->fd, &sec, sizeof(sec), table + 16ull * k++) < 0)
			return vp_errorf(err, -EIO, "'%s': cannot read feature table", pd->path);
		if (!in_file(pd, sec.offset, sec.size) || sec.size > VP_MAX_FEATURE_SIZE) {
			vp_warn("'%s': feature section %u lies outside the file; ignored", pd->path, b);
			continue;
		}
		buf = malloc(sec.size ? sec.size : 1);
		if (!buf)
			return vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
		if (read_at(pd->fd, buf, sec.size, sec.offset) < 0) {
			free(buf);
			return vp_errorf(err, -EIO, "'%s': cannot read feature section %u", pd->path, b);
		}
		int r = vp_pd_parse_feature(pd, b, buf, sec.size, err);
		free(buf);
		if (r < 0)
			return r;
		pd->feat[b].offset = sec.offset;
	}
	return 0;
}

/* Build-id records ahead of the first kernel record: vmprof's recorder puts
 * the kernel's there, so a recording whose header was never finished still
 * says which kernel it was made on. Later ones are perf's business only (the
 * walk may be on another thread than the session reading build-ids). */
static void leading_build_ids(struct vp_perfdata *pd)
{
	uint64_t off = pd->data_start;

	for (int i = 0; i < 16 && off + sizeof(struct perf_event_header) <= pd->data_end; i++) {
		struct perf_event_header h;
		uint8_t rec[4096];

		if (read_at(pd->fd, &h, sizeof(h), off) < 0 || h.type < 64 || h.size < sizeof(h) ||
		    h.size > pd->data_end - off)
			return;
		if (h.type == VP_REC_HEADER_BUILD_ID && h.size <= sizeof(rec) &&
		    read_at(pd->fd, rec, h.size, off) == 0 && vp_pd_parse_build_ids(pd, rec, h.size) < 0)
			vp_warn("'%s': malformed build-id record at offset %llu; ignored", pd->path,
				(unsigned long long)off);
		off += h.size;
	}
}

/* ---- open ---- */

static int load_attrs(struct vp_perfdata *pd, struct vp_error *err)
{
	const struct vp_perf_file_header *h = &pd->hdr;
	uint64_t n;

	if (h->attr_size < PERF_ATTR_SIZE_VER0 + 16 || h->attr_size > 4096)
		return vp_errorf(err, -EINVAL, "'%s': attr entry size %llu is not one perf writes",
				 pd->path, (unsigned long long)h->attr_size);
	if (!in_file(pd, h->attrs.offset, h->attrs.size))
		return vp_errorf(err, -EINVAL, "'%s': truncated in the event attributes (file has "
				 "%llu bytes, attrs end at %llu)", pd->path,
				 (unsigned long long)pd->file_size,
				 (unsigned long long)(h->attrs.offset + h->attrs.size));
	if (h->attrs.size % h->attr_size)
		return vp_errorf(err, -EINVAL, "'%s': attribute section of %llu bytes is not a "
				 "multiple of the entry size %llu", pd->path,
				 (unsigned long long)h->attrs.size, (unsigned long long)h->attr_size);
	n = h->attrs.size / h->attr_size;
	if (n == 0)
		return vp_errorf(err, -EINVAL, "'%s': the file records no events", pd->path);
	if (n > VP_MAX_EVSELS)
		return vp_errorf(err, -E2BIG, "'%s': %llu events", pd->path, (unsigned long long)n);

	uint8_t *entry = malloc(h->attr_size);
	if (!entry)
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
	int r = 0;
	for (uint64_t i = 0; i < n && r == 0; i++) {
		struct vp_perf_file_section ids;
		uint64_t *idv = NULL;
		uint64_t nids;

		if (read_at(pd->fd, entry, h->attr_size, h->attrs.offset + i * h->attr_size) < 0) {
			r = vp_errorf(err, -EIO, "'%s': cannot read event attribute %llu", pd->path,
				      (unsigned long long)i);
			break;
		}
		/* Each entry is the attr followed by the section of its ids. */
		memcpy(&ids, entry + h->attr_size - 16, 16);
		if (ids.size % 8 || !in_file(pd, ids.offset, ids.size)) {
			r = vp_errorf(err, -EINVAL, "'%s': ids of event %llu lie outside the file",
				      pd->path, (unsigned long long)i);
			break;
		}
		nids = ids.size / 8;
		if (nids > VP_MAX_IDS) {
			r = vp_errorf(err, -E2BIG, "'%s': event %llu has %llu ids", pd->path,
				      (unsigned long long)i, (unsigned long long)nids);
			break;
		}
		if (nids) {
			idv = malloc(ids.size);
			if (!idv) {
				r = vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
				break;
			}
			if (read_at(pd->fd, idv, ids.size, ids.offset) < 0) {
				free(idv);
				r = vp_errorf(err, -EIO, "'%s': cannot read event ids", pd->path);
				break;
			}
		}
		r = vp_pd_add_evsel(pd, entry, h->attr_size - 16, idv, nids, err);
		free(idv);
	}
	free(entry);
	return r;
}

static int open_file_mode(struct vp_perfdata *pd, struct vp_error *err)
{
	struct vp_perf_file_header *h = &pd->hdr;
	int r;

	if (pd->file_size < sizeof(*h))
		return vp_errorf(err, -EINVAL, "'%s': truncated in the file header (%llu of %zu bytes)",
				 pd->path, (unsigned long long)pd->file_size, sizeof(*h));
	if ((r = read_at(pd->fd, h, sizeof(*h), 0)) < 0)
		return vp_errorf(err, r, "'%s': cannot read the header: %s", pd->path, strerror(-r));
	if (h->size != sizeof(*h))
		return vp_errorf(err, -EINVAL, "'%s': header size %llu is not one perf writes (%zu)",
				 pd->path, (unsigned long long)h->size, sizeof(*h));
	if ((r = load_attrs(pd, err)) < 0)
		return r;
	vp_pd_finish_evsels(pd);

	pd->data_start = h->data.offset;
	if (h->data.offset < sizeof(*h) || h->data.offset > pd->file_size)
		return vp_errorf(err, -EINVAL, "'%s': data section starts at %llu, outside the file",
				 pd->path, (unsigned long long)h->data.offset);
	if (h->data.size == 0) {
		/* The recorder never came back to finish the header (killed): take
		 * every whole record up to the end of the file. */
		pd->stats.recovered = 1;
		pd->data_end = pd->file_size;
		leading_build_ids(pd);
		return 0;
	}
	if (!in_file(pd, h->data.offset, h->data.size))
		return vp_errorf(err, -EINVAL, "'%s': truncated: the data section ends at byte %llu "
				 "but the file has %llu bytes", pd->path,
				 (unsigned long long)(h->data.offset + h->data.size),
				 (unsigned long long)pd->file_size);
	pd->data_end = h->data.offset + h->data.size;
	if ((r = load_features(pd, err)) < 0)
		return r;
	leading_build_ids(pd);
	return 0;
}

int vp_perfdata_open(const char *path, struct vp_perfdata **out, struct vp_error *err)
{
	struct vp_perfdata *pd = calloc(1, sizeof(*pd));
	struct stat st;
	uint64_t magic = 0;
	int r;

	*out = NULL;
	if (!pd || !(pd->path = strdup(path)) || !(pd->pool = vp_strpool_new())) {
		if (pd)
			free(pd->path);
		free(pd);
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", path);
	}
	pd->fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (pd->fd < 0) {
		r = vp_errorf(err, -errno, "'%s': %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(pd->fd, &st) < 0) {
		r = vp_errorf(err, -errno, "'%s': %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		r = vp_errorf(err, -EISDIR, "'%s': is a directory", path);
		goto fail;
	}

	if (S_ISREG(st.st_mode)) {
		pd->file_size = (uint64_t)st.st_size;
		if (pd->file_size == 0) {
			r = vp_errorf(err, -EINVAL, "'%s': empty file", path);
			goto fail;
		}
		if (pd->file_size < 8) {
			r = vp_errorf(err, -EINVAL, "'%s': truncated in the file header (%llu bytes)",
				      path, (unsigned long long)pd->file_size);
			goto fail;
		}
		if ((r = read_at(pd->fd, &magic, 8, 0)) < 0) {
			r = vp_errorf(err, r, "'%s': %s", path, strerror(-r));
			goto fail;
		}
	}

	/* A pipe (stdin) or a regular file holding pipe-format output. */
	if (!S_ISREG(st.st_mode) || pd->file_size == 0) {
		pd->is_pipe = 1;
		pd->file_size = UINT64_MAX;
		r = vp_stream_init(&pd->stream, pd->fd, 0, 0, UINT64_MAX);
		if (r < 0 || vp_stream_read(&pd->stream, &magic, 8) < 0) {
			r = vp_errorf(err, -EINVAL, "'%s': empty input", path);
			goto fail;
		}
	}

	if (magic == VP_PERF_MAGIC2_SWAPPED) {
		r = vp_errorf(err, -ENOTSUP, "'%s': recorded on a machine of the other byte order; "
			      "vmprof reads little-endian files only", path);
		goto fail;
	}
	if (magic == VP_PERF_MAGIC1) {
		r = vp_errorf(err, -ENOTSUP, "'%s': PERFFILE (version 1) format from perf before 2.6.36 "
			      "is not supported", path);
		goto fail;
	}
	if (magic != VP_PERF_MAGIC2) {
		r = vp_errorf(err, -EINVAL, "'%s': not a perf.data file (bad magic)", path);
		goto fail;
	}

	if (!pd->is_pipe) {
		uint64_t hsize = 0;
		if (read_at(pd->fd, &hsize, 8, 8) < 0) {
			r = vp_errorf(err, -EINVAL, "'%s': truncated in the file header", path);
			goto fail;
		}
		if (hsize == sizeof(struct vp_perf_pipe_file_header))
			pd->is_pipe = 1;	/* `perf record -o - > file` */
	}
	if (pd->is_pipe) {
		if (pd->file_size != UINT64_MAX) {
			r = vp_stream_init(&pd->stream, pd->fd, 1, 8, pd->file_size);
			if (r < 0) {
				r = vp_errorf(err, r, "'%s': out of memory", path);
				goto fail;
			}
		}
		r = vp_pd_open_pipe(pd, err);
	} else {
		r = open_file_mode(pd, err);
	}
	if (r < 0)
		goto fail;
	*out = pd;
	return 0;
fail:
	vp_perfdata_close(pd);
	return r;
}

void vp_perfdata_close(struct vp_perfdata *pd)
{
	if (!pd)
		return;
	if (pd->fd >= 0)
		close(pd->fd);
	for (size_t i = 0; i < pd->nevsels; i++) {
		free(pd->evsels[i]->ids);
		free(pd->evsels[i]);
	}
	free(pd->evsels);
	free(pd->layouts);
	free(pd->ids);
	for (unsigned b = 0; b < VP_HEADER_FEAT_BITS; b++)
		free(pd->feat[b].data);
	free(pd->build_ids);
	vp_stream_free(&pd->stream);
	vp_strpool_free(pd->pool);
	free(pd->path);
	free(pd);
}

/* ---- accessors ---- */

const char *vp_perfdata_path(const struct vp_perfdata *pd) { return pd->path; }
int vp_perfdata_is_pipe(const struct vp_perfdata *pd) { return pd->is_pipe; }
size_t vp_perfdata_nevsel(const struct vp_perfdata *pd) { return pd->nevsels; }
const struct vp_perfdata_stats *vp_perfdata_stats(const struct vp_perfdata *pd) { return &pd->stats; }

const struct vp_evsel *vp_perfdata_evsel(const struct vp_perfdata *pd, size_t i)
{
	return i < pd->nevsels ? pd->evsels[i] : NULL;
}

