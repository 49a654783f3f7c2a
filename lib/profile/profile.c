/* Profiles and event tables: rows found by a hash of their (interned) key
 * pointers, so adding a sample is one hash probe and no allocation. */
#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "lib/util/grow.h"
#include "lib/util/namelist.h"

const struct vp_meta_time_field vp_meta_times[VP_META_NTIMES] = {
	{ "wall-time", offsetof(struct vp_profile_meta, wall_time), NULL },
	{ "user-time", offsetof(struct vp_profile_meta, user_time), NULL },
	{ "system-time", offsetof(struct vp_profile_meta, system_time), NULL },
	{ "steal-running", offsetof(struct vp_profile_meta, steal_running),
	  "of the steal, while its threads ran" },
	{ "runnable-wait", offsetof(struct vp_profile_meta, runnable_wait), "summed over threads" },
	{ "blocked-time", offsetof(struct vp_profile_meta, blocked_time), "summed over threads" },
	{ "wall-waiting", offsetof(struct vp_profile_meta, wall_waiting),
	  "no thread running, some runnable" },
	{ "wall-blocked", offsetof(struct vp_profile_meta, wall_blocked), "every thread blocked" },
};

double *vp_meta_time(struct vp_profile_meta *m, size_t i)
{
	return (double *)((char *)m + vp_meta_times[i].offset);
}

const double *vp_meta_time_c(const struct vp_profile_meta *m, size_t i)
{
	return (const double *)((const char *)m + vp_meta_times[i].offset);
}

void vp_profile_meta_init(struct vp_profile_meta *m)
{
	memset(m, 0, sizeof(*m));
	m->nr_cpus = -1;
	m->start_time = -1;
	m->duration = -1;
	m->cpu_time = -1;
	m->steal_time = -1;
	for (size_t i = 0; i < VP_META_NTIMES; i++)
		*vp_meta_time(m, i) = -1;
}

const char *vp_meta_workload(const struct vp_profile_meta *m)
{
	const char *s = m->cmdline, *dd;

	if (!s || !*s)
		return NULL;
	dd = strstr(s, " -- ");
	return dd ? dd + 4 : s;
}

struct vp_profile *vp_profile_new(void)
{
	struct vp_profile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->pool = vp_strpool_new();
	if (!p->pool) {
		free(p);
		return NULL;
	}
	vp_profile_meta_init(&p->meta);
	return p;
}

static void table_free(struct vp_event_table *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t->index);
	vp_stack_tree_free(t->stacks);
	free(t);
}

void vp_profile_free(struct vp_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ntables; i++)
		table_free(p->tables[i]);
	free(p->tables);
	vp_strpool_free(p->pool);
	free(p);
}

void vp_profile_keep_events(struct vp_profile *p, const char *const *names)
{
	size_t kept = 0;

	if (!names)
		return;
	for (size_t i = 0; i < p->ntables; i++) {
		if (vp_names_want(names, p->tables[i]->name))
			p->tables[kept++] = p->tables[i];
		else
			table_free(p->tables[i]);
	}
	p->ntables = kept;
}

const char *vp_profile_intern(struct vp_profile *p, const char *s)
{
	return s ? vp_strpool_intern(p->pool, s) : NULL;
}

struct vp_event_table *vp_profile_find(const struct vp_profile *p, const char *name)
{
	for (size_t i = 0; i < p->ntables; i++)
		if (strcmp(p->tables[i]->name, name) == 0)
			return p->tables[i];
	return NULL;
}

struct vp_event_table *vp_profile_table(struct vp_profile *p, const char *name, unsigned key)
{
	struct vp_event_table *t = vp_profile_find(p, name), **grown;

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	grown = realloc(p->tables, (p->ntables + 1) * sizeof(*p->tables));
	if (!t || !grown) {
		free(t);
		if (grown)
			p->tables = grown;
		return NULL;
	}
	p->tables = grown;
	t->name = vp_profile_intern(p, name);
	if (!t->name) {
		free(t);
		return NULL;
	}
	t->key = key;
	t->attr_type = ~0u;
	p->tables[p->ntables++] = t;
	return t;
}

static uint64_t key_hash(const struct vp_row *r, unsigned key)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	if (key & VP_KEY_SYM)
		h = vp_hash_u64(h ^ (uintptr_t)r->symbol);
	if (key & VP_KEY_DSO)
		h = vp_hash_u64(h ^ (uintptr_t)r->dso);
	if (key & VP_KEY_DOMAIN)
		h = vp_hash_u64(h ^ (uint64_t)(unsigned char)r->domain);
	if (key & VP_KEY_COMM)
		h = vp_hash_u64(h ^ (uintptr_t)r->comm);
	if (key & VP_KEY_PID)
		h = vp_hash_u64(h ^ (uint64_t)(uint32_t)r->pid);
	return h;
}

static int key_eq(const struct vp_row *a, const struct vp_row *b, unsigned key)
{
	return (!(key & VP_KEY_SYM) || a->symbol == b->symbol) &&
	       (!(key & VP_KEY_DSO) || a->dso == b->dso) &&
	       (!(key & VP_KEY_DOMAIN) || a->domain == b->domain) &&
	       (!(key & VP_KEY_COMM) || a->comm == b->comm) &&
	       (!(key & VP_KEY_PID) || a->pid == b->pid);
}

static void index_insert(struct vp_event_table *t, size_t row)
{
	size_t mask = t->index_cap - 1;
	size_t i = key_hash(&t->rows[row], t->key) & mask;

	while (t->index[i])
		i = (i + 1) & mask;
	t->index[i] = (uint32_t)(row + 1);
}

static int index_rebuild(struct vp_event_table *t, size_t cap)
{
	uint32_t *idx = calloc(cap, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	free(t->index);
	t->index = idx;
	t->index_cap = cap;
	for (size_t r = 0; r < t->nrows; r++)
		index_insert(t, r);
	return 0;
}

struct vp_row *vp_table_lookup(struct vp_event_table *t, const struct vp_row *key)
{
	if (!t->index_cap)
		return NULL;
	size_t mask = t->index_cap - 1;
	for (size_t i = key_hash(key, t->key) & mask; t->index[i]; i = (i + 1) & mask) {
		struct vp_row *r = &t->rows[t->index[i] - 1];
		if (key_eq(r, key, t->key))
			return r;
	}
	return NULL;
}

int vp_table_add(struct vp_event_table *t, const struct vp_row *in)
{
	struct vp_row *r = vp_table_lookup(t, in);

	t->total_samples += in->samples;
	t->total_period += in->period;
	if (r) {
		r->samples += in->samples;
		r->period += in->period;
		r->children_samples += in->children_samples;
		r->children_period += in->children_period;
		return (int)(r - t->rows);
	}
	if (t->nrows >= INT32_MAX - 1)
		return -EOVERFLOW;
	if (vp_grow((void **)&t->rows, &t->cap, t->nrows, sizeof(*t->rows), 64) < 0)
		return -ENOMEM;
	r = &t->rows[t->nrows++];
	*r = *in;
	if (!(t->key & VP_KEY_SYM))
		r->symbol = NULL;
	if (!(t->key & VP_KEY_DSO))
		r->dso = NULL;
	if (!(t->key & VP_KEY_DOMAIN))
		r->domain = 0;
	if (!(t->key & VP_KEY_COMM))
		r->comm = NULL;
	if (!(t->key & VP_KEY_PID))
		r->pid = -1;
	if (t->nrows * 2 > t->index_cap) {
		int e = index_rebuild(t, t->index_cap ? t->index_cap * 2 : 128);
		if (e < 0)
			return e;
	} else {
		index_insert(t, t->nrows - 1);
	}
	return (int)(t->nrows - 1);
}

uint64_t vp_row_value(const struct vp_row *r, enum vp_value by)
{
	switch (by) {
	case VP_VALUE_SAMPLES: return r->samples;
	case VP_VALUE_CHILDREN: return r->children_period;
	case VP_VALUE_CHILDREN_SAMPLES: return r->children_samples;
	default: return r->period;
	}
}

double vp_row_share(const struct vp_event_table *t, const struct vp_row *r, enum vp_value by)
{
	int samples = by == VP_VALUE_SAMPLES || by == VP_VALUE_CHILDREN_SAMPLES;
	uint64_t total = samples ? t->total_samples : t->total_period;

	return total ? (double)vp_row_value(r, by) / (double)total : 0.0;
}

enum vp_value vp_value_self(enum vp_value v)
{
	return v == VP_VALUE_SAMPLES || v == VP_VALUE_CHILDREN_SAMPLES ? VP_VALUE_SAMPLES : VP_VALUE_PERIOD;
}

enum vp_value vp_value_children(enum vp_value v)
{
	return vp_value_self(v) == VP_VALUE_SAMPLES ? VP_VALUE_CHILDREN_SAMPLES : VP_VALUE_CHILDREN;
}

static const char *const value_words[] = {
	[VP_VALUE_PERIOD] = "period", [VP_VALUE_SAMPLES] = "samples",
	[VP_VALUE_CHILDREN] = "children", [VP_VALUE_CHILDREN_SAMPLES] = "children-samples",
};

const char *vp_value_word(enum vp_value v)
{
	return (unsigned)v < sizeof(value_words) / sizeof(*value_words) ? value_words[v] : "period";
}

int vp_value_parse(const char *word, enum vp_value *v)
{
	for (size_t i = 0; i < sizeof(value_words) / sizeof(*value_words); i++)
		if (!strcmp(word, value_words[i])) {
			*v = (enum vp_value)i;
			return 0;
		}
	return -1;
}

const char *vp_value_label(enum vp_value v)
{
	switch (v) {
	case VP_VALUE_SAMPLES: return "samples";
	case VP_VALUE_CHILDREN: return "children period";
	case VP_VALUE_CHILDREN_SAMPLES: return "children samples";
	default: return "period";
	}
}

int vp_row_cmp_key(const struct vp_row *a, const struct vp_row *b, unsigned key)
{
	int c = 0;

	if (key & VP_KEY_SYM && (c = vp_strcmp_null(a->symbol, b->symbol)))
		return c;
	if (key & VP_KEY_DSO && (c = vp_strcmp_null(a->dso, b->dso)))
		return c;
	if (key & VP_KEY_DOMAIN && a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (key & VP_KEY_COMM && (c = vp_strcmp_null(a->comm, b->comm)))
		return c;
	if (key & VP_KEY_PID && a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return 0;
}

static int row_rank_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct vp_row *a = pa, *b = pb;
	enum vp_value by = *(const enum vp_value *)ctx;
	uint64_t va = vp_row_value(a, by), vb = vp_row_value(b, by);
	uint64_t sa = vp_row_value(a, !by), sb = vp_row_value(b, !by);

	if (va != vb)
		return va > vb ? -1 : 1;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	return vp_row_cmp_key(a, b, VP_KEY_SYM | VP_KEY_DSO | VP_KEY_DOMAIN | VP_KEY_COMM | VP_KEY_PID);
}

void vp_table_sort(struct vp_event_table *t, enum vp_value by)
{
	if (t->nrows > 1)
		qsort_r(t->rows, t->nrows, sizeof(*t->rows), row_rank_cmp, &by);
	if (t->index_cap)
		index_rebuild(t, t->index_cap);
}

void vp_table_truncate(struct vp_event_table *t, size_t n)
{
	if (n == 0 || n >= t->nrows)
		return;
	t->nrows = n;
	if (t->index_cap)
		index_rebuild(t, t->index_cap);
}

struct vp_event_table *vp_table_regroup(struct vp_profile *dst, const struct vp_event_table *src,
					unsigned key)
{
	struct vp_event_table *t = calloc(1, sizeof(*t)), **grown;

	if (!t)
		return NULL;
	t->name = vp_profile_intern(dst, src->name);
	t->attr_type = src->attr_type;
	t->attr_config = src->attr_config;
	t->key = key;
	t->lost_samples = src->lost_samples;
	t->weight = vp_profile_intern(dst, src->weight);
	t->group = vp_profile_intern(dst, src->group);
	/* inclusive counts do not add up across a coarser key (two functions of
	 * one object on one stack would count that sample twice) */
	t->children = src->children && key == src->key;
	for (size_t i = 0; i < src->nrows && t->name; i++) {
		struct vp_row r = src->rows[i];
		if (!t->children)
			r.children_samples = r.children_period = 0;
		r.symbol = vp_profile_intern(dst, r.symbol);
		r.dso = vp_profile_intern(dst, r.dso);
		r.comm = vp_profile_intern(dst, r.comm);
		if (vp_table_add(t, &r) < 0)
			goto fail;
	}
	if (!t->name)
		goto fail;
	/* Totals cover what the source counted, including rows it did not keep. */
	t->total_samples = src->total_samples;
	t->total_period = src->total_period;
	grown = realloc(dst->tables, (dst->ntables + 1) * sizeof(*dst->tables));
	if (!grown)
		goto fail;
	dst->tables = grown;
	dst->tables[dst->ntables++] = t;
	return t;
fail:
	table_free(t);
	return NULL;
}

char vp_domain_from_cpumode(unsigned cpumode)
{
	switch (cpumode & 7) {
	case 1: return VP_DOM_KERNEL;		/* PERF_RECORD_MISC_KERNEL */
	case 2: return VP_DOM_USER;		/* PERF_RECORD_MISC_USER */
	case 3: return VP_DOM_HYPERVISOR;	/* PERF_RECORD_MISC_HYPERVISOR */
	case 4: return VP_DOM_GUEST_KERNEL;	/* PERF_RECORD_MISC_GUEST_KERNEL */
	case 5: return VP_DOM_GUEST_USER;	/* PERF_RECORD_MISC_GUEST_USER */
	default: return VP_DOM_USER;		/* unknown: perf prints [.] too */
	}
}

int vp_domain_valid(char d)
{
	return d == VP_DOM_USER || d == VP_DOM_KERNEL || d == VP_DOM_GUEST_USER ||
	       d == VP_DOM_GUEST_KERNEL || d == VP_DOM_HYPERVISOR;
}

const char *vp_dso_short_name(const char *dso)
{
	const char *slash;

	if (!dso)
		return "";
	if (dso[0] == '[')
		return dso;
	slash = strrchr(dso, '/');
	return slash && slash[1] ? slash + 1 : dso;
}

int vp_event_is_time(const char *name, uint32_t attr_type, uint64_t attr_config)
{
	static const char *const names[] = { "cpu-clock", "task-clock", "offcpu-time" };
	size_t n;

	if (attr_type == PERF_TYPE_SOFTWARE &&
	    (attr_config == PERF_COUNT_SW_CPU_CLOCK || attr_config == PERF_COUNT_SW_TASK_CLOCK))
		return 1;
	if (!name)
		return 0;
	n = strcspn(name, ":#");
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strlen(names[i]) == n && !strncmp(name, names[i], n))
			return 1;
	return 0;
}

int vp_table_is_time(const struct vp_event_table *t)
{
	return !t->weight && !t->group && vp_event_is_time(t->name, t->attr_type, t->attr_config);
}

int vp_event_names_are_time(const char *const *names, size_t n)
{
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		if (!vp_event_is_time(names[i], ~0u, 0))
			return 0;
		any = 1;
	}
	return any;
}

int vp_dso_is_system(const char *dso)
{
	static const char *const dirs[] = { "/lib/", "/lib32/", "/lib64/", "/usr/lib/", "/usr/lib32/",
					    "/usr/lib64/", "/usr/libexec/" };

	if (!dso || dso[0] == '[')	/* [vdso], [kernel.kallsyms], [unknown] */
		return 1;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		if (!strncmp(dso, dirs[i], strlen(dirs[i])))
			return 1;
	return 0;
}

int vp_key_parse(const char *spec, unsigned *key)
{
	unsigned k = 0;
	const char *p = spec;

	while (*p) {
		size_t n = strcspn(p, ",");
		if ((n == 3 && !strncmp(p, "sym", 3)) || (n == 6 && !strncmp(p, "symbol", 6)))
			k |= VP_KEY_SYM;
		else if (n == 3 && !strncmp(p, "dso", 3))
			k |= VP_KEY_DSO;
		else if (n == 6 && !strncmp(p, "domain", 6))
			k |= VP_KEY_DOMAIN;
		else if (n == 4 && !strncmp(p, "comm", 4))
			k |= VP_KEY_COMM;
		else if (n == 3 && !strncmp(p, "pid", 3))
			k |= VP_KEY_PID | VP_KEY_COMM;
		else
			return -EINVAL;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!k)
		return -EINVAL;
	*key = k;
	return 0;
}

/* libiberty's names for special symbols: their inner parameter lists are part
 * of the name even without DMGL_PARAMS, so perf prints them whole. */
struct literal {
	const char *s;
	size_t len;
};
#define LITERAL(text) { text, sizeof(text) - 1 }
static const struct literal special_prefixes[] = {
	LITERAL("non-virtual thunk to "), LITERAL("virtual thunk to "),
	LITERAL("covariant return thunk to "), LITERAL("transaction clone for "),
	LITERAL("non-transaction clone for "), LITERAL("hidden alias for "), LITERAL("vtable for "),
	LITERAL("VTT for "), LITERAL("construction vtable for "), LITERAL("typeinfo for "),
	LITERAL("typeinfo name for "), LITERAL("typeinfo fn for "), LITERAL("java Class for "),
	LITERAL("java resource "), LITERAL("guard variable for "), LITERAL("reference temporary #"),
	LITERAL("TLS init function for "), LITERAL("TLS wrapper function for "),
	LITERAL("template parameter object for "), LITERAL("global constructors keyed to "),
	LITERAL("global destructors keyed to "),
};
/* Qualifiers after the parameter list, dropped: " const", " volatile", " &", " &&". */
static const struct literal qualifiers[] = {
	LITERAL(" const"), LITERAL(" volatile"), LITERAL(" &&"), LITERAL(" &"),
};

/* Whether s[0, n) ends with lit. The last byte first: this runs for every
 * frame of every sample a stack tree takes, and a string compare per
 * literal was half of compare's time on -g files. */
static int ends_with(const char *s, size_t n, const struct literal *lit)
{
	return n > lit->len && s[n - 1] == lit->s[lit->len - 1] &&
	       !memcmp(s + n - lit->len, lit->s, lit->len);
}

size_t vp_symbol_display_len(const char *s)
{
	size_t n, end;
	int depth = 0;

	if (!s)
		return 0;
	n = strlen(s);
	/* Clone suffixes (" [clone .cold]", possibly several): perf's demangler never
	 * reads them, so they are not shown. */
	while (n > 0 && s[n - 1] == ']') {
		size_t i = n - 1;
		while (i > 0 && s[i] != '[')
			i--;
		if (i == 0 || s[i - 1] != ' ' || strncmp(s + i, "[clone ", 7))
			break;
		n = i - 1;
	}
	end = n;
	for (size_t i = 0; i < sizeof(special_prefixes) / sizeof(special_prefixes[0]); i++)
		if (s[0] == special_prefixes[i].s[0] &&
		    !strncmp(s, special_prefixes[i].s, special_prefixes[i].len))
			return end;
	for (;;) {
		int cut = 0;
		for (size_t q = 0; q < sizeof(qualifiers) / sizeof(qualifiers[0]) && !cut; q++)
			if (ends_with(s, n, &qualifiers[q])) {
				n -= qualifiers[q].len;
				cut = 1;
			}
		if (!cut)
			break;
	}
	if (n == 0 || s[n - 1] != ')')
		return end;
	/* Walk back over the balanced trailing "(...)". */
	for (size_t i = n; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i > 0 ? i : end;
	}
	return end;
}
