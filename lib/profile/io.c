/* The I/O table (see io.h): one walk charging each sys_enter and sys_exit
 * to a function, then per thread in time order each exit completes the
 * call its enter began, on the row the enter was charged to. */
#include "io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "charge.h"
#include "filter.h"
#include "lib/perfdata/perfdata.h"
#include "lib/perfdata/tracedata.h"
#include "lib/symbols/session.h"
#include "lib/util/grow.h"
#include "lib/util/u64map.h"

/* What an event of the file is to the table. */
struct kind {
	int used;			/* one of ours */
	int enter;			/* sys_enter (else sys_exit) */
	enum vp_io_dir dir;
	int nr;				/* which call: 0 read, 1 write, 2 pread64, 3 pwrite64 */
	const struct vp_tpfield *field;	/* count (enter), ret (exit) */
};

/* A sys_enter or sys_exit, kept until the walk ends: the walk orders samples
 * only against the other records (maps, comms), not among themselves, so a
 * thread's calls are paired once sorted by time. */
struct call_event {
	uint64_t time, seq;
	uint32_t tid;
	int8_t enter, nr;
	int64_t value;		/* asked (enter), returned (exit) */
	size_t row;		/* where this event alone would charge the call */
};

struct walker {
	struct vp_session_client sc;	/* first: the session forwarders' view */
	struct vp_io_table *t;
	struct vp_tracedata *td;
	struct kind *kinds;
	size_t nkinds;
	struct vp_u64map rows;		/* key hash -> row + 1 */
	struct call_event *ev;
	size_t nev, cap;
	struct vp_filter_run filter;	/* --pid --tid --comm --time */
};

static const char *const calls[4] = { "read", "write", "pread64", "pwrite64" };

const char *vp_io_dir_name(enum vp_io_dir d)
{
	return d == VP_IO_READ ? "read" : "write";
}

double vp_io_mean_block(const struct vp_io_row *r)
{
	return r->calls ? (double)r->bytes / (double)r->calls : 0;
}

static void classify(struct walker *w, const struct vp_evsel *ev, struct kind *k)
{
	const char *name = ev->name, *p;

	memset(k, 0, sizeof(*k));
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || strncmp(name, "syscalls:sys_", 13))
		return;
	p = name + 13;
	if (!strncmp(p, "enter_", 6))
		k->enter = 1, p += 6;
	else if (!strncmp(p, "exit_", 5))
		p += 5;
	else
		return;
	for (int i = 0; i < 4; i++)
		if (!strcmp(p, calls[i])) {
			k->nr = i;
			k->dir = i % 2 ? VP_IO_WRITE : VP_IO_READ;
			k->field = vp_tracedata_field(w->td, (int)ev->attr.config, k->enter ? "count" : "ret");
			k->used = k->field != NULL;
		}
}

/* The row of (function, direction), made on first use; its index or < 0. */
static long row_of(struct walker *w, const struct vp_resolved *r, enum vp_io_dir dir)
{
	struct vp_io_table *t = w->t;
	uint64_t key = vp_hash_u64((uint64_t)(uintptr_t)r->symbol ^ ((uint64_t)(uintptr_t)r->dso << 17) ^
				   ((uint64_t)(unsigned char)r->domain << 56) ^ dir);

	for (;; key++) {	/* equal keys of other rows: the next key */
		uintptr_t at = (uintptr_t)vp_u64map_get(&w->rows, key);
		if (!at)
			break;
		struct vp_io_row *x = &t->rows[at - 1];
		if (x->symbol == r->symbol && x->dso == r->dso && x->domain == r->domain && x->dir == dir)
			return (long)at - 1;
	}
	if (vp_grow((void **)&t->rows, &t->cap, t->nrows, sizeof(*t->rows), 64) < 0)
		return -ENOMEM;
	t->rows[t->nrows] = (struct vp_io_row){ r->symbol, r->dso, r->domain, dir };
	if (vp_u64map_put(&w->rows, key, (void *)(uintptr_t)(t->nrows + 1)) < 0)
		return -ENOMEM;
	return (long)t->nrows++;
}

static long charge(struct walker *w, const struct vp_sample *s, enum vp_io_dir dir)
{
	struct vp_resolved r;

	vp_session_resolve(w->sc.session, s->pid, s->misc, s->ip, &r);
	if (s->callchain)
		vp_charge_own(w->sc.session, s, &r);
	return row_of(w, &r, dir);
}

static int on_sample(void *ctx, const struct vp_sample *s)
{
	struct walker *w = ctx;
	const struct kind *k = s->evsel->index < w->nkinds ? &w->kinds[s->evsel->index] : NULL;
	int64_t v;
	long row;

	if (!k || !k->used || !s->raw || vp_tpfield_value(k->field, s->raw, s->raw_size, &v) < 0 ||
	    !vp_filter_keep(&w->filter, w->sc.session, s))
		return 0;
	if (vp_grow((void **)&w->ev, &w->cap, w->nev, sizeof(*w->ev), 4096) < 0)
		return vp_errorf(w->sc.err, -ENOMEM, "out of memory");
	if ((row = charge(w, s, k->dir)) < 0)
		return vp_errorf(w->sc.err, -ENOMEM, "out of memory");
	w->ev[w->nev] = (struct call_event){ s->time, w->nev, s->tid, (int8_t)k->enter, (int8_t)k->nr, v,
					     (size_t)row };
	w->nev++;
	return 0;
}

static int by_thread(const void *a, const void *b)
{
	const struct call_event *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Each exit completes the call its thread's enter just before began (charged
 * where the enter was); an exit without one (the call began before the
 * recording) is counted where it is, untimed and with no size to be short of. */
static void pair(struct walker *w)
{
	qsort(w->ev, w->nev, sizeof(*w->ev), by_thread);
	for (size_t i = 0; i < w->nev; i++) {
		const struct call_event *x = &w->ev[i], *p = i ? &w->ev[i - 1] : NULL;
		if (x->enter)
			continue;
		int paired = p && p->enter && p->tid == x->tid && p->nr == x->nr;
		struct vp_io_row *r = &w->t->rows[paired ? p->row : x->row];
		r->calls++;
		if (x->value < 0)
			r->errors++;
		else if (x->value == 0 && r->dir == VP_IO_READ)
			r->eofs++;
		else if (paired && x->value < p->value)
			r->shorts++;
		if (x->value > 0)
			r->bytes += (uint64_t)x->value;
		if (paired) {
			r->timed++;
			r->time_ns += x->time - p->time;
		} else {
			r->unsized++;
		}
	}
}

static int by_time(const void *a, const void *b)
{
	const struct vp_io_row *x = a, *y = b;
	int c;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if ((c = strcmp(x->symbol, y->symbol)) || (c = strcmp(x->dso, y->dso)))
		return c;
	return x->dir != y->dir ? (int)x->dir - (int)y->dir : x->domain - y->domain;
}

void vp_io_free(struct vp_io_table *t)
{
	if (!t)
		return;
	vp_strpool_free(t->pool);
	free(t->rows);
	free(t);
}

int vp_io_from_perfdata(const char *path, const struct vp_load_opts *lo, struct vp_io_table **out,
			struct vp_error *err)
{
	struct walker w = { { NULL, err } };
	struct vp_perfdata *pd = NULL;
	const void *tdata;
	uint64_t tsize;
	int r, any = 0;

	*out = NULL;
	if (!(w.t = calloc(1, sizeof(*w.t))) || !(w.t->pool = vp_strpool_new())) {
		vp_io_free(w.t);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	if ((r = vp_perfdata_open(path, &pd, err)) < 0)
		goto out;
	if (vp_perfdata_feature(pd, VP_FEAT_TRACING_DATA, &tdata, &tsize) < 0 ||
	    (r = vp_tracedata_parse(tdata, tsize, &w.td, err)) < 0) {
		r = vp_errorf(err, -ENOENT, "'%s': no syscall tracepoints in the file (record with "
			      "vmprof record --io)", path);
		goto out;
	}
	w.nkinds = vp_perfdata_nevsel(pd);
	if (!(w.kinds = calloc(w.nkinds ? w.nkinds : 1, sizeof(*w.kinds)))) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < w.nkinds; i++) {
		classify(&w, vp_perfdata_evsel(pd, i), &w.kinds[i]);
		any |= w.kinds[i].used && !w.kinds[i].enter;
	}
	if (!any) {
		r = vp_errorf(err, -ENOENT, "'%s': no syscall tracepoints of read, write, pread64 or "
			      "pwrite64 in the file (record with vmprof record --io)", path);
		goto out;
	}
	struct vp_session_opts so = { lo->symfs, lo->kallsyms, lo->guest_kallsyms, lo->guest_modules };
	if ((r = vp_session_new(pd, &so, w.t->pool, &w.sc.session, err)) < 0 ||
	    (r = vp_filter_start(&w.filter, &lo->filter, pd, err)) < 0)
		goto out;
	struct vp_perf_tool tool = { .sample = on_sample };
	vp_session_tool(&tool);
	if ((r = vp_perfdata_walk(pd, &tool, &w, err)) < 0)
		goto out;
	vp_filter_end(&w.filter, path);
	pair(&w);
	qsort(w.t->rows, w.t->nrows, sizeof(*w.t->rows), by_time);
	for (size_t i = 0; i < w.t->nrows; i++) {
		const struct vp_io_row *x = &w.t->rows[i];
		w.t->calls[x->dir] += x->calls;
		w.t->bytes[x->dir] += x->bytes;
		w.t->time_ns[x->dir] += x->time_ns;
	}
	*out = w.t;
	w.t = NULL;
	r = 0;
out:
	vp_filter_end(&w.filter, NULL);
	free(w.ev);
	vp_u64map_free(&w.rows);
	vp_session_free(w.sc.session);
	vp_tracedata_free(w.td);
	vp_perfdata_close(pd);
	free(w.kinds);
	vp_io_free(w.t);
	return r;
}
