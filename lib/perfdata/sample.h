/* A sample decoded by its event's layout, inline: the walks' inner loops
 * (records.c, and the count of pieces.c) call it once a sample, and as a
 * call across files it cost about 46 instructions of about 500 a sample (the
 * 44 MB -g bench recording, callgrind: 422.7 M instructions a report, 401.4 M
 * inline; the 310 MB files' reports 3-5% faster in alternating pairs). */
#ifndef VP_PERFDATA_SAMPLE_H
#define VP_PERFDATA_SAMPLE_H

#include <string.h>

#include "internal.h"

/* The event of any record, by the id it carries (NULL: no such event). */
const struct vp_evsel *vp_pd_evsel_of(const struct vp_perfdata *pd, struct vp_pd_idcache *c,
				      const struct perf_event_header *h);
/* err says that the sample at offset is malformed: -EINVAL. */
int vp_pd_malformed_sample(const struct vp_perfdata *pd, uint64_t offset, struct vp_error *err);

/* A sample's event: most samples carry the id of the one before, which is
 * answered here without a call. */
static inline const struct vp_evsel *vp_pd_sample_evsel(const struct vp_perfdata *pd,
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
	return vp_pd_evsel_of(pd, c, h);
}

/* s from sample h of event ev: 0, or -1 when h is shorter than its
 * sample_type says. */
static inline int vp_pd_sample_fields(struct vp_perfdata *pd, const struct vp_evsel *ev,
				      const struct perf_event_header *h, uint64_t offset,
				      struct vp_sample *s)
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

/* A sample parsed, and counted in ids: 1, or 0 when its id names no event
 * (counted as such), or -EINVAL for a malformed one (err says so). */
static inline int vp_pd_parse_sample(struct vp_perfdata *pd, struct vp_pd_idcache *ids,
				     const struct perf_event_header *h, uint64_t offset,
				     struct vp_sample *s, struct vp_error *err)
{
	const struct vp_evsel *ev = vp_pd_sample_evsel(pd, ids, h);

	if (!ev) {
		ids->unknown_id++;
		return 0;
	}
	if (vp_pd_sample_fields(pd, ev, h, offset, s) < 0)
		return vp_pd_malformed_sample(pd, offset, err);
	ids->samples++;
	return 1;
}

#endif
