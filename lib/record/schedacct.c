/* Scheduling events into blocked and waiting time (see schedacct.h). Each
 * thread is in one state: running, runnable since a time (preempted or
 * woken), blocked since a time (with the stack it blocked at), new (forked,
 * not yet woken) or gone (exited). Counting the threads in each state gives
 * the command's own state between two events: running while any thread
 * runs, else waiting while any is runnable, else blocked. */
#include "schedacct.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/u64map.h"

enum state { RUNNING = 0, RUNNABLE, BLOCKED, NEW, GONE, NSTATES };

struct thread {
	enum state state;
	uint32_t pid, cpu;
	uint64_t since;
	uint64_t *stack, *pending;	/* the blocked interval's stack; the last sched_switch's */
	uint32_t nstack, npending;
	uint32_t next;			/* the last sched_switch's next thread */
};

struct vp_schedacct {
	struct vp_u64map threads;	/* tid -> struct thread */
	struct vp_schedacct_totals t;
	size_t count[NSTATES];		/* threads in each state */
	uint64_t last;			/* time of the previous event, 0 before the first */
	struct cpu *cpus;		/* per CPU the threads ran on */
	size_t ncpus;
};

struct cpu {
	uint64_t ran;			/* nanoseconds the threads ran there */
	/* A thread switched out there to another of ours (sched_switch's
	 * next_pid), and nothing of ours happened there since: when that one
	 * switches in there, the time between was the switch itself, on the CPU
	 * (in some thread's CPU time), not waiting. */
	uint32_t switching;		/* the thread switched to, 0: none */
	uint64_t out, waiting_at_out;
};

/* CPU c's entry, made on first use; NULL when out of memory (the per-CPU
 * figures are refinements: lose them rather than the recording). */
static struct cpu *cpu_of(struct vp_schedacct *a, uint32_t c)
{
	if (c >= a->ncpus) {
		size_t n = (size_t)c + 1;
		struct cpu *v = c < 65536 ? realloc(a->cpus, n * sizeof(*v)) : NULL;
		if (!v)
			return NULL;
		memset(v + a->ncpus, 0, (n - a->ncpus) * sizeof(*v));
		a->cpus = v;
		a->ncpus = n;
	}
	return &a->cpus[c];
}

/* th ran on its CPU from th->since to t. */
static void ran(struct vp_schedacct *a, struct thread *th, uint64_t t)
{
	struct cpu *c;

	if (th->state == RUNNING && th->since && t > th->since && (c = cpu_of(a, th->cpu)))
		c->ran += t - th->since;
}

/* An event of ours on a CPU: the switch in of the thread a switch out there
 * went to gives the switch's time back to running. next: a switch out's. */
static void on_cpu(struct vp_schedacct *a, const struct vp_sev *e, uint32_t next)
{
	struct cpu *c = cpu_of(a, e->cpu);

	if (!c)
		return;
	if (e->kind == VP_SEV_IN && c->switching == e->tid && e->time >= c->out) {
		uint64_t moved = a->t.waiting_wall_ns - c->waiting_at_out;
		if (moved > e->time - c->out)
			moved = e->time - c->out;
		a->t.waiting_wall_ns -= moved;
		a->t.running_wall_ns += moved;
	}
	c->switching = e->kind == VP_SEV_OUT ? next : 0;
	c->out = e->time;
	c->waiting_at_out = a->t.waiting_wall_ns;
}

uint64_t vp_schedacct_ran_on(const struct vp_schedacct *a, uint32_t cpu)
{
	return cpu < a->ncpus ? a->cpus[cpu].ran : 0;
}

static void set_state(struct vp_schedacct *a, struct thread *th, enum state st)
{
	a->count[th->state]--;
	a->count[st]++;
	th->state = st;
}

/* The command's state from the previous event up to t, added up. */
static void advance(struct vp_schedacct *a, uint64_t t)
{
	uint64_t dt = a->last && t > a->last ? t - a->last : 0;

	if (a->count[RUNNING])
		a->t.running_wall_ns += dt;
	else if (a->count[RUNNABLE])
		a->t.waiting_wall_ns += dt;
	else if (a->count[BLOCKED] + a->count[NEW])
		a->t.blocked_wall_ns += dt;
	if (t > a->last)
		a->last = t;
}

struct vp_schedacct *vp_schedacct_new(void)
{
	return calloc(1, sizeof(struct vp_schedacct));
}

void vp_schedacct_free(struct vp_schedacct *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->threads.cap; i++) {
		struct thread *th = a->threads.vals[i];
		if (th) {
			free(th->stack);
			free(th->pending);
			free(th);
		}
	}
	vp_u64map_free(&a->threads);
	free(a->cpus);
	free(a);
}

static struct thread *add(struct vp_schedacct *a, uint32_t tid, uint32_t pid)
{
	struct thread *th = calloc(1, sizeof(*th));

	if (!th || vp_u64map_put(&a->threads, tid, th) < 0) {
		free(th);
		return NULL;
	}
	th->pid = pid;
	th->state = GONE;
	a->count[GONE]++;
	return th;
}

static void drop_stacks(struct thread *th)
{
	free(th->stack);
	free(th->pending);
	th->stack = th->pending = NULL;
	th->nstack = th->npending = 0;
}

/* The blocked interval of th ends at t. */
static int unblock(struct vp_schedacct *a, uint32_t tid, struct thread *th, uint64_t t,
		   vp_blocked_fn fn, void *ctx)
{
	struct vp_blocked b = { th->pid, tid, th->cpu, th->since, t > th->since ? t : th->since,
				th->stack, th->nstack };
	int r = 0;

	a->t.blocked_ns += b.end - b.start;
	a->t.blocked_intervals++;
	if (fn)
		r = fn(ctx, &b);
	free(th->stack);
	th->stack = NULL;
	th->nstack = 0;
	return r;
}

int vp_schedacct_event(struct vp_schedacct *a, struct vp_sev *e, vp_blocked_fn fn, void *ctx)
{
	struct thread *th = vp_u64map_get(&a->threads, e->tid);
	int r = 0;

	if (e->kind != VP_SEV_WAKE || th) {
		advance(a, e->time);
		if (e->kind != VP_SEV_WAKE)	/* a wakeup's CPU is the waker's */
			on_cpu(a, e, th && e->kind == VP_SEV_OUT ? th->next : 0);
	}
	if (e->kind == VP_SEV_FORK) {
		if (!th && !(th = add(a, e->tid, e->pid)))
			return -ENOMEM;
		drop_stacks(th);
		set_state(a, th, NEW);	/* runnable once woken (sched_wakeup_new) */
		th->pid = e->pid;
		return 0;
	}
	if (e->kind == VP_SEV_WAKE) {	/* every thread's: only those followed count */
		if (!th)
			return 0;
		if (th->state == BLOCKED || th->state == NEW) {
			a->t.wakeups++;
			if (th->state == BLOCKED)
				r = unblock(a, e->tid, th, e->time, fn, ctx);
			set_state(a, th, RUNNABLE);
			th->since = e->time;
		}
		return r;
	}
	if (!th) {	/* first seen running: the command's first thread, -p's */
		if (e->kind == VP_SEV_EXIT) {
			free(e->stack);
			return 0;
		}
		if (!(th = add(a, e->tid, e->pid))) {
			free(e->stack);
			return -ENOMEM;
		}
		set_state(a, th, RUNNING);
		th->since = e->time;	/* running since before, as far as is known */
		th->cpu = e->cpu;
	}
	if (th->state == GONE) {	/* its last switch out, after the exit */
		free(e->stack);
		return 0;
	}
	switch (e->kind) {
	case VP_SEV_EXIT:
		ran(a, th, e->time);
		drop_stacks(th);
		set_state(a, th, GONE);
		break;
	case VP_SEV_STACK:
		free(th->pending);
		th->pending = e->stack;
		th->npending = e->nstack;
		th->next = e->next;
		e->stack = NULL;
		break;
	case VP_SEV_OUT:
		a->t.switches_out++;
		ran(a, th, e->time);
		th->since = e->time;
		th->cpu = e->cpu;
		if (e->preempt) {
			set_state(a, th, RUNNABLE);
		} else {
			set_state(a, th, BLOCKED);
			free(th->stack);
			th->stack = th->pending;
			th->nstack = th->npending;
		}
		if (th->pending != th->stack)
			free(th->pending);
		th->pending = NULL;
		th->npending = 0;
		th->next = 0;
		break;
	case VP_SEV_IN:
		if (th->state == RUNNABLE && e->time > th->since)
			a->t.wait_ns += e->time - th->since;
		else if (th->state == BLOCKED)	/* no wakeup seen: blocked until now */
			r = unblock(a, e->tid, th, e->time, fn, ctx);
		set_state(a, th, RUNNING);
		th->since = e->time;
		th->cpu = e->cpu;
		break;
	}
	return r;
}

int vp_schedacct_end(struct vp_schedacct *a, uint64_t end, vp_blocked_fn fn, void *ctx)
{
	int r = 0;

	advance(a, end);
	for (size_t i = 0; i < a->threads.cap && r >= 0; i++) {
		struct thread *th = a->threads.vals[i];
		if (!th || th->state == GONE)
			continue;
		if (th->state == BLOCKED)
			r = unblock(a, (uint32_t)a->threads.keys[i], th, end, fn, ctx);
		else if (th->state == RUNNABLE && end > th->since)
			a->t.wait_ns += end - th->since;
		ran(a, th, end);
		set_state(a, th, GONE);
	}
	return r;
}

void vp_schedacct_totals(const struct vp_schedacct *a, struct vp_schedacct_totals *t)
{
	*t = a->t;
}
