/* Feature sections (perf's HEADER_* after the data, or feature records in a
 * pipe): kept as bytes, the event names and build-ids parsed at once, and the
 * recording's metadata (host, kernel, command line, vmprof's own keys) read
 * from them on demand. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/grow.h"

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
		if (vp_grow((void **)&pd->build_ids, &pd->capbuild_ids, pd->nbuild_ids,
			    sizeof(*pd->build_ids), 16) < 0)
			return -1;
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
			else if (!strcmp(key, "sched-lost") && num)
				m->sched_lost = (uint64_t)d;
			else if (!strcmp(key, "clocksource"))
				m->clocksource = vp_strpool_intern(pool, val);
			else if (!strcmp(key, "sched-method"))
				m->sched_method = vp_strpool_intern(pool, val);
			for (size_t i = 0; i < VP_META_NTIMES && num; i++)
				if (!strcmp(key, vp_meta_times[i].key))
					*vp_meta_time(m, i) = d;
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
