/* One pass over perf.data records. Records stream through a fixed buffer;
 * records with timestamps are queued and delivered in time order the way
 * perf's ordered_events does it (flush at each FINISHED_ROUND up to the
 * previous round's newest timestamp), so maps and samples meet in the same
 * order as in `perf report`, and the numbers agree. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define STREAM_CHUNK	(4u << 20)
#define MAX_RECORD	(1u << 16)	/* perf_event_header.size is a u16 */
#define QUEUE_MAX_BYTES	(256ull << 20)	/* beyond this, flush half as perf's OE_FLUSH__HALF */
#define RELEASE_STRIDE	(8u << 20)	/* mapped files: drop pages behind us in steps this big */

/* ---- stream ---- */

int vp_stream_init(struct vp_stream *s, int fd, int seekable, uint64_t offset, uint64_t limit)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->seekable = seekable;
	s->buf_offset = offset;
	s->limit = limit;
	s->cap = STREAM_CHUNK + MAX_RECORD;
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

/* Make at least `want` bytes available at head, or as many as remain. */
static int stream_fill(struct vp_stream *s, size_t want)
{
	if (s->tail - s->head >= want)
		return 0;
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
		if (room > STREAM_CHUNK)
			room = STREAM_CHUNK;
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
		size_t chunk = n > STREAM_CHUNK ? STREAM_CHUNK : (size_t)n;
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

/* ---- user records (type >= 64), shared by pipe open and the walk ---- */

static int tracing_data_payload(struct vp_perfdata *pd, const struct perf_event_header *h,
				struct vp_error *err)
{
	uint32_t size;
	uint64_t padded;
	uint8_t *buf;
	int r;

	if (h->size < 12)
		return vp_errorf(err, -EINVAL, "'%s': short tracing data record", pd->path);
	memcpy(&size, (const char *)h + 8, 4);
	padded = ((uint64_t)size + 7) & ~7ull;
	if (padded > VP_MAX_FEATURE_SIZE)
		return vp_errorf(err, -E2BIG, "'%s': tracing data of %u bytes", pd->path, size);
	/* The buffer grows with what arrives, not with what the record claims. */
	uint64_t got = 0, cap = 0;
	buf = NULL;
	while (got < padded) {
		uint64_t chunk = padded - got < STREAM_CHUNK ? padded - got : STREAM_CHUNK;
		if (got + chunk > cap) {
			uint64_t ncap = cap ? cap * 2 : STREAM_CHUNK;
			uint8_t *nb;
			if (ncap > padded)
				ncap = padded;
			if (!(nb = realloc(buf, ncap))) {
				free(buf);
				return vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
			}
			buf = nb;
			cap = ncap;
		}
		if (vp_stream_read(&pd->stream, buf + got, chunk) < 0) {
			free(buf);
			return vp_errorf(err, -EINVAL, "'%s': truncated in the tracing data", pd->path);
		}
		got += chunk;
	}
	r = vp_pd_parse_feature(pd, VP_FEAT_TRACING_DATA, buf ? buf : (const uint8_t *)"", size, err);
	free(buf);
	return r;
}

/* Returns 1 when the record was a header record consumed here. */
static int user_header_record(struct vp_perfdata *pd, const struct perf_event_header *h,
			      struct vp_error *err)
{
	const uint8_t *body = (const uint8_t *)h + sizeof(*h);
	size_t blen = h->size - sizeof(*h);
	int r;

	switch (h->type) {
	case VP_REC_HEADER_ATTR: {
		uint32_t asize;
		if (blen < PERF_ATTR_SIZE_VER0)
			return vp_errorf(err, -EINVAL, "'%s': short attr record", pd->path);
		memcpy(&asize, body + offsetof(struct perf_event_attr, size), 4);
		if (asize == 0)
			asize = PERF_ATTR_SIZE_VER0;
		if (asize > blen || asize % 8)
			return vp_errorf(err, -EINVAL, "'%s': attr record with attr size %u", pd->path,
					 asize);
		uint64_t nids = (blen - asize) / 8;
		uint64_t *ids = nids ? malloc(nids * 8) : NULL;
		if (nids && !ids)
			return vp_errorf(err, -ENOMEM, "'%s': out of memory", pd->path);
		if (nids)
			memcpy(ids, body + asize, nids * 8);
		r = vp_pd_add_evsel(pd, body, asize, ids, nids, err);
		free(ids);
		if (r < 0)
			return r;
		vp_pd_finish_evsels(pd);
		return 1;
	}
	case VP_REC_HEADER_FEATURE: {
		uint64_t bit;
		if (blen < 8)
			return vp_errorf(err, -EINVAL, "'%s': short feature record", pd->path);
		memcpy(&bit, body, 8);
		if (bit < VP_HEADER_FEAT_BITS && (r = vp_pd_parse_feature(pd, (unsigned)bit, body + 8,
									  blen - 8, err)) < 0)
			return r;
		return 1;
	}
	case VP_REC_HEADER_TRACING_DATA:
		if ((r = tracing_data_payload(pd, h, err)) < 0)
			return r;
		return 1;
	case VP_REC_HEADER_BUILD_ID:
		/* file mode: only the leading ones, read at open (header.c) */
		if (!pd->is_pipe)
			return 0;
		if (vp_pd_parse_build_ids(pd, (const uint8_t *)h, h->size) < 0)
			vp_warn_once("malformed build-id record", "'%s': malformed build-id record; "
				     "ignored", pd->path);
		return 1;
	case VP_REC_EVENT_UPDATE: {
		/* perf_record_event_update: u64 type, u64 id, data; types: 0 unit, 1 scale, 2 name, 3 cpus. */
		uint64_t type, id;
		if (blen < 16)
			return 1;
		memcpy(&type, body, 8);
		memcpy(&id, body + 8, 8);
		const struct vp_evsel *ev = vp_pd_evsel_by_id(pd, id);
		if (type == 2 && ev && blen > 16)
			pd->evsels[ev->index]->name = vp_strpool_intern_n(
				pd->pool, (const char *)body + 16, strnlen((const char *)body + 16, blen - 16));
		return 1;
	}
	}
	return 0;
}

int vp_pd_open_pipe(struct vp_perfdata *pd, struct vp_error *err)
{
	uint64_t hsize;
	int r;

	if (vp_stream_read(&pd->stream, &hsize, 8) < 0 || hsize != 16)
		return vp_errorf(err, -EINVAL, "'%s': truncated in the pipe header", pd->path);
	/* perf sends attrs, features and tracing data before any kernel record. */
	for (;;) {
		const struct perf_event_header *h;
		uint64_t off;

		r = vp_stream_next(&pd->stream, &h, &off, err, pd->path);
		if (r == -EPIPE)
			return vp_errorf(err, -EINVAL, "'%s': truncated record at offset %llu", pd->path,
					 (unsigned long long)off);
		if (r < 0)
			return r;
		if (r == 0)
			break;
		if (h->type < 64 || h->type == VP_REC_FINISHED_ROUND) {
			pd->stream.head -= h->size;	/* still in the buffer: the walk starts here */
			break;
		}
		pd->stats.records++;
		if ((r = user_header_record(pd, h, err)) < 0)
			return r;
		if (r == 0)
			pd->stats.skipped_records++;
	}
	if (!pd->nevsels)
		return vp_errorf(err, -EINVAL, "'%s': the stream records no events", pd->path);
	return 0;
}

/* ---- record parsing ---- */

struct ordered {
	uint64_t time, seq;
	uint64_t offset;	/* in the file, for messages */
	size_t pos : 63;	/* in the current arena */
	size_t sample : 1;	/* a PERF_RECORD_SAMPLE: order among samples changes nothing */
};

struct arena {
	uint8_t *mem;
	size_t used, cap;
};

struct walk {
	struct vp_perfdata *pd;
	const struct vp_perf_tool *tool;
	void *ctx;
	struct vp_error *err;

	struct ordered *q;
	size_t nq, capq;
	size_t nothers;		/* queued records that are not samples */
	uint64_t q_low;		/* lowest file offset in the queue (when nq) */
	uint64_t seq;
	struct arena arena[2];
	int cur;
	uint64_t next_flush, max_timestamp, last_flush;
	/* Files are mapped: queued records stay where they are in the mapping
	 * (pos is the file offset) and pages behind the oldest one are dropped,
	 * so memory stays flat. Pipes copy records into the arenas instead. */
	const uint8_t *map;
	size_t map_len;
	uint64_t released;	/* pages below this offset were given back */
	struct vp_pd_idcache ids;
	/* Set by the threaded walk: ordered records go to another thread,
	 * which delivers them with vp_pd_deliver. */
	int (*handoff)(void *hctx, const struct perf_event_header *h, uint64_t offset);
	uint64_t (*in_use_floor)(void *hctx);
	void *hctx;
	/* Like samples are joined only while a flush delivers, and the run ends
	 * with it: a record delivered as it comes may live in the stream buffer. */
	int in_flush;
	struct vp_pd_run run;
};

/* The event of any record, by the id it carries (NULL: no such event). */
static const struct vp_evsel *evsel_of(const struct vp_perfdata *pd, struct vp_pd_idcache *c,
				       const struct perf_event_header *h)
{
	const uint64_t *body = (const uint64_t *)(h + 1);
	size_t n = (h->size - sizeof(*h)) / 8;
	uint64_t id;

	if (pd->nevsels == 1)
		return pd->evsels[0];
	if (h->type != PERF_RECORD_SAMPLE) {
		if (!pd->evsels[0]->attr.sample_id_all)
			return pd->evsels[0];
		if (pd->is_pos < 0 || (size_t)pd->is_pos > n)
			return NULL;
		memcpy(&id, &body[n - pd->is_pos], 8);
	} else {
		if (pd->id_pos < 0 || (size_t)pd->id_pos >= n)
			return NULL;
		memcpy(&id, &body[pd->id_pos], 8);
	}
	if (!id)	/* synthesized records carry id 0 */
		return pd->evsels[0];
	if (id == c->id && c->ev)
		return c->ev;
	c->id = id;
	return c->ev = vp_pd_evsel_by_id(pd, id);
}

/* A sample's event: most samples carry the id of the one before, which is
 * answered here without a call. */
static inline const struct vp_evsel *sample_evsel(const struct vp_perfdata *pd,
						  struct vp_pd_idcache *c,
						  const struct perf_event_header *h)
{
	uint64_t id;

	if (pd->nevsels == 1)
		return pd->evsels[0];
	if (h->type == PERF_RECORD_SAMPLE && pd->id_pos >= 0 &&
	    (size_t)pd->id_pos < (h->size - sizeof(*h)) / 8) {
		memcpy(&id, (const uint64_t *)(h + 1) + pd->id_pos, 8);
		if (id && id == c->id && c->ev)
			return c->ev;
	}
	return evsel_of(pd, c, h);
}

struct id_trailer {
	uint32_t pid, tid, cpu;
	uint64_t time, id, stream_id;
	int has_time;
};

/* The sample_id_all trailer, parsed from the end as perf does. */
static int parse_trailer(const struct vp_evsel *ev, const struct perf_event_header *h,
			 size_t fixed, struct id_trailer *t)
{
	uint64_t st = ev->attr.sample_type;
	size_t n = (h->size - sizeof(*h)) / 8;
	const uint8_t *body = (const uint8_t *)(h + 1);
	size_t need = !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ID) +
		      !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
		      !!(st & PERF_SAMPLE_IDENTIFIER);
	uint64_t v;

	memset(t, 0, sizeof(*t));
	t->time = ~0ull;
	if (!ev->attr.sample_id_all || need * 8 + fixed > h->size - sizeof(*h))
		return -1;
	size_t i = n;
#define TAKE() (memcpy(&v, body + 8 * --i, 8), v)
	if (st & PERF_SAMPLE_IDENTIFIER)
		t->id = TAKE();
	if (st & PERF_SAMPLE_CPU)
		t->cpu = (uint32_t)TAKE();
	if (st & PERF_SAMPLE_STREAM_ID)
		t->stream_id = TAKE();
	if (st & PERF_SAMPLE_ID)
		t->id = TAKE();
	if (st & PERF_SAMPLE_TIME) {
		t->time = TAKE();
		t->has_time = 1;
	}
	if (st & PERF_SAMPLE_TID) {
		v = TAKE();
		t->pid = (uint32_t)v;
		t->tid = (uint32_t)(v >> 32);
	}
#undef TAKE
	return 0;
}

/* Fixed body sizes before any trailer, per record type. */
static size_t fixed_size(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP: return 32;
	case PERF_RECORD_MMAP2: return 64;
	case PERF_RECORD_COMM: return 8;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: return 24;
	case PERF_RECORD_LOST: return 16;
	case PERF_RECORD_LOST_SAMPLES: return 8;
	default: return 0;
	}
}

static int parse_sample(struct vp_perfdata *pd, const struct vp_evsel *ev,
			const struct perf_event_header *h, uint64_t offset, struct vp_sample *s)
{
	const struct vp_layout *l = &pd->layouts[ev->index];
	uint64_t st = ev->attr.sample_type;
	const uint8_t *body = (const uint8_t *)(h + 1), *end = (const uint8_t *)h + h->size;
	const uint8_t *p = body + 8 * l->fixed;
	uint64_t v;

	if ((size_t)(end - body) < 8u * l->fixed)
		return -1;
	s->evsel = ev;
	s->misc = h->misc;
	s->offset = offset;
	s->count = 1;
	s->nr_callchain = 0;
	s->callchain = NULL;
	s->raw_size = 0;
	s->raw = NULL;
#define AT(i) (memcpy(&v, body + 8 * (i), 8), v)
	s->id = l->id >= 0 ? AT(l->id) : 0;
	s->ip = l->ip >= 0 ? AT(l->ip) : 0;
	if (l->tid >= 0) {
		v = AT(l->tid);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	} else {
		s->pid = s->tid = UINT32_MAX;
	}
	s->time = l->time >= 0 ? AT(l->time) : 0;
	s->addr = l->addr >= 0 ? AT(l->addr) : 0;
	s->stream_id = l->stream_id >= 0 ? AT(l->stream_id) : 0;
	s->cpu = l->cpu >= 0 ? (uint32_t)AT(l->cpu) : UINT32_MAX;
	/* Without PERIOD in the sample perf takes the attr's value, even in freq mode. */
	s->period = l->period >= 0 ? AT(l->period) : ev->attr.sample_period;
#undef AT
	if (!l->variable)
		return 0;
#define GET(x) do { if (end - p < 8) return -1; memcpy(&v, p, 8); p += 8; (x) = v; } while (0)
	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = ev->attr.read_format, nr = 1, per;
		per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		if (rf & PERF_FORMAT_GROUP)
			GET(nr);
		else
			per = 0, nr = 0, p += 8;	/* value */
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			p += 8;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			p += 8;
		if (!(rf & PERF_FORMAT_GROUP))
			p += 8 * (!!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
		if (p > end || nr > (uint64_t)(end - p) / 8 || per * nr > (uint64_t)(end - p) / 8)
			return -1;
		p += 8 * per * nr;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		GET(s->nr_callchain);
		if (s->nr_callchain > (uint64_t)(end - p) / 8)
			return -1;
		s->callchain = (const uint64_t *)p;
		p += 8 * s->nr_callchain;
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t rs;
		if (end - p < 4)
			return -1;
		memcpy(&rs, p, 4);
		if (rs > (uint64_t)(end - p) - 4)
			return -1;
		s->raw_size = rs;
		s->raw = p + 4;
		p += 4 + rs;
	}
#undef GET
	return 0;
}

static uint64_t record_time(struct vp_perfdata *pd, struct vp_pd_idcache *c,
			    const struct perf_event_header *h)
{
	const struct vp_evsel *ev = sample_evsel(pd, c, h);
	struct id_trailer t;

	if (!ev || !(ev->attr.sample_type & PERF_SAMPLE_TIME))
		return ~0ull;
	if (h->type == PERF_RECORD_SAMPLE) {
		uint64_t st = ev->attr.sample_type, v;
		size_t idx = !!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
			     !!(st & PERF_SAMPLE_TID);
		if ((idx + 1) * 8 > h->size - sizeof(*h))
			return ~0ull;
		memcpy(&v, (const uint8_t *)(h + 1) + idx * 8, 8);
		return v;
	}
	if (parse_trailer(ev, h, fixed_size(h->type), &t) < 0 || !t.has_time)
		return ~0ull;
	return t.time;
}

static void copy_str(char *dst, size_t cap, const uint8_t *src, size_t avail)
{
	size_t n = strnlen((const char *)src, avail);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void vp_pd_idcache_fold(struct vp_perfdata *pd, struct vp_pd_idcache *c)
{
	pd->stats.samples += c->samples;
	pd->stats.unknown_id += c->unknown_id;
	pd->stats.skipped_records += c->skipped;
	c->samples = c->unknown_id = c->skipped = 0;
}

/* 1 when sample h may join sample prev (see struct vp_pd_run), with *period
 * h's period. */
static int sample_repeats(const struct vp_perfdata *pd, struct vp_pd_idcache *ids,
			  const struct perf_event_header *prev, const struct perf_event_header *h,
			  uint64_t *period)
{
	const struct vp_evsel *ev = NULL;
	const struct vp_layout *l;
	const uint64_t *a = (const uint64_t *)(prev + 1), *b = (const uint64_t *)(h + 1);

	if (h->type != PERF_RECORD_SAMPLE || prev->type != PERF_RECORD_SAMPLE ||
	    h->size != prev->size || h->misc != prev->misc)
		return 0;
	/* One id, one event: with several events every sample carries its id. */
	if (pd->nevsels > 1 && (pd->id_pos < 0 || (size_t)pd->id_pos >= (h->size - sizeof(*h)) / 8 ||
				a[pd->id_pos] != b[pd->id_pos]))
		return 0;
	if (pd->uniform)
		l = &pd->layouts[0];
	else if ((ev = sample_evsel(pd, ids, h)))
		l = &pd->layouts[ev->index];
	else
		return 0;
	if (l->variable || (size_t)(h->size - sizeof(*h)) < 8u * l->fixed)
		return 0;
	/* Records are 8-byte aligned in the mapping (mapped_next checks). */
	if ((l->ip >= 0 && a[l->ip] != b[l->ip]) || (l->tid >= 0 && a[l->tid] != b[l->tid]) ||
	    (l->addr >= 0 && a[l->addr] != b[l->addr]) ||
	    (l->stream_id >= 0 && a[l->stream_id] != b[l->stream_id]))
		return 0;
	if (l->period >= 0)
		*period = b[l->period];
	else if (ev || (ev = sample_evsel(pd, ids, h)))
		*period = ev->attr.sample_period;
	else
		*period = 0;	/* no such event: the sample is dropped with prev */
	return 1;
}

/* One record; a sample stands for itself and repeats like ones after it. */
static int deliver_record(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
			  struct vp_pd_idcache *ids, const struct perf_event_header *h,
			  uint64_t offset, uint64_t repeats, uint64_t repeat_period,
			  struct vp_error *err)
{
	const uint8_t *body = (const uint8_t *)(h + 1);
	size_t blen = h->size - sizeof(*h);
	const struct vp_evsel *ev = sample_evsel(pd, ids, h);
	struct id_trailer t = { .time = ~0ull };
	char name[PATH_MAX + 1];
	uint32_t u32s[4];

	if (h->type == PERF_RECORD_SAMPLE) {
		struct vp_sample s;
		if (!ev) {
			ids->unknown_id += 1 + repeats;
			return 0;
		}
		if (parse_sample(pd, ev, h, offset, &s) < 0)
			return vp_errorf(err, -EINVAL, "'%s': malformed sample at offset %llu "
					 "(shorter than its sample_type says)", pd->path,
					 (unsigned long long)offset);
		s.count += repeats;
		s.period += repeat_period;
		ids->samples += s.count;
		return tool->sample ? tool->sample(ctx, &s) : 0;
	}

	if (blen < fixed_size(h->type))
		return vp_errorf(err, -EINVAL, "'%s': record of type %u at offset %llu is too short",
				 pd->path, h->type, (unsigned long long)offset);
	if (ev)
		parse_trailer(ev, h, fixed_size(h->type), &t);

	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		struct vp_mmap_event m = { 0 };
		size_t fn = h->type == PERF_RECORD_MMAP ? 32 : 64;
		if (blen < fn + 1)
			return vp_errorf(err, -EINVAL, "'%s': mmap record at offset %llu is too short",
					 pd->path, (unsigned long long)offset);
		memcpy(u32s, body, 8);
		m.pid = u32s[0];
		m.tid = u32s[1];
		memcpy(&m.start, body + 8, 8);
		memcpy(&m.len, body + 16, 8);
		memcpy(&m.pgoff, body + 24, 8);
		m.misc = h->misc;
		m.time = t.time;
		if (h->type == PERF_RECORD_MMAP2) {
			m.is_mmap2 = 1;
			memcpy(&m.prot, body + 56, 4);
			memcpy(&m.flags, body + 60, 4);
			if (h->misc & VP_MISC_MMAP_BUILD_ID) {
				m.build_id_size = body[32] > 20 ? 20 : body[32];
				memcpy(m.build_id, body + 36, 20);
			}
		}
		copy_str(name, sizeof(name), body + fn, blen - fn);
		m.filename = name;
		return tool->mmap ? tool->mmap(ctx, &m) : 0;
	}
	case PERF_RECORD_COMM: {
		struct vp_comm_event c = { 0 };
		memcpy(u32s, body, 8);
		c.pid = u32s[0];
		c.tid = u32s[1];
		c.exec = !!(h->misc & VP_MISC_COMM_EXEC);
		c.time = t.time;
		copy_str(name, 64, body + 8, blen - 8);
		c.comm = name;
		return tool->comm ? tool->comm(ctx, &c) : 0;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct vp_task_event te;
		memcpy(u32s, body, 16);
		te.pid = u32s[0];
		te.ppid = u32s[1];
		te.tid = u32s[2];
		te.ptid = u32s[3];
		memcpy(&te.time, body + 16, 8);
		if (h->type == PERF_RECORD_FORK)
			return tool->fork ? tool->fork(ctx, &te) : 0;
		return tool->exit ? tool->exit(ctx, &te) : 0;
	}
	case PERF_RECORD_LOST: {
		struct vp_lost_event l = { ev, 0, 0, 0 };
		memcpy(&l.id, body, 8);
		memcpy(&l.lost, body + 8, 8);
		l.evsel = vp_pd_evsel_by_id(pd, l.id);
		pd->stats.lost_events += l.lost;
		return tool->lost ? tool->lost(ctx, &l) : 0;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		struct vp_lost_event l = { ev, t.id, 0, 1 };
		memcpy(&l.lost, body, 8);
		pd->stats.lost_samples += l.lost;
		return tool->lost ? tool->lost(ctx, &l) : 0;
	}
	default:
		ids->skipped++;
		return tool->other ? tool->other(ctx, h, offset) : 0;
	}
}

int vp_pd_run_end(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
		  struct vp_pd_idcache *ids, struct vp_pd_run *run, struct vp_error *err)
{
	const struct perf_event_header *h = run->h;

	if (!h)
		return 0;
	run->h = NULL;
	return deliver_record(pd, tool, ctx, ids, h, run->offset, run->repeats, run->period, err);
}

/* Most samples of a busy loop repeat the one before: those go as one. */
int vp_pd_deliver(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
		  struct vp_pd_idcache *ids, struct vp_pd_run *run, const struct perf_event_header *h,
		  uint64_t offset, struct vp_error *err)
{
	uint64_t period;
	int r;

	if (!tool->merge_repeats)
		return deliver_record(pd, tool, ctx, ids, h, offset, 0, 0, err);
	if (run->h && sample_repeats(pd, ids, run->h, h, &period)) {
		run->repeats++;
		run->period += period;
		return 0;
	}
	if ((r = vp_pd_run_end(pd, tool, ctx, ids, run, err)) < 0)
		return r;
	if (h->type != PERF_RECORD_SAMPLE)
		return deliver_record(pd, tool, ctx, ids, h, offset, 0, 0, err);
	*run = (struct vp_pd_run){ h, offset, 0, 0 };
	return 0;
}

static int deliver(struct walk *w, const struct perf_event_header *h, uint64_t offset)
{
	if (w->handoff)
		return w->handoff(w->hctx, h, offset);
	if (w->in_flush)
		return vp_pd_deliver(w->pd, w->tool, w->ctx, &w->ids, &w->run, h, offset, w->err);
	return deliver_record(w->pd, w->tool, w->ctx, &w->ids, h, offset, 0, 0, w->err);
}

/* ---- the ordering queue ---- */

static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint8_t *arena_alloc(struct arena *a, size_t n)
{
	if (a->cap - a->used < n) {
		size_t cap = a->cap ? a->cap : (1u << 20);
		while (cap - a->used < n)
			cap *= 2;
		uint8_t *mem = realloc(a->mem, cap);
		if (!mem)
			return NULL;
		a->mem = mem;
		a->cap = cap;
	}
	a->used += n;
	return a->mem + a->used - n;
}

static int queue_event(struct walk *w, const struct perf_event_header *h, uint64_t offset,
		       uint64_t time)
{
	struct arena *a = &w->arena[w->cur];
	uint8_t *copy;

	if (time < w->last_flush)
		w->pd->stats.out_of_order++;
	if (w->nq == w->capq) {
		size_t cap = w->capq ? w->capq * 2 : 4096;
		struct ordered *q = realloc(w->q, cap * sizeof(*q));
		if (!q)
			return -ENOMEM;
		w->q = q;
		w->capq = cap;
	}
	if (w->map) {
		w->q[w->nq++] = (struct ordered){ time, w->seq++, offset, (size_t)offset,
						  h->type == PERF_RECORD_SAMPLE };
	} else {
		copy = arena_alloc(a, (h->size + 7u) & ~7u);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, h, h->size);
		w->q[w->nq++] = (struct ordered){ time, w->seq++, offset, (size_t)(copy - a->mem),
						  h->type == PERF_RECORD_SAMPLE };
	}
	if (time > w->max_timestamp)
		w->max_timestamp = time;
	if (w->nq == 1 || offset < w->q_low)
		w->q_low = offset;
	w->nothers += h->type != PERF_RECORD_SAMPLE;
	return 0;
}

/* How many of the sorted non-sample entries come before e in (time, seq). */
static size_t bucket_of(const struct walk *w, const size_t *others, size_t n,
			const struct ordered *e)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_ordered(&w->q[others[mid]], e) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Deliver the queued events with time <= limit, in time order.
 * Samples only add to tables, so their order among themselves changes no
 * result; what matters is where they fall against maps, comms and forks.
 * So only those few are sorted, and each sample is delivered after the ones
 * that precede it in (time, seq) order: a bucket sort, not a full sort. */
static int deliver_window(struct walk *w, const uint8_t *base, uint64_t limit)
{
	size_t *others = NULL, nothers = 0, i;
	size_t *count = NULL, *order = NULL, *bucket = NULL;
	int r = 0;

	for (i = 0; i < w->nq; i++)
		nothers += !w->q[i].sample && w->q[i].time <= limit;
	if (nothers) {
		others = malloc(nothers * sizeof(*others));
		count = calloc(nothers + 2, sizeof(*count));
		order = malloc(w->nq * sizeof(*order));
		bucket = malloc(w->nq * sizeof(*bucket));
		if (!others || !count || !order || !bucket) {
			r = -ENOMEM;
			goto out;
		}
		size_t k = 0;
		for (i = 0; i < w->nq; i++)
			if (!w->q[i].sample && w->q[i].time <= limit)
				others[k++] = i;
		/* Few entries: insertion sort by (time, seq). */
		for (size_t a = 1; a < nothers; a++)
			for (size_t b = a; b > 0 && cmp_ordered(&w->q[others[b]], &w->q[others[b - 1]]) < 0; b--) {
				size_t t = others[b];
				others[b] = others[b - 1];
				others[b - 1] = t;
			}
	}
	if (!nothers) {
		for (i = 0; i < w->nq && r >= 0; i++)
			if (w->q[i].time <= limit)
				r = deliver(w, (const void *)(base + w->q[i].pos), w->q[i].offset);
		goto out;
	}
	for (i = 0; i < w->nq; i++)
		if (w->q[i].sample && w->q[i].time <= limit)
			count[(bucket[i] = bucket_of(w, others, nothers, &w->q[i])) + 1]++;
	for (size_t b = 1; b <= nothers + 1; b++)
		count[b] += count[b - 1];
	for (i = 0; i < w->nq; i++)
		if (w->q[i].sample && w->q[i].time <= limit)
			order[count[bucket[i]]++] = i;
	/* count[b] is now the end of bucket b: samples of bucket b, then other b. */
	size_t at = 0;
	for (size_t b = 0; b <= nothers && r >= 0; b++) {
		for (; at < count[b] && r >= 0; at++)
			r = deliver(w, (const void *)(base + w->q[order[at]].pos), w->q[order[at]].offset);
		if (b < nothers && r >= 0)
			r = deliver(w, (const void *)(base + w->q[others[b]].pos), w->q[others[b]].offset);
	}
out:
	free(others);
	free(count);
	free(order);
	free(bucket);
	return r;
}

/* Deliver queued events up to limit; the rest stay queued (copied to the
 * other arena for pipes, so memory stays about one round deep). */
static int flush_queue(struct walk *w, uint64_t limit)
{
	struct arena *cur = &w->arena[w->cur], *next = &w->arena[!w->cur];
	const uint8_t *base = w->map ? w->map : cur->mem;
	size_t i, kept = 0;
	int r = 0;

	if (!w->nq)
		return 0;
	if (w->map && !w->nothers) {
		/* Samples only (most rounds): their order is free, so one pass
		 * delivers what is due and keeps the rest. */
		uint64_t last = w->last_flush, low = UINT64_MAX;
		for (i = 0; i < w->nq; i++) {
			const struct ordered *e = &w->q[i];
			if (e->time > limit) {
				low = e->offset < low ? e->offset : low;
				w->q[kept++] = *e;
				continue;
			}
			if (e->time > last)
				last = e->time;
			if ((r = deliver(w, (const void *)(base + e->pos), e->offset)) < 0)
				break;
		}
		w->last_flush = last;
		w->nq = kept;
		w->q_low = low;
		return r < 0 ? r : 0;
	}
	if ((r = deliver_window(w, base, limit)) < 0)
		return r == -ENOMEM ? vp_errorf(w->err, r, "'%s': out of memory", w->pd->path) : r;
	for (i = 0; i < w->nq; i++)
		if (w->q[i].time <= limit && w->q[i].time > w->last_flush)
			w->last_flush = w->q[i].time;
	w->nothers = 0;
	w->q_low = UINT64_MAX;
	if (w->map) {
		for (i = 0; i < w->nq; i++)
			if (w->q[i].time > limit) {
				w->nothers += !w->q[i].sample;
				w->q_low = w->q[i].offset < w->q_low ? w->q[i].offset : w->q_low;
				w->q[kept++] = w->q[i];
			}
		w->nq = kept;
		return 0;
	}
	next->used = 0;
	for (i = 0; i < w->nq; i++) {
		if (w->q[i].time <= limit)
			continue;
		const struct perf_event_header *h = (const void *)(cur->mem + w->q[i].pos);
		uint8_t *copy = arena_alloc(next, (h->size + 7u) & ~7u);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, h, h->size);
		w->nothers += !w->q[i].sample;
		w->q_low = w->q[i].offset < w->q_low ? w->q[i].offset : w->q_low;
		w->q[kept] = w->q[i];
		w->q[kept++].pos = (size_t)(copy - next->mem);
	}
	w->nq = kept;
	cur->used = 0;
	w->cur = !w->cur;
	return 0;
}

/* A held sample goes out before the flush ends: its memory is only sure
 * until then (pages behind the queue are released, arenas reused). */
static int flush_until(struct walk *w, uint64_t limit)
{
	int r;

	w->in_flush = 1;
	r = flush_queue(w, limit);
	w->in_flush = 0;
	if (r < 0) {
		w->run.h = NULL;
		return r;
	}
	return vp_pd_run_end(w->pd, w->tool, w->ctx, &w->ids, &w->run, w->err);
}

static int finish_round(struct walk *w)
{
	int r;

	/* perf leaves next_flush alone when the queue is empty (ordered-events.c). */
	if (!w->nq)
		return 0;
	r = flush_until(w, w->next_flush);
	w->next_flush = w->max_timestamp;
	return r;
}

/* Handle one record; *skip is set to payload bytes that follow it in the
 * stream (aux data), which the caller steps over. */
static int process(struct walk *w, const struct perf_event_header *h, uint64_t offset,
		   uint64_t *skip)
{
	struct vp_perfdata *pd = w->pd;
	int r;

	*skip = 0;
	pd->stats.records++;
	if (h->type >= 64) {
		if (h->type == VP_REC_FINISHED_ROUND)
			return w->tool->unordered ? 0 : finish_round(w);
		/* Tracing data follows its record only in pipe streams. */
		if ((h->type != VP_REC_HEADER_TRACING_DATA || pd->is_pipe) &&
		    (r = user_header_record(pd, h, w->err)) != 0)
			return r < 0 ? r : 0;
		if (h->type == VP_REC_AUXTRACE && h->size >= 16)
			memcpy(skip, (const uint8_t *)h + 8, 8);
		if (h->type == VP_REC_COMPRESSED)
			pd->stats.compressed_records++;
		else
			pd->stats.skipped_records++;
		return w->tool->other ? w->tool->other(w->ctx, h, offset) : 0;
	}
	if (!w->tool->unordered) {
		uint64_t time = record_time(pd, &w->ids, h);
		if (time != 0 && time != ~0ull) {
			if ((r = queue_event(w, h, offset, time)) < 0)
				return vp_errorf(w->err, r, "'%s': out of memory", pd->path);
			if (w->nq > QUEUE_MAX_BYTES / 64 || w->arena[w->cur].used > QUEUE_MAX_BYTES) {
				/* No rounds in sight: deliver the older half. */
				qsort(w->q, w->nq, sizeof(*w->q), cmp_ordered);
				return flush_until(w, w->q[w->nq / 2].time);
			}
			return 0;
		}
	}
	return deliver(w, h, offset);
}

/* Give back mapped pages that no queued record needs any more. */
static void release_behind(struct walk *w, uint64_t read_off)
{
	uint64_t low = read_off;
	long page = sysconf(_SC_PAGESIZE);

	if (w->nq && w->q_low < low)
		low = w->q_low;
	if (w->in_use_floor) {	/* records handed off and not yet delivered */
		uint64_t f = w->in_use_floor(w->hctx);
		if (f < low)
			low = f;
	}
	low &= ~(uint64_t)(page - 1);
	if (low > w->released + RELEASE_STRIDE) {
		madvise((void *)(w->map + w->released), low - w->released, MADV_DONTNEED);
		w->released = low;
	}
}

/* The next whole record of a mapped file, as vp_stream_next. */
static int mapped_next(struct walk *w, uint64_t *off, const struct perf_event_header **rec,
		       struct vp_error *err)
{
	struct perf_event_header h;
	uint64_t end = w->pd->data_end;

	if (*off >= end)
		return 0;
	if (end - *off < sizeof(h))
		return -EPIPE;
	/* perf writes every record at an 8-byte boundary; one that is not was
	 * reached through a damaged size or data offset */
	if (*off % 8)
		return vp_errorf(err, -EINVAL, "'%s': record at offset %llu is not 8-byte aligned "
				 "(a damaged record size or data offset)", w->pd->path,
				 (unsigned long long)*off);
	memcpy(&h, w->map + *off, sizeof(h));
	if (h.size < sizeof(h))
		return vp_errorf(err, -EINVAL, "'%s': record of size %u at offset %llu (type %u)",
				 w->pd->path, h.size, (unsigned long long)*off, h.type);
	if (end - *off < h.size)
		return -EPIPE;
	*rec = (const struct perf_event_header *)(w->map + *off);
	return 1;
}

int vp_pd_walk(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
	       const struct vp_pd_handoff *ho, struct vp_error *err)
{
	struct walk w = { .pd = pd, .tool = tool, .ctx = ctx, .err = err };

	if (ho) {
		w.handoff = ho->handoff;
		w.in_use_floor = ho->in_use_floor;
		w.hctx = ho->ctx;
	}
	uint64_t moff = pd->data_start;
	int r;

	if (pd->walked)
		return vp_errorf(err, -EALREADY, "'%s': already read", pd->path);
	pd->walked = 1;
	if (!pd->is_pipe && pd->data_end > pd->data_start) {
		void *m = mmap(NULL, pd->data_end, PROT_READ, MAP_PRIVATE, pd->fd, 0);
		if (m == MAP_FAILED)
			return vp_errorf(err, -errno, "'%s': cannot map the file: %s", pd->path,
					 strerror(errno));
		madvise(m, pd->data_end, MADV_SEQUENTIAL);
		w.map = m;
		w.map_len = pd->data_end;
		w.released = 0;
	}

	for (;;) {
		const struct perf_event_header *h;
		uint64_t off, skip;

		if (w.map) {
			off = moff;
			r = mapped_next(&w, &moff, &h, err);
		} else if (!pd->is_pipe) {
			break;	/* an empty data section */
		} else {
			r = vp_stream_next(&pd->stream, &h, &off, err, pd->path);
		}
		if (r == 0)
			break;
		if (r == -EPIPE) {
			uint64_t end = pd->is_pipe ? off : pd->data_end;
			if (pd->stats.recovered || pd->is_pipe) {
				/* A killed recorder's last record is cut short: stop there. */
				pd->stats.recovered = 1;
				pd->stats.dropped_bytes = end > off ? end - off : 0;
				if (pd->is_pipe)
					vp_warn("'%s': the stream ends inside a record at offset %llu; "
						"read up to the last whole record", pd->path,
						(unsigned long long)off);
				break;
			}
			r = vp_errorf(err, -EINVAL, "'%s': truncated record at offset %llu", pd->path,
				      (unsigned long long)off);
		}
		if (r < 0 && pd->stats.recovered && !pd->is_pipe) {
			/* Garbage after the last whole record of an unfinished file. */
			pd->stats.dropped_bytes = pd->data_end - off;
			break;
		}
		if (r < 0)
			goto out;
		if ((r = process(&w, h, off, &skip)) < 0)
			goto out;
		if (w.map) {
			moff += h->size;
			if (skip > pd->data_end - moff) {
				r = vp_errorf(err, -EINVAL, "'%s': truncated aux data after offset %llu",
					      pd->path, (unsigned long long)off);
				goto out;
			}
			moff += skip;
			if (h->type == VP_REC_FINISHED_ROUND)
				release_behind(&w, moff);
		} else if (skip && vp_stream_read(&pd->stream, NULL, skip) < 0) {
			r = vp_errorf(err, -EINVAL, "'%s': truncated aux data after offset %llu", pd->path,
				      (unsigned long long)off);
			goto out;
		}
	}
	r = flush_until(&w, ~0ull);
out:
	if (tool->finished) {
		int f = tool->finished(ctx, r);
		if (r >= 0)
			r = f;
	}
	vp_pd_idcache_fold(pd, &w.ids);	/* after finished: a worker has stopped */
	if (w.map)
		munmap((void *)w.map, w.map_len);
	free(w.q);
	free(w.arena[0].mem);
	free(w.arena[1].mem);
	return r < 0 ? r : 0;
}

int vp_perfdata_walk(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
		     struct vp_error *err)
{
	return vp_pd_walk(pd, tool, ctx, NULL, err);
}
