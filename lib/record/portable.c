/* The recorder's last pass (see lib/symbols/portsyms.h for the format): one
 * walk over the recording with the same session report uses, so the stored
 * symbols are exactly the ones report would pick, and perf's build-id table
 * for the objects with samples. */
#include "portable.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/perfdata/perfdata.h"
#include "lib/perfdata/write.h"
#include "lib/symbols/kernel_id.h"
#include "lib/symbols/portsyms.h"
#include "lib/symbols/session.h"
#include "lib/util/grow.h"
#include "lib/util/strpool.h"
#include "lib/util/u64map.h"

struct cdso {
	const char *name;
	char kind;
	uint64_t delta;
	uint8_t build_id[20], build_id_size;
	const struct vp_symtab *tab;
	struct vp_u64map seen;	/* vp_sym pointer -> itself */
	const struct vp_sym **syms;
	size_t n, cap;
};

struct collector {
	struct vp_session_client sc;	/* first: the session forwarders' view */
	struct vp_strpool *pool;
	struct cdso *dsos;
	size_t ndsos;
	int oom;
};

static struct cdso *cdso_get(struct collector *c, const struct vp_resolved_sym *r)
{
	for (size_t i = 0; i < c->ndsos; i++)
		if (c->dsos[i].name == r->dso && c->dsos[i].kind == r->kind &&
		    c->dsos[i].tab == r->tab)
			return &c->dsos[i];
	struct cdso *v = realloc(c->dsos, (c->ndsos + 1) * sizeof(*v));
	if (!v)
		return NULL;
	c->dsos = v;
	v = &c->dsos[c->ndsos++];
	memset(v, 0, sizeof(*v));
	v->name = r->dso;
	v->kind = r->kind;
	v->delta = r->delta;
	v->tab = r->tab;
	memcpy(v->build_id, r->build_id, sizeof(v->build_id));
	v->build_id_size = r->build_id_size;
	return v;
}

static void note(struct collector *c, uint32_t pid, unsigned cpumode, uint64_t ip)
{
	struct vp_resolved_sym r;
	struct cdso *d;

	vp_session_resolve_sym(c->sc.session, pid, cpumode, ip, &r);
	if (!r.sym || !r.tab || !r.kind)
		return;
	if (!(d = cdso_get(c, &r))) {
		c->oom = 1;
		return;
	}
	if (vp_u64map_get(&d->seen, (uintptr_t)r.sym))
		return;
	if (vp_grow((void **)&d->syms, &d->cap, d->n, sizeof(*d->syms), 64) < 0) {
		c->oom = 1;
		return;
	}
	if (vp_u64map_put(&d->seen, (uintptr_t)r.sym, (void *)r.sym) < 0) {
		c->oom = 1;
		return;
	}
	d->syms[d->n++] = r.sym;
}

static int on_sample(void *ctx, const struct vp_sample *s)
{
	struct collector *c = ctx;
	unsigned cpumode = s->misc & VP_MISC_CPUMODE_MASK;

	note(c, s->pid, cpumode, s->ip);
	for (uint64_t i = 0; i < s->nr_callchain; i++) {
		uint64_t ip = s->callchain[i];
		if (vp_callchain_context(ip, &cpumode))
			continue;
		note(c, s->pid, cpumode, ip);
	}
	return c->oom ? -ENOMEM : 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct vp_sym *x = *(const struct vp_sym *const *)a, *y = *(const struct vp_sym *const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Names are written verbatim; one with a line break cannot be, and is left out. */
static int writable(const char *s)
{
	return *s && !strpbrk(s, "\n\r") && strlen(s) < VP_PORTSYMS_NAME_MAX;
}

static void write_text(struct collector *c, FILE *f)
{
	fputs(VP_PORTSYMS_MAGIC "\n", f);
	for (size_t i = 0; i < c->ndsos; i++) {
		struct cdso *d = &c->dsos[i];
		if (!writable(d->name))
			continue;
		fprintf(f, "dso %c ", d->kind);
		if (d->build_id_size)
			for (unsigned k = 0; k < d->build_id_size; k++)
				fprintf(f, "%02x", d->build_id[k]);
		else
			fputc('-', f);
		fprintf(f, " %s\n", d->name);
		/* Address order: the same recording gives the same bytes. */
		if (d->n)
			qsort(d->syms, d->n, sizeof(*d->syms), cmp_sym);
		for (size_t k = 0; k < d->n; k++) {
			const struct vp_sym *s = d->syms[k];
			const char *name = s->name;
			size_t len = strlen(name);
			int plt = (s->flags & VP_SYM_PLT) && len > 4 && !strcmp(name + len - 4, "@plt");
			if (!writable(name))
				continue;
			fprintf(f, "%llx %llx %c %.*s\n", (unsigned long long)(s->start - d->delta),
				(unsigned long long)(s->end - d->delta), plt ? 'p' : '-',
				(int)(plt ? len - 4 : len), name);
		}
	}
}

static void put_build_id(FILE *f, uint16_t cpumode, const uint8_t *id, size_t size, const char *name)
{
	uint8_t rec[4200];
	size_t n = vp_pd_build_id_record(rec, sizeof(rec), 0, cpumode, -1, id, size, name);

	fwrite(rec, 1, n, f);
}

static int build_id_blob(const struct collector *c, void **out, size_t *size)
{
	char *blob = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&blob, &len);
	int kernel_done = 0;

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < c->ndsos; i++) {
		const struct cdso *d = &c->dsos[i];
		uint8_t id[20];
		size_t n;
		if (!writable(d->name) || strlen(d->name) > 4000)
			continue;
		if (d->kind == VP_PORTSYMS_USER && d->build_id_size)
			put_build_id(f, PERF_RECORD_MISC_USER, d->build_id, d->build_id_size, d->name);
		else if (d->kind == VP_PORTSYMS_KERNEL && !kernel_done &&
			 !strcmp(d->name, "[kernel.kallsyms]") && vp_kernel_build_id(id, &n) == 0) {
			put_build_id(f, PERF_RECORD_MISC_KERNEL, id, n, d->name);
			kernel_done = 1;
		}
	}
	if (fclose(f) != 0) {
		free(blob);
		return -ENOMEM;
	}
	*out = blob;
	*size = len;
	return 0;
}

int vp_portsyms_collect(const char *path, const struct vp_session_opts *opts, char **text,
			size_t *size, void **build_ids, size_t *build_ids_size, struct vp_error *err)
{
	struct collector c = { 0 };
	struct vp_perfdata *pd = NULL;
	struct vp_session_opts so = *opts;
	struct vp_perf_tool tool = { .sample = on_sample };
	int r;
	FILE *f;

	*text = NULL;
	*size = 0;
	if (build_ids) {
		*build_ids = NULL;
		*build_ids_size = 0;
	}
	so.quiet = 1;
	c.sc.err = err;
	vp_session_tool(&tool);
	if ((r = vp_perfdata_open(path, &pd, err)) < 0)
		return r;
	if (!(c.pool = vp_strpool_new())) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((r = vp_session_new(pd, &so, c.pool, &c.sc.session, err)) < 0)
		goto out;
	if ((r = vp_perfdata_walk(pd, &tool, &c, err)) < 0)
		goto out;
	if (!(f = open_memstream(text, size))) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	write_text(&c, f);
	if (fclose(f) != 0) {
		free(*text);
		*text = NULL;
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (build_ids && build_id_blob(&c, build_ids, build_ids_size) < 0) {
		free(*text);
		*text = NULL;
		r = vp_errorf(err, -ENOMEM, "out of memory");
	}
out:
	for (size_t i = 0; i < c.ndsos; i++) {
		free(c.dsos[i].syms);
		vp_u64map_free(&c.dsos[i].seen);
	}
	free(c.dsos);
	vp_session_free(c.sc.session);
	vp_strpool_free(c.pool);
	vp_perfdata_close(pd);
	return r < 0 ? r : 0;
}
