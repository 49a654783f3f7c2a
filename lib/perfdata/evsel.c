/* Events of a recording (perf's evsels): each attr with its ids, the id ->
 * event map samples are matched by, and where each field of a sample sits
 * (the layout records.c parses by). */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
