/* perf's pipe format: the header records (types 64 and up: attrs, features,
 * tracing data, event updates) that stand in a stream where a file has its
 * header. Read before the first kernel record at open, and met again during
 * the walk (perf may send them late). */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
		uint64_t chunk = padded - got < VP_STREAM_CHUNK ? padded - got : VP_STREAM_CHUNK;
		if (got + chunk > cap) {
			uint64_t ncap = cap ? cap * 2 : VP_STREAM_CHUNK;
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
int vp_pd_header_record(struct vp_perfdata *pd, const struct perf_event_header *h,
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
		if ((r = vp_pd_header_record(pd, h, err)) < 0)
			return r;
		if (r == 0)
			pd->stats.skipped_records++;
	}
	if (!pd->nevsels)
		return vp_errorf(err, -EINVAL, "'%s': the stream records no events", pd->path);
	return 0;
}
