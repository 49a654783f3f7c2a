/* The scheduler side channel (see sched.h): its events opened per CPU into
 * rings of their own, their records decoded into scheduling events, queued
 * and handed in time order to the accounting (schedacct.c) once every ring
 * has gone past them; blocked intervals written as offcpu-time samples. */
#include "sched.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "access.h"
#include "events.h"
#include "ring.h"
#include "schedacct.h"
#include "tracing.h"
#include "lib/perfdata/tracedata.h"
#include "lib/util/grow.h"
#include "lib/util/u64map.h"

enum kind { K_SWITCH = 1, K_STACK, K_WAKE };

/* Sample layouts (the attrs below): samples start with IDENTIFIER, TID,
 * TIME, CPU; then the callchain (sched_switch) or the raw data (wakeups).
 * Other records end with the same four as their sample_id_all trailer. */
#define SIDE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)
#define OFFCPU_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		     PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
#define MAX_STACK 512

struct vp_sched {
	struct vp_sched_opts o;
	int *fds;
	size_t nfds;
	struct vp_ring *rings;		/* per CPU */
	size_t nrings;
	struct vp_u64map kinds;		/* event id -> enum kind */
	uint64_t offcpu_id;
	int wakeups;			/* the wakeup tracepoints are open */
	char no_wakeups[1024];
	struct vp_tracedata *td;	/* the tracepoints' formats: where "pid", "next_pid" are */
	int wake_id[2];			/* their tracepoint ids */
	uint64_t switch_type;		/* sched_switch's sample_type (callchain? raw?) */
	const struct vp_tpfield *next_pid;
	char *copy;
	struct vp_sev *q;		/* decoded, waiting for their time */
	size_t nq, capq;
	uint64_t seq, lost;
	struct vp_schedacct *acct;
	/* the pass being emitted */
	vp_sched_emit emit;
	void *ectx;
	uint64_t floor;
	size_t emitted;
};

uint64_t vp_sched_now(void)
{
	struct timespec t;

	clock_gettime(VP_SCHED_CLOCK, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static long perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long fl)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, fl);
}

/* One side event's attr: spec is perf's name ("dummy", "sched:sched_switch"). */
static int side_attr(const char *spec, uint64_t extra, struct vp_event_spec *out, struct vp_error *err)
{
	struct vp_event_spec *ev;
	size_t n;
	int r;

	if ((r = vp_events_parse(spec, &ev, &n, err)) < 0)
		return r;
	*out = ev[0];
	free(ev);
	struct perf_event_attr *a = &out->attr;
	a->size = sizeof(*a);
	a->sample_type = SIDE_TYPE | extra;
	a->sample_period = 1;
	a->sample_id_all = 1;
	a->disabled = 1;
	a->use_clockid = 1;
	a->clockid = VP_SCHED_CLOCK;
	a->watermark = 1;
	return 0;
}

static int remember(struct vp_sched *s, int fd, enum kind k)
{
	uint64_t id;
	int *v = realloc(s->fds, (s->nfds + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	s->fds = v;
	s->fds[s->nfds++] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0)
		return -errno;
	if (!s->offcpu_id)
		s->offcpu_id = id;	/* never in the file: free for offcpu-time */
	return vp_u64map_put(&s->kinds, id, (void *)(uintptr_t)k);
}

/* Open a on every CPU for pid (-1: CPU-wide), into the CPU's ring (mapped
 * by the first event opened there). -errno. */
static int open_on_cpus(struct vp_sched *s, struct perf_event_attr *a, pid_t pid, enum kind k)
{
	for (size_t c = 0; c < s->o.ncpus; c++) {
		long fd = perf_event_open(a, pid, s->o.cpus[c], -1, PERF_FLAG_FD_CLOEXEC);
		int r;
		if (fd < 0) {
			if (errno == ESRCH && pid > 0)	/* a -p thread ended meanwhile */
				continue;
			return -errno;
		}
		if ((r = remember(s, (int)fd, k)) < 0)
			return r;
		if (!s->rings[c].base) {
			if ((r = vp_ring_map(&s->rings[c], (int)fd, s->o.pages, s->o.page)) < 0)
				return r;
			s->nrings++;
		} else if (ioctl((int)fd, PERF_EVENT_IOC_SET_OUTPUT, s->rings[c].fd) != 0) {
			return -errno;
		}
	}
	return 0;
}

static int open_per_thread(struct vp_sched *s, struct perf_event_attr *a, enum kind k)
{
	int r = 0;

	a->inherit = 1;
	a->enable_on_exec = s->o.enable_on_exec;
	for (size_t t = 0; t < s->o.ntargets && r == 0; t++)
		r = open_on_cpus(s, a, s->o.targets[t], k);
	return r;
}

/* sched_switch per thread: its callchain for --off-cpu, its next_pid (a
 * switch from one of the threads straight to another is the CPU's, not
 * waiting) where payloads may be read. Failing is --off-cpu's error only. */
static int open_switches(struct vp_sched *s, struct vp_event_spec *ev, struct vp_error *err)
{
	uint64_t chain = s->o.off_cpu ? PERF_SAMPLE_CALLCHAIN : 0;
	int r;

	ev->attr.sample_type = SIDE_TYPE | chain | PERF_SAMPLE_RAW;
	if (s->td && (s->next_pid = vp_tracedata_field(s->td, (int)ev->attr.config, "next_pid")) &&
	    open_per_thread(s, &ev->attr, K_STACK) == 0) {
		s->switch_type = ev->attr.sample_type;
		return 0;
	}
	s->next_pid = NULL;
	if (!chain)
		return 0;
	ev->attr.sample_type = SIDE_TYPE | chain;
	if ((r = open_per_thread(s, &ev->attr, K_STACK)) < 0) {
		r = vp_open_error(err, ev, -r, 0);
		vp_error_prefix(err, "--off-cpu");
		return r;
	}
	s->switch_type = ev->attr.sample_type;
	return 0;
}

/* The wakeup tracepoints, CPU-wide (ev: their specs). */
static int open_wakeups(struct vp_sched *s, struct vp_event_spec *ev, struct vp_error *err)
{
	int r;

	if (!s->td)
		return vp_errorf(err, -ENOENT, "no tracepoint formats in tracefs");
	for (int i = 0; i < 2; i++) {
		s->wake_id[i] = (int)ev[i].attr.config;
		if (!vp_tracedata_field(s->td, s->wake_id[i], "pid"))
			return vp_errorf(err, -EINVAL, "%s has no field 'pid'", ev[i].name);
		if ((r = open_on_cpus(s, &ev[i].attr, -1, K_WAKE)) < 0)
			return vp_errorf(err, r, "%s: %s", ev[i].name, strerror(-r));
	}
	return 0;
}

int vp_sched_open(const struct vp_sched_opts *o, struct vp_sched **out, struct vp_error *err)
{
	struct vp_sched *s = calloc(1, sizeof(*s));
	struct vp_event_spec ev;
	int r;

	*out = NULL;
	if (!s || !(s->rings = calloc(o->ncpus, sizeof(*s->rings))) || !(s->copy = malloc(65536)) ||
	    !(s->acct = vp_schedacct_new())) {
		vp_sched_free(s);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	s->o = *o;
	/* Switch records: their own dummy event, user space only, so that any
	 * user may follow their own threads. */
	if ((r = side_attr("dummy", 0, &ev, err)) < 0)
		goto fail;
	ev.attr.context_switch = 1;
	ev.attr.task = 1;
	ev.attr.exclude_kernel = ev.attr.exclude_hv = 1;
	if ((r = open_per_thread(s, &ev.attr, K_SWITCH)) < 0) {
		r = vp_errorf(err, -EOPNOTSUPP, "no context switch records: %s", strerror(-r));
		goto fail;
	}
	/* the tracepoints and their formats (payloads: root or paranoid -1) */
	struct vp_event_spec tp[3];
	struct vp_error werr = { 0 };
	int have_tp = side_attr("sched:sched_switch", 0, &tp[0], &werr) == 0 &&
		      side_attr("sched:sched_wakeup", PERF_SAMPLE_RAW, &tp[1], &werr) == 0 &&
		      side_attr("sched:sched_wakeup_new", PERF_SAMPLE_RAW, &tp[2], &werr) == 0;
	if (have_tp) {
		size_t size;
		char *blob = vp_tracing_data(tp, 3, s->o.page, &size);
		if (blob)
			vp_tracedata_parse(blob, size, &s->td, &werr);
		free(blob);
	} else if (o->off_cpu) {
		*err = werr;
		r = -ENOENT;
		goto fail;
	}
	if (have_tp && (r = open_switches(s, &tp[0], err)) < 0)
		goto fail;
	if (have_tp && open_wakeups(s, tp + 1, &werr) == 0) {
		s->wakeups = 1;
	} else {	/* close what opened: the switch records stay */
		snprintf(s->no_wakeups, sizeof(s->no_wakeups), "%s", werr.msg);
		for (size_t i = s->nfds; i-- > 0;) {
			uint64_t id;
			if (ioctl(s->fds[i], PERF_EVENT_IOC_ID, &id) != 0 ||
			    (uintptr_t)vp_u64map_get(&s->kinds, id) != K_WAKE)
				break;
			close(s->fds[i]);
			s->nfds--;
		}
	}
	*out = s;
	return 0;
fail:
	vp_sched_free(s);
	return r;
}

void vp_sched_free(struct vp_sched *s)
{
	if (!s)
		return;
	for (size_t c = 0; s->rings && c < s->o.ncpus; c++)
		vp_ring_unmap(&s->rings[c]);
	for (size_t i = 0; i < s->nfds; i++)
		close(s->fds[i]);
	for (size_t i = 0; i < s->nq; i++)
		free(s->q[i].stack);
	free(s->q);
	free(s->fds);
	free(s->rings);
	free(s->copy);
	vp_u64map_free(&s->kinds);
	vp_tracedata_free(s->td);
	vp_schedacct_free(s->acct);
	free(s);
}

const char *vp_sched_no_wakeups(const struct vp_sched *s)
{
	return s->wakeups ? NULL : s->no_wakeups;
}

void vp_sched_offcpu_event(const struct vp_sched *s, struct perf_event_attr *a, uint64_t *id)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_BPF_OUTPUT;
	a->size = sizeof(*a);
	a->sample_period = 1;
	a->sample_type = OFFCPU_TYPE;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = VP_SCHED_CLOCK;
	*id = s->offcpu_id;
}

void vp_sched_start(struct vp_sched *s)
{
	for (size_t i = 0; i < s->nfds; i++) {
		uint64_t id;
		int cpu_wide = ioctl(s->fds[i], PERF_EVENT_IOC_ID, &id) == 0 &&
			       (uintptr_t)vp_u64map_get(&s->kinds, id) == K_WAKE;
		if (cpu_wide || !s->o.enable_on_exec)
			ioctl(s->fds[i], PERF_EVENT_IOC_ENABLE, 0);
	}
}

void vp_sched_stop(struct vp_sched *s)
{
	for (size_t i = 0; i < s->nfds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

size_t vp_sched_pollfds(const struct vp_sched *s, struct pollfd *pf, size_t max)
{
	size_t n = 0;

	for (size_t c = 0; c < s->o.ncpus && n < max; c++)
		if (s->rings[c].base)
			pf[n++] = (struct pollfd){ s->rings[c].fd, POLLIN, 0 };
	return n;
}

/* ---- records into scheduling events */

static int push(struct vp_sched *s, const struct vp_sev *e)
{
	if (vp_grow((void **)&s->q, &s->capq, s->nq, sizeof(*s->q), 4096) < 0)
		return -ENOMEM;
	s->q[s->nq] = *e;
	s->q[s->nq++].seq = s->seq++;
	return 0;
}

/* The four u64s every record of ours ends with (or a sample starts with). */
static void ids(const uint64_t *v, struct vp_sev *e)
{
	e->pid = (uint32_t)v[0];
	e->tid = (uint32_t)(v[0] >> 32);
	e->time = v[1];
	e->cpu = (uint32_t)v[2];
}

static int on_sample(struct vp_sched *s, const uint64_t *body, size_t n, struct vp_sev *e)
{
	enum kind k;

	if (n < 5)
		return 0;
	k = (enum kind)(uintptr_t)vp_u64map_get(&s->kinds, body[0]);
	ids(body + 1, e);
	if (k == K_STACK) {
		size_t at = 4;	/* callchain, then raw, as the switch events have them */
		e->kind = VP_SEV_STACK;
		if (s->switch_type & PERF_SAMPLE_CALLCHAIN) {
			uint64_t nr = body[at++];
			if (nr > n - at || nr > MAX_STACK)
				return 0;
			e->nstack = (uint32_t)nr;
			if (nr && !(e->stack = malloc(nr * 8)))
				return -ENOMEM;
			if (nr)
				memcpy(e->stack, body + at, nr * 8);
			at += nr;
		}
		if ((s->switch_type & PERF_SAMPLE_RAW) && s->next_pid && at < n) {
			uint32_t size;
			int64_t next;
			memcpy(&size, body + at, 4);
			if (size <= (n - at) * 8 - 4 &&
			    vp_tpfield_value(s->next_pid, (const uint8_t *)(body + at) + 4, size, &next) == 0 &&
			    next > 0)
				e->next = (uint32_t)next;
		}
		return push(s, e) < 0 ? (free(e->stack), -ENOMEM) : 0;
	}
	if (k == K_WAKE) {
		uint32_t size;
		int64_t pid;
		memcpy(&size, body + 4, 4);
		const uint8_t *raw = (const uint8_t *)(body + 4) + 4;
		if (size > (n - 4) * 8 - 4)
			return 0;
		int id = vp_tracedata_raw_id(s->td, raw, size);
		const struct vp_tpfield *f = id == s->wake_id[0] || id == s->wake_id[1] ?
					     vp_tracedata_field(s->td, id, "pid") : NULL;
		if (!f || vp_tpfield_value(f, raw, size, &pid) < 0 || pid <= 0)
			return 0;
		e->kind = VP_SEV_WAKE;
		e->tid = (uint32_t)pid;
		return push(s, e);
	}
	return 0;
}

static int on_record(void *ctx, const struct perf_event_header *h)
{
	struct vp_sched *s = ctx;
	const uint64_t *body = (const uint64_t *)(h + 1);
	size_t n = (h->size - sizeof(*h)) / 8;
	struct vp_sev e = { 0 };

	if (h->type == PERF_RECORD_SAMPLE)
		return on_sample(s, body, n, &e);
	if (h->type == PERF_RECORD_LOST && n >= 2) {
		s->lost += body[1];
		return 0;
	}
	if (n < 4)
		return 0;
	ids(body + n - 4, &e);
	switch (h->type) {
	case PERF_RECORD_SWITCH:
		e.kind = h->misc & PERF_RECORD_MISC_SWITCH_OUT ? VP_SEV_OUT : VP_SEV_IN;
		e.preempt = !!(h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		return push(s, &e);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (n < 4 + 3)
			return 0;
		e.kind = h->type == PERF_RECORD_FORK ? VP_SEV_FORK : VP_SEV_EXIT;
		e.pid = (uint32_t)body[0];	/* pid, ppid, tid, ptid: u32 each */
		e.tid = (uint32_t)body[1];
		return push(s, &e);
	}
	return 0;
}

/* ---- blocked intervals into offcpu-time samples */

/* perf's layout for OFFCPU_TYPE: id, ip, pid/tid, time, id, cpu, period,
 * callchain. ip is the first user address of the stack (perf's own off-cpu
 * samples' is), misc says user; a stack of kernel frames only gives the
 * first of those. */
static int on_blocked(void *ctx, const struct vp_blocked *b)
{
	struct vp_sched *s = ctx;
	uint64_t rec[8 + 1 + MAX_STACK];
	struct perf_event_header *h = (struct perf_event_header *)rec;
	uint64_t ip = 0;
	unsigned mode = PERF_RECORD_MISC_USER;
	uint32_t n = b->stack ? b->nstack : 0;

	if (!s->o.off_cpu || !s->emit || b->end <= b->start)
		return 0;
	for (uint32_t i = 0, user = 0; i < n && !ip; i++) {
		if (b->stack[i] >= PERF_CONTEXT_MAX)
			user = b->stack[i] == PERF_CONTEXT_USER;
		else if (user)
			ip = b->stack[i];
	}
	for (uint32_t i = 0; i < n && !ip; i++)
		if (b->stack[i] < PERF_CONTEXT_MAX) {
			ip = b->stack[i];
			mode = PERF_RECORD_MISC_KERNEL;
		}
	rec[1] = s->offcpu_id;
	rec[2] = ip;
	rec[3] = (uint64_t)b->tid << 32 | b->pid;
	rec[4] = b->end > s->floor ? b->end : s->floor;
	rec[5] = s->offcpu_id;
	rec[6] = b->cpu;
	rec[7] = b->end - b->start;
	rec[8] = n;
	if (n)
		memcpy(rec + 9, b->stack, n * 8);
	*h = (struct perf_event_header){ PERF_RECORD_SAMPLE, (uint16_t)mode,
					 (uint16_t)(8 * (9 + n)) };
	s->emitted++;
	return s->emit(s->ectx, rec, 8 * (9 + n));
}

static int by_time(const void *a, const void *b)
{
	const struct vp_sev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int vp_sched_pass(struct vp_sched *s, uint64_t upto, uint64_t floor, vp_sched_emit emit,
		  void *ctx, size_t *emitted)
{
	size_t i, k;
	int any = 0, r = 0;

	for (size_t c = 0; c < s->o.ncpus && r == 0; c++)
		if (s->rings[c].base)
			r = vp_ring_drain(&s->rings[c], s->copy, on_record, s, &any);
	s->emit = emit;
	s->ectx = ctx;
	s->floor = floor;
	s->emitted = 0;
	if (s->nq)	/* q is NULL until the first event: qsort must not see it */
		qsort(s->q, s->nq, sizeof(*s->q), by_time);
	for (i = 0; i < s->nq && s->q[i].time < upto && r == 0; i++)
		r = vp_schedacct_event(s->acct, &s->q[i], on_blocked, s);
	for (k = i; k < s->nq && r != 0; k++)	/* not handed over: still ours */
		free(s->q[k].stack);
	if (r != 0)
		i = s->nq;
	if (i < s->nq)
		memmove(s->q, s->q + i, (s->nq - i) * sizeof(*s->q));
	s->nq -= i;
	if (emitted)
		*emitted = s->emitted;
	return r;
}

int vp_sched_end(struct vp_sched *s, uint64_t end, vp_sched_emit emit, void *ctx)
{
	int r;

	if ((r = vp_sched_pass(s, UINT64_MAX, end, emit, ctx, NULL)) < 0)
		return r;
	s->emit = emit;
	s->ectx = ctx;
	s->floor = end;
	return vp_schedacct_end(s->acct, end, on_blocked, s);
}

double vp_sched_steal(const struct vp_sched *s, const double *steal0, const double *steal1,
		      size_t ncpus, double wall)
{
	double sum = 0;

	if (wall <= 0)
		return -1;
	for (size_t c = 0; c < ncpus; c++) {
		double d = steal1[c] - steal0[c];
		double share = (double)vp_schedacct_ran_on(s->acct, (uint32_t)c) / 1e9 / wall;
		if (d > 0)
			sum += d * (share < 1 ? share : 1);
	}
	return sum;
}

void vp_sched_totals(const struct vp_sched *s, struct vp_sched_totals *t)
{
	struct vp_schedacct_totals a;

	vp_schedacct_totals(s->acct, &a);
	*t = (struct vp_sched_totals){ (double)a.wait_ns / 1e9, (double)a.blocked_ns / 1e9,
				       (double)a.waiting_wall_ns / 1e9, (double)a.blocked_wall_ns / 1e9,
				       s->wakeups, a.switches_out, a.blocked_intervals, a.wakeups,
				       s->lost };
}
