/* Portable symbols (see portsyms.h): collected by one walk over a recording
 * with the same session report uses, so the stored symbols are exactly the
 * ones report would pick; parsed back into sealed symbol tables. */
#include "portsyms.h"
#include "kernel_id.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/perfdata/perfdata.h"
#include "lib/perfdata/write.h"
#include "session.h"
#include "lib/util/strpool.h"
#include "lib/util/u64map.h"

#define MAGIC "vmprof-syms 1\n"
#define NAME_MAX_LEN 4096

/* ---- collecting ---- */

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
	struct vp_session *session;
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

	vp_session_resolve_sym(c->session, pid, cpumode, ip, &r);
	if (!r.sym || !r.tab || !r.kind)
		return;
	if (!(d = cdso_get(c, &r))) {
		c->oom = 1;
		return;
	}
	if (vp_u64map_get(&d->seen, (uintptr_t)r.sym))
		return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		const struct vp_sym **v = realloc(d->syms, cap * sizeof(*v));
		if (!v) {
			c->oom = 1;
			return;
		}
		d->syms = v;
		d->cap = cap;
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
		if (ip >= PERF_CONTEXT_MAX) {
			cpumode = ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER
				: ip == PERF_CONTEXT_GUEST_USER ? PERF_RECORD_MISC_GUEST_USER
				: ip == PERF_CONTEXT_GUEST_KERNEL ? PERF_RECORD_MISC_GUEST_KERNEL
				: PERF_RECORD_MISC_KERNEL;
			continue;
		}
		note(c, s->pid, cpumode, ip);
	}
	return c->oom ? -ENOMEM : 0;
}

static int on_mmap(void *ctx, const struct vp_mmap_event *m)
{
	return vp_session_mmap(((struct collector *)ctx)->session, m);
}

static int on_comm(void *ctx, const struct vp_comm_event *e)
{
	return vp_session_comm(((struct collector *)ctx)->session, e);
}

static int on_fork(void *ctx, const struct vp_task_event *t)
{
	return vp_session_fork(((struct collector *)ctx)->session, t);
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
	return *s && !strpbrk(s, "\n\r") && strlen(s) < NAME_MAX_LEN;
}

static void write_text(struct collector *c, FILE *f)
{
	fputs(MAGIC, f);
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
	struct vp_perf_tool tool = { .sample = on_sample, .mmap = on_mmap, .comm = on_comm,
				     .fork = on_fork };
	int r;
	FILE *f;

	*text = NULL;
	*size = 0;
	if (build_ids) {
		*build_ids = NULL;
		*build_ids_size = 0;
	}
	so.quiet = 1;
	if ((r = vp_perfdata_open(path, &pd, err)) < 0)
		return r;
	if (!(c.pool = vp_strpool_new())) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((r = vp_session_new(pd, &so, c.pool, &c.session, err)) < 0)
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
	vp_session_free(c.session);
	vp_strpool_free(c.pool);
	vp_perfdata_close(pd);
	return r < 0 ? r : 0;
}

/* ---- reading ---- */

struct vp_portsyms {
	struct vp_portsyms_dso *dsos;
	size_t n;
};

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* One line as a NUL-terminated copy in buf; NULL at the end of the data. */
static const char *next_line(const char **p, const char *end, char *buf, size_t bufsize)
{
	const char *nl;
	size_t n;

	if (*p >= end)
		return NULL;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	n = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	if (n >= bufsize || memchr(*p, '\0', n))
		n = 0, buf[0] = '\0', *p = end;	/* overlong or binary: stop here */
	else {
		memcpy(buf, *p, n);
		buf[n] = '\0';
		*p += n + (nl ? 1 : 0);
	}
	return buf;
}

static int parse_dso(struct vp_portsyms_dso *d, const char *line)
{
	char bid[64];
	int off = 0;

	memset(d, 0, sizeof(*d));
	if (sscanf(line, "dso %c %63s %n", &d->kind, bid, &off) != 2 || !off || !line[off])
		return -1;
	if (d->kind != VP_PORTSYMS_USER && d->kind != VP_PORTSYMS_KERNEL &&
	    d->kind != VP_PORTSYMS_GUEST && d->kind != VP_PORTSYMS_JIT)
		return -1;
	if (strcmp(bid, "-")) {
		size_t len = strlen(bid);
		if (len % 2 || len > 40)
			return -1;
		for (size_t i = 0; i < len / 2; i++) {
			int hi = hexval(bid[2 * i]), lo = hexval(bid[2 * i + 1]);
			if (hi < 0 || lo < 0)
				return -1;
			d->build_id[i] = (uint8_t)(hi << 4 | lo);
		}
		d->build_id_size = (uint8_t)(len / 2);
	}
	if (!(d->name = strdup(line + off)) || !(d->tab = vp_symtab_new())) {
		free((char *)d->name);
		d->name = NULL;
		return -ENOMEM;
	}
	/* perf leaves kernel and JIT map names verbatim and demangles user ones. */
	vp_symtab_set_demangle(d->tab, d->kind == VP_PORTSYMS_USER);
	return 0;
}

static int parse_sym(struct vp_portsyms_dso *d, const char *line)
{
	unsigned long long start, end;
	char flag;
	int off = 0;

	if (sscanf(line, "%llx %llx %c %n", &start, &end, &flag, &off) != 3 || !off || !line[off] ||
	    end < start || (flag != '-' && flag != 'p'))
		return -1;
	if (flag == 'p')
		return vp_symtab_add_plt(d->tab, start, end - start, line + off) < 0 ? -ENOMEM : 0;
	/* STB_GLOBAL, STT_FUNC: the symbols were chosen already, no fixup follows. */
	return vp_symtab_add(d->tab, start, end - start, line + off, 1, 2) < 0 ? -ENOMEM : 0;
}

int vp_portsyms_parse(const char *path, const void *data, size_t size,
		      struct vp_portsyms **out, struct vp_error *err)
{
	struct vp_portsyms *p = calloc(1, sizeof(*p));
	size_t cap = 0, nsyms = 0;
	/* The writer ends the text with a NUL: the section is a C string. */
	const char *cur = data, *end = cur + strnlen(data, size);
	char *buf = malloc(NAME_MAX_LEN + 128);
	const char *line;
	int r = 0, bad = 0;

	*out = NULL;
	if (!p || !buf) {
		free(p);
		free(buf);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	line = next_line(&cur, end, buf, NAME_MAX_LEN + 128);
	if (!line || strcmp(line, "vmprof-syms 1"))
		bad = 1;
	while (!bad && (line = next_line(&cur, end, buf, NAME_MAX_LEN + 128))) {
		if (!line[0]) {	/* the writer never leaves an empty line: damage */
			bad = 1;
			break;
		}
		if (!strncmp(line, "dso ", 4)) {
			if (p->n == VP_PORTSYMS_MAX_OBJECTS) {
				vp_warn("'%s': portable symbols for more than %d objects; the rest "
					"are ignored", path, VP_PORTSYMS_MAX_OBJECTS);
				break;
			}
			if (p->n == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				struct vp_portsyms_dso *v = realloc(p->dsos, ncap * sizeof(*v));
				if (!v) {
					r = -ENOMEM;
					break;
				}
				p->dsos = v;
				cap = ncap;
			}
			struct vp_portsyms_dso *v = p->dsos;
			if ((r = parse_dso(&v[p->n], line)) < 0) {
				bad = r == -1;
				r = r == -1 ? 0 : r;
				break;
			}
			p->n++;
		} else if (p->n) {
			if (++nsyms > VP_PORTSYMS_MAX_SYMBOLS) {
				vp_warn("'%s': more than %u portable symbols; the rest are ignored",
					path, VP_PORTSYMS_MAX_SYMBOLS);
				break;
			}
			if ((r = parse_sym(&p->dsos[p->n - 1], line)) < 0) {
				bad = r == -1;
				r = r == -1 ? 0 : r;
				break;
			}
		} else {
			bad = 1;
		}
	}
	free(buf);
	if (r < 0) {
		vp_portsyms_free(p);
		return vp_errorf(err, r, "out of memory");
	}
	if (bad)
		vp_warn("'%s': the portable symbol section is malformed; symbols read up to "
			"the damage", path);
	for (size_t i = 0; i < p->n; i++)
		vp_symtab_seal(p->dsos[i].tab);
	*out = p;
	return 0;
}

void vp_portsyms_free(struct vp_portsyms *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free((char *)p->dsos[i].name);
		vp_symtab_free(p->dsos[i].tab);
	}
	free(p->dsos);
	free(p);
}

size_t vp_portsyms_count(const struct vp_portsyms *p)
{
	return p ? p->n : 0;
}

const struct vp_portsyms_dso *vp_portsyms_at(const struct vp_portsyms *p, size_t i)
{
	return p && i < p->n ? &p->dsos[i] : NULL;
}

const struct vp_portsyms_dso *vp_portsyms_find(const struct vp_portsyms *p, char kind,
					       const char *name)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (p->dsos[i].kind == kind && !strcmp(p->dsos[i].name, name))
			return &p->dsos[i];
	return NULL;
}
