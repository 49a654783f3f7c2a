/* pprof's profile.proto (gzipped or not: Go's runtime/pprof, `go tool pprof
 * -proto`, vmprof's own exports) into a profile: one table, each sample
 * charged to its leaf's function, object and domain. The input is untrusted:
 * the decompressed size and the unpacker's memory are capped, every string
 * index and id is checked, and the schema has no message that refers back to
 * another of its kind, so there is no cycle to follow. */
#include "formats.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gzip.h"
#include "pprof.h"
#include "profile.pb-c.h"
#include "lib/symbols/symbols.h"

typedef Perftools__Profiles__Profile Profile;

/* Go writes a few MB for a long CPU profile; 256 MiB is far past any real
 * one, and a gzip bomb stops there. */
#define DEFAULT_MAX_BYTES (256u << 20)
/* protobuf-c allocates a struct per message (a 2-byte empty Location becomes
 * ~100 bytes): unpacking may use this many times the message's size. Real
 * profiles take 5.4x (Go's CPU profiles) to 6.9x (vmprof's -a exports). */
#define ALLOC_FACTOR 12
#define ALLOC_SLACK (16u << 20)

/* ---- detection ---- */

static int varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64 && *p < end; shift += 7) {
		unsigned char b = *(*p)++;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

/* Wire types of Profile's fields 1..14 (2 = length-delimited, 0 = varint;
 * the repeated int64 comment may come either way, packed or not). */
static int field_ok(uint64_t field, unsigned wt)
{
	if (field >= 1 && field <= 6)
		return wt == 2;
	if (field == 11)
		return wt == 2;
	if (field == 13)
		return wt == 0 || wt == 2;
	return field >= 7 && field <= 14 && wt == 0;
}

/* Whether bytes parse as Profile fields with the right wire types, as far as
 * they go, and hold a sample type (a ValueType of varints). Writers differ in
 * field order (Go puts time_nanos first), so order is not checked. */
static int looks_like_profile(const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;
	uint64_t tag, n, v;
	int sample_type = 0;

	while (p < end) {
		if (varint(&p, end, &tag) < 0)
			return sample_type && p == end;
		unsigned wt = tag & 7;
		uint64_t field = tag >> 3;
		if (!field_ok(field, wt))
			return 0;
		if (wt == 0) {
			if (varint(&p, end, &v) < 0)
				return sample_type && p == end;
			continue;
		}
		if (varint(&p, end, &n) < 0)
			return sample_type && p == end;
		if (n > (uint64_t)(end - p))	/* runs past the sniffed head */
			return sample_type || (field == 1 && n <= 22);
		if (field == 1) {
			const unsigned char *q = p, *qe = p + n;
			while (q < qe)
				if (varint(&q, qe, &tag) < 0 || (tag != 8 && tag != 16) ||
				    varint(&q, qe, &v) < 0)
					return 0;
			sample_type = 1;
		}
		p += n;
	}
	return sample_type;
}

int vp_pprof_detect(const char *data, size_t len)
{
	const unsigned char *d = (const unsigned char *)data;
	unsigned char *head;
	size_t n;
	int r;

	if (!vp_gzip_is(d, len))
		return looks_like_profile(d, len);
	if (vp_gunzip("", d, len, 4096, 1, &head, &n, NULL) < 0)
		return 0;
	r = looks_like_profile(head, n);
	free(head);
	return r;
}

/* ---- unpacking under a memory budget ---- */

struct budget {
	size_t left;
	int over;
};

static void *budget_alloc(void *ctx, size_t size)
{
	struct budget *b = ctx;
	size_t *p;

	if (size > b->left || size + sizeof(size_t) < size) {
		b->over = 1;
		return NULL;
	}
	if (!(p = malloc(size + sizeof(size_t))))
		return NULL;
	b->left -= size;
	*p = size;
	return p + 1;
}

static void budget_free(void *ctx, void *ptr)
{
	struct budget *b = ctx;
	size_t *p = ptr;

	if (!p)
		return;
	b->left += p[-1];
	free(p - 1);
}

/* ---- conversion ---- */

/* Ids to indices: sorted and searched, not hashed, since a hostile file
 * could pick ids that collide in any fixed hash. */
struct id_index {
	uint64_t id;
	size_t i;
};

struct ids {
	struct id_index *v;
	size_t n;
};

struct conv {
	const char *path;
	const Profile *pb;
	struct vp_profile *p;
	struct vp_error *err;
	struct ids functions, mappings, locations;
	const char **loc_symbol, **loc_dso;	/* per location, interned */
	const char *unknown;
};

static int bad(struct conv *c, const char *what, uint64_t n)
{
	return vp_errorf(c->err, -EINVAL, "'%s': %s %llu", c->path, what, (unsigned long long)n);
}

/* A string of the table, or NULL (err set) for an index outside it. */
static const char *str(struct conv *c, int64_t i)
{
	if (i < 0 || (uint64_t)i >= c->pb->n_string_table) {
		vp_errorf(c->err, -EINVAL, "'%s': string index %lld outside the string table (%zu "
			  "strings)", c->path, (long long)i, c->pb->n_string_table);
		return NULL;
	}
	return c->pb->string_table[i] ? c->pb->string_table[i] : "";
}

static int id_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct id_index *)a)->id, y = ((const struct id_index *)b)->id;
	return x < y ? -1 : x > y;
}

/* Index n messages by their ids (nonzero, unique). */
static int index_ids(struct conv *c, struct ids *ids, size_t n, const void *const *msgs,
		     size_t id_off, const char *what)
{
	char msg[64];

	if (!(ids->v = malloc((n ? n : 1) * sizeof(*ids->v))))
		return vp_errorf(c->err, -ENOMEM, "out of memory");
	ids->n = n;
	for (size_t i = 0; i < n; i++) {
		memcpy(&ids->v[i].id, (const char *)msgs[i] + id_off, sizeof(uint64_t));
		ids->v[i].i = i;
		if (!ids->v[i].id)
			return vp_errorf(c->err, -EINVAL, "'%s': %s number %zu has id 0", c->path,
					 what, i + 1);
	}
	qsort(ids->v, n, sizeof(*ids->v), id_cmp);
	for (size_t i = 1; i < n; i++)
		if (ids->v[i].id == ids->v[i - 1].id) {
			snprintf(msg, sizeof(msg), "two %ss with id", what);
			return bad(c, msg, ids->v[i].id);
		}
	return 0;
}

/* Index + 1 of the message with this id, 0 if none. */
static size_t find_id(const struct ids *ids, uint64_t id)
{
	struct id_index key = { id, 0 }, *hit;

	if (ids->n && ids->v[0].id == 1 && id - 1 < ids->n && ids->v[id - 1].id == id)
		return ids->v[id - 1].i + 1;	/* the usual dense ids 1..n */
	hit = bsearch(&key, ids->v, ids->n, sizeof(*ids->v), id_cmp);
	return hit ? hit->i + 1 : 0;
}

/* The row name of a function: its system name demangled when it is a mangled
 * one, else the system name when it extends the name (vmprof writes the
 * parameter list there), else the name. */
static const char *function_symbol(struct conv *c, const Perftools__Profiles__Function *f)
{
	const char *name = str(c, f->name), *sys = name ? str(c, f->system_name) : NULL;
	const char *s;
	char *d;

	if (!sys)
		return NULL;
	if (*sys && (d = vp_demangle(sys, VP_DEMANGLE_FULL))) {
		s = vp_profile_intern(c->p, d);
		free(d);
	} else {
		s = vp_profile_intern(c->p, *sys && !strncmp(sys, name, strlen(name)) ? sys
					    : *name ? name : *sys ? sys : "[unknown]");
	}
	if (!s)
		vp_errorf(c->err, -ENOMEM, "out of memory");
	return s;
}

static int convert_locations(struct conv *c)
{
	const Profile *pb = c->pb;

	c->loc_symbol = calloc(pb->n_location + 1, sizeof(*c->loc_symbol));
	c->loc_dso = calloc(pb->n_location + 1, sizeof(*c->loc_dso));
	if (!c->loc_symbol || !c->loc_dso)
		return vp_errorf(c->err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < pb->n_location; i++) {
		const Perftools__Profiles__Location *l = pb->location[i];
		const char *dso = c->unknown, *sym = c->unknown;

		if (l->mapping_id) {
			size_t m = find_id(&c->mappings, l->mapping_id);
			const char *file;
			if (!m)
				return bad(c, "a location refers to a missing mapping, id", l->mapping_id);
			if (!(file = str(c, pb->mapping[m - 1]->filename)))
				return -EINVAL;
			if (*file && !(dso = vp_profile_intern(c->p, file)))
				return vp_errorf(c->err, -ENOMEM, "out of memory");
		}
		/* line[0] is the innermost inlined function: where pprof puts flat time */
		for (size_t k = 0; k < l->n_line; k++) {
			uint64_t fid = l->line[k]->function_id;
			size_t f = fid ? find_id(&c->functions, fid) : 0;
			if (fid && !f)
				return bad(c, "a location refers to a missing function, id", fid);
			if (k == 0 && f && !(sym = function_symbol(c, pb->function[f - 1])))
				return -EINVAL;
		}
		c->loc_symbol[i] = sym;
		c->loc_dso[i] = dso;
	}
	return 0;
}

/* Which values are the sample count and the period: the first value counted
 * in "count" (samples/count by convention) and the default type, else the
 * last (pprof's own choice). A profile without a count uses one for both. */
static int pick_values(struct conv *c, size_t *count_i, size_t *period_i)
{
	const Profile *pb = c->pb;
	const char *def = NULL;
	size_t ci = SIZE_MAX, pi = pb->n_sample_type - 1;

	if (pb->default_sample_type && !(def = str(c, pb->default_sample_type)))
		return -EINVAL;
	for (size_t i = 0; i < pb->n_sample_type; i++) {
		const char *type = str(c, pb->sample_type[i]->type);
		const char *unit = type ? str(c, pb->sample_type[i]->unit) : NULL;
		if (!unit)
			return -EINVAL;
		if (ci == SIZE_MAX && !strcmp(unit, "count"))
			ci = i;
		if (def && !strcmp(type, def))
			pi = i;
	}
	if (pi == ci && pb->n_sample_type > 1 && !def)
		pi = ci == pb->n_sample_type - 1 ? 0 : pb->n_sample_type - 1;
	*count_i = ci == SIZE_MAX ? pi : ci;
	*period_i = pi;
	return 0;
}

static int sample_domain(struct conv *c, const Perftools__Profiles__Sample *s, char *dom)
{
	*dom = VP_DOM_USER;
	for (size_t k = 0; k < s->n_label; k++) {
		const char *key = str(c, s->label[k]->key), *v;
		if (!key)
			return -EINVAL;
		if (strcmp(key, VP_PPROF_LABEL_DOMAIN))
			continue;
		if (!(v = str(c, s->label[k]->str)))
			return -EINVAL;
		if (v[0] == '[' && v[1] && v[2] == ']' && !v[3])
			v++;
		else if (!v[0] || v[1])
			v = "?";
		if (!vp_domain_valid(v[0]))
			return vp_errorf(c->err, -EINVAL, "'%s': sample label domain '%.16s' is none of "
					 "perf's ([.] [k] [u] [g] [H])", c->path, str(c, s->label[k]->str));
		*dom = v[0];
	}
	return 0;
}

static int convert_samples(struct conv *c, struct vp_event_table *t)
{
	const Profile *pb = c->pb;
	size_t ci, pi;
	uint64_t total_s = 0, total_p = 0;
	int r;

	if ((r = pick_values(c, &ci, &pi)) < 0)
		return r;
	for (size_t i = 0; i < pb->n_sample; i++) {
		const Perftools__Profiles__Sample *s = pb->sample[i];
		struct vp_row row = { c->unknown, c->unknown, NULL, -1, VP_DOM_USER, 0, 0 };

		if (s->n_value != pb->n_sample_type)
			return vp_errorf(c->err, -EINVAL, "'%s': sample %zu has %zu values for %zu sample "
					 "types", c->path, i + 1, s->n_value, pb->n_sample_type);
		for (size_t k = 0; k < s->n_location_id; k++) {
			size_t l = find_id(&c->locations, s->location_id[k]);
			if (!l)
				return bad(c, "a sample refers to a missing location, id",
					   s->location_id[k]);
			if (k == 0) {
				row.symbol = c->loc_symbol[l - 1];
				row.dso = c->loc_dso[l - 1];
			}
		}
		if ((r = sample_domain(c, s, &row.domain)) < 0)
			return r;
		if (s->value[ci] < 0 || s->value[pi] < 0)
			return vp_errorf(c->err, -EINVAL, "'%s': sample %zu has a negative value (a "
					 "difference of profiles?)", c->path, i + 1);
		row.samples = (uint64_t)s->value[ci];
		row.period = (uint64_t)s->value[pi];
		if (__builtin_add_overflow(total_s, row.samples, &total_s) ||
		    __builtin_add_overflow(total_p, row.period, &total_p))
			return vp_errorf(c->err, -EOVERFLOW, "'%s': the sample values add up past 2^64",
					 c->path);
		if (!row.samples && !row.period)
			continue;
		if (vp_table_add(t, &row) < 0)
			return vp_errorf(c->err, -ENOMEM, "out of memory");
	}
	return 0;
}

/* The event: vmprof writes its name as the period type (Go: "cpu"); else
 * the type of the period value. */
static const char *event_name(struct conv *c)
{
	const Profile *pb = c->pb;
	size_t ci, pi;
	const char *name;

	if (pb->period_type && (name = str(c, pb->period_type->type)) && *name)
		return name;
	if (pick_values(c, &ci, &pi) < 0 || !(name = str(c, pb->sample_type[pi]->type)))
		return NULL;
	return *name ? name : "samples";
}

static int convert(struct conv *c)
{
	const Profile *pb = c->pb;
	struct vp_event_table *t;
	const char *ev;
	int r;

	if (!pb->n_string_table || (pb->string_table[0] && pb->string_table[0][0]))
		return vp_errorf(c->err, -EINVAL, "'%s': the string table does not start with the "
				 "empty string", c->path);
	if (!pb->n_sample_type)
		return vp_errorf(c->err, -EINVAL, "'%s': no sample types", c->path);
	if ((r = index_ids(c, &c->functions, pb->n_function, (const void *const *)pb->function,
			   offsetof(Perftools__Profiles__Function, id), "function")) < 0 ||
	    (r = index_ids(c, &c->mappings, pb->n_mapping, (const void *const *)pb->mapping,
			   offsetof(Perftools__Profiles__Mapping, id), "mapping")) < 0 ||
	    (r = index_ids(c, &c->locations, pb->n_location, (const void *const *)pb->location,
			   offsetof(Perftools__Profiles__Location, id), "location")) < 0)
		return r;
	if (!(c->unknown = vp_profile_intern(c->p, "[unknown]")))
		return vp_errorf(c->err, -ENOMEM, "out of memory");
	if ((r = convert_locations(c)) < 0)
		return r;
	if (!(ev = event_name(c)))
		return -EINVAL;
	if (!(t = vp_profile_table(c->p, ev, VP_KEY_DEFAULT)))
		return vp_errorf(c->err, -ENOMEM, "out of memory");
	if ((r = convert_samples(c, t)) < 0)
		return r;
	for (size_t i = 0; i < pb->n_comment; i++) {
		const char *line = str(c, pb->comment[i]);
		if (!line)
			return -EINVAL;
		vp_pprof_meta_parse(line, &c->p->meta, c->p->pool);
	}
	if (pb->time_nanos > 0)
		c->p->meta.start_time = pb->time_nanos / 1000000000;
	if (c->p->meta.duration < 0 && pb->duration_nanos > 0)
		c->p->meta.duration = (double)pb->duration_nanos / 1e9;
	c->p->meta.source = vp_profile_intern(c->p, c->path);
	return 0;
}

int vp_profile_read_pprof_max(const char *path, const char *data, size_t len, size_t max_bytes,
			      struct vp_profile **out, struct vp_error *err)
{
	const unsigned char *msg = (const unsigned char *)data;
	unsigned char *inflated = NULL;
	size_t n = len;
	struct budget b;
	ProtobufCAllocator alloc = { budget_alloc, budget_free, &b };
	struct conv c = { .path = path, .err = err };
	Profile *pb = NULL;
	int r;

	*out = NULL;
	if (vp_gzip_is(msg, len)) {
		if ((r = vp_gunzip(path, msg, len, max_bytes, 0, &inflated, &n, err)) < 0)
			return r;
		msg = inflated;
	} else if (len > max_bytes) {
		return vp_errorf(err, -EFBIG, "'%s': larger than %zu MiB: not a profile", path,
				 max_bytes >> 20);
	}
	b = (struct budget){ n * ALLOC_FACTOR + ALLOC_SLACK, 0 };
	pb = perftools__profiles__profile__unpack(&alloc, n, msg);
	if (!pb) {
		r = b.over ? vp_errorf(err, -EFBIG, "'%s': the profile needs more than %zu MiB to "
				       "unpack: refused", path, (n * ALLOC_FACTOR + ALLOC_SLACK) >> 20)
			   : vp_errorf(err, -EINVAL, "'%s': not a pprof profile: malformed protobuf",
				       path);
		goto out;
	}
	c.pb = pb;
	if (!(c.p = vp_profile_new())) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((r = convert(&c)) < 0)
		goto out;
	*out = c.p;
	c.p = NULL;
out:
	vp_profile_free(c.p);
	free(c.functions.v);
	free(c.mappings.v);
	free(c.locations.v);
	free(c.loc_symbol);
	free(c.loc_dso);
	if (pb)
		perftools__profiles__profile__free_unpacked(pb, &alloc);
	free(inflated);
	return r < 0 ? r : 0;
}

int vp_profile_read_pprof(const char *path, const char *data, size_t len, struct vp_profile **out,
			  struct vp_error *err)
{
	return vp_profile_read_pprof_max(path, data, len, DEFAULT_MAX_BYTES, out, err);
}
