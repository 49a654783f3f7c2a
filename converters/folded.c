/* Folded stacks from a perf.data file's callchains: one line per distinct
 * stack, "comm;outermost;...;leaf COUNT", the input of FlameGraph's
 * flamegraph.pl and of speedscope, as stackcollapse-perf.pl makes them from
 * `perf script`. */
#include "formats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/profile/stacks.h"
#include "lib/util/strpool.h"
#include "lib/util/u64map.h"

struct stack {
	const char *text;	/* interned "comm;a;b;c" */
	uint64_t count;
};

struct vp_folded {
	struct vp_strpool *pool;
	struct vp_u64map index;	/* interned text pointer -> stack number + 1 */
	struct stack *v;
	size_t n, cap;
	const char *event;	/* interned */
};

struct folder {
	struct vp_folded *f;
	const struct vp_folded_opts *o;
	struct vp_error *err;
	char *buf;
	size_t len, cap;
};

void vp_folded_opts_init(struct vp_folded_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->value = VP_VALUE_SAMPLES;
}

static int put(struct folder *fo, const char *s, size_t n)
{
	if (fo->len + n + 1 > fo->cap) {
		size_t cap = fo->cap ? fo->cap : 256;
		while (cap < fo->len + n + 1)
			cap *= 2;
		char *b = realloc(fo->buf, cap);
		if (!b)
			return -ENOMEM;
		fo->buf = b;
		fo->cap = cap;
	}
	/* ';' separates frames and a newline ends the line: neither may appear in
	 * a name (stackcollapse-perf.pl turns ';' into ':' too). */
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		fo->buf[fo->len++] = c == ';' ? ':' : c == '\n' || c == '\r' ? ' ' : c;
	}
	fo->buf[fo->len] = 0;
	return 0;
}

static int put_sep(struct folder *fo)
{
	int r = put(fo, "x", 1);

	if (r == 0)
		fo->buf[fo->len - 1] = ';';
	return r;
}

static int put_frame(struct folder *fo, const struct vp_resolved *r)
{
	char tmp[VP_FRAME_LABEL_MAX];
	size_t n;
	const char *name = vp_frame_label(r, fo->o->full_names, tmp, &n);

	return put(fo, name, n);
}

static int add_stack(struct folder *fo, uint64_t count)
{
	struct vp_folded *f = fo->f;
	const char *text = vp_strpool_intern_n(f->pool, fo->buf, fo->len);
	uintptr_t at;

	if (!text)
		return -ENOMEM;
	at = (uintptr_t)vp_u64map_get(&f->index, (uintptr_t)text);
	if (at) {
		f->v[at - 1].count += count;
		return 0;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct stack *v = realloc(f->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n] = (struct stack){ text, count };
	if (vp_u64map_put(&f->index, (uintptr_t)text, (void *)(uintptr_t)(f->n + 1)) < 0)
		return -ENOMEM;
	f->n++;
	return 0;
}

static int on_stack(void *ctx, const struct vp_stack *st)
{
	struct folder *fo = ctx;
	const char *comm = st->comm ? st->comm : "[unknown]";
	int r;

	fo->len = 0;
	r = put(fo, comm, strlen(comm));
	/* root first; the chain as perf script prints it */
	for (size_t i = st->n; i-- > (size_t)st->added_leaf && r == 0;)
		if ((r = put_sep(fo)) == 0)
			r = put_frame(fo, &st->frames[i].r);
	if (r == 0)
		r = add_stack(fo, fo->o->value == VP_VALUE_PERIOD ? st->s->period : 1);
	return r < 0 ? vp_errorf(fo->err, r, "out of memory") : 0;
}

static int stack_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct stack *)pa)->text, ((const struct stack *)pb)->text);
}

void vp_folded_free(struct vp_folded *f)
{
	if (!f)
		return;
	vp_u64map_free(&f->index);
	free(f->v);
	vp_strpool_free(f->pool);
	free(f);
}

int vp_folded_from_perfdata(const char *path, const struct vp_load_opts *lo,
			    const struct vp_folded_opts *o, struct vp_folded **out, struct vp_error *err)
{
	struct folder fo = { .o = o, .err = err };
	struct vp_strpool *names = vp_strpool_new();
	struct vp_stacks *st = NULL;
	const struct vp_evsel *ev;
	int r;

	*out = NULL;
	if (!names)
		return vp_errorf(err, -ENOMEM, "out of memory");
	if ((r = vp_stacks_open(path, lo, names, &st, err)) < 0 ||
	    (r = vp_stacks_event(st, o->event, &ev, err)) < 0)
		goto out;
	size_t nev = vp_perfdata_nevsel(vp_stacks_perfdata(st));
	if (!o->event && nev > 1)
		vp_warn("'%s' holds %zu events; folding '%s' (choose one with --event)", path, nev,
			ev->name);
	if (!(ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		vp_warn("'%s': '%s' was recorded without callchains (-g): every stack is one frame",
			path, ev->name);
	fo.f = calloc(1, sizeof(*fo.f));
	if (!fo.f || !(fo.f->pool = vp_strpool_new()) ||
	    !(fo.f->event = vp_strpool_intern(fo.f->pool, ev->name))) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((r = vp_stacks_walk(st, ev, on_stack, &fo, err)) < 0)
		goto out;
	if (fo.f->n > 1)
		qsort(fo.f->v, fo.f->n, sizeof(*fo.f->v), stack_cmp);
	*out = fo.f;
	fo.f = NULL;
out:
	vp_stacks_close(st);
	vp_strpool_free(names);
	vp_folded_free(fo.f);
	free(fo.buf);
	return r < 0 ? r : 0;
}

const char *vp_folded_event(const struct vp_folded *f)
{
	return f->event;
}

size_t vp_folded_count(const struct vp_folded *f)
{
	return f->n;
}

int vp_folded_write(FILE *out, const struct vp_folded *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (fprintf(out, "%s %llu\n", f->v[i].text, (unsigned long long)f->v[i].count) < 0)
			return -EIO;
	return ferror(out) ? -EIO : 0;
}
