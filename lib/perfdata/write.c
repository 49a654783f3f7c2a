/* perf.data writer (see perfdata_write.h). Layout: file header, the ids of
 * every event, the attr entries, the data, then the feature sections with
 * their index table, in the order perf's reader expects. */
#include "write.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct vp_pdw {
	FILE *f;
	char *path;
	struct vp_perf_file_header hdr;
	struct vp_pdw_event *ev;
	size_t nev;
	uint64_t data_size;
	size_t trailer;
	int failed;
	int unnamed;	/* an O_TMPFILE file, linked at path once its header is written */
};

/* A file with no name yet in path's directory, so that a recorder killed
 * before the header is whole leaves nothing under path; where the file system
 * has no O_TMPFILE, path itself. Mode 0600 as perf's: a recording holds
 * kernel addresses (samples, kernel symbols) that kptr_restrict hides from
 * other users. */
static FILE *create(const char *path, int *unnamed)
{
	char *copy = strdup(path);
	int fd = -1;

	*unnamed = 0;
	if (copy) {
		fd = open(dirname(copy), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		free(copy);
	}
	if (fd >= 0)
		*unnamed = 1;
	else
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w+");
	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* Give the unnamed file its name (replacing what was there). */
static int publish(struct vp_pdw *w)
{
	char proc[64];
	int fd = fileno(w->f);

	if (!w->unnamed)
		return 0;
	if (unlink(w->path) != 0 && errno != ENOENT)
		return -errno;
	if (linkat(fd, "", AT_FDCWD, w->path, AT_EMPTY_PATH) == 0)
		return 0;
	/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc's link does not */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, w->path, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	return -errno;
}

static int put(struct vp_pdw *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->f) != n) {
		w->failed = errno ? errno : EIO;
		return -w->failed;
	}
	return 0;
}

static int pad_to(struct vp_pdw *w, size_t align)
{
	static const char zero[64];
	long pos = ftell(w->f);
	size_t pad = pos < 0 ? 0 : (align - (size_t)pos % align) % align;
	return put(w, zero, pad);
}

int vp_pdw_open(const char *path, const struct vp_pdw_event *ev, size_t nev, struct vp_pdw **out,
		struct vp_error *err)
{
	struct vp_pdw *w = calloc(1, sizeof(*w));
	uint64_t off, st;
	int r = 0;

	*out = NULL;
	if (!w || !(w->ev = calloc(nev, sizeof(*ev))) || !(w->path = strdup(path))) {
		if (w)
			free(w->ev);
		free(w);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	memcpy(w->ev, ev, nev * sizeof(*ev));
	w->nev = nev;
	if (!(w->f = create(path, &w->unnamed))) {
		r = vp_errorf(err, -errno, "'%s': cannot create: %s", path, strerror(errno));
		free(w->ev);
		free(w->path);
		free(w);
		return r;
	}
	setvbuf(w->f, NULL, _IOFBF, 1 << 20);
	st = ev[0].attr.sample_type;
	w->trailer = 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ID) +
			  !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
			  !!(st & PERF_SAMPLE_IDENTIFIER));

	/* header (rewritten at the end), ids, attrs; data follows */
	w->hdr.magic = VP_PERF_MAGIC2;
	w->hdr.size = sizeof(w->hdr);
	w->hdr.attr_size = sizeof(struct perf_event_attr) + sizeof(struct vp_perf_file_section);
	put(w, &w->hdr, sizeof(w->hdr));
	off = sizeof(w->hdr);
	uint64_t *id_off = calloc(nev, sizeof(*id_off));
	if (!id_off) {
		vp_pdw_close(w);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nev; i++) {
		id_off[i] = off;
		put(w, ev[i].ids, ev[i].nids * sizeof(uint64_t));
		off += ev[i].nids * sizeof(uint64_t);
	}
	w->hdr.attrs.offset = off;
	w->hdr.attrs.size = nev * w->hdr.attr_size;
	for (size_t i = 0; i < nev; i++) {
		struct perf_event_attr a = ev[i].attr;
		struct vp_perf_file_section ids = { id_off[i], ev[i].nids * sizeof(uint64_t) };
		a.size = sizeof(a);
		put(w, &a, sizeof(a));
		put(w, &ids, sizeof(ids));
	}
	free(id_off);
	pad_to(w, 8);
	w->hdr.data.offset = (uint64_t)ftell(w->f);
	w->hdr.data.size = 0;	/* until finished: readers recover up to the last record */
	if (w->failed || fseek(w->f, 0, SEEK_SET) != 0 || put(w, &w->hdr, sizeof(w->hdr)) < 0 ||
	    fflush(w->f) != 0 || fseek(w->f, (long)w->hdr.data.offset, SEEK_SET) != 0) {
		int e = w->failed ? w->failed : errno ? errno : EIO;	/* fseek flushes too */
		r = vp_errorf(err, -e, "'%s': cannot write: %s", path, strerror(e));
		vp_pdw_close(w);
		return r;
	}
	if ((r = publish(w)) < 0) {
		r = vp_errorf(err, r, "'%s': cannot create: %s", path, strerror(-r));
		vp_pdw_close(w);
		return r;
	}
	*out = w;
	return 0;
}

int vp_pdw_write(struct vp_pdw *w, const void *rec, size_t len)
{
	if (w->failed)
		return -w->failed;
	w->data_size += len;
	return put(w, rec, len);
}

size_t vp_pdw_trailer_size(const struct vp_pdw *w)
{
	return w->trailer;
}

uint64_t vp_pdw_data_size(const struct vp_pdw *w)
{
	return w->data_size;
}

/* Record header + fixed part + string padded to 8 + zeroed trailer. */
static int synth(struct vp_pdw *w, uint32_t type, uint16_t misc, const void *fixed, size_t flen,
		 const char *str)
{
	size_t slen = strlen(str) + 1, spad = (slen + 7) & ~(size_t)7;
	size_t total = sizeof(struct perf_event_header) + flen + spad + w->trailer;
	char buf[sizeof(struct perf_event_header) + 128 + 4096 + 64];
	struct perf_event_header h = { type, misc, (uint16_t)total };

	if (flen > 128 || spad > 4096 || total > 0xffff)
		return -EINVAL;
	memset(buf, 0, total);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), fixed, flen);
	memcpy(buf + sizeof(h) + flen, str, slen);
	return vp_pdw_write(w, buf, total);
}

int vp_pdw_comm(struct vp_pdw *w, uint32_t pid, uint32_t tid, const char *comm)
{
	uint32_t f[2] = { pid, tid };
	char c[16];

	snprintf(c, sizeof(c), "%s", comm);
	return synth(w, PERF_RECORD_COMM, 0, f, sizeof(f), c);
}

int vp_pdw_mmap2(struct vp_pdw *w, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t start,
		 uint64_t len, uint64_t pgoff, uint32_t prot, uint32_t flags, const char *filename)
{
	struct {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
	} f = { pid, tid, start, len, pgoff, 0, 0, 0, 0, prot, flags };

	return synth(w, PERF_RECORD_MMAP2, misc, &f, sizeof(f), filename);
}

int vp_pdw_finished_round(struct vp_pdw *w)
{
	struct perf_event_header h = { VP_REC_FINISHED_ROUND, 0, sizeof(h) };
	return vp_pdw_write(w, &h, sizeof(h));
}

/* Header, pid, 24 bytes of id (20, then its size: PERF_RECORD_MISC_BUILD_ID_SIZE),
 * the file name padded to 64 (perf's NAME_ALIGN); in the data, a few bytes
 * more, so the next record starts 8-aligned (perf reads the name to its NUL). */
size_t vp_pd_build_id_record(void *buf, size_t cap, uint32_t type, uint16_t cpumode, int32_t pid,
			     const uint8_t *id, size_t size, const char *filename)
{
	size_t len = strlen(filename) + 1, padded = (len + 63) & ~(size_t)63;
	size_t total = sizeof(struct perf_event_header) + 4 + 24 + padded;

	if (type)
		total = (total + 7) & ~(size_t)7;
	struct perf_event_header h = { type, (uint16_t)(cpumode | (1u << 15)), (uint16_t)total };
	uint8_t *p = buf;

	if (total > cap || total > 0xffff || size > 20)
		return 0;
	memset(p, 0, total);
	memcpy(p, &h, sizeof(h));
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, id, size);
	p[32] = (uint8_t)size;
	memcpy(p + 36, filename, len);
	return total;
}

int vp_pdw_build_id(struct vp_pdw *w, uint16_t cpumode, int32_t pid, const uint8_t *id,
		    size_t size, const char *filename)
{
	uint8_t rec[4200];
	size_t n = vp_pd_build_id_record(rec, sizeof(rec), VP_REC_HEADER_BUILD_ID, cpumode, pid, id,
					 size, filename);

	return n ? vp_pdw_write(w, rec, n) : -EINVAL;
}

/* perf's header string: u32 length (padded to 64, NUL included), bytes. */
static void put_string(struct vp_pdw *w, const char *s)
{
	static const char zero[64];
	uint32_t len = (uint32_t)strlen(s) + 1, padded = (len + 63) & ~63u;

	put(w, &padded, 4);
	put(w, s, len);
	put(w, zero, padded - len);
}

int vp_pdw_flush(struct vp_pdw *w)
{
	if (!w->failed && fflush(w->f) != 0)
		w->failed = errno ? errno : EIO;
	return w->failed ? -w->failed : 0;
}

int vp_pdw_sync(struct vp_pdw *w)
{
	struct vp_perf_file_header h = w->hdr;
	long pos = ftell(w->f);

	h.data.size = w->data_size;
	if (fflush(w->f) != 0 || pwrite(fileno(w->f), &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    pos < 0 || fseek(w->f, pos, SEEK_SET) != 0)
		return -(w->failed = errno ? errno : EIO);
	return 0;
}

int vp_pdw_finish(struct vp_pdw *w, const struct vp_pdw_features *f, struct vp_error *err)
{
	unsigned bits[16];
	size_t nbits = 0;
	struct vp_perf_file_section sec[16];
	long table;
	int e;

	if (fflush(w->f) != 0)
		w->failed = errno;
	w->hdr.data.size = w->data_size;
	if (f->tracing_data)
		bits[nbits++] = VP_FEAT_TRACING_DATA;
	if (f->build_ids && f->build_ids_size)
		bits[nbits++] = VP_FEAT_BUILD_ID;
	if (f->hostname)
		bits[nbits++] = VP_FEAT_HOSTNAME;
	if (f->osrelease)
		bits[nbits++] = VP_FEAT_OSRELEASE;
	if (f->version)
		bits[nbits++] = VP_FEAT_VERSION;
	if (f->arch)
		bits[nbits++] = VP_FEAT_ARCH;
	bits[nbits++] = VP_FEAT_NRCPUS;
	if (f->argc)
		bits[nbits++] = VP_FEAT_CMDLINE;
	bits[nbits++] = VP_FEAT_EVENT_DESC;
	if (f->last_sample_time)
		bits[nbits++] = VP_FEAT_SAMPLE_TIME;
	if (f->vmprof_meta)
		bits[nbits++] = VP_FEAT_VMPROF_META;
	if (f->vmprof_syms)
		bits[nbits++] = VP_FEAT_VMPROF_SYMS;

	/* the index table first (perf reads it at data end), sections after it */
	fseek(w->f, (long)(w->hdr.data.offset + w->data_size), SEEK_SET);
	table = ftell(w->f);
	memset(sec, 0, sizeof(sec));
	put(w, sec, nbits * sizeof(*sec));
	for (size_t i = 0; i < nbits; i++) {
		sec[i].offset = (uint64_t)ftell(w->f);
		switch (bits[i]) {
		case VP_FEAT_TRACING_DATA: put(w, f->tracing_data, f->tracing_size); break;
		case VP_FEAT_BUILD_ID: put(w, f->build_ids, f->build_ids_size); break;
		case VP_FEAT_HOSTNAME: put_string(w, f->hostname); break;
		case VP_FEAT_OSRELEASE: put_string(w, f->osrelease); break;
		case VP_FEAT_VERSION: put_string(w, f->version); break;
		case VP_FEAT_ARCH: put_string(w, f->arch); break;
		case VP_FEAT_NRCPUS:
			put(w, &f->nr_cpus_avail, 4);
			put(w, &f->nr_cpus_online, 4);
			break;
		case VP_FEAT_CMDLINE: {
			uint32_t n = (uint32_t)f->argc;
			put(w, &n, 4);
			for (int a = 0; a < f->argc; a++)
				put_string(w, f->argv[a]);
			break;
		}
		case VP_FEAT_EVENT_DESC: {
			uint32_t n = (uint32_t)w->nev, sz = sizeof(struct perf_event_attr);
			put(w, &n, 4);
			put(w, &sz, 4);
			for (size_t k = 0; k < w->nev; k++) {
				uint32_t nids = (uint32_t)w->ev[k].nids;
				struct perf_event_attr a = w->ev[k].attr;
				a.size = sizeof(a);
				put(w, &a, sizeof(a));
				put(w, &nids, 4);
				put_string(w, w->ev[k].name);
				put(w, w->ev[k].ids, nids * sizeof(uint64_t));
			}
			break;
		}
		case VP_FEAT_SAMPLE_TIME:
			put(w, &f->first_sample_time, 8);
			put(w, &f->last_sample_time, 8);
			break;
		case VP_FEAT_VMPROF_META:
			put(w, f->vmprof_meta, strlen(f->vmprof_meta) + 1);
			break;
		case VP_FEAT_VMPROF_SYMS:
			put(w, f->vmprof_syms, strlen(f->vmprof_syms) + 1);
			break;
		}
		sec[i].size = (uint64_t)ftell(w->f) - sec[i].offset;
		w->hdr.adds_features[bits[i] / 64] |= 1ull << (bits[i] % 64);
	}
	fseek(w->f, table, SEEK_SET);
	put(w, sec, nbits * sizeof(*sec));
	fseek(w->f, 0, SEEK_SET);
	put(w, &w->hdr, sizeof(w->hdr));
	if (fflush(w->f) != 0 && !w->failed)
		w->failed = errno ? errno : EIO;
	if (!w->failed && fsync(fileno(w->f)) != 0 && errno != EINVAL)
		w->failed = errno;
	e = w->failed;
	if (fclose(w->f) != 0 && !e)
		e = errno ? errno : EIO;
	w->f = NULL;
	if (e)
		vp_errorf(err, -e, "'%s': cannot write: %s", w->path, strerror(e));
	vp_pdw_close(w);
	return e ? -e : 0;
}

void vp_pdw_close(struct vp_pdw *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	free(w->ev);
	free(w->path);
	free(w);
}
