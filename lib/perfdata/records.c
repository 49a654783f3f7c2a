/* Records decoded and delivered to a tool: the event a record belongs to (by
 * the id it carries), samples parsed by the layout of their event, the
 * sample_id_all trailer of other records, and runs of like samples joined
 * into one delivery for a merge_repeats tool. Any thread may deliver. */
#include "internal.h"
#include "sample.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const struct vp_evsel *vp_pd_evsel_of(const struct vp_perfdata *pd, struct vp_pd_idcache *c,
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

int vp_pd_record_short(const struct perf_event_header *h)
{
	size_t blen = h->size - sizeof(*h);

	if (blen < fixed_size(h->type))
		return 1;
	if ((h->type == PERF_RECORD_MMAP && blen < 32 + 1) ||
	    (h->type == PERF_RECORD_MMAP2 && blen < 64 + 1))
		return 2;	/* no room for a file name */
	return 0;
}

uint64_t vp_pd_record_time(struct vp_perfdata *pd, struct vp_pd_idcache *c,
			   const struct perf_event_header *h)
{
	const struct vp_evsel *ev = vp_pd_sample_evsel(pd, c, h);
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
	else if ((ev = vp_pd_sample_evsel(pd, ids, h)))
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
	else if (ev || (ev = vp_pd_sample_evsel(pd, ids, h)))
		*period = ev->attr.sample_period;
	else
		*period = 0;	/* no such event: the sample is dropped with prev */
	return 1;
}

int vp_pd_malformed_sample(const struct vp_perfdata *pd, uint64_t offset, struct vp_error *err)
{
	return vp_errorf(err, -EINVAL, "'%s': malformed sample at offset %llu (shorter than its "
			 "sample_type says)", pd->path, (unsigned long long)offset);
}

/* One record; a sample stands for itself and repeats like ones after it. */
static int deliver_record(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
			  struct vp_pd_idcache *ids, const struct perf_event_header *h,
			  uint64_t offset, uint64_t repeats, uint64_t repeat_period,
			  struct vp_error *err)
{
	const uint8_t *body = (const uint8_t *)(h + 1);
	size_t blen = h->size - sizeof(*h);
	const struct vp_evsel *ev = vp_pd_sample_evsel(pd, ids, h);
	struct id_trailer t = { .time = ~0ull };
	char name[PATH_MAX + 1];
	uint32_t u32s[4];

	if (h->type == PERF_RECORD_SAMPLE) {
		struct vp_sample s;
		if (!ev) {
			ids->unknown_id += 1 + repeats;
			return 0;
		}
		if (vp_pd_sample_fields(pd, ev, h, offset, &s) < 0)
			return vp_pd_malformed_sample(pd, offset, err);
		s.count += repeats;
		s.period += repeat_period;
		ids->samples += s.count;
		return tool->sample ? tool->sample(ctx, &s) : 0;
	}

	switch (vp_pd_record_short(h)) {
	case 1:
		return vp_errorf(err, -EINVAL, "'%s': record of type %u at offset %llu is too short",
				 pd->path, h->type, (unsigned long long)offset);
	case 2:
		return vp_errorf(err, -EINVAL, "'%s': mmap record at offset %llu is too short",
				 pd->path, (unsigned long long)offset);
	}
	if (ev)
		parse_trailer(ev, h, fixed_size(h->type), &t);

	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		struct vp_mmap_event m = { 0 };
		size_t fn = h->type == PERF_RECORD_MMAP ? 32 : 64;
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

int vp_pd_deliver_record(struct vp_perfdata *pd, const struct vp_perf_tool *tool, void *ctx,
			 struct vp_pd_idcache *ids, const struct perf_event_header *h,
			 uint64_t offset, struct vp_error *err)
{
	return deliver_record(pd, tool, ctx, ids, h, offset, 0, 0, err);
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
