/* perf.data header reader: file header, attrs with their ids, feature
 * sections; pipe-mode streams get the same view from their leading records. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

/* ---- evsels and the id map ---- */

static int ids_insert(struct vp_perfdata *pd, uint64_t id, size_t evsel)
{
	if ((pd->nids + 1) * 2 > pd->ids_cap) {
		size_t cap = pd->ids_cap ? pd->ids_cap * 2 : 64;
		struct vp_id_slot *n = calloc(cap, sizeof(*n));
		if (!n)
			return -ENOMEM;
		for (size_t i = 0; i < pd->ids_cap; i++) {
			if (!pd->ids[i].evsel_plus1)
				continue;
			size_t j = vp_hash_u64(pd->ids[i].id) & (cap - 1);
			while (n[j].evsel_plus1)
				j = (j + 1) & (cap - 1);
			n[j] = pd->ids[i];
		}
		free(pd->ids);
		pd->ids = n;
		pd->ids_cap = cap;
	}
	size_t j = vp_hash_u64(id) & (pd->ids_cap - 1);
	while (pd->ids[j].evsel_plus1) {
		if (pd->ids[j].id == id)
			return 0;	/* first attr claiming an id wins, as in perf's hash */
		j = (j + 1) & (pd->ids_cap - 1);
	}
	pd->ids[j] = (struct vp_id_slot){ id, (uint32_t)evsel + 1 };
	pd->nids++;
	return 0;
}

const struct vp_evsel *vp_pd_evsel_by_id(const struct vp_perfdata *pd, uint64_t id)
{
	if (!pd->ids_cap)
		return NULL;
	for (size_t j = vp_hash_u64(id) & (pd->ids_cap - 1); pd->ids[j].evsel_plus1;
	     j = (j + 1) & (pd->ids_cap - 1))
		if (pd->ids[j].id == id)
			return pd->evsels[pd->ids[j].evsel_plus1 - 1];
	return NULL;
}

int vp_pd_add_evsel(struct vp_perfdata *pd, const void *attr, uint64_t attr_size,
		    const uint64_t *ids, uint64_t nids, struct vp_error *err)
{
	struct vp_evsel *ev, **grown;
	uint32_t size;
	char name[256];

	if (pd->nevsels >= VP_MAX_EVSELS)
		return vp_errorf(err, -E2BIG, "'%s': more than %d events", pd->path, VP_MAX_EVSELS);
	if (attr_size < PERF_ATTR_SIZE_VER0)
		return vp_errorf(err, -EINVAL, "'%s': event attribute of %llu bytes is too small",
				 pd->path, (unsigned long long)attr_size);
	memcpy(&size, (const char *)attr + offsetof(struct perf_event_attr, size), sizeof(size));
	/* perf writes the attr's own size; 0 means the oldest ABI (64 bytes). */
	if (size == 0)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > attr_size || size % 8)
		return vp_errorf(err, -EINVAL,
				 "'%s': event attribute size %u is not one perf writes", pd->path, size);
	if (nids > VP_MAX_IDS)
		return vp_errorf(err, -E2BIG, "'%s': event with %llu ids", pd->path,
				 (unsigned long long)nids);

	ev = calloc(1, sizeof(*ev));
	grown = realloc(pd->evsels, (pd->nevsels + 1) * sizeof(*pd->evsels));
	if (grown)
		pd->evsels = grown;
	struct vp_layout *lay = realloc(pd->layouts, (pd->nevsels + 1) * sizeof(*lay));
	if (lay)
		pd->layouts = lay;
	if (!ev || !grown || !lay) {
		free(ev);
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
	}
	memcpy(&ev->attr, attr, size < sizeof(ev->attr) ? size : sizeof(ev->attr));
	ev->attr.size = sizeof(ev->attr);
	ev->file_attr_size = size;
	ev->index = pd->nevsels;
	if (nids) {
		ev->ids = malloc(nids * sizeof(*ev->ids));
		if (!ev->ids) {
			free(ev);
			return vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
		}
		memcpy(ev->ids, ids, nids * sizeof(*ev->ids));
		ev->nids = nids;
	}
	vp_event_name_from_attr(&ev->attr, name, sizeof(name));
	ev->name = vp_strpool_intern(pd->pool, name);
	pd->evsels[pd->nevsels++] = ev;
	for (uint64_t i = 0; i < nids; i++)
		if (ids_insert(pd, ids[i], ev->index) < 0)
			return vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
	return 0;
}

/* perf's id positions (evsel__calc_id_pos / __perf_evsel__calc_is_pos). */
static int calc_id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
	       !!(st & PERF_SAMPLE_ADDR);
	return idx;
}

static int calc_is_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return 1 + !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_STREAM_ID);
}

static void compute_layout(const struct perf_event_attr *a, struct vp_layout *l)
{
	uint64_t st = a->sample_type;
	int8_t n = 0;

#define POS(bit) ((st & (bit)) ? n++ : -1)
	l->id = (st & PERF_SAMPLE_IDENTIFIER) ? n++ : -1;
	l->ip = POS(PERF_SAMPLE_IP);
	l->tid = POS(PERF_SAMPLE_TID);
	l->time = POS(PERF_SAMPLE_TIME);
	l->addr = POS(PERF_SAMPLE_ADDR);
	if (st & PERF_SAMPLE_ID)
		l->id = n++;
	l->stream_id = POS(PERF_SAMPLE_STREAM_ID);
	l->cpu = POS(PERF_SAMPLE_CPU);
	l->period = POS(PERF_SAMPLE_PERIOD);
#undef POS
	l->fixed = (uint8_t)n;
	l->variable = !!(st & (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW));
}

void vp_pd_finish_evsels(struct vp_perfdata *pd)
{
	for (size_t i = 0; i < pd->nevsels; i++)
		compute_layout(&pd->evsels[i]->attr, &pd->layouts[i]);
	pd->id_pos = pd->is_pos = -1;
	pd->layout_mixed = 0;
	if (!pd->nevsels)
		return;
	pd->id_pos = calc_id_pos(pd->evsels[0]->attr.sample_type);
	pd->is_pos = calc_is_pos(pd->evsels[0]->attr.sample_type);
	pd->uniform = 1;
	for (size_t i = 1; i < pd->nevsels; i++) {
		if (calc_id_pos(pd->evsels[i]->attr.sample_type) != pd->id_pos ||
		    calc_is_pos(pd->evsels[i]->attr.sample_type) != pd->is_pos)
			pd->layout_mixed = 1;
		if (pd->evsels[i]->attr.sample_type != pd->evsels[0]->attr.sample_type)
			pd->uniform = 0;
	}
}

/* ---- feature sections ---- */

struct cursor {
	const uint8_t *p, *end;
};

static int cur_u32(struct cursor *c, uint32_t *v)
{
	if (c->end - c->p < 4)
		return -1;
	memcpy(v, c->p, 4);
	c->p += 4;
	return 0;
}

/* perf_header_string: u32 len (padded, includes the NUL), then the bytes. */
static const char *cur_string(struct cursor *c, struct vp_strpool *pool)
{
	uint32_t len;

	if (cur_u32(c, &len) < 0 || (uint64_t)(c->end - c->p) < len)
		return NULL;
	const char *s = (const char *)c->p;
	c->p += len;
	return vp_strpool_intern_n(pool, s, strnlen(s, len));
}

static int parse_event_desc(struct vp_perfdata *pd, const uint8_t *data, uint64_t size)
{
	struct cursor c = { data, data + size };
	uint32_t nre, sz;

	if (cur_u32(&c, &nre) < 0 || cur_u32(&c, &sz) < 0 || sz < PERF_ATTR_SIZE_VER0)
		return -1;
	for (uint32_t i = 0; i < nre; i++) {
		uint32_t nr_ids;
		uint64_t id0 = 0;
		const char *name;

		if ((uint64_t)(c.end - c.p) < sz)
			return -1;
		c.p += sz;
		if (cur_u32(&c, &nr_ids) < 0 || !(name = cur_string(&c, pd->pool)))
			return -1;
		if ((uint64_t)(c.end - c.p) / 8 < nr_ids)
			return -1;
		if (nr_ids)
			memcpy(&id0, c.p, 8);
		c.p += (uint64_t)nr_ids * 8;

		struct vp_evsel *ev = NULL;
		const struct vp_evsel *byid = nr_ids ? vp_pd_evsel_by_id(pd, id0) : NULL;
		if (byid)
			ev = pd->evsels[byid->index];
		else if (i < pd->nevsels)
			ev = pd->evsels[i];
		if (ev && name[0])
			ev->name = name;
	}
	return 0;
}

int vp_pd_parse_build_ids(struct vp_perfdata *pd, const uint8_t *data, uint64_t size)
{
	uint64_t off = 0;

	while (size - off >= sizeof(struct perf_event_header) + 4 + 24) {
		struct perf_event_header h;
		struct vp_build_id b = { 0 };
		struct vp_build_id *grown;

		memcpy(&h, data + off, sizeof(h));
		if (h.size < sizeof(h) + 4 + 24 || h.size > size - off)
			return -1;
		if (pd->nbuild_ids >= VP_MAX_BUILD_IDS)
			return -1;
		memcpy(&b.pid, data + off + 8, 4);
		memcpy(b.id, data + off + 12, 20);
		b.misc = h.misc;
		/* PERF_RECORD_MISC_BUILD_ID_SIZE: the real length is stored after the bytes. */
		b.size = (h.misc & (1 << 15)) ? data[off + 32] : 20;
		if (b.size > 20)
			b.size = 20;
		const char *fn = (const char *)data + off + 36;
		b.filename = vp_strpool_intern_n(pd->pool, fn, strnlen(fn, h.size - 36));
		if (!b.filename)
			return -1;
		if (pd->nbuild_ids == pd->capbuild_ids) {
			size_t cap = pd->capbuild_ids ? pd->capbuild_ids * 2 : 16;
			if (!(grown = realloc(pd->build_ids, cap * sizeof(*grown))))
				return -1;
			pd->build_ids = grown;
			pd->capbuild_ids = cap;
		}
		pd->build_ids[pd->nbuild_ids++] = b;
		off += h.size;
	}
	return 0;
}

int vp_pd_parse_feature(struct vp_perfdata *pd, unsigned bit, const uint8_t *data, uint64_t size,
			struct vp_error *err)
{
	struct vp_feature *f = &pd->feat[bit];
	uint8_t *copy;
	int r = 0;

	if (bit >= VP_HEADER_FEAT_BITS)
		return 0;
	if (size > VP_MAX_FEATURE_SIZE)
		return vp_errorf(err, -E2BIG, "'%s': feature section %u of %llu bytes", pd->path, bit,
				 (unsigned long long)size);
	copy = malloc(size ? size : 1);
	if (!copy)
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
	memcpy(copy, data, size);
	free(f->data);
	f->data = copy;
	f->size = size;
	f->present = 1;
	if (bit == VP_FEAT_EVENT_DESC)
		r = parse_event_desc(pd, copy, size);
	else if (bit == VP_FEAT_BUILD_ID)
		r = vp_pd_parse_build_ids(pd, copy, size);
	if (r < 0)
		vp_warn("'%s': feature section %u is malformed; ignored", pd->path, bit);
	return 0;
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
		extern int vp_pd_open_pipe(struct vp_perfdata *pd, struct vp_error *err);
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

int vp_perfdata_has_feature(const struct vp_perfdata *pd, unsigned bit)
{
	return bit < VP_HEADER_FEAT_BITS && pd->feat[bit].present;
}

int vp_perfdata_feature(const struct vp_perfdata *pd, unsigned bit, const void **data,
			uint64_t *size)
{
	if (!vp_perfdata_has_feature(pd, bit))
		return -ENOENT;
	*data = pd->feat[bit].data;
	*size = pd->feat[bit].size;
	return 0;
}

const struct vp_build_id *vp_perfdata_build_ids(const struct vp_perfdata *pd, size_t *n)
{
	*n = pd->nbuild_ids;
	return pd->build_ids;
}

static const char *feat_string(const struct vp_perfdata *pd, unsigned bit, struct vp_strpool *pool)
{
	struct cursor c;

	if (!vp_perfdata_has_feature(pd, bit))
		return NULL;
	c = (struct cursor){ pd->feat[bit].data, pd->feat[bit].data + pd->feat[bit].size };
	return cur_string(&c, pool);
}

void vp_perfdata_sample_time(const struct vp_perfdata *pd, uint64_t *first, uint64_t *last)
{
	*first = *last = 0;
	if (vp_perfdata_has_feature(pd, VP_FEAT_SAMPLE_TIME) && pd->feat[VP_FEAT_SAMPLE_TIME].size >= 16) {
		memcpy(first, pd->feat[VP_FEAT_SAMPLE_TIME].data, 8);
		memcpy(last, pd->feat[VP_FEAT_SAMPLE_TIME].data + 8, 8);
	}
}

/* vmprof's own section: "key=value" lines; unknown keys are skipped, so
 * newer recorders stay readable. Values are bounded by the section. */
static void vmprof_meta(const struct vp_perfdata *pd, struct vp_profile_meta *m, struct vp_strpool *pool)
{
	const char *p, *end;

	if (!vp_perfdata_has_feature(pd, VP_FEAT_VMPROF_META))
		return;
	p = (const char *)pd->feat[VP_FEAT_VMPROF_META].data;
	end = p + pd->feat[VP_FEAT_VMPROF_META].size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eq;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char key[32], val[1024];
		if ((eq = memchr(p, '=', n)) && (size_t)(eq - p) < sizeof(key)) {
			size_t vn = n - (size_t)(eq - p) - 1;
			snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
			snprintf(val, sizeof(val), "%.*s", (int)(vn < sizeof(val) ? vn : sizeof(val) - 1), eq + 1);
			val[strcspn(val, "\0")] = '\0';
			char *e;
			double d = strtod(val, &e);
			int num = *val && !*e && d >= 0;
			if (!strcmp(key, "vmprof-version"))
				m->vmprof_version = vp_strpool_intern(pool, val);
			else if (!strcmp(key, "label"))
				m->label = vp_strpool_intern(pool, val);
			else if (!strcmp(key, "hypervisor"))
				m->hypervisor = vp_strpool_intern(pool, val);
			else if (!strcmp(key, "start-time") && num)
				m->start_time = (int64_t)d;
			else if (!strcmp(key, "duration") && num)
				m->duration = d;
			else if (!strcmp(key, "steal-time") && num)
				m->steal_time = d;
			else if (!strcmp(key, "cpu-time") && num)
				m->cpu_time = d;
		}
		p += n + 1;
	}
}

void vp_perfdata_meta(const struct vp_perfdata *pd, struct vp_profile_meta *m,
		      struct vp_strpool *pool)
{
	uint64_t first, last;

	m->source = vp_strpool_intern(pool, pd->path);
	m->hostname = feat_string(pd, VP_FEAT_HOSTNAME, pool);
	m->osrelease = feat_string(pd, VP_FEAT_OSRELEASE, pool);
	m->perf_version = feat_string(pd, VP_FEAT_VERSION, pool);
	m->arch = feat_string(pd, VP_FEAT_ARCH, pool);
	m->cpudesc = feat_string(pd, VP_FEAT_CPUDESC, pool);
	if (vp_perfdata_has_feature(pd, VP_FEAT_NRCPUS) && pd->feat[VP_FEAT_NRCPUS].size >= 8) {
		uint32_t online;
		memcpy(&online, pd->feat[VP_FEAT_NRCPUS].data + 4, 4);
		m->nr_cpus = (int)online;
	}
	if (vp_perfdata_has_feature(pd, VP_FEAT_CMDLINE)) {
		const struct vp_feature *f = &pd->feat[VP_FEAT_CMDLINE];
		struct cursor c = { f->data, f->data + f->size };
		uint32_t nr;
		char buf[4096];
		size_t len = 0;

		buf[0] = '\0';
		if (cur_u32(&c, &nr) == 0) {
			for (uint32_t i = 0; i < nr && i < 4096; i++) {
				const char *s = cur_string(&c, pool);
				if (!s)
					break;
				len += (size_t)snprintf(buf + len, len < sizeof(buf) ? sizeof(buf) - len : 0,
							"%s%s", i ? " " : "", s);
				if (len >= sizeof(buf))
					break;
			}
			m->cmdline = vp_strpool_intern(pool, buf);
		}
	}
	vp_perfdata_sample_time(pd, &first, &last);
	if (last > first)
		m->duration = (double)(last - first) / 1e9;
	m->lost_samples = pd->stats.lost_samples;
	vmprof_meta(pd, m, pool);
}
